/// The grid of a QR code as it is built: the function patterns every reader looks for first, then
/// the codewords, a mask and the format information. Columns are `x`, rows `y`, from the top left.
struct QRMatrix: Sendable {
    let version: QRVersion
    let size: Int
    /// Row by row, `true` for dark.
    private(set) var dark: [Bool]
    /// Modules of the function patterns and the format and version information: no data goes
    /// there, and no mask changes them.
    private var reserved: [Bool]

    init(version: QRVersion) {
        self.version = version
        size = version.size
        dark = Array(repeating: false, count: size * size)
        reserved = Array(repeating: false, count: size * size)
        drawFunctionPatterns()
    }

    subscript(x: Int, y: Int) -> Bool { dark[y * size + x] }

    private mutating func setFunction(_ x: Int, _ y: Int, _ isDark: Bool) {
        dark[y * size + x] = isDark
        reserved[y * size + x] = true
    }

    private mutating func drawFunctionPatterns() {
        // Timing patterns: alternating modules along row 6 and column 6.
        for index in 0..<size {
            setFunction(6, index, index % 2 == 0)
            setFunction(index, 6, index % 2 == 0)
        }
        // Finder patterns in three corners, with their light separators.
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let ring = max(abs(dx), abs(dy))
                    setFunction(x + dx, y + dy, ring != 2 && ring != 4)
                }
            }
        }
        // Alignment patterns wherever two positions cross, except over a finder pattern.
        let positions = version.alignmentPositions
        let last = positions.count - 1
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { setFunction(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        // Reserve the format areas now (drawn once the mask is chosen), and draw the version.
        drawFormat(mask: 0)
        drawVersion()
    }

    /// The 15 format bits (level M, the mask, a BCH code, and the standard's XOR pattern) in their
    /// two copies, and the dark module beside the bottom-left finder.
    mutating func drawFormat(mask: Int) {
        let data = (0b00 << 3) | mask  // level M is 00
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = ((data << 10) | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { setFunction(8, index, bit(index)) }
        setFunction(8, 7, bit(6))
        setFunction(8, 8, bit(7))
        setFunction(7, 8, bit(8))
        for index in 9..<15 { setFunction(14 - index, 8, bit(index)) }
        for index in 0..<8 { setFunction(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { setFunction(8, size - 15 + index, bit(index)) }
        setFunction(8, size - 8, true)
    }

    /// Versions 7 and up carry their number, with a BCH code, in two 6×3 blocks.
    private mutating func drawVersion() {
        guard version.number >= 7 else { return }
        var remainder = version.number
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = (version.number << 12) | remainder
        for index in 0..<18 {
            let isDark = (bits >> index) & 1 == 1
            let a = size - 11 + index % 3
            let b = index / 3
            setFunction(a, b, isDark)
            setFunction(b, a, isDark)
        }
    }

    /// Fills the free modules with the codewords' bits, in the standard's zigzag: two columns at a
    /// time from the right, upwards then downwards, stepping over the vertical timing pattern.
    mutating func place(_ codewords: [UInt8]) {
        let bitCount = codewords.count * 8
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !reserved[y * size + x] && index < bitCount {
                    dark[y * size + x] = (codewords[index >> 3] >> UInt8(7 - (index & 7))) & 1 == 1
                    index += 1
                }
            }
            right -= 2
        }
    }

    /// Inverts each data module the mask's condition selects.
    mutating func apply(mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !reserved[y * size + x] && Self.masks(mask, x, y) {
                dark[y * size + x].toggle()
            }
        }
    }

    /// The standard's eight mask conditions.
    static func masks(_ mask: Int, _ x: Int, _ y: Int) -> Bool {
        switch mask {
        case 0: (x + y) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (x + y) % 3 == 0
        case 4: (x / 3 + y / 2) % 2 == 0
        case 5: x * y % 2 + x * y % 3 == 0
        case 6: (x * y % 2 + x * y % 3) % 2 == 0
        default: ((x + y) % 2 + x * y % 3) % 2 == 0
        }
    }
}
