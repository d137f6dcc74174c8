extension RouteTrie {
    /// The trie of the build phase, in flat arrays: edges in one list, literals found through one
    /// open-addressing table keyed by parent node and bytes, terminals in one list threaded per
    /// node. ``freeze(priorities:)`` reorders it breadth-first into a ``RouteTrie``.
    ///
    /// A node per object with a dictionary per node made building 10,000 routes mostly allocation,
    /// hashing of arrays and deallocation; here a route's segments cost a hash probe each and the
    /// whole builder is a handful of arrays. A struct, not a class: a class's stored properties
    /// are checked for exclusive access on every use, a tenth of building in profiles.
    struct Builder {
        /// An edge from `parent` to `child`: a literal when `kind` is `nil` (its bytes are
        /// `bytes[bytesStart..<bytesEnd]`, case-folded when the router is case-insensitive).
        struct Edge {
            var parent: UInt32
            var child: UInt32
            var kind: EdgeKind?
            var bytesStart: UInt32
            var bytesEnd: UInt32
        }

        let caseSensitive: Bool
        private var origins: [Origin] = []
        private var originIndex: [Origin: UInt32] = [:]
        private(set) var nodeCount = 1
        private var edges: [Edge] = []
        private var bytes: [UInt8] = []
        /// Literal edges by (parent, bytes): edge index + 1.
        private var literalTable = ProbingTable<UInt32>(capacityFor: 32)
        /// Parameter edges by `parent << 3 | kind`.
        private var parameterTable = ProbingTable<ParameterEdge>(capacityFor: 32)

        /// A parameter edge's slot: its key plus one (0 marks an empty slot) and its child.
        struct ParameterEdge: ProbingSlot {
            var key: UInt64
            var child: UInt32
            static var empty: ParameterEdge { ParameterEdge(key: 0, child: 0) }
            var isEmpty: Bool { key == 0 }
        }
        /// Terminals in registration order, and per node the first and last of its own, threaded
        /// through `nextTerminal` (-1 ends a list).
        private var terminals: [(node: UInt32, terminal: Terminal)] = []
        private var nextTerminal: [Int32] = []
        private var firstTerminal: [Int32] = [-1]
        private var lastTerminal: [Int32] = [-1]

        init(caseSensitive: Bool) {
            self.caseSensitive = caseSensitive
        }

        /// The ``Terminal/origin`` of a route with this restriction: 0 for none, else one more than
        /// its index among the distinct restrictions.
        mutating func origin(_ origin: Origin) -> UInt32 {
            if origin.isUnrestricted { return 0 }
            if let known = originIndex[origin] { return known }
            origins.append(origin)
            let number = UInt32(truncatingIfNeeded: origins.count)
            originIndex[origin] = number
            return number
        }

        /// The node where the shape at `expansion` of `pattern` ends.
        mutating func node(for pattern: RoutePattern, expansion: Int) -> UInt32 {
            var node: UInt32 = 0
            pattern.forEachKey(ofExpansion: expansion) { key in
                switch key {
                case .literal(let literal): node = literalChild(of: node, literal)
                case .parameter(let type): node = parameterChild(of: node, EdgeKind(type))
                case .wildcard: node = parameterChild(of: node, .wildcard)
                case .catchAll: node = parameterChild(of: node, .catchAll)
                }
            }
            return node
        }

        /// Calls `body` with each terminal already ending at `node`, in registration order.
        func forEachTerminal<Failure: Error>(
            at node: UInt32,
            _ body: (Terminal) throws(Failure) -> Void
        ) throws(Failure) {
            var index = firstTerminal[Int(node)]
            while index >= 0 {
                try body(terminals[Int(index)].terminal)
                index = nextTerminal[Int(index)]
            }
        }

        mutating func addTerminal(_ terminal: Terminal, at node: UInt32) {
            let index = Int32(terminals.count)
            terminals.append((node, terminal))
            nextTerminal.append(-1)
            if lastTerminal[Int(node)] >= 0 {
                nextTerminal[Int(lastTerminal[Int(node)])] = index
            } else {
                firstTerminal[Int(node)] = index
            }
            lastTerminal[Int(node)] = index
        }

        private mutating func parameterChild(of parent: UInt32, _ kind: EdgeKind) -> UInt32 {
            let key = (UInt64(parent) << 3 | UInt64(kind.rawValue)) + 1
            let (slot, found) = parameterTable.find(Self.parameterHash(key)) { $0.key == key }
            if found { return parameterTable[slot].child }
            let child = addNode()
            edges.append(Edge(parent: parent, child: child, kind: kind, bytesStart: 0, bytesEnd: 0))
            parameterTable.insert(ParameterEdge(key: key, child: child), at: slot) { Self.parameterHash($0.key) }
            return child
        }

        /// A parameter edge's key mixed with one multiply, whose top bits start the probe.
        private static func parameterHash(_ key: UInt64) -> UInt64 { key &* 0x9E37_79B9_7F4A_7C15 }

        private mutating func addNode() -> UInt32 {
            firstTerminal.append(-1)
            lastTerminal.append(-1)
            nodeCount += 1
            return UInt32(nodeCount - 1)
        }

        private mutating func literalChild(of parent: UInt32, _ literal: UnsafeBufferPointer<UInt8>) -> UInt32 {
            let hash = SegmentMatching.hash(
                parent: Int(parent),
                DecodedBytes(literal, 0..<literal.count, decoding: false)
            )
            let (slot, found) = literalTable.find(hash) { entry in
                let edge = edges[Int(entry - 1)]
                return edge.parent == parent && stored(edge, equals: literal)
            }
            if found { return edges[Int(literalTable[slot] - 1)].child }
            let child = addNode()
            let start = UInt32(bytes.count)
            bytes.append(contentsOf: literal)
            if !caseSensitive {
                for index in Int(start)..<bytes.count { bytes[index] = asciiLowercased(bytes[index]) }
            }
            edges.append(
                Edge(parent: parent, child: child, kind: nil, bytesStart: start, bytesEnd: UInt32(bytes.count))
            )
            // Copies (no bytes are copied) read while the table is changed.
            let (allEdges, allBytes) = (edges, bytes)
            literalTable.insert(UInt32(edges.count), at: slot) { Self.literalKey(allEdges[Int($0 - 1)], allBytes) }
            return child
        }

        /// A stored literal edge's key in ``literalTable``.
        private static func literalKey(_ edge: Edge, _ bytes: [UInt8]) -> UInt64 {
            bytes.withUnsafeBufferPointer { storage in
                let range = Int(edge.bytesStart)..<Int(edge.bytesEnd)
                return SegmentMatching.hash(parent: Int(edge.parent), DecodedBytes(storage, range, decoding: false))
            }
        }

        private func stored(_ edge: Edge, equals literal: UnsafeBufferPointer<UInt8>) -> Bool {
            guard Int(edge.bytesEnd - edge.bytesStart) == literal.count else { return false }
            let start = Int(edge.bytesStart)
            return bytes.withUnsafeBufferPointer { storage in
                for offset in 0..<literal.count {
                    let byte = literal[offset]
                    if (caseSensitive ? byte : asciiLowercased(byte)) != storage[start + offset] { return false }
                }
                return true
            }
        }

        /// Renumbers nodes breadth-first so each node's edges are contiguous and siblings sit
        /// together; literal edges in ``SegmentMatching/literalOrder(_:_:)``, parameter edges in
        /// precedence order, terminals by priority (higher first), then registration.
        func freeze(priorities: [Int]) -> RouteTrie {
            let edges = edges
            // Edges grouped by parent (a counting sort keeps each group in insertion order).
            var edgeStart = [Int](repeating: 0, count: nodeCount + 1)
            for edge in edges { edgeStart[Int(edge.parent) + 1] += 1 }
            for node in 0..<nodeCount { edgeStart[node + 1] += edgeStart[node] }
            var byParent = [Int](repeating: 0, count: edges.count)
            var fill = edgeStart
            for (index, edge) in edges.enumerated() {
                byParent[fill[Int(edge.parent)]] = index
                fill[Int(edge.parent)] += 1
            }

            var nodes = [RouteTrie.Node](repeating: RouteTrie.Node(), count: nodeCount)
            var literalEdges: [LiteralEdge] = []
            var frozenTerminals: [Terminal] = []
            literalEdges.reserveCapacity(edges.count)
            frozenTerminals.reserveCapacity(terminals.count)
            var queue: [UInt32] = [0]
            queue.reserveCapacity(nodeCount)
            var head = 0
            var scratch: [Int] = []
            bytes.withUnsafeBufferPointer { storage in
                func literal(_ edge: Edge) -> UnsafeBufferPointer<UInt8> {
                    UnsafeBufferPointer(rebasing: storage[Int(edge.bytesStart)..<Int(edge.bytesEnd)])
                }
                while head < queue.count {
                    let old = Int(queue[head])
                    var flat = RouteTrie.Node()

                    flat.terminalStart = UInt32(frozenTerminals.count)
                    var index = firstTerminal[old]
                    while index >= 0 {
                        frozenTerminals.append(terminals[Int(index)].terminal)
                        index = nextTerminal[Int(index)]
                    }
                    // A stable sort: equal priorities keep registration order.
                    let ending = Int(flat.terminalStart)..<frozenTerminals.count
                    if ending.count > 1 {
                        let sorted = Array(frozenTerminals[ending]).stablySorted {
                            priorities[Int($0.route)] > priorities[Int($1.route)]
                        }
                        frozenTerminals.replaceSubrange(ending, with: sorted)
                    }
                    flat.terminalEnd = UInt32(frozenTerminals.count)

                    // Most nodes have one edge or none; sort only where there is a choice.
                    let children = byParent[edgeStart[old]..<edgeStart[old + 1]]
                    scratch.removeAll(keepingCapacity: true)
                    for index in children where edges[index].kind == nil { scratch.append(index) }
                    if scratch.count > 1 {
                        scratch.stablySort { SegmentMatching.literalOrder(literal(edges[$0]), literal(edges[$1])) }
                    }
                    flat.hasLiterals = !scratch.isEmpty
                    for edge in scratch.lazy.map({ edges[$0] }) {
                        literalEdges.append(
                            LiteralEdge(
                                parent: UInt32(truncatingIfNeeded: head),
                                child: UInt32(truncatingIfNeeded: queue.count),
                                bytesStart: edge.bytesStart,
                                bytesEnd: edge.bytesEnd
                            )
                        )
                        queue.append(edge.child)
                    }

                    scratch.removeAll(keepingCapacity: true)
                    for index in children where edges[index].kind != nil { scratch.append(index) }
                    if scratch.count > 1 {
                        scratch.stablySort { edges[$0].kind?.rawValue ?? 0 < edges[$1].kind?.rawValue ?? 0 }
                    }
                    // Parameter children follow the literal ones, one per kind, in precedence order.
                    flat.firstParameterChild = UInt32(truncatingIfNeeded: queue.count)
                    for edge in scratch.lazy.map({ edges[$0] }) {
                        guard let kind = edge.kind else { continue }
                        flat.parameterKinds |= 1 << kind.rawValue
                        queue.append(edge.child)
                    }
                    nodes[head] = flat
                    head += 1
                }
            }
            let trie = RouteTrie(
                nodes: nodes,
                literalEdges: literalEdges,
                literalBytes: bytes,
                terminals: frozenTerminals,
                origins: origins,
                caseSensitive: caseSensitive
            )
            // A builder mistake, never the app's input: checked in debug builds, free in release.
            assert(
                trie.invariantViolations().isEmpty,
                "the frozen trie breaks what the walk assumes: \(trie.invariantViolations())"
            )
            return trie
        }
    }
}

extension RouteTrie.Origin {
    init(_ pattern: RoutePattern) {
        scheme = pattern.scheme.map { Array($0.utf8) }
        host = pattern.host
    }
}
