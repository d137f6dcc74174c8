import Testing

@testable import Waypoint
@testable import WaypointCore

/// The frozen trie's invariants, stated once in `RouteTrie.invariantViolations()`, hold for a real
/// table and catch each kind of violation planted in a copy.
@Suite("The route trie checks what its walk assumes")
struct TrieInvariantTests {
    static func trie() throws -> RouteTrie {
        var builder = RouterBuilder<Int>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("a", "/users/{id:int}", value: 1)
        try builder.add("b", "/users/{name}/posts/*", value: 2)
        try builder.add("c", "/users/new", value: 3)
        try builder.add("d", "/a-very-long-literal/**", value: 4)
        try builder.add("e", "https://example.com/x/{flag:bool}", value: 5)
        return try builder.build().trie
    }

    @Test("A built table holds every invariant")
    func builtTable() throws {
        #expect(try Self.trie().invariantViolations() == [])
    }

    @Test("Each planted violation is caught, with a message naming it")
    func plantedViolations() throws {
        let trie = try Self.trie()
        func caught(_ planted: RouteTrie, _ expected: String) {
            let problems = planted.invariantViolations()
            #expect(problems.contains { $0.contains(expected) }, "expected '\(expected)' in \(problems)")
        }
        // Parameter children numbered other than the walk assumes.
        let parent = try #require(trie.nodes.firstIndex { $0.parameterKinds != 0 })
        var renumbered = trie.nodes
        renumbered[parent].firstParameterChild += 1
        caught(RouteTrie(copying: trie, nodes: renumbered), "is nobody's child")
        // A node that says it has literal edges the table does not hold.
        let leaf = try #require(trie.nodes.indices.last { !trie.nodes[$0].hasLiterals })
        var lying = trie.nodes
        lying[leaf].hasLiterals = true
        caught(RouteTrie(copying: trie, nodes: lying), "says it has literal edges but the table holds none")
        // A literal slot whose payload does not decode.
        let occupied = try #require(trie.literalTable.slots.firstIndex { $0.child != 0 && !$0.isLong })
        var slots = trie.literalTable.slots
        slots[occupied].payload |= 1 << 60
        caught(RouteTrie(copying: trie, literalSlots: slots), "does not decode")
        // A slot moved where its lookup cannot reach it.
        var moved = trie.literalTable.slots
        let empty = try #require(
            moved.indices.first { moved[$0].child == 0 && moved[($0 + moved.count - 1) % moved.count].child == 0 }
        )
        moved.swapAt(occupied, empty)
        caught(RouteTrie(copying: trie, literalSlots: moved), "is not found from node")
        // Terminal ranges that leave a terminal uncovered.
        caught(RouteTrie(copying: trie, terminals: trie.terminals + trie.terminals.prefix(1)), "terminals")
    }
}
