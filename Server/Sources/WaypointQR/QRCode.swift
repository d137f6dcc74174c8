/// A QR code of some bytes (a short link's URL): byte mode, error correction level M, the smallest
/// version that holds them, and the mask the standard's penalty rules prefer. Written for this
/// service, whose mirror of packages has no QR library; ``QRImage`` draws it.
///
/// ```swift
/// let code = try QRCode(encoding: "https://links.example.com/spring")
/// code.version  // 3
/// code.size     // 29 modules a side
/// code[4, 4]    // true: dark (inside the top-left finder pattern)
/// ```
public struct QRCode: Sendable, Hashable {
    /// 1 to 40.
    public let version: Int
    /// Which of the eight masks was applied, 0 to 7.
    public let mask: Int
    /// Modules a side, without the quiet zone.
    public let size: Int
    /// Row by row, `true` for dark.
    let modules: [Bool]

    /// Whether the module at column `x`, row `y` is dark.
    public subscript(x: Int, y: Int) -> Bool { modules[y * size + x] }

    public init(encoding text: String) throws(QRCodeError) {
        try self.init(encoding: Array(text.utf8))
    }

    /// - Throws: ``QRCodeError/tooLong(bytes:capacity:)`` past 2,331 bytes, all version 40 holds at level M.
    public init(encoding bytes: [UInt8]) throws(QRCodeError) {
        guard let version = QRVersion.all.first(where: { $0.byteCapacity >= bytes.count }) else {
            throw .tooLong(bytes: bytes.count, capacity: QRVersion(40).byteCapacity)
        }
        let codewords = Self.codewords(Self.dataCodewords(bytes, version: version), version: version)
        var matrix = QRMatrix(version: version)
        matrix.place(codewords)
        // Each mask in turn, keeping the one with the lowest penalty (the first of equals).
        var best: (mask: Int, matrix: QRMatrix, penalty: Int)?
        for mask in 0..<8 {
            var masked = matrix
            masked.apply(mask: mask)
            masked.drawFormat(mask: mask)
            let penalty = masked.penalty
            if best == nil || penalty < best?.penalty ?? .max { best = (mask, masked, penalty) }
        }
        // `best` is set by the first pass of the loop.
        let chosen = best ?? (0, matrix, 0)
        self.version = version.number
        self.mask = chosen.mask
        self.size = version.size
        self.modules = chosen.matrix.dark
    }

    /// The data codewords: mode, count, the bytes, a terminator and padding to the version's capacity.
    static func dataCodewords(_ bytes: [UInt8], version: QRVersion) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)  // byte mode
        bits.append(bytes.count, count: version.byteCountBits)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacity = version.dataCodewords * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        // Alternating pad codewords 11101100 and 00010001 fill what is left.
        var pad: UInt8 = 0xEC
        while codewords.count < version.dataCodewords {
            codewords.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        return codewords
    }

    /// The data split into the version's blocks, each followed by its error correction, interleaved:
    /// the first codeword of every block, then the second, and so on; the error correction likewise.
    static func codewords(_ data: [UInt8], version: QRVersion) -> [UInt8] {
        let blockCount = version.blocks
        let ecc = version.eccCodewordsPerBlock
        // Blocks differ by at most one data codeword; the longer ones come last.
        let shortLength = version.dataCodewords / blockCount
        let longBlocks = version.dataCodewords % blockCount
        let code = ReedSolomon(degree: ecc)
        var blocks: [[UInt8]] = []
        var start = 0
        for index in 0..<blockCount {
            let length = shortLength + (index >= blockCount - longBlocks ? 1 : 0)
            blocks.append(Array(data[start..<(start + length)]))
            start += length
        }
        var result: [UInt8] = []
        result.reserveCapacity(version.totalCodewords)
        for position in 0...shortLength {
            for block in blocks where position < block.count { result.append(block[position]) }
        }
        let corrections = blocks.map(code.remainder(of:))
        for position in 0..<ecc {
            for correction in corrections { result.append(correction[position]) }
        }
        return result
    }
}

/// Why a QR code could not be made.
public enum QRCodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// More bytes than the largest QR code holds at level M.
    case tooLong(bytes: Int, capacity: Int)

    public var description: String {
        switch self {
        case .tooLong(let bytes, let capacity):
            "The text is \(bytes) bytes; a QR code at error correction level M holds at most \(capacity)."
        }
    }
}

/// Bits appended most significant first.
struct BitBuffer {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func append(_ value: Int, count length: Int) {
        for shift in stride(from: length - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> shift) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }
}
