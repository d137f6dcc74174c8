extension RouteTrie {
    /// The mutable trie of the build phase, flattened by ``freeze()``.
    final class Builder {
        final class Node {
            /// Keyed by the literal's bytes (case-folded when the router is case-insensitive).
            var literals: [[UInt8]: Node] = [:]
            var parameters: [EdgeKind: Node] = [:]
            var terminals: [Terminal] = []
        }

        let root = Node()
        let caseSensitive: Bool
        var origins: [Origin] = []

        init(caseSensitive: Bool) {
            self.caseSensitive = caseSensitive
        }

        /// The node an expansion ends at, created as needed.
        func node(for segments: [PatternSegment]) -> Node {
            var node = root
            for segment in segments {
                let next: Node
                if case .literal(let text) = segment {
                    let key = caseSensitive ? Array(text.utf8) : Array(text.utf8).map(asciiLowercased)
                    if let existing = node.literals[key] {
                        next = existing
                    } else {
                        next = Node()
                        node.literals[key] = next
                    }
                } else {
                    let kind = EdgeKind(segment)
                    if let existing = node.parameters[kind] {
                        next = existing
                    } else {
                        next = Node()
                        node.parameters[kind] = next
                    }
                }
                node = next
            }
            return node
        }

        /// Flattens breadth-first so each node's edges are contiguous and siblings sit together.
        func freeze(priorities: [Int]) -> RouteTrie {
            var nodes: [RouteTrie.Node] = []
            var literalEdges: [LiteralEdge] = []
            var literalBytes: [UInt8] = []
            var parameterEdges: [ParameterEdge] = []
            var terminals: [Terminal] = []
            var queue: [Node] = [root]
            var head = 0
            nodes.append(RouteTrie.Node())
            while head < queue.count {
                let node = queue[head]
                var flat = RouteTrie.Node()
                let sortedTerminals = node.terminals.enumerated().sorted { lhs, rhs in
                    let (left, right) = (priorities[Int(lhs.element.route)], priorities[Int(rhs.element.route)])
                    return left != right ? left > right : lhs.offset < rhs.offset
                }
                flat.terminalStart = UInt32(terminals.count)
                terminals.append(contentsOf: sortedTerminals.map(\.element))
                flat.terminalEnd = UInt32(terminals.count)

                let literals = node.literals.sorted { SegmentMatching.literalOrder($0.key, $1.key) }
                flat.literalStart = UInt32(literalEdges.count)
                for (bytes, child) in literals {
                    let start = UInt32(literalBytes.count)
                    literalBytes.append(contentsOf: bytes)
                    literalEdges.append(
                        LiteralEdge(bytesStart: start, bytesEnd: UInt32(literalBytes.count), child: UInt32(queue.count))
                    )
                    queue.append(child)
                    nodes.append(RouteTrie.Node())
                }
                flat.literalEnd = UInt32(literalEdges.count)

                flat.parameterStart = UInt32(parameterEdges.count)
                for (kind, child) in node.parameters.sorted(by: { $0.key < $1.key }) {
                    parameterEdges.append(ParameterEdge(kind: kind, child: UInt32(queue.count)))
                    queue.append(child)
                    nodes.append(RouteTrie.Node())
                }
                flat.parameterEnd = UInt32(parameterEdges.count)
                nodes[head] = flat
                head += 1
            }
            return RouteTrie(
                nodes: nodes,
                literalEdges: literalEdges,
                literalBytes: literalBytes,
                parameterEdges: parameterEdges,
                terminals: terminals,
                origins: origins,
                caseSensitive: caseSensitive
            )
        }
    }
}

extension RouteTrie.Origin {
    init(_ pattern: RoutePattern) {
        scheme = pattern.scheme.map { Array($0.utf8) }
        host = pattern.host.map { Array($0.domain.utf8) }
        hostIncludesSubdomains = pattern.host?.includesSubdomains ?? false
    }
}
