/// The one layout of a short segment or literal packed into a word, so one integer comparison
/// tells whether they are equal: up to ``capacity`` bytes little-endian in bits 0–55, the length in
/// bits 56–59. ``SegmentMatching`` packs segments this way and ``RouteTrie/LiteralSlot`` stores
/// literals this way, with its own flags in bits 62 and 63 (``mask`` keeps them out of a comparison).
///
/// ```swift
/// PackedLiteral.pack(0x7372_6573_75, count: 5)  // "users": bytes, then 5 << 56
/// ```
@usableFromInline
enum PackedLiteral {
    /// The most bytes a word holds beside its length.
    @usableFromInline static let capacity = 7
    /// Where the length starts.
    @usableFromInline static let lengthShift: UInt64 = 56
    /// The bytes and the length: bits 0–59.
    @usableFromInline static let mask: UInt64 = 1 << 60 - 1

    /// `bytes` (at most ``capacity`` of them, little-endian) with their `count`.
    @inlinable
    static func pack(_ bytes: UInt64, count: Int) -> UInt64 { bytes | UInt64(count) << lengthShift }

    /// A word's length.
    @inlinable
    static func count(of word: UInt64) -> Int { Int(truncatingIfNeeded: (word & mask) >> lengthShift) }
}
