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
        // Checked against a router of its own only when there is a redirect: the dispatcher builds one too.
        if routes.contains(where: { $0.redirect != nil }), let router = try? makeRouter(),
            let (route, message) = redirectProblems(router).first
        {
            throw WaypointError(.invalidRedirect, names: [route.name], message: "\(route.location): \(message)")
        }
        var routes: [LinkRoute<Destination>] = []
        for route in self.routes {
            let handler: LinkRoute<Destination>.Handler
            if let redirect = route.redirect {
                handler = { match in
                    .redirect(to: try redirect.redirectTarget(parameters: match.parameters, link: match.link))
                }
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
                handler = { match in .handled(presentation.plan(try screen(match), tab: tab)) }
            }
            var declared = LinkRoute<Destination>(
                route.name,
                route.pattern.text,
                barriers: route.barriers,
                sources: route.sources,
                priority: route.priority,
                sceneRole: route.scene,
                handler: handler
            )
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
        let handlerActions = notifications.categories.flatMap(\.actions).filter { $0.target == .handler }.map(\.id)
        if let unhandled = handlerActions.first(where: { fallbacks.actions[$0] == nil }) {
            throw WaypointError(
                .unknownAction,
                message: "The notification action '\(unhandled)' of \(file) runs an action handler "
                    + "(handler: true), which the app did not give in fallbacks.actions."
            )
        }
        if let stray = fallbacks.actions.keys.sorted().first(where: { !handlerActions.contains($0) }) {
            throw WaypointError(
                .unknownAction,
                message: "The app gives an action handler for '\(stray)', which no notification action of \(file) "
                    + "declares with handler: true."
            )
        }
        var (barriers, mandatoryBarriers) = (barriers, mandatoryBarriers)
        let supplied = (barriers + mandatoryBarriers.map(\.barrier)).map(\.name).sorted().joined(separator: ", ")
        for (name, setting) in barrierWaits.sorted(by: { $0.key < $1.key }) {
            if let index = mandatoryBarriers.firstIndex(where: { $0.barrier.name == name }) {
                mandatoryBarriers[index].barrier.maximumWait = setting.wait
                continue
            }
            guard let index = barriers.firstIndex(where: { $0.name == name }) else {
                throw WaypointError(
                    .unknownBarrier,
                    names: [name],
                    message: "The manifest (\(setting.location)) sets how long links wait on the barrier '\(name)', "
                        + "which the app did not supply "
                        + (supplied.isEmpty ? "(no barriers are supplied)." : "(supplied: \(supplied)).")
                )
            }
            barriers[index].maximumWait = setting.wait
        }
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
    }
}
