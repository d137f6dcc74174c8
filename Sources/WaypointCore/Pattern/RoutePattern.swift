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
    public var scheme: String? { extras?.scheme }
    /// The only host this route accepts, for `http(s)` prefixes; `nil` accepts every associated domain.
    public var host: DomainPattern? { extras?.host }

    /// What most patterns do not have, boxed so that a route without it pays 8 bytes: a
    /// `scheme://` or `https://host` prefix, and the segments of a pattern whose shape cannot be
    /// kept as descriptors (optional groups, escaped literals).
    private final class Extras: Sendable, Hashable {
        let scheme: String?
        let host: DomainPattern?
        let expansions: [[PatternSegment]]?

        init(scheme: String?, host: DomainPattern?, expansions: [[PatternSegment]]?) {
            self.scheme = scheme
            self.host = host
            self.expansions = expansions
        }

        static func == (lhs: Extras, rhs: Extras) -> Bool {
            lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.expansions == rhs.expansions
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(scheme)
            hasher.combine(host)
            hasher.combine(expansions)
        }
    }

    // Two plain references, not an enum with a case per form: Swift keeps a multi-payload enum's
    // case in its pointer's spare bits, which hides the reference from LeakSanitizer (it reported
    // the patterns of a long-lived router as leaked).
    private let extras: Extras?
    /// The one shape as descriptors into ``text`` (``CompactShape``), unless `extras` holds the
    /// segments. A router keeps every route's pattern, so this is most of a route's heap.
    private let compact: CompactShape

    /// Every concrete shape the optional groups expand to, in the order they were written (without
    /// optional parts first).
    public var expansions: [[PatternSegment]] {
        extras?.expansions ?? [compact.segments(in: text)]
    }

    /// Whether the shape is kept as descriptors into the text (for tests).
    var isCompact: Bool { extras?.expansions == nil }

    /// How many shapes ``expansions`` has, without making the array.
    @usableFromInline var expansionCount: Int { extras?.expansions?.count ?? 1 }

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
        if let expansions = extras?.expansions {
            if expansions.indices.contains(index) { visit(expansions[index]) }
        } else if index == 0 {
            var text = text
            text.withUTF8 { compact.forEachKey(in: $0, body) }
        }
    }

    /// The shape at `index` of ``expansions``, without making the outer array; empty past the end.
    @usableFromInline func expansion(_ index: Int) -> [PatternSegment] {
        if let expansions = extras?.expansions { return expansions.indices.contains(index) ? expansions[index] : [] }
        return index == 0 ? compact.segments(in: text) : []
    }

    /// Parses and validates a pattern.
    public init(_ text: String) throws(WaypointError) {
        var parser = RoutePatternParser(text: text)
        let parsed = try parser.parse()
        self.text = text
        let full = parsed.compact == nil ? parsed.expansions : nil
        self.compact = parsed.compact ?? CompactShape([])
        self.extras =
            parsed.scheme == nil && parsed.host == nil && full == nil
            ? nil : Extras(scheme: parsed.scheme, host: parsed.host, expansions: full)
    }

    public var description: String { text }

    /// A parameter of the pattern: its name, its type, and whether every shape has it.
    package struct TypedParameter: Sendable {
        package let name: String
        package let type: ParameterType
        /// Whether every shape of the pattern has it (not only those with an optional group).
        package let isInEveryShape: Bool
    }

    /// Every parameter, in the order written (read from the longest shape first), with its type and
    /// whether every shape has it: what reverse routing, redirects, typed route code and lint read
    /// of a pattern.
    package var typedParameters: [TypedParameter] {
        var order: [String] = []
        var types: [String: ParameterType] = [:]
        var counts: [String: Int] = [:]
        for expansion in expansions.stablySorted(by: { $0.count > $1.count }) {
            for case .parameter(let name, let type) in expansion {
                if types[name] == nil {
                    order.append(name)
                    types[name] = type
                }
                counts[name, default: 0] += 1
            }
        }
        return order.map { name in
            TypedParameter(name: name, type: types[name] ?? .string, isInEveryShape: counts[name] == expansions.count)
        }
    }

    /// The names of every parameter that some expansion uses, in the order they are written.
    package var parameterNames: [String] { typedParameters.map(\.name) }

    /// The first two patterns, by index, that a custom-scheme link can reach (they name no host)
    /// with shapes whose first literals differ only in case and whose other segments can match one
    /// link (`/Settings/{id:int}` and `/settings/{name}`), and that literal folded. In the host of
    /// such a link (`myapp://settings/1`) case does not count, whatever the router's
    /// ``RouterConfiguration/caseSensitive``: the walk tries the two literals in turn and takes the
    /// first that leads to a route, so neither precedence nor priority decides between them. Shapes
    /// that never match one link (`/Help` and `/help/{topic}`) are told apart by the walk.
    static func firstHostCaseCollision(_ patterns: [RoutePattern]) -> (earlier: Int, later: Int, host: String)? {
        func fold(_ literal: String) -> String {
            let hasCapital = literal.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
            return hasCapital ? String(decoding: literal.utf8.map(asciiLowercased), as: UTF8.self) : literal
        }
        // First, the folded first literals that two spellings share: most tables have none, and
        // only those make shapes to compare.
        var spelling: [String: String] = [:]
        var clashes: Set<String> = []
        for pattern in patterns where pattern.host == nil {
            for expansion in 0..<pattern.expansionCount {
                guard let literal = pattern.firstLiteral(ofExpansion: expansion) else { continue }
                let key = fold(literal)
                if let first = spelling[key], first != literal { clashes.insert(key) }
                spelling[key] = spelling[key] ?? literal
            }
        }
        guard !clashes.isEmpty else { return nil }
        // Then every shape under a clash against every earlier one spelled otherwise.
        var earlierShapes: [(pattern: Int, shape: [PatternSegment], key: String)] = []
        for (index, pattern) in patterns.enumerated() where pattern.host == nil {
            for expansion in 0..<pattern.expansionCount {
                guard let literal = pattern.firstLiteral(ofExpansion: expansion) else { continue }
                let key = fold(literal)
                guard clashes.contains(key) else { continue }
                let shape = pattern.expansion(expansion)
                for earlier in earlierShapes
                where earlier.pattern != index && earlier.key == key && earlier.shape.first != shape.first
                    && patterns[earlier.pattern].schemeOverlaps(pattern)
                    && canMatchOneLink(earlier.shape.dropFirst(), shape.dropFirst())
                {
                    return (earlier.pattern, index, key)
                }
                earlierShapes.append((index, shape, key))
            }
        }
        return nil
    }

    /// Whether some path matches both runs of segments, each segment by its kind: a literal only
    /// its text (case-sensitively: past the host), a typed parameter only text of its type, and a
    /// final `**` any rest, none included.
    static func canMatchOneLink(_ left: ArraySlice<PatternSegment>, _ right: ArraySlice<PatternSegment>) -> Bool {
        guard let first = left.first, let second = right.first else {
            // One run is done: the other must be too, or end in a `**` that may take nothing.
            return (left.first ?? right.first).map { $0 == .catchAll } ?? true
        }
        if first == .catchAll || second == .catchAll { return true }
        func accepts(_ type: ParameterType, _ literal: String) -> Bool {
            var literal = literal
            return literal.withUTF8 { SegmentMatching.accepts(RouteTrie.EdgeKind(type), $0, 0..<$0.count) }
        }
        let overlap: Bool =
            switch (first, second) {
            case (.literal(let leftText), .literal(let rightText)): leftText == rightText
            case (.literal(let text), .parameter(_, let type)), (.parameter(_, let type), .literal(let text)):
                accepts(type, text)
            // Types whose texts meet: a string takes any, and `1` is an int and a double.
            case (.parameter(_, let leftType), .parameter(_, let rightType)):
                leftType == rightType || leftType == .string || rightType == .string
                    || (leftType == .int && rightType == .double) || (leftType == .double && rightType == .int)
            default: true  // a `*` takes any one segment
            }
        return overlap && canMatchOneLink(left.dropFirst(), right.dropFirst())
    }

    /// The first segment of the shape at `index` of ``expansions`` when it is a literal, without
    /// making the shape.
    func firstLiteral(ofExpansion index: Int) -> String? {
        guard let expansions = extras?.expansions else { return index == 0 ? compact.firstLiteral(in: text) : nil }
        guard expansions.indices.contains(index), case .literal(let literal) = expansions[index].first else {
            return nil
        }
        return literal
    }

    /// Whether some link's scheme suits both patterns: either takes every scheme, or both the same.
    func schemeOverlaps(_ other: RoutePattern) -> Bool {
        scheme == nil || other.scheme == nil || scheme == other.scheme
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
