/// Collects routes, then validates them and freezes them into a ``Router``.
///
/// ```swift
/// var builder = RouterBuilder<Screen>(configuration: .init(linkScheme: "myapp"))
/// try builder.add("messages.detail", "/messages/{id:int}", value: .chat)
/// try builder.add("requests.detail", "/request/{id:int}", value: .request)
/// let router = try builder.build()
/// router.match(try DeepLink("myapp://messages/1"))?.route.name // "messages.detail"
/// ```
public struct RouterBuilder<Value: Sendable> {
    /// How the built router compares segments and builds links.
    public var configuration: RouterConfiguration
    /// The routes added so far, in registration order.
    public private(set) var routes: [Route<Value>] = []

    /// An empty builder.
    public init(configuration: RouterConfiguration = RouterConfiguration()) {
        self.configuration = configuration
    }

    /// Parses `pattern` and adds a route; a bad pattern throws here, naming the position.
    @discardableResult
    public mutating func add(
        _ name: String,
        _ pattern: String,
        priority: Int = 0,
        sources: Set<LinkSource>? = nil,
        value: Value
    ) throws(WaypointError) -> Route<Value> {
        let route = Route(
            name: name,
            pattern: try RoutePattern(pattern),
            priority: priority,
            sources: sources,
            value: value
        )
        routes.append(route)
        return route
    }

    /// Adds a route whose pattern is already parsed.
    public mutating func add(_ route: Route<Value>) {
        routes.append(route)
    }

    /// Validates the table and freezes it.
    ///
    /// Fails on two routes with one name, on duplicates (the same shape after normalization, with the
    /// same scheme or host restriction, whatever the parameter names), and on ambiguity: two routes
    /// that match the same links at the same precedence and priority. Give one a higher `priority`
    /// to settle an ambiguity. Fails too on a ``RouterConfiguration/linkScheme`` that is no custom
    /// scheme (`myapp://`, `https`, `javascript`), which would make every link built without a style
    /// unreadable or not the app's.
    public func build() throws(WaypointError) -> Router<Value> {
        if let scheme = configuration.linkScheme, let problem = LinkPolicy.appSchemeProblem(scheme) {
            throw WaypointError(.invalidScheme, input: scheme, message: "The router's linkScheme: \(problem)")
        }
        var indexByName = RouteNameIndex(capacity: routes.count)
        for index in routes.indices {
            let route = routes[index]
            if let earlier = indexByName.insert(route.name, at: index, name: { routes[$0].name }) {
                throw WaypointError(
                    .duplicateName,
                    names: [routes[earlier].name, route.name],
                    message: "Two routes are named '\(route.name)' ('\(routes[earlier].pattern)' and "
                        + "'\(route.pattern)'); route names must be unique."
                )
            }
        }
        if configuration.caseSensitive { try checkHostPositionCase() }
        var trie = RouteTrie.Builder(caseSensitive: configuration.caseSensitive)
        for index in routes.indices {
            let route = routes[index]
            let origin = trie.origin(RouteTrie.Origin(route.pattern))
            for expansionIndex in 0..<route.pattern.expansionCount {
                let node = trie.node(for: route.pattern, expansion: expansionIndex)
                try trie.forEachTerminal(at: node) { (existing) throws(WaypointError) in
                    try check(routes[Int(existing.route)], against: route, expansion: expansionIndex)
                }
                trie.addTerminal(
                    RouteTrie.Terminal(
                        route: UInt32(index),
                        origin: origin,
                        expansion: UInt8(truncatingIfNeeded: expansionIndex)
                    ),
                    at: node
                )
            }
        }
        return Router(
            routes: routes,
            configuration: configuration,
            trie: trie.freeze(priorities: routes.map { $0.priority }),
            indexByName: indexByName
        )
    }

    /// Two routes a custom-scheme link's host cannot tell apart (`RoutePattern.firstHostCaseCollision`).
    private func checkHostPositionCase() throws(WaypointError) {
        guard let (earlier, later, host) = RoutePattern.firstHostCaseCollision(routes.map(\.pattern)) else {
            return
        }
        let (first, second) = (routes[earlier], routes[later])
        let scheme = second.pattern.scheme ?? first.pattern.scheme ?? configuration.linkScheme ?? "myapp"
        throw WaypointError(
            .ambiguousRoutes,
            names: [first.name, second.name],
            message: "Routes '\(first.name)' ('\(first.pattern)') and '\(second.name)' ('\(second.pattern)') are "
                + "ambiguous: a link can match both, as their first segments differ only in case and a "
                + "custom-scheme link carries that segment in its host (\(scheme)://\(host)), where case does not "
                + "count; rename one."
        )
    }

    private func check(
        _ earlier: Route<Value>,
        against later: Route<Value>,
        expansion: Int
    ) throws(WaypointError) {
        let (first, second) = (earlier.pattern, later.pattern)
        // Made only when there is something to report.
        var shapeText: String { "/" + second.expansion(expansion).map(\.shape).joined(separator: "/") }
        if first.scheme == second.scheme, first.host == second.host {
            throw WaypointError(
                .duplicateRoute,
                names: [earlier.name, later.name],
                message: "Routes '\(earlier.name)' ('\(first)') and '\(later.name)' ('\(second)') are duplicates: "
                    + "both have the shape \(shapeText)."
            )
        }
        let hostsOverlap = first.host.flatMap { left in second.host.map { left.overlaps($0) } } ?? true
        if first.schemeOverlaps(second), hostsOverlap, earlier.priority == later.priority {
            throw WaypointError(
                .ambiguousRoutes,
                names: [earlier.name, later.name],
                message: "Routes '\(earlier.name)' ('\(first)') and '\(later.name)' ('\(second)') are ambiguous: "
                    + "both match \(shapeText) at priority \(later.priority); give one a higher priority."
            )
        }
    }
}

extension RouterBuilder where Value == Void {
    /// Adds a route that carries no value.
    @discardableResult
    public mutating func add(
        _ name: String,
        _ pattern: String,
        priority: Int = 0,
        sources: Set<LinkSource>? = nil
    ) throws(WaypointError) -> Route<Void> {
        try add(name, pattern, priority: priority, sources: sources, value: ())
    }
}
