/// A route's pattern, parsed and validated once when the route is added.
///
/// ```swift
/// let pattern = try RoutePattern("/messages/{id:int}")
/// pattern.expansions      // [[.literal("messages"), .parameter(name: "id", type: .int)]]
///
/// try RoutePattern("/required/{a}(/optional/{b})").expansions.count // 2
/// try RoutePattern("myapp://pay").scheme                            // "myapp"
/// try RoutePattern("https://*.example.com/books/{id}").host         // *.example.com
/// ```
///
/// Syntax: `/literal`, `{name}` or `:name` (a parameter), `{name:type}` with a ``ParameterType``,
/// `*` (one segment), `**` (the rest, last only), optional groups `( … )` that may nest and
/// interleave, and an optional `scheme://` or `https://host` prefix that restricts the route to
/// links of that scheme or host. Literals are percent-decoded.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let text: String
    /// The only scheme this route accepts, lowercased; `nil` accepts every allowed scheme.
    public var scheme: String? { prefix?.scheme }
    /// The only host this route accepts, for `http(s)` prefixes; `nil` accepts every associated domain.
    public var host: DomainPattern? { prefix?.host }

    /// A `scheme://` or `https://host` prefix, boxed: most patterns have none, and an optional
    /// reference takes 8 bytes where the two optionals took 40, in every route a router keeps.
    private final class Prefix: Sendable, Hashable {
        let scheme: String?
        let host: DomainPattern?

        init(scheme: String?, host: DomainPattern?) {
            self.scheme = scheme
            self.host = host
        }

        static func == (lhs: Prefix, rhs: Prefix) -> Bool { lhs.scheme == rhs.scheme && lhs.host == rhs.host }

        func hash(into hasher: inout Hasher) {
            hasher.combine(scheme)
            hasher.combine(host)
        }
    }
    private let prefix: Prefix?
    /// Every concrete shape the optional groups expand to, in the order they were written (without
    /// optional parts first).
    public var expansions: [[PatternSegment]] {
        switch shapes {
        case .compact(let shape): [shape.segments(in: text)]
        case .one(let segments): [segments]
        case .many(let expansions): expansions
        }
    }

    /// Most patterns have one shape: kept without an array around it, and where every segment is
    /// its text as written, as descriptors into ``text`` (``CompactShape``). A router keeps every
    /// route's pattern, so this is most of a route's heap.
    private enum Shapes: Sendable, Hashable {
        case compact(CompactShape)
        case one([PatternSegment])
        case many([[PatternSegment]])
    }
    private let shapes: Shapes

    /// Whether the shape is kept as descriptors into the text (for tests).
    var isCompact: Bool {
        if case .compact = shapes { true } else { false }
    }

    /// How many shapes ``expansions`` has, without making the array.
    @usableFromInline var expansionCount: Int {
        switch shapes {
        case .compact, .one: 1
        case .many(let expansions): expansions.count
        }
    }

    /// Calls `body` with each segment of the shape at `index` of ``expansions``, without making
    /// the shape: how a router reads a pattern it builds.
    func forEachKey(ofExpansion index: Int, _ body: (SegmentKey) -> Void) {
        func visit(_ segments: [PatternSegment]) {
            for segment in segments {
                switch segment {
                case .literal(var literal): literal.withUTF8 { body(.literal($0)) }
                case .parameter(_, let type): body(.parameter(type))
                case .wildcard: body(.wildcard)
                case .catchAll: body(.catchAll)
                }
            }
        }
        switch shapes {
        case .compact(let shape):
            guard index == 0 else { return }
            var text = text
            text.withUTF8 { shape.forEachKey(in: $0, body) }
        case .one(let segments): if index == 0 { visit(segments) }
        case .many(let expansions): if expansions.indices.contains(index) { visit(expansions[index]) }
        }
    }

    /// The shape at `index` of ``expansions``, without making the outer array; empty past the end.
    @usableFromInline func expansion(_ index: Int) -> [PatternSegment] {
        switch shapes {
        case .compact(let shape): index == 0 ? shape.segments(in: text) : []
        case .one(let segments): index == 0 ? segments : []
        case .many(let expansions): expansions.indices.contains(index) ? expansions[index] : []
        }
    }

    /// Parses and validates a pattern.
    public init(_ text: String) throws(RoutePatternError) {
        var parser = RoutePatternParser(text: text)
        let parsed = try parser.parse()
        self.text = text
        self.prefix =
            parsed.scheme == nil && parsed.host == nil ? nil : Prefix(scheme: parsed.scheme, host: parsed.host)
        if parsed.expansions.count == 1, let segments = parsed.expansions.first {
            if let compact = parsed.compact {
                self.shapes = .compact(compact)
            } else {
                self.shapes = .one(segments)
            }
        } else {
            self.shapes = .many(parsed.expansions)
        }
    }

    public var description: String { text }

    /// The names of every parameter that some expansion uses, in the order they are written.
    public var parameterNames: [String] {
        var names: [String] = []
        for expansion in expansions.sorted(by: { $0.count > $1.count }) {
            for case .parameter(let name, _) in expansion where !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Whether a link with this scheme and host may match the route's prefix.
    @usableFromInline
    func acceptsOrigin(scheme linkScheme: String?, host linkHost: String?) -> Bool {
        if let scheme, scheme != linkScheme { return false }
        if let host {
            guard let linkHost else { return false }
            return host.matches(linkHost)
        }
        return true
    }
}
