/// Route indices by route name, for ``Router/route(named:)`` and reverse routing.
///
/// A ``ProbingTable`` of 32-bit slots holding `index + 1`, keyed by FNV-1a of the name's UTF-8:
/// about 8 bytes a route where `[String: Int]` kept a 16-byte string, an 8-byte value and its hash
/// metadata, and no `Hasher` run per route when a router is built. Names are compared through
/// `name(at:)`, so the index stores no strings.
struct RouteNameIndex: Sendable {
    private var table: ProbingTable<UInt32>

    /// An empty index with room for `count` names.
    init(capacity count: Int) {
        table = ProbingTable(capacityFor: count)
    }

    /// The index of the route named `name`, if any.
    func find(_ name: String, name nameAt: (Int) -> String) -> Int? {
        let (slot, found) = probe(name, nameAt)
        return found ? Int(table[slot]) - 1 : nil
    }

    /// Records that route `index` is named `name`; returns the earlier route's index instead when
    /// the name is taken (the index is then unchanged).
    mutating func insert(_ name: String, at index: Int, name nameAt: (Int) -> String) -> Int? {
        let (slot, found) = probe(name, nameAt)
        if found { return Int(table[slot]) - 1 }
        table.insert(UInt32(truncatingIfNeeded: index + 1), at: slot) { Self.key(nameAt(Int($0) - 1)) }
        return nil
    }

    private func probe(_ name: String, _ nameAt: (Int) -> String) -> (slot: Int, found: Bool) {
        table.find(Self.key(name)) { nameAt(Int($0) - 1) == name }
    }

    private static func key(_ name: String) -> UInt64 {
        var hash = FNV1a()
        for byte in name.utf8 { hash.add(byte) }
        return hash.tableKey
    }
}
