import Waypoint

extension Manifest {
    /// The link policy the manifest describes.
    public func makePolicy() -> LinkPolicy {
        LinkPolicy(
            schemes: Set(schemes),
            associatedDomains: domains.map { DomainPattern($0) },
            deniedSchemes: Set(policy.denySchemes),
            deniedHosts: policy.denyHosts.map { DomainPattern($0) },
            passThroughSchemes: Set(policy.passThroughSchemes),
            passThroughHosts: policy.passThroughHosts.map { DomainPattern($0) },
            limits: policy.limits
        )
    }

    /// How the manifest's router compares and builds links: its case rule and first scheme.
    var routerConfiguration: RouterConfiguration {
        RouterConfiguration(caseSensitive: policy.caseSensitive, linkScheme: schemes.first)
    }

    /// The router, with each route's manifest entry as its value. Duplicate or ambiguous routes are
    /// an error at the later route's line.
    public func makeRouter() throws(ManifestError) -> Router<ManifestRoute> {
        var builder = RouterBuilder<ManifestRoute>(configuration: routerConfiguration)
        for route in routes { builder.add(route.routerRoute) }
        do {
            return try builder.build()
        } catch {
            let culprit = routes.last { error.names.contains($0.name) }
            throw ManifestError(error.description, at: culprit?.location)
        }
    }

    /// Policy and router together.
    public func makeResolver() throws(ManifestError) -> LinkResolver<ManifestRoute> {
        LinkResolver(router: try makeRouter(), policy: makePolicy())
    }

    /// The intake the manifest describes: notification rules and categories, quick actions,
    /// activities, web messages.
    public func makeIntake() -> LinkIntake {
        LinkIntake(
            policy: makePolicy(),
            linkKeys: notifications.linkKeys,
            notificationProviders: notifications.providers,
            notificationRules: notifications.rules.map(\.rule),
            notificationCategories: NotificationCategoryCatalog(notifications.categories),
            notificationSettingsLink: notifications.settingsLink,
            shortcutRoutes: Dictionary(
                quickActions.map { ($0.item.type, $0.link) },
                uniquingKeysWith: { first, _ in first }
            ),
            activityRoutes: Dictionary(activities.map { ($0.type, $0.link) }, uniquingKeysWith: { first, _ in first }),
            webMessages: webView.messages,
            webOrigins: webView.origins.map { DomainPattern($0) }
        )
    }

    /// The quick actions to install for an app state (`["profile": "host"]`), at most the limit.
    public func quickActionItems(for state: [String: String]) -> [QuickActionItem] {
        Array(quickActions.filter { $0.isShown(for: state) }.map(\.item).prefix(quickActionLimit))
    }
}

extension ManifestRoute {
    /// The name the app maps to a screen: the route's `destination:`, else its name.
    public var destinationKey: String { destination ?? name }
}

extension Manifest {
    /// The app's dispatcher, from the manifest in full: every route with its barriers, sources,
    /// priority, and a plan that selects its `tab:` and shows its `destination:` as its
    /// `presentation:` says (by default pushed over the root). What
    /// `waypoint resolve` reports for a link is what this dispatcher does with it. A destination
    /// closure that throws fails the link (``DispatchOutcome/failed(route:message:)``).
    ///
    /// ```swift
    /// let dispatcher: LinkDispatcher<Screen> = try ManifestLoader.load(file: path).makeDispatcher(
    ///     destinations: ["chat": { .chat($0.parameters.int("id") ?? 0) }, "payment": { _ in .pay }],
    ///     barriers: [Barrier("auth") { _ in await session.isLoggedIn ? .passed : .needsCheck }]
    /// )
    /// // WaypointError when a route names a barrier not supplied, leads to a destination not mapped,
    /// // or a `handler: true` notification action has no action handler in `fallbacks.actions`
    /// ```
    ///
    /// - Parameter destinations: The app's screen for each destination name the manifest uses (a
    ///   route without `destination:` uses its own name), built from the match.
    public func makeDispatcher<Destination: Hashable & Sendable>(
        destinations: [String: @Sendable (LinkRoute<Destination>.Match) throws -> Destination],
        barriers: [Barrier] = [],
        mandatoryBarriers: [MandatoryBarrier] = [],
        fallbacks: LinkFallbacks = LinkFallbacks(),
        configuration: DispatcherConfiguration = DispatcherConfiguration(),
        store: any PendingLinkStore = InMemoryPendingLinkStore(),
        clock: any DispatchClock = SystemDispatchClock()
    ) throws(WaypointError) -> LinkDispatcher<Destination> {
        let mapped = destinations.keys.sorted().joined(separator: ", ")
        // Checked here first for the manifest's hint (the nearest pattern); the dispatcher checks the
        // same rule again. Against a router of its own only when there is a redirect.
        if routes.contains(where: { $0.redirect != nil }), let router = try? makeRouter(),
            let (route, message) = redirectProblems(router, maximumRedirects: configuration.maximumRedirects).first
        {
            throw WaypointError(.invalidRedirect, names: [route.name], message: "\(route.location): \(message)")
        }
        var routes: [LinkRoute<Destination>] = []
        for route in self.routes {
            var declared: LinkRoute<Destination>
            if let redirect = route.redirect {
                declared = LinkRoute(
                    route.name,
                    route.pattern.text,
                    barriers: route.barriers,
                    sources: route.sources,
                    priority: route.priority,
                    sceneRole: route.scene,
                    redirectingTo: redirect
                )
            } else {
                guard let screen = destinations[route.destinationKey] else {
                    throw WaypointError(
                        .unknownDestination,
                        message: "The route '\(route.name)' (\(route.location)) leads to the destination "
                            + "'\(route.destinationKey)', which the app did not map "
                            + (mapped.isEmpty ? "(no destinations are mapped)." : "(mapped: \(mapped)).")
                    )
                }
                let (tab, presentation) = (route.tab, route.presentation)
                declared = LinkRoute(
                    route.name,
                    route.pattern.text,
                    barriers: route.barriers,
                    sources: route.sources,
                    priority: route.priority,
                    sceneRole: route.scene
                ) { match in .handled(presentation.plan(try screen(match), tab: tab)) }
            }
            declared.location = "\(route.location)"
            routes.append(declared)
        }
        let used = Set(self.routes.filter { $0.redirect == nil }.map(\.destinationKey))
        if let unused = destinations.keys.sorted().first(where: { !used.contains($0) }) {
            throw WaypointError(
                .unknownDestination,
                message: "The app maps the destination '\(unused)', which no route of \(file) leads to."
            )
        }
        do {
            try NotificationCategoryCatalog(notifications.categories).checkHandlers(fallbacks)
        } catch {
            throw WaypointError(error.code, names: error.names, message: "\(file): \(error.message)")
        }
        var configuration = configuration
        for (name, setting) in barrierWaits { configuration.barrierWaits[name] = setting.wait }
        do {
            return try LinkDispatcher(
                routes: routes,
                policy: makePolicy(),
                router: routerConfiguration,
                barriers: barriers,
                mandatoryBarriers: mandatoryBarriers,
                fallbacks: fallbacks,
                configuration: configuration,
                store: store,
                clock: clock
            )
        } catch  where error.code == .unknownBarrier && error.names.count == 1 {
            // A wait the manifest sets on a barrier the app did not supply: point at the manifest's line.
            let location = error.names.first.flatMap { barrierWaits[$0]?.location }
            throw WaypointError(
                error.code,
                names: error.names,
                message: (location.map { "\($0): " } ?? "") + error.message
            )
        }
    }
}
