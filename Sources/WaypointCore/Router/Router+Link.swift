extension Router {
    /// Builds the link that leads to a route: reverse routing, for share links, notification
    /// payloads and tests. Resolving the result, by a source the route takes, gives the same route
    /// with equal parameters: a link that another route would take by such a source
    /// (`/users/{name}` with `new`, when `/users/new` is a route) is an error, `shadowedRoute`, not
    /// a link that opens the wrong screen.
    ///
    /// ```swift
    /// try router.link(for: "messages.detail", ["id": 42]).string   // "myapp://messages/42"
    /// try router.link(for: "search", ["q": "lamps"]).string         // "myapp://search?q=lamps"
    /// try router.link(for: "pay", ["order_id": 123], style: .universal(host: "example.com")).string
    /// // "https://example.com/pay?order_id=123": `pay` takes only universal links
    /// ```
    ///
    /// - Parameters:
    ///   - name: The route's name.
    ///   - parameters: Values for the path parameters; values the pattern has no place for become
    ///     query items, sorted by name. With optional groups, the longest shape whose parameters
    ///     are all given is built; a value for a group that cannot be built (another of its values,
    ///     or a `*` value, is missing) is an error, not a query item the route would not read.
    ///     A segment's value may not be `.` or `..`, which browsers remove from a path.
    ///   - wildcards: One value for each `*`, then the segments for `**`.
    ///   - fragment: A fragment to append.
    ///   - style: The link's form; by default the pattern's own prefix, else
    ///     ``RouterConfiguration/linkScheme``. A route that takes only universal links needs
    ///     `.universal(host:)`: the router does not know the app's associated domains, so the
    ///     host is the caller's to choose (a host off them builds a web link the app does not open).
    public func link(
        for name: String,
        _ parameters: [String: ParameterValue] = [:],
        wildcards: [String] = [],
        fragment: String? = nil,
        style: LinkStyle? = nil
    ) throws(WaypointError) -> DeepLink {
        guard let routeIndex = indexByName.find(name, name: { routes[$0].name }) else {
            throw WaypointError(.unknownRoute, names: [name], message: "No route is named '\(name)'.")
        }
        let pattern = routes[routeIndex].pattern
        func failure(_ code: WaypointError.Code, _ reason: String) -> WaypointError {
            WaypointError(code, names: [name], message: "Route '\(name)' ('\(pattern)') \(reason)")
        }
        let (expansionIndex, expansion) = try chooseExpansion(pattern, parameters, wildcards, failure)
        var segments: [String] = []
        var used: Set<String> = []
        var remainingWildcards = wildcards[...]
        for segment in expansion {
            switch segment {
            case .literal(let text):
                segments.append(text)
            case .parameter(let parameterName, let type):
                // `chooseExpansion` only returns shapes whose parameters are all given.
                guard let value = parameters[parameterName] else {
                    throw failure(.missingParameter, "needs a value for '\(parameterName)'.")
                }
                segments.append(try text(of: value, as: type, parameterName, failure))
                used.insert(parameterName)
            case .wildcard:
                guard let value = remainingWildcards.popFirst(), !value.isEmpty else {
                    throw failure(.missingParameter, "needs a non-empty value for each '*'.")
                }
                try refuseDotSegment(value, "'*'", failure)
                segments.append(value)
            case .catchAll:
                guard remainingWildcards.allSatisfy({ !$0.isEmpty }) else {
                    throw failure(.invalidParameter, "cannot build an empty segment for '**'.")
                }
                for value in remainingWildcards { try refuseDotSegment(value, "'**'", failure) }
                segments.append(contentsOf: remainingWildcards)
                remainingWildcards = []
            }
        }
        guard remainingWildcards.isEmpty else {
            throw failure(.invalidParameter, "has no '*' or '**' for the wildcard values \(Array(remainingWildcards)).")
        }
        let query = parameters.filter { !used.contains($0.key) }.map { $0 }.stablySorted { $0.key < $1.key }.map {
            QueryItem(name: $0.key, value: $0.value.stringValue)
        }
        let (scheme, host) = try origin(for: pattern, style: style, failure)
        let isWeb = scheme == "https" || scheme == "http"
        // Only a web link arrives as a universal link or as `.web`: a custom-scheme link to a route
        // that takes nothing else would be refused by every way in.
        if !isWeb, let sources = routes[routeIndex].sources,
            sources.allSatisfy({ $0 == .universalLink || $0 == .web })
        {
            throw failure(
                .originMismatch,
                "takes links only from \(sources.map(\.rawValue).stablySorted().joined(separator: ", ")), which a "
                    + "\(scheme) link never arrives as: pass style: .universal(host:) with one of the app's domains."
            )
        }
        let link: DeepLink
        do {
            link = try DeepLink(scheme: scheme, host: host, segments: segments, query: query, fragment: fragment)
        } catch {
            throw failure(.invalidLink, "builds an invalid link: \(error.message)")
        }
        // The router reads the link back, as the resolver will: a literal route (`/users/new`) or a
        // typed sibling (`/items/{id:int}` for the slug `42`) may take it first, and no spelling of
        // the same values reaches this route past them. Another route counts only if the link can
        // reach it by a source this route takes too (`sources:`; only a web link arrives as a
        // universal link or as `.web`). Whether this route takes the sources a link can come by is
        // its caller's to say (`waypoint payload` names the source it refuses).
        let target = routes[routeIndex].sources
        let opened = candidates(for: link).first { match in
            match.routeIndex == routeIndex
                || LinkSource.allCases.contains { source in
                    (isWeb || (source != .universalLink && source != .web)) && target?.contains(source) ?? true
                        && match.route.sources?.contains(source) ?? true
                }
        }
        guard let opened, opened.routeIndex == routeIndex, opened.expansion == expansionIndex else {
            let taker =
                opened.map {
                    $0.routeIndex == routeIndex
                        ? "the route in another of its shapes, with other values"
                        : "route '\($0.route.name)' ('\($0.route.pattern)')"
                } ?? "no route"
            throw failure(.shadowedRoute, "cannot be reached with these values: \(link) opens \(taker).")
        }
        return link
    }

    /// The longest of the pattern's shapes whose parameters are all given and whose `*`s the
    /// wildcards fill, with its index in ``RoutePattern/expansions``.
    private func chooseExpansion(
        _ pattern: RoutePattern,
        _ parameters: [String: ParameterValue],
        _ wildcards: [String],
        _ failure: (WaypointError.Code, String) -> WaypointError
    ) throws(WaypointError) -> (index: Int, segments: [PatternSegment]) {
        func names(_ expansion: [PatternSegment]) -> [String] {
            expansion.compactMap { segment in
                if case .parameter(let name, _) = segment { return name }
                return nil
            }
        }
        func missing(_ expansion: [PatternSegment]) -> [String] { names(expansion).filter { parameters[$0] == nil } }
        func wildcardsFit(_ expansion: [PatternSegment]) -> Bool {
            let singles = expansion.filter { $0 == .wildcard }.count
            let hasRest = expansion.contains(.catchAll)
            return hasRest ? wildcards.count >= singles : wildcards.count == singles
        }
        let expansions = pattern.expansions
        let ranked = expansions.stablySorted { $0.count > $1.count }
        // A pattern's shapes are distinct (the parser refuses a duplicate), so a shape names its index.
        if let best = ranked.first(where: { missing($0).isEmpty && wildcardsFit($0) }),
            let bestIndex = expansions.firstIndex(of: best)
        {
            // A path parameter the chosen shape lacks would go to the query, where the route does
            // not read it: its group needs values that were not given.
            let chosen = names(best)
            for expansion in expansions {
                for name in names(expansion) where parameters[name] != nil && !chosen.contains(name) {
                    throw failure(
                        .missingParameter,
                        "puts '\(name)' in its path only with the rest of its optional group: give the group's "
                            + "other values (and one value per '*'), or leave '\(name)' out."
                    )
                }
            }
            return (bestIndex, best)
        }
        if let closest = ranked.min(by: { missing($0).count < missing($1).count }), !missing(closest).isEmpty {
            let names = missing(closest).map { "'\($0)'" }.joined(separator: ", ")
            throw failure(.missingParameter, "needs a value for \(names).")
        }
        throw failure(
            .missingParameter,
            "needs \(expansions.map { $0.filter { $0 == .wildcard }.count }.min() ?? 0) wildcard value(s), got \(wildcards.count)."
        )
    }

    private func text(
        of value: ParameterValue,
        as type: ParameterType,
        _ name: String,
        _ failure: (WaypointError.Code, String) -> WaypointError
    ) throws(WaypointError) -> String {
        var text = value.stringValue
        // A typed value fits when the router reads its text back as that type (the trie's one rule),
        // so a built link always matches: `Double.infinity` writes `inf`, which is no number in a link.
        let fits =
            type == .string
            ? !text.isEmpty
            : !text.utf8.contains(UInt8(ascii: "%"))
                && text.withUTF8 { SegmentMatching.accepts(RouteTrie.EdgeKind(type), $0, 0..<$0.count) }
        guard fits else {
            let expected = type == .string ? "a non-empty value" : "a value of type \(type)"
            throw failure(.invalidParameter, "needs \(expected) for '\(name)', got '\(text)'.")
        }
        if type == .string { try refuseDotSegment(text, "'\(name)'", failure) }
        return type == .bool ? text.lowercased() : text
    }

    /// A segment `.` or `..` is a step in the path to browsers and URL libraries (`URL.standardized`,
    /// WHATWG, even as `%2E%2E`), which remove it: `/promo/..` would open `/`, another screen.
    private func refuseDotSegment(
        _ value: String,
        _ place: String,
        _ failure: (WaypointError.Code, String) -> WaypointError
    ) throws(WaypointError) {
        guard value == "." || value == ".." else { return }
        throw failure(
            .invalidParameter,
            "cannot put '\(value)' in a segment for \(place): browsers and URL libraries remove it as a step in the "
                + "path, and the link would open another address."
        )
    }

    private func origin(
        for pattern: RoutePattern,
        style: LinkStyle?,
        _ failure: (WaypointError.Code, String) -> WaypointError
    ) throws(WaypointError) -> (scheme: String, host: String?) {
        let chosen: (String, String?)
        switch style {
        case .scheme(let scheme):
            if let problem = LinkPolicy.appSchemeProblem(scheme) {
                throw failure(.invalidScheme, "cannot be built: \(problem)")
            }
            chosen = (scheme.lowercased(), nil)
        // The host as given: `DeepLink(scheme:host:…)` refuses one that is no host name before it
        // lowers its letters (lowering first would make the Kelvin sign a `k`).
        case .universal(let host): chosen = ("https", host)
        case nil:
            if let host = pattern.host {
                guard !host.includesSubdomains else {
                    throw failure(
                        .missingScheme,
                        "accepts any subdomain of \(host.domain); pass style: .universal(host:)."
                    )
                }
                chosen = (pattern.scheme ?? "https", host.domain)
            } else if let scheme = pattern.scheme ?? configuration.linkScheme {
                chosen = (scheme, nil)
            } else {
                throw failure(
                    .missingScheme,
                    "names no scheme; pass a style or set RouterConfiguration.linkScheme."
                )
            }
        }
        let isWeb = chosen.0 == "http" || chosen.0 == "https"
        let host = chosen.1
        guard pattern.acceptsOrigin(scheme: chosen.0, host: isWeb ? host : nil) else {
            throw failure(.originMismatch, "does not accept \(chosen.0) links\(host.map { " on \($0)" } ?? "").")
        }
        return chosen
    }
}
