/// The bytes of one link prepared for a walk: raw segment ranges on a stack buffer.
@usableFromInline
struct MatchInput {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline let segments: UnsafeMutableBufferPointer<Range<Int>>
    /// Whether the first segment is a custom scheme's host, which compares case-insensitively.
    @usableFromInline let firstFromHost: Bool
    @usableFromInline let scheme: Range<Int>?
    @usableFromInline let host: Range<Int>?
    /// Where the last segment ends: what `**` captures runs up to here.
    @usableFromInline let end: Int

    @inlinable
    init(
        bytes: UnsafeBufferPointer<UInt8>,
        segments: UnsafeMutableBufferPointer<Range<Int>>,
        firstFromHost: Bool,
        scheme: Range<Int>?,
        host: Range<Int>?
    ) {
        self.bytes = bytes
        self.segments = segments
        self.firstFromHost = firstFromHost
        self.scheme = scheme
        self.host = host
        self.end = segments.last?.upperBound ?? 0
    }
}

extension RouteTrie {
    /// Visits every route expansion that matches, in precedence order, until the visitor returns `true`.
    ///
    /// Depth-first over edges already sorted by precedence; each trie node is entered at most once
    /// per walk (a node sits at one depth, and `**` ends the walk below it), so a miss costs at most
    /// the nodes reachable by the link's segments, never a repeated search of one subtree.
    @inlinable
    func walk<Visitor: TerminalVisitor>(
        _ input: MatchInput,
        captures: UnsafeMutableBufferPointer<Range<Int>>,
        _ visitor: inout Visitor
    ) {
        _ = descend(0, depth: 0, captureCount: 0, input, captures, &visitor)
    }

    /// `hasLiterals` is what the edge into this node already tells (`nil` when it does not): with
    /// it, the node itself is read only when its literal edges do not lead to a match.
    @inlinable
    func descend<Visitor: TerminalVisitor>(
        _ index: Int,
        hasLiterals: Bool? = nil,
        depth: Int,
        captureCount: Int,
        _ input: MatchInput,
        _ captures: UnsafeMutableBufferPointer<Range<Int>>,
        _ visitor: inout Visitor
    ) -> Bool {
        guard depth < input.segments.count else {
            let node = nodes[index]
            if visitTerminals(node, captureCount, input, captures, &visitor) { return true }
            // `**` capturing nothing comes after every exact route ending here.
            for edge in node.parameterEdges where edge.kind == .catchAll {
                captures[captureCount] = input.end..<input.end
                if visitTerminals(nodes[edge.child], captureCount + 1, input, captures, &visitor) { return true }
            }
            return false
        }
        // The edge into this node tells whether it has literal edges; only the root's is read here.
        if hasLiterals ?? nodes[index].hasLiterals,
            descendLiterals(
                index,
                input.segments[depth],
                depth: depth,
                captureCount: captureCount,
                input,
                captures,
                &visitor
            )
        {
            return true
        }
        return descendParameters(
            nodes[index],
            depth: depth,
            captureCount: captureCount,
            input,
            captures,
            &visitor
        )
    }

    /// The parameter edges of a node for the segment at `depth`, in precedence order.
    @inlinable
    func descendParameters<Visitor: TerminalVisitor>(
        _ node: Node,
        depth: Int,
        captureCount: Int,
        _ input: MatchInput,
        _ captures: UnsafeMutableBufferPointer<Range<Int>>,
        _ visitor: inout Visitor
    ) -> Bool {
        let segment = input.segments[depth]
        for edge in node.parameterEdges {
            if edge.kind == .catchAll {
                captures[captureCount] = segment.lowerBound..<input.end
                if visitTerminals(nodes[edge.child], captureCount + 1, input, captures, &visitor) { return true }
            } else if SegmentMatching.accepts(edge.kind, input.bytes, segment) {
                captures[captureCount] = segment
                if descend(edge.child, depth: depth + 1, captureCount: captureCount + 1, input, captures, &visitor) {
                    return true
                }
            }
        }
        return false
    }

    /// One probe sequence in the literal-edge table; every literal equal under case folding is
    /// tried, in table order (which is the edges' sorted order).
    @inlinable
    func descendLiterals<Visitor: TerminalVisitor>(
        _ index: Int,
        _ segment: Range<Int>,
        depth: Int,
        captureCount: Int,
        _ input: MatchInput,
        _ captures: UnsafeMutableBufferPointer<Range<Int>>,
        _ visitor: inout Visitor
    ) -> Bool {
        let fold = !caseSensitive || (depth == 0 && input.firstFromHost)
        // A segment of up to 7 bytes (after decoding) is compared as one word; the fast path reads
        // its raw bytes directly when it has no escape.
        let packed: UInt64?
        if let raw = SegmentMatching.packed(input.bytes, segment) {
            packed = raw
        } else {
            if segment.count > longestLiteral {
                // Longer than every literal: only escapes can make it equal one, and a decoded byte
                // takes at most `%XX`, three raw bytes.
                guard segment.count <= Self.rawBytesPerDecodedByte * longestLiteral,
                    SegmentMatching.containsPercent(input.bytes, segment)
                else {
                    return false
                }
            }
            packed = SegmentMatching.packedDecoded(DecodedBytes(input.bytes, segment))
        }
        let folded = packed.map(SegmentMatching.asciiLowercasedWord) ?? 0
        let hash =
            packed == nil
            ? SegmentMatching.longKey(parent: index, DecodedBytes(input.bytes, segment))
            : SegmentMatching.packedKey(parent: index, folded)
        var position = literalTable.firstSlot(hash)
        let parent = UInt32(truncatingIfNeeded: index)
        while true {
            let slot = literalTable[position]
            if slot.isEmpty { return false }
            if slot.parent == parent {
                let matches: Bool
                if let packed {
                    // At most 7 bytes: never equal to a long literal.
                    matches =
                        !slot.isLong
                        && SegmentMatching.equalsPacked(packed, folded: folded, literal: slot.packedLiteral, fold: fold)
                } else if !slot.isLong {
                    matches = false
                } else {
                    let long = longLiterals[slot.longLiteral]
                    matches = longBytes.withUnsafeBufferPointer { storage in
                        let literal = UnsafeBufferPointer(rebasing: storage[Int(long.start)..<Int(long.end)])
                        return SegmentMatching.compare(input.bytes, segment, literal, fold: fold) == 0
                    }
                }
                if matches,
                    descend(
                        Int(slot.child),
                        hasLiterals: slot.childHasLiterals,
                        depth: depth + 1,
                        captureCount: captureCount,
                        input,
                        captures,
                        &visitor
                    )
                {
                    return true
                }
            }
            position = literalTable.slot(after: position)
        }
    }

    @inlinable
    func visitTerminals<Visitor: TerminalVisitor>(
        _ node: Node,
        _ captureCount: Int,
        _ input: MatchInput,
        _ captures: UnsafeMutableBufferPointer<Range<Int>>,
        _ visitor: inout Visitor
    ) -> Bool {
        for position in Int(node.terminalStart)..<Int(node.terminalEnd) {
            let terminal = terminals[position]
            if terminal.origin != 0, !accepts(origins[Int(terminal.origin) - 1], input) { continue }
            if visitor.visit(terminal, UnsafeMutableBufferPointer(rebasing: captures[0..<captureCount])) {
                return true
            }
        }
        return false
    }

    @inlinable
    func accepts(_ origin: Origin, _ input: MatchInput) -> Bool {
        if let scheme = origin.scheme {
            guard let range = input.scheme, range.count == scheme.count else { return false }
            for (offset, byte) in scheme.enumerated()
            where asciiLowercased(input.bytes[range.lowerBound + offset]) != byte {
                return false
            }
        }
        if let host = origin.host {
            guard let range = input.host, host.matches(input.bytes, range) else { return false }
        }
        return true
    }
}
