/// FNV-1a, 64-bit: the package's one byte-string hash, for the router's literal table and its name
/// index, and the digest of a payload in a notification's delivery identity. Not a `Hasher` (seeded
/// per process, and costing more than these keys need), and not for anything an attacker could aim
/// collisions at without a bound: every table that uses it probes linearly and compares the full
/// key, and a delivery identity also carries the request identifier and action a digest stands
/// beside. Its values are stored (a pending link keeps its identity across launches), so the basis
/// and prime never change.
///
/// ```swift
/// var hash = FNV1a()
/// for byte in "users".utf8 { hash.add(byte) }
/// hash.value  // the same on every run and platform
/// ```
@usableFromInline
package struct FNV1a {
    @usableFromInline static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    @usableFromInline static let prime: UInt64 = 0x0000_0100_0000_01B3

    @usableFromInline package var value: UInt64

    /// A hash started from the offset basis, optionally mixed with a seed (a parent node's index).
    @inlinable
    package init(seed: UInt64 = 0) { value = Self.offsetBasis ^ seed }

    @inlinable
    package mutating func add(_ byte: UInt8) { value = (value ^ UInt64(byte)) &* Self.prime }

    /// The hash as a ``ProbingTable`` key. The table starts a probe from the top bits, but FNV-1a
    /// leaves the last bytes' differences in the low and middle bits (`r1` and `r2` differ only
    /// in bits 0–16 and 40–48), so names like those crowd a few slots; one shift and multiply
    /// spreads every bit into the top ones.
    @inlinable
    var tableKey: UInt64 { (value ^ value >> 32) &* 0xD6E8_FEB8_6659_FD93 }
}
