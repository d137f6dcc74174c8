/// The byte ranges a match captured, one per parameter, `*` or `**` of the expansion that matched.
///
/// Up to four ranges are kept inline as 32-bit bounds, so a typical match allocates nothing; more
/// ranges, or bounds past 4 GiB, spill into an array.
@usableFromInline
struct CapturedRanges: Sendable {
    /// Each word holds a range: lower bound in the low 32 bits, upper bound in the high 32 bits.
    @usableFromInline var inline: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    @usableFromInline var spilled: [Range<Int>]?
    @usableFromInline let count: Int

    @usableFromInline static let inlineCapacity = 4

    @inlinable
    init(_ ranges: UnsafeMutableBufferPointer<Range<Int>>) {
        count = ranges.count
        let fitsInline =
            ranges.count <= Self.inlineCapacity
            && ranges.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= Int(UInt32.max) }
        guard fitsInline else {
            spilled = Array(ranges)
            return
        }
        spilled = nil
        withUnsafeMutableBytes(of: &inline) { words in
            for (index, range) in ranges.enumerated() {
                let word =
                    UInt64(truncatingIfNeeded: range.lowerBound) | UInt64(truncatingIfNeeded: range.upperBound) << 32
                words.storeBytes(of: word, toByteOffset: index * 8, as: UInt64.self)
            }
        }
    }

    /// The range at `index`; an empty range at 0 for an index past the end (the walk records one
    /// range per non-literal segment, so a route's segments never ask for more).
    @inlinable
    subscript(index: Int) -> Range<Int> {
        guard index >= 0, index < count else { return 0..<0 }
        if let spilled { return spilled[index] }
        let word = withUnsafeBytes(of: inline) { $0.load(fromByteOffset: index * 8, as: UInt64.self) }
        return Int(truncatingIfNeeded: word & 0xFFFF_FFFF)..<Int(truncatingIfNeeded: word >> 32)
    }
}
