/// Route indices by route name, for ``Router/route(named:)`` and reverse routing.
///
/// Open addressing over 32-bit slots holding `index + 1` (0 marks an empty slot), at most half
/// full, keyed by FNV-1a of the name's UTF-8: about 8 bytes a route where `[String: Int]` kept
/// a 16-byte string, an 8-byte value and its hash metadata, and no `Hasher` run per route when a
/// router is built. Names are compared through `name(at:)`, so the index stores no strings.
struct RouteNameIndex: Sendable {
    private var slots: [UInt32]

    /// An empty index with room for `count` names.
    init(capacity count: Int) {
        var capacity = 8
        while capacity < count * 2 { capacity <<= 1 }
        slots = [UInt32](repeating: 0, count: capacity)
    }

    /// The index of the route named `name`, if any.
    func find(_ name: String, name nameAt: (Int) -> String) -> Int? {
        probe(name, nameAt).found
    }

    /// Records that route `index` is named `name`; returns the earlier route's index instead when
    /// the name is taken (the index is then unchanged).
    mutating func insert(_ name: String, at index: Int, name nameAt: (Int) -> String) -> Int? {
        let (slot, found) = probe(name, nameAt)
        if let found { return found }
        slots[slot] = UInt32(truncatingIfNeeded: index + 1)
        return nil
    }

    /// Where `name` is, or the empty slot where it would go. The table is never full (at most half
    /// of it holds names), so the loop ends.
    private func probe(_ name: String, _ nameAt: (Int) -> String) -> (slot: Int, found: Int?) {
        var fnv = FNV1a()
        for byte in name.utf8 { fnv.add(byte) }
        let hash = fnv.value
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash ^ hash >> 32) & mask
        while slots[slot] != 0 {
            let index = Int(slots[slot]) - 1
            if nameAt(index) == name { return (slot, index) }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }
}
