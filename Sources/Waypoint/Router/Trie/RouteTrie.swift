/// The frozen route trie: flat arrays indexed by `UInt32`, so matching touches few cache lines and
/// the whole table is a handful of allocations however many routes it holds.
///
/// Each node's outgoing edges are contiguous. Literal edges are sorted by their case-folded bytes
/// for binary search; parameter edges are stored in precedence order (typed, untyped, `*`, `**`),
/// so a depth-first walk visits candidates in exactly the documented precedence.
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
        self.literalEdges = literalEdges
        self.literalBytes = literalBytes
        self.parameterEdges = parameterEdges
        self.terminals = terminals
        self.origins = origins
        self.caseSensitive = caseSensitive
    }
}
