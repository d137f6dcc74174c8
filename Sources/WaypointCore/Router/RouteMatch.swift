import Foundation

/// A route that matched a link, with what the link carried.
///
/// Parameter values are decoded from the link's bytes when asked for: a match keeps only the byte
/// ranges it captured (inline for up to four), so making one usually allocates nothing.
///
/// ```swift
/// let match = try router.match("tests://route/matches/with/wildcard")!   // route "/route/{param}/**"
/// match.parameters["param"] // .string("matches")
/// match.wildcards           // ["with", "wildcard"]
/// ```
public struct RouteMatch<Value: Sendable>: Sendable {
    /// The router's routes and the index of the one that matched: a match retains the table
    /// instead of copying a route, which keeps matching cheap.
    @usableFromInline let table: [Route<Value>]
    @usableFromInline let routeIndex: Int
    /// What the app attached to the route that matched: `route.value`, without touching the route.
    public let value: Value
    /// The link that was matched.
    public let link: DeepLink
    /// Which of the pattern's ``RoutePattern/expansions`` matched.
    public let expansion: Int
    @usableFromInline let captures: CapturedRanges

    @inlinable
    init(
        table: [Route<Value>],
        routeIndex: Int,
        value: Value,
        link: DeepLink,
        expansion: Int,
        captures: CapturedRanges
    ) {
        self.table = table
        self.routeIndex = routeIndex
        self.value = value
        self.link = link
        self.expansion = expansion
        self.captures = captures
    }

    /// The same match over `link`, which has the same text (another scene, say): its captures
    /// are byte ranges of that text.
    func over(_ link: DeepLink) -> Self {
        Self(table: table, routeIndex: routeIndex, value: value, link: link, expansion: expansion, captures: captures)
    }

    /// The route that matched.
    @inlinable public var route: Route<Value> { table[routeIndex] }

    /// The concrete shape that matched.
    public var segments: [PatternSegment] { route.pattern.expansion(expansion) }

    /// The named path parameters, typed as the pattern declares.
    public var parameters: RouteParameters {
        link.withBytes { bytes in
            var entries: [(String, ParameterValue)] = []
            var capture = 0
            for segment in segments {
                switch segment {
                case .literal: continue
                case .wildcard, .catchAll: capture += 1
                case .parameter(let name, let type):
                    entries.append((name, Self.value(of: type, bytes, captures[capture])))
                    capture += 1
                }
            }
            return RouteParameters(entries)
        }
    }

    /// What `*` and `**` captured, in order, one string per segment: decoded, empty segments dropped.
    public var wildcards: [String] {
        link.withBytes { bytes in
            var values: [String] = []
            var capture = 0
            for segment in segments {
                switch segment {
                case .literal: continue
                case .parameter: capture += 1
                case .wildcard:
                    values.append(decodeComponent(bytes, captures[capture]))
                    capture += 1
                case .catchAll:
                    // The captured path's segments, by the rule that split the link's.
                    let captured = captures[capture]
                    var splitter = SegmentSplitter(pathStart: captured.lowerBound)
                    for index in captured where bytes[index] == UInt8(ascii: "/") {
                        if let segment = splitter.slash(at: index) { values.append(decodeComponent(bytes, segment)) }
                    }
                    if let last = splitter.end(at: captured.upperBound) { values.append(decodeComponent(bytes, last)) }
                    capture += 1
                }
            }
            return values
        }
    }

    /// The link's decoded query items, in order.
    public var queryItems: [QueryItem] { link.queryItems }

    /// The link's decoded fragment.
    public var fragment: String? { link.fragment }

    /// How the link came into the app.
    public var source: LinkSource { link.source }

    static func value(
        of type: ParameterType,
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>
    ) -> ParameterValue {
        // The walk already checked the type, so each conversion succeeds; the string fallback only
        // keeps this total.
        switch type {
        case .int:
            if let value = SegmentMatching.parseInt(DecodedBytes(bytes, range)) { return .int(value) }
        case .bool:
            if let value = SegmentMatching.parseBool(DecodedBytes(bytes, range)) { return .bool(value) }
        case .uuid:
            if let value = UUID(uuidString: decodeComponent(bytes, range)) { return .uuid(value) }
        case .double:
            if let value = Double(decodeComponent(bytes, range)) { return .double(value) }
        case .string:
            break
        }
        return .string(decodeComponent(bytes, range))
    }
}
