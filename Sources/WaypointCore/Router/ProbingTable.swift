/// A slot of a ``ProbingTable``: a value, or the empty marker the probe stops at.
@usableFromInline
protocol ProbingSlot: Sendable {
    /// The empty slot.
    static var empty: Self { get }
    /// Whether this slot holds nothing; a probe that reaches it has not found its key.
    var isEmpty: Bool { get }
}

/// The package's one open-addressing table: a power-of-two array of slots at most half full,
/// linear probing from the key's top bits. The router's literal-edge table, the builder's two edge
/// tables and the route-name index are all this type; each supplies its own slot and key.
///
/// Keys are 64-bit hashes the caller computes (``FNV1a/tableKey`` or a multiply); the table takes a
/// probe's first slot from the top bits (multiply-shift hashing: the low bits of a product do not
/// depend on the high bits of its input), so a key must carry every input bit into its top bits. Slots hold the full key or a way to reach it, so a probe compares
/// whole keys and a collision costs a step, never a wrong answer. At most half full, a probe always
/// reaches an empty slot, so every loop over it ends.
///
/// ```swift
/// var table = ProbingTable<UInt32>(capacityFor: 3)  // 8 slots
/// let (slot, found) = table.find(key) { $0 == 7 }    // (the empty slot for key, false)
/// table.insert(7, at: slot) { keyOf($0) }            // rehashes by each slot's key when it grows
/// ```
@usableFromInline
struct ProbingTable<Slot: ProbingSlot>: Sendable {
    @usableFromInline private(set) var slots: [Slot]
    /// `slots.count - 1`: the step from one slot to the next wraps with it.
    @usableFromInline private(set) var mask: Int
    /// `64 - log2(slots.count)`: see ``firstSlot(_:)``.
    @usableFromInline private(set) var shift: UInt64
    /// The slots that are not empty.
    private(set) var count = 0

    /// An empty table with room for `count` slots at most half full, and at least 8.
    init(capacityFor count: Int) {
        var capacity = 8
        while capacity < count * 2 { capacity <<= 1 }
        self.init(slots: [Slot](repeating: .empty, count: capacity))
    }

    /// A table over `slots` as they are, whose count is a power of two; for tests that plant a fault.
    init(slots: [Slot]) {
        self.slots = slots
        self.mask = slots.count - 1
        self.shift = UInt64(64 - slots.count.trailingZeroBitCount)
        self.count = slots.reduce(0) { $0 + ($1.isEmpty ? 0 : 1) }
    }

    /// Where the probe for `key` starts.
    @inlinable
    func firstSlot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: key >> shift) }

    /// The slot a probe visits after `slot`.
    @inlinable
    func slot(after slot: Int) -> Int { (slot + 1) & mask }

    @inlinable
    subscript(slot: Int) -> Slot { slots[slot] }

    /// The first slot on `key`'s probe that `matches`, or the empty slot that ends the probe
    /// (where an entry for the key would go).
    @inlinable
    func find(_ key: UInt64, where matches: (Slot) -> Bool) -> (slot: Int, found: Bool) {
        var slot = firstSlot(key)
        while !slots[slot].isEmpty {
            if matches(slots[slot]) { return (slot, true) }
            slot = self.slot(after: slot)
        }
        return (slot, false)
    }

    /// Whether `key`'s probe reaches `target` before an empty slot: that a lookup can find it.
    func reaches(_ target: Int, from key: UInt64) -> Bool {
        var slot = firstSlot(key)
        while slot != target, !slots[slot].isEmpty { slot = self.slot(after: slot) }
        return slot == target
    }

    /// Fills the empty slot `slot` that ``find(_:where:)`` returned; once over half full, the table
    /// doubles, placing each entry again by `key`.
    mutating func insert(_ entry: Slot, at slot: Int, rehashing key: (Slot) -> UInt64) {
        slots[slot] = entry
        count += 1
        guard count * 2 > slots.count else { return }
        var grown = ProbingTable(slots: [Slot](repeating: .empty, count: slots.count * 2))
        for entry in slots where !entry.isEmpty { grown.append(entry, key: key(entry)) }
        self = grown
    }

    /// Puts `entry` in the first empty slot of `key`'s probe, after any equal keys already there:
    /// entries with equal keys are found in the order they went in. The caller sized the table.
    mutating func append(_ entry: Slot, key: UInt64) {
        var slot = firstSlot(key)
        while !slots[slot].isEmpty { slot = self.slot(after: slot) }
        slots[slot] = entry
        count += 1
    }
}

extension UInt32: ProbingSlot {
    /// 0: tables of `UInt32` hold an index plus one.
    @usableFromInline static var empty: UInt32 { 0 }
    @usableFromInline var isEmpty: Bool { self == 0 }
}
