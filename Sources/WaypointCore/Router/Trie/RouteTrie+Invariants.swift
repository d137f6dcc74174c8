extension RouteTrie {
    /// A copy with some arrays replaced: how a test plants a violation the check must catch.
    convenience init(
        copying trie: RouteTrie,
        nodes: [Node]? = nil,
        literalSlots: [LiteralSlot]? = nil,
        terminals: [Terminal]? = nil
    ) {
        self.init(
            frozenNodes: nodes ?? trie.nodes,
            literalTable: literalSlots.map(ProbingTable.init(slots:)) ?? trie.literalTable,
            longLiterals: trie.longLiterals,
            longBytes: trie.longBytes,
            terminals: terminals ?? trie.terminals,
            origins: trie.origins,
            caseSensitive: trie.caseSensitive,
            longestLiteral: trie.longestLiteral
        )
    }

    /// What the walk assumes of the frozen arrays, checked; empty when every assumption holds.
    ///
    /// - Nodes are numbered breadth-first: a child's number is greater than its parent's, and every
    ///   node but the root is the child of exactly one edge, so every node is reachable.
    /// - A node's parameter children are numbered consecutively from `firstParameterChild`, one per
    ///   bit of `parameterKinds`, in precedence order (``ParameterEdges`` counts on it).
    /// - Every occupied literal slot decodes: an inline literal of 1 to ``PackedLiteral/capacity``
    ///   bytes with nothing past its length, or a long one whose bytes are in `longBytes`; its flag
    ///   agrees with its child's `hasLiterals`; its parent says it has literals; and a lookup of its
    ///   literal from its parent reaches it without crossing an empty slot.
    /// - Terminal ranges lie in `terminals`, cover it exactly once, and name an origin that exists.
    ///
    /// Run after every build in debug builds (``RouterBuilder/build()``) and by the oracle test.
    func invariantViolations() -> [String] {
        var problems: [String] = []
        var claimed = [Bool](repeating: false, count: nodes.count)
        func claim(_ child: Int, by parent: Int, _ edge: String) {
            guard child > parent, child < nodes.count else {
                problems.append("node \(parent)'s \(edge) leads to node \(child), not a later node of the trie")
                return
            }
            if claimed[child] { problems.append("node \(child) is the child of more than one edge") }
            claimed[child] = true
        }

        var coveredTerminals = 0
        for (index, node) in nodes.enumerated() {
            var expected = Int(node.firstParameterChild)
            for edge in node.parameterEdges {
                if edge.child != expected {
                    problems.append("node \(index)'s \(edge.kind) child is \(edge.child), not \(expected) as numbered")
                }
                expected = edge.child + 1
                claim(edge.child, by: index, "\(edge.kind) edge")
            }
            if node.terminalStart > node.terminalEnd || Int(node.terminalEnd) > terminals.count {
                problems.append(
                    "node \(index)'s terminals \(node.terminalStart)..<\(node.terminalEnd) are out of range"
                )
            } else {
                if Int(node.terminalStart) != coveredTerminals {
                    problems.append("node \(index)'s terminals start at \(node.terminalStart), not \(coveredTerminals)")
                }
                coveredTerminals = Int(node.terminalEnd)
            }
        }
        if coveredTerminals != terminals.count {
            problems.append("the nodes cover \(coveredTerminals) of \(terminals.count) terminals")
        }
        // Origin 0 is "unrestricted"; origin n is `origins[n - 1]`.
        for terminal in terminals where Int(terminal.origin) > origins.count {
            problems.append("a terminal of route \(terminal.route) names origin \(terminal.origin) of \(origins.count)")
        }

        var parentsWithSlots = Set<UInt32>()
        for (slotIndex, slot) in literalTable.slots.enumerated() where !slot.isEmpty {
            let parent = Int(slot.parent)
            guard parent < nodes.count else {
                problems.append("literal slot \(slotIndex) has parent \(parent), not a node")
                continue
            }
            claim(Int(slot.child), by: parent, "literal edge")
            parentsWithSlots.insert(slot.parent)
            if !nodes[parent].hasLiterals { problems.append("node \(parent) has a literal edge but says it has none") }
            if Int(slot.child) < nodes.count, slot.childHasLiterals != nodes[Int(slot.child)].hasLiterals {
                problems.append("literal slot \(slotIndex) disagrees with node \(slot.child) on its literal edges")
            }
            guard let literal = literalBytes(of: slot) else {
                problems.append("literal slot \(slotIndex) does not decode")
                continue
            }
            // The lookup's probe for this literal from this parent must reach the slot.
            let hash = literal.withUnsafeBufferPointer { buffer in
                SegmentMatching.hash(parent: parent, DecodedBytes(buffer, 0..<buffer.count, decoding: false))
            }
            if !literalTable.reaches(slotIndex, from: hash) {
                problems.append("literal slot \(slotIndex) is not found from node \(parent)")
            }
        }
        for (index, node) in nodes.enumerated() where node.hasLiterals && !parentsWithSlots.contains(UInt32(index)) {
            problems.append("node \(index) says it has literal edges but the table holds none")
        }
        for index in nodes.indices.dropFirst() where !claimed[index] {
            problems.append("node \(index) is nobody's child: no link reaches it")
        }
        return problems
    }

    /// A slot's literal as stored; `nil` when its payload does not decode.
    private func literalBytes(of slot: LiteralSlot) -> [UInt8]? {
        if slot.isLong {
            guard slot.longLiteral < longLiterals.count else { return nil }
            let long = longLiterals[slot.longLiteral]
            guard long.start < long.end, Int(long.end) <= longBytes.count,
                long.end - long.start > UInt32(LiteralSlot.inlineCapacity)
            else { return nil }
            return Array(longBytes[Int(long.start)..<Int(long.end)])
        }
        let count = PackedLiteral.count(of: slot.packedLiteral)
        let bytes = slot.packedLiteral & (1 << PackedLiteral.lengthShift - 1)
        // A length the word can hold, nothing past it, and nothing between the length and the flags.
        guard (1...PackedLiteral.capacity).contains(count), bytes >> UInt64(count * 8) == 0,
            slot.payload & ~PackedLiteral.mask & ~LiteralSlot.childHasLiteralsFlag == 0
        else { return nil }
        return (0..<count).map { UInt8(truncatingIfNeeded: bytes >> UInt64($0 * 8)) }
    }
}
