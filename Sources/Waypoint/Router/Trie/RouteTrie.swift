/// The frozen route trie: flat arrays indexed by `UInt32`, so matching touches few cache lines and
/// the whole table is a handful of allocations however many routes it holds.
///
/// Each node's outgoing edges are contiguous. Literal edges are found through one hash table for the
/// whole trie, keyed by the parent node and the case-folded segment, so a lookup touches a few cache
/// lines whatever the fan-out; parameter edges are stored in precedence order (typed, untyped, `*`,
/// `**`), so a depth-first walk visits candidates in exactly the documented precedence.
@usableFromInline
final class RouteTrie: Sendable {
    @usableFromInline
    struct Node: Sendable {
        @usableFromInline var literalStart: UInt32 = 0
        @usableFromInline var literalEnd: UInt32 = 0
        @usableFromInline var parameterStart: UInt32 = 0
        @usableFromInline var parameterEnd: UInt32 = 0
        @usableFromInline var terminalStart: UInt32 = 0
        @usableFromInline var terminalEnd: UInt32 = 0
    }

    @usableFromInline
    struct LiteralEdge: Sendable {
        @usableFromInline var bytesStart: UInt32
        @usableFromInline var bytesEnd: UInt32
        @usableFromInline var child: UInt32
    }

    /// A non-literal edge. Raw values are the precedence order.
    @usableFromInline
    enum EdgeKind: UInt8, Sendable, Comparable {
        case int, uuid, bool, double, string, wildcard, catchAll

        init(_ segment: PatternSegment) {
            switch segment {
            case .parameter(_, let type):
                switch type {
                case .int: self = .int
                case .uuid: self = .uuid
                case .bool: self = .bool
                case .double: self = .double
                case .string: self = .string
                }
            case .wildcard: self = .wildcard
            case .catchAll, .literal: self = .catchAll
            }
        }

        @usableFromInline
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    @usableFromInline
    struct ParameterEdge: Sendable {
        @usableFromInline var kind: EdgeKind
        @usableFromInline var child: UInt32
    }

    /// A route expansion ending at a node. Per node, ordered by priority, then registration.
    @usableFromInline
    struct Terminal: Sendable {
        @usableFromInline var route: UInt32
        @usableFromInline var expansion: UInt32
    }

    /// A route's scheme and host restriction, as lowercase bytes for allocation-free checks.
    @usableFromInline
    struct Origin: Sendable {
        @usableFromInline var scheme: [UInt8]?
        @usableFromInline var host: [UInt8]?
        @usableFromInline var hostIncludesSubdomains = false
        @usableFromInline var isUnrestricted: Bool { scheme == nil && host == nil }
    }

    @usableFromInline let nodes: [Node]
    /// Open addressing, linear probing over every literal edge of the trie.
    @usableFromInline let literalSlots: [LiteralSlot]
    @usableFromInline let slotMask: Int

    /// A literal edge as the lookup needs it, in one 24-byte record: literals of up to 8 bytes are
    /// stored inline, so a level of the walk usually touches only its node and one slot.
    @usableFromInline
    struct LiteralSlot: Sendable {
        /// The high half of the key's hash, never 0; 0 marks an empty slot.
        @usableFromInline var tag: UInt32 = 0
        @usableFromInline var parent: UInt32 = 0
        @usableFromInline var child: UInt32 = 0
        @usableFromInline var length: UInt32 = 0
        /// The literal's bytes when `length <= 8` (little-endian), else its offset in `literalBytes`.
        @usableFromInline var payload: UInt64 = 0
    }
    @usableFromInline let literalEdges: [LiteralEdge]
    @usableFromInline let literalBytes: [UInt8]
    @usableFromInline let parameterEdges: [ParameterEdge]
    @usableFromInline let terminals: [Terminal]
    /// Indexed by route.
    @usableFromInline let origins: [Origin]
    @usableFromInline let caseSensitive: Bool

    init(
        nodes: [Node],
        literalEdges: [LiteralEdge],
        literalBytes: [UInt8],
        parameterEdges: [ParameterEdge],
        terminals: [Terminal],
        origins: [Origin],
        caseSensitive: Bool
    ) {
        self.nodes = nodes
        (self.literalSlots, self.slotMask) = Self.slots(for: literalEdges, nodes: nodes, bytes: literalBytes)
        self.literalEdges = literalEdges
        self.literalBytes = literalBytes
        self.parameterEdges = parameterEdges
        self.terminals = terminals
        self.origins = origins
        self.caseSensitive = caseSensitive
    }

    /// The hash table over literal edges: twice as many slots as edges, a power of two.
    private static func slots(for edges: [LiteralEdge], nodes: [Node], bytes: [UInt8]) -> ([LiteralSlot], Int) {
        var capacity = 8
        while capacity < edges.count * 2 { capacity <<= 1 }
        var slots = [LiteralSlot](repeating: LiteralSlot(), count: capacity)
        let mask = capacity - 1
        bytes.withUnsafeBufferPointer { storage in
            for (parent, node) in nodes.enumerated() {
                for index in Int(node.literalStart)..<Int(node.literalEnd) {
                    let edge = edges[index]
                    let range = Int(edge.bytesStart)..<Int(edge.bytesEnd)
                    let hash = SegmentMatching.hash(parent: parent, DecodedBytes(storage, range, decoding: false))
                    var slot = Int(truncatingIfNeeded: hash) & mask
                    while slots[slot].tag != 0 { slot = (slot + 1) & mask }
                    var payload = UInt64(edge.bytesStart)
                    if range.count <= 8 {
                        payload = 0
                        for (shift, byte) in storage[range].enumerated() {
                            payload |= UInt64(byte) << UInt64(shift * 8)
                        }
                    }
                    slots[slot] = LiteralSlot(
                        tag: SegmentMatching.tag(hash),
                        parent: UInt32(parent),
                        child: edge.child,
                        length: UInt32(range.count),
                        payload: payload
                    )
                }
            }
        }
        return (slots, mask)
    }
}
