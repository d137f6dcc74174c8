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
        case .one(let segments): [segments]
        case .many(let expansions): expansions
        }
    }

    /// Most patterns have one shape: kept without an array around it, which saves every route of a
    /// router an allocation (about 48 bytes of heap).
    private enum Shapes: Sendable, Hashable {
        case one([PatternSegment])
        case many([[PatternSegment]])
    }
    private let shapes: Shapes

    /// How many shapes ``expansions`` has, without making the array.
    @usableFromInline var expansionCount: Int {
        switch shapes {
        case .one: 1
        case .many(let expansions): expansions.count
        }
    }

    /// The shape at `index` of ``expansions``, without making the outer array; empty past the end.
    @usableFromInline func expansion(_ index: Int) -> [PatternSegment] {
        switch shapes {
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
        self.shapes = parsed.expansions.count == 1 ? .one(parsed.expansions[0]) : .many(parsed.expansions)
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
