/// One of the 40 sizes of a QR code, with what the standard (ISO/IEC 18004) fixes for it at error
/// correction level M: how many modules carry data, how the codewords split into blocks, and where
/// the alignment patterns go. Level M restores up to about 15% of a damaged code, the usual choice
/// for print.
///
/// ```swift
/// QRVersion(1).size                  // 21 modules a side
/// QRVersion(1).dataCodewords         // 16
/// QRVersion(7).alignmentPositions    // [6, 22, 38]
/// ```
struct QRVersion: Sendable, Hashable {
    let number: Int

    init(_ number: Int) { self.number = number }

    static let all = (1...40).map(QRVersion.init)

    /// Modules a side.
    var size: Int { number * 4 + 17 }

    /// Error correction codewords in each block, at level M (the standard's table, by version).
    private static let eccPerBlock = [
        10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
        26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
    ]
    /// Blocks the codewords are split into, at level M.
    private static let blockCounts = [
        1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
        17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
    ]

    var eccCodewordsPerBlock: Int { Self.eccPerBlock[number - 1] }
    var blocks: Int { Self.blockCounts[number - 1] }

    /// Modules left for codewords once the finder, timing and alignment patterns, the format and
    /// version information and the dark module are placed; a few remainder bits stay unused.
    var rawDataModules: Int {
        var modules = (16 * number + 128) * number + 64
        if number >= 2 {
            let alignments = number / 7 + 2
            modules -= (25 * alignments - 10) * alignments - 55
            if number >= 7 { modules -= 36 }
        }
        return modules
    }

    var totalCodewords: Int { rawDataModules / 8 }
    var dataCodewords: Int { totalCodewords - eccCodewordsPerBlock * blocks }

    /// Bits of the byte mode's character count: 8 up to version 9, 16 after.
    var byteCountBits: Int { number <= 9 ? 8 : 16 }

    /// Bytes the version holds in byte mode: 14 for version 1, 2,331 for version 40.
    var byteCapacity: Int { (dataCodewords * 8 - 4 - byteCountBits) / 8 }

    /// Row and column centres of the alignment patterns (each pairing, less the three that would
    /// overlap a finder pattern, has one). Spaced evenly back from the far edge, with version 32's
    /// spacing the one exception the standard makes.
    var alignmentPositions: [Int] {
        guard number > 1 else { return [] }
        let count = number / 7 + 2
        let step = number == 32 ? 26 : (number * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        return [6] + (0..<(count - 1)).map { size - 7 - $0 * step }.reversed()
    }
}
