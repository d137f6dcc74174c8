/// An immutable route table that matches links. Built by ``RouterBuilder``; safe to share between
/// threads and tasks.
///
/// Matching walks a trie, so its cost grows with the link's segments, not the number of routes.
/// Precedence is deterministic: at each segment a literal beats a typed parameter (`int`, `uuid`,
/// `bool`, `double`, in that order), which beats an untyped parameter, then `*`, then `**`; routes
/// ending at the same place are ordered by priority (higher first), then registration order. An
/// exact route beats `**` capturing nothing. Where a branch fails further down, the walk backtracks
/// to the next candidate.
///
/// ```swift
/// let match = router.match(try DeepLink("myapp://messages/1?ref=push"))
/// match?.route.name          // "messages.detail"
/// match?.value               // Screen.chat: what the route was added with
/// match?.parameters.int("id") // 1
/// match?.link.queryValue("ref") // "push"
/// ```
public struct Router<Value: Sendable>: Sendable {
    /// Every route, in registration order.
    public let routes: [Route<Value>]
    /// How segments compare and links are built.
    public let configuration: RouterConfiguration
    @usableFromInline let trie: RouteTrie
    /// Each route's value, by route index, side by side: a match reads its value here instead of
    /// from the route's own storage, which on a large table is a cache miss per lookup.
    @usableFromInline let values: [Value]
    let indexByName: RouteNameIndex

    init(routes: [Route<Value>], configuration: RouterConfiguration, trie: RouteTrie, indexByName: RouteNameIndex) {
        self.routes = routes
        self.configuration = configuration
        self.trie = trie
        self.values = routes.map { $0.value }
        self.indexByName = indexByName
    }

    /// The route with this name.
    public func route(named name: String) -> Route<Value>? {
        indexByName.find(name, name: { routes[$0].name }).map { routes[$0] }
    }

    /// The best match for a link, or `nil` when no route matches.
    ///
    /// Matching reads the link's text only: a route's ``Route/sources`` and the policy are applied
    /// by ``LinkResolver`` (and so by `LinkDispatcher`), which an app should route through.
    ///
    /// Allocates nothing for a miss, nor for a hit whose route captures at most four values.
    @inlinable
    public func match(_ link: DeepLink) -> RouteMatch<Value>? {
        var first = FirstMatch()
        walk(link, &first)
        guard let found = first.found else { return nil }
        return makeMatch(found.terminal, link, found.captures)
    }

    /// Parses `string` strictly and matches it. Like ``match(_:)``, it ignores the routes'
    /// ``Route/sources``: `source` only labels the link (``DeepLink/source``).
    ///
    /// ```swift
    /// try router.match("myapp:///pay?order_id=123")?.route.name // "pay"
    /// ```
    public func match(_ string: String, source: LinkSource = .text) throws(WaypointError) -> RouteMatch<Value>? {
        match(try DeepLink(string, source: source))
    }

    /// Every match for a link in precedence order: the first is what ``match(_:)`` returns;
    /// when its handler declines, the next one is tried.
    public func candidates(for link: DeepLink) -> [RouteMatch<Value>] {
        var every = EveryMatch()
        walk(link, &every)
        return every.found.map { makeMatch($0.terminal, link, $0.captures) }
    }

    /// The matches whose route takes links from the link's source, in precedence order (the first
    /// only, unless `every`), and the first route that matched but refuses the source: one walk.
    func sourceAcceptedMatches(
        for link: DeepLink,
        every: Bool
    ) -> (matches: [RouteMatch<Value>], refused: Route<Value>?) {
        var visitor = SourceAcceptedMatches(routes: routes, source: link.source, every: every)
        walk(link, &visitor)
        return (
            visitor.found.map { makeMatch($0.terminal, link, $0.captures) },
            visitor.refused.map { routes[$0] }
        )
    }

    @inlinable
    func makeMatch(
        _ terminal: RouteTrie.Terminal,
        _ link: DeepLink,
        _ captures: CapturedRanges
    ) -> RouteMatch<Value> {
        RouteMatch(
            table: routes,
            routeIndex: Int(terminal.route),
            value: values[Int(terminal.route)],
            link: link,
            expansion: Int(terminal.expansion),
            captures: captures
        )
    }

    /// Prepares the link's segments on the stack and walks the trie.
    @inlinable
    func walk<Visitor: TerminalVisitor>(_ link: DeepLink, _ visitor: inout Visitor) {
        let components = link.components
        link.withBytes { bytes in
            let count = components.segmentCount
            // Segments and captures share one temporary buffer: at most one capture per segment,
            // plus an empty `**` capture at the end.
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: 2 * count + 1) { buffer in
                var filled = 0
                components.forEachSegment(bytes) { range, _ in
                    buffer[filled] = range
                    filled += 1
                }
                let segments = UnsafeMutableBufferPointer(rebasing: buffer[0..<filled])
                let captures = UnsafeMutableBufferPointer(rebasing: buffer[filled..<(2 * filled + 1)])
                let input = MatchInput(
                    bytes: bytes,
                    segments: segments,
                    firstFromHost: components.hostSegment != nil,
                    scheme: components.scheme,
                    host: components.host
                )
                trie.walk(input, captures: captures, &visitor)
            }
        }
    }
}
