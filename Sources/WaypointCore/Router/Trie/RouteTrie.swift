/// The frozen route trie: flat arrays indexed by `UInt32`, so matching touches few cache lines and
/// the whole table is a handful of allocations however many routes it holds.
///
/// Each node's outgoing edges are contiguous. Literal edges are found through one hash table for the
/// whole trie, keyed by the parent node and the case-folded segment, so a lookup touches a few cache
/// lines whatever the fan-out; parameter edges are stored in precedence order (typed, untyped, `*`,
/// `**`), so a depth-first walk visits candidates in exactly the documented precedence.
@usableFromInline
final class RouteTrie: Sendable {
    /// 16 bytes, four to a cache line. A node's literal edges are not listed here: they are found
    /// through the literal table; the node only says whether it has any. Its parameter edges are
    /// a bit per ``EdgeKind`` and the first child: the children of one node are numbered
    /// consecutively, literal children first, then one per kind in precedence order, so the walk
    /// finds a parameter child without reading an edge list.
    @usableFromInline
    struct Node: Sendable {
        @usableFromInline var terminalStart: UInt32 = 0
        @usableFromInline var terminalEnd: UInt32 = 0
        @usableFromInline var firstParameterChild: UInt32 = 0
        /// Bit `kind.rawValue` set for each parameter edge.
        @usableFromInline var parameterKinds: UInt8 = 0
        @usableFromInline var hasLiterals = false

        @inlinable var parameterEdges: ParameterEdges {
            ParameterEdges(kinds: parameterKinds, child: firstParameterChild)
        }
    }

    /// A node's parameter edges in precedence order, as (kind, child).
    @usableFromInline
    struct ParameterEdges: Sequence, IteratorProtocol {
        @usableFromInline var kinds: UInt8
        @usableFromInline var child: UInt32

        @inlinable
        init(kinds: UInt8, child: UInt32) {
            self.kinds = kinds
            self.child = child
        }

        @inlinable
        mutating func next() -> (kind: EdgeKind, child: Int)? {
            guard kinds != 0, let kind = EdgeKind(rawValue: UInt8(truncatingIfNeeded: kinds.trailingZeroBitCount))
            else { return nil }
            kinds &= kinds &- 1
            defer { child &+= 1 }
            return (kind, Int(child))
        }
    }

    /// A literal edge as the builder hands it over; the frozen trie keeps it in the literal table.
    struct LiteralEdge {
        var parent: UInt32
        var child: UInt32
        var bytesStart: UInt32
        var bytesEnd: UInt32
    }

    /// Where a literal of more than ``LiteralSlot/inlineCapacity`` bytes is kept in `longBytes`.
    @usableFromInline
    struct LongLiteral: Sendable {
        @usableFromInline var start: UInt32
        @usableFromInline var end: UInt32
    }

    /// A non-literal edge. Raw values are the precedence order: among parameters at one position
    /// the most specific type is tried first (every `int` is also a `double`, so `int` comes before
    /// it), and a wildcard and a catch-all last.
    @usableFromInline
    enum EdgeKind: UInt8, Sendable {
        case int, uuid, bool, double, string, wildcard, catchAll

        init(_ type: ParameterType) {
            switch type {
            case .int: self = .int
            case .uuid: self = .uuid
            case .bool: self = .bool
            case .double: self = .double
            case .string: self = .string
            }
        }
    }

    /// A route expansion ending at a node. Per node, ordered by priority, then registration.
    @usableFromInline
    struct Terminal: Sendable {
        @usableFromInline var route: UInt32
        /// 0 when the route takes links from any scheme and host; otherwise its restriction's index
        /// in ``RouteTrie/origins`` plus one. Only then is an ``Origin`` read, which spares most hits
        /// a cache miss on a large table.
        @usableFromInline var origin: UInt32
        /// At most ``RoutePatternParser/maximumExpansions`` (256) per route: indices fit a byte.
        @usableFromInline var expansion: UInt8
    }

    /// A route's scheme and host restriction, as lowercase bytes for allocation-free checks.
    @usableFromInline
    struct Origin: Sendable, Hashable {
        @usableFromInline var scheme: [UInt8]?
        @usableFromInline var host: DomainPattern?
        @usableFromInline var isUnrestricted: Bool { scheme == nil && host == nil }
    }

    @usableFromInline let nodes: [Node]
    /// Every literal edge of the trie, keyed by ``SegmentMatching/hash(parent:_:)``.
    @usableFromInline let literalTable: ProbingTable<LiteralSlot>

    /// A literal edge as the lookup needs it, in one 16-byte record (four to a cache line): literals
    /// of up to 7 bytes are stored inline, so a level of the walk usually touches one slot and
    /// nothing else.
    @usableFromInline
    struct LiteralSlot: ProbingSlot {
        @usableFromInline var parent: UInt32 = 0
        /// 0 marks an empty slot: the root is nobody's child.
        @usableFromInline var child: UInt32 = 0
        /// An inline literal packed as ``PackedLiteral`` lays it out (bits 0–59), or a long
        /// literal's index in `longLiterals` (bits 0–31) with ``longFlag``; ``childHasLiteralsFlag``
        /// when the child has literal edges of its own (the walk then probes for the next segment
        /// without reading the child's node).
        @usableFromInline var payload: UInt64 = 0

        @usableFromInline static let inlineCapacity = PackedLiteral.capacity
        @usableFromInline static let longFlag: UInt64 = 1 << 62
        @usableFromInline static let childHasLiteralsFlag: UInt64 = 1 << 63

        /// An empty slot.
        init() {}

        @usableFromInline static var empty: LiteralSlot { LiteralSlot() }
        @inlinable var isEmpty: Bool { child == 0 }

        init(parent: UInt32, child: UInt32, literal: UnsafeBufferPointer<UInt8>, long: Int, childHasLiterals: Bool) {
            self.parent = parent
            self.child = child
            var payload: UInt64
            if literal.count <= Self.inlineCapacity {
                var bytes: UInt64 = 0
                for offset in 0..<literal.count { bytes |= UInt64(literal[offset]) << UInt64(offset * 8) }
                payload = PackedLiteral.pack(bytes, count: literal.count)
            } else {
                payload = UInt64(UInt32(truncatingIfNeeded: long)) | Self.longFlag
            }
            if childHasLiterals { payload |= Self.childHasLiteralsFlag }
            self.payload = payload
        }

        @inlinable var childHasLiterals: Bool { payload & Self.childHasLiteralsFlag != 0 }
        @inlinable var isLong: Bool { payload & Self.longFlag != 0 }
        @inlinable var longLiteral: Int { Int(truncatingIfNeeded: payload & 0xFFFF_FFFF) }
        /// An inline literal as ``SegmentMatching/packed(_:_:)`` packs a segment: one integer
        /// comparison tells whether they are equal.
        @inlinable var packedLiteral: UInt64 { payload & PackedLiteral.mask }
    }
    /// Literals too long for a slot, and their bytes.
    @usableFromInline let longLiterals: [LongLiteral]
    @usableFromInline let longBytes: [UInt8]
    @usableFromInline let terminals: [Terminal]
    /// Each distinct restriction once (routes usually share a few), indexed by ``Terminal/origin``.
    @usableFromInline let origins: [Origin]
    @usableFromInline let caseSensitive: Bool
    /// The length of the longest literal in bytes: longer segments skip the literal table, unless
    /// escapes could shorten them to it.
    @usableFromInline let longestLiteral: Int
    /// The most raw bytes one decoded byte takes in a link: `%XX`.
    @usableFromInline static let rawBytesPerDecodedByte = 3

    /// - Parameter literalEdges: Every literal edge, grouped by parent in node order and sorted
    ///   within a parent; their bytes are `literalBytes[bytesStart..<bytesEnd]`.
    convenience init(
        nodes: [Node],
        literalEdges: [LiteralEdge],
        literalBytes: [UInt8],
        terminals: [Terminal],
        origins: [Origin],
        caseSensitive: Bool
    ) {
        let table = Self.literalTable(for: literalEdges, nodes: nodes, bytes: literalBytes)
        self.init(
            frozenNodes: nodes,
            literalTable: table.slots,
            longLiterals: table.longLiterals,
            longBytes: table.longBytes,
            terminals: terminals,
            origins: origins,
            caseSensitive: caseSensitive,
            longestLiteral: literalEdges.reduce(0) { max($0, Int($1.bytesEnd - $1.bytesStart)) }
        )
    }

    /// The frozen arrays as they are; also how ``init(copying:nodes:literalSlots:terminals:)``
    /// plants a fault for a test.
    init(
        frozenNodes: [Node],
        literalTable: ProbingTable<LiteralSlot>,
        longLiterals: [LongLiteral],
        longBytes: [UInt8],
        terminals: [Terminal],
        origins: [Origin],
        caseSensitive: Bool,
        longestLiteral: Int
    ) {
        self.nodes = frozenNodes
        self.literalTable = literalTable
        self.longLiterals = longLiterals
        self.longBytes = longBytes
        self.terminals = terminals
        self.origins = origins
        self.caseSensitive = caseSensitive
        self.longestLiteral = longestLiteral
    }

    /// The table of literal edges, and the long literals copied apart. Edges go in in their
    /// sorted order, so equal keys probe in that order.
    private static func literalTable(
        for edges: [LiteralEdge],
        nodes: [Node],
        bytes: [UInt8]
    ) -> (slots: ProbingTable<LiteralSlot>, longLiterals: [LongLiteral], longBytes: [UInt8]) {
        var table = ProbingTable<LiteralSlot>(capacityFor: edges.count)
        var longLiterals: [LongLiteral] = []
        var longBytes: [UInt8] = []
        bytes.withUnsafeBufferPointer { storage in
            for edge in edges {
                let range = Int(edge.bytesStart)..<Int(edge.bytesEnd)
                let literal = UnsafeBufferPointer(rebasing: storage[range])
                if literal.count > LiteralSlot.inlineCapacity {
                    let start = UInt32(truncatingIfNeeded: longBytes.count)
                    longBytes.append(contentsOf: literal)
                    longLiterals.append(LongLiteral(start: start, end: UInt32(truncatingIfNeeded: longBytes.count)))
                }
                let slot = LiteralSlot(
                    parent: edge.parent,
                    child: edge.child,
                    literal: literal,
                    long: longLiterals.count - 1,
                    childHasLiterals: nodes[Int(edge.child)].hasLiterals
                )
                let key = SegmentMatching.hash(parent: Int(edge.parent), DecodedBytes(storage, range, decoding: false))
                table.append(slot, key: key)
            }
        }
        return (table, longLiterals, longBytes)
    }
}
