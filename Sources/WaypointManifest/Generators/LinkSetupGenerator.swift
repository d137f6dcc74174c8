import Waypoint

/// Swift source for everything else the manifest says about links, beside the typed routes: the
/// policy, the intake, the quick actions, the notification categories, the barrier waits and the
/// route table, as static members of the generated enum. An app builds its dispatcher from them
/// with one handler, a `switch` over the enum that gives each route's screen; no YAML is read at
/// run time, and a manifest mistake fails the build.
///
/// ```swift
/// // generated
/// extension AppRoute {
///     public static let policy = LinkPolicy(schemes: ["myapp"], …)
///     public static let intake = LinkIntake(policy: policy, …)
///     public static func makeDispatcher<Screen>(…, screen: …) throws(WaypointError) -> LinkDispatcher<Screen>
/// }
/// // the app
/// let dispatcher = try AppRoute.makeDispatcher(barriers: [auth]) { route in
///     switch route {
///     case .messagesDetail(let id): .chat(id)
///     case .home: .home
///     }
/// }
/// ```
struct LinkSetupGenerator {
    let manifest: Manifest
    let typeName: String
    /// The manifest file's name, for the locations routes carry into setup errors.
    let fileName: String

    func lines() throws(ManifestError) -> [String] {
        // What building the dispatcher would refuse fails the build instead, at the manifest's line.
        let router = try manifest.makeRouter()
        if let (route, message) = manifest.redirectProblems(router).first {
            throw ManifestError(message, at: route.location)
        }
        let policy = manifest.makePolicy()
        let categories = NotificationCategoryCatalog(manifest.notifications.categories)
        let intake = try SwiftSource.intake(
            manifest.makeIntake(),
            policy: "policy",
            categories: categories.categories.isEmpty ? "NotificationCategoryCatalog()" : "notificationCategories"
        )
        let configuration = manifest.routerConfiguration
        let waits = manifest.barrierWaits.mapValues { "\($0.wait)" }
        var lines = [
            "",
            "/// What \(fileName) says about links beside its routes, and the route table built from it.",
            "extension \(typeName) {",
            "    /// The link policy: the app's schemes and domains, and the links denied or passed through.",
            "    public static let policy = \(SwiftSource.policy(policy).continued)",
            "",
            "    /// How the routes compare and build links.",
            "    public static let routerConfiguration = "
                + SwiftSource.call(
                    "RouterConfiguration",
                    [
                        ("caseSensitive", "false", configuration.caseSensitive),
                        ("linkScheme", SwiftSource.optional(configuration.linkScheme), configuration.linkScheme == nil),
                    ]
                ),
            "",
            "    /// The notification categories, for the UIKit adapter to register and intake to tell actions apart.",
            "    public static let notificationCategories = NotificationCategoryCatalog("
                + (categories.categories.isEmpty
                    ? ")" : SwiftSource.list(categories.categories.map(SwiftSource.category)).continued + ")"),
            "",
            "    /// Intake: the payload keys and push providers read, notification rules, quick actions,",
            "    /// activities and web messages.",
            "    public static let intake = \(intake.continued)",
            "",
            "    /// The home-screen quick actions, each shown for the app states its `when:` names",
            "    /// (`quickActions.items(for: [\"profile\": \"host\"])`).",
            "    public static let quickActions = QuickActionCatalog<[String: String]>(",
            "        \(SwiftSource.list(manifest.quickActions.map(quickAction)).continued.continued),",
            "        maximumVisible: \(manifest.quickActionLimit)",
            "    )",
            "",
            "    /// How long, in seconds, links wait on each barrier's check (``DispatcherConfiguration/barrierWaits``).",
            "    public static let barrierWaits: [String: Double] = \(SwiftSource.dictionary(waits) { $0 }.continued)",
            "",
        ]
        lines += routeTable()
        lines += dispatcher()
        lines.append("}")
        return lines
    }

    private func quickAction(_ action: ManifestQuickAction) -> String {
        let item = action.item
        let call = SwiftSource.call(
            "QuickAction",
            multiline: true,
            [
                ("type", SwiftSource.string(item.type), false),
                ("title", SwiftSource.string(item.title), false),
                ("subtitle", SwiftSource.optional(item.subtitle), item.subtitle == nil),
                ("iconName", SwiftSource.optional(item.iconName), item.iconName == nil),
                (
                    "userInfo",
                    item.userInfo.isEmpty
                        ? "[:]"
                        : "["
                            + item.userInfo.keys.sorted().map {
                                "\(SwiftSource.string($0)): \(SwiftSource.payload(item.userInfo[$0] ?? .null))"
                            }.joined(separator: ", ") + "]",
                    item.userInfo.isEmpty
                ),
                ("link", SwiftSource.string(action.link.text), false),
            ]
        )
        guard !action.conditions.isEmpty else { return call }
        // Shown when every key holds one of its values: ManifestQuickAction.isShown(for:), as code.
        let tests = action.conditions.keys.sorted().map { key in
            "state[\(SwiftSource.string(key))].map(\(SwiftSource.strings(action.conditions[key] ?? [])).contains) == true"
        }
        return call + " { state in\n    " + tests.joined(separator: " && ") + "\n}"
    }

    /// `linkRoutes(screen:)`: one ``LinkRoute`` per manifest route, in the manifest's order.
    private func routeTable() -> [String] {
        var lines = [
            "    /// The routes: each shows the app's screen for its case as the manifest presents it (in its",
            "    /// `tab:`), behind its barriers, for its sources; a `redirect:` route leads to its target.",
            "    public static func linkRoutes<Screen: Hashable & Sendable>(",
            "        screen: @escaping @Sendable (\(typeName)) async throws -> Screen",
            "    ) -> [LinkRoute<Screen>] {",
            "        let routes: [LinkRoute<Screen>] = [",
        ]
        for route in manifest.routes {
            var arguments: [SwiftSource.Argument] = [
                ("barriers", SwiftSource.strings(route.barriers), route.barriers.isEmpty),
                (
                    "sources",
                    "[" + (route.sources ?? []).map { "." + $0.rawValue }.sorted().joined(separator: ", ") + "]",
                    route.sources == nil
                ),
                ("priority", "\(route.priority)", route.priority == 0),
                ("sceneRole", SwiftSource.optional(route.scene), route.scene == nil),
            ]
            let head = "LinkRoute(\(SwiftSource.string(route.name)), \(SwiftSource.string(route.pattern.text))"
            if let redirect = route.redirect {
                arguments.append(("redirectingTo", SwiftSource.string(redirect.text), false))
                lines.append("            \(head), \(SwiftSource.labelled(arguments).joined(separator: ", "))),")
                continue
            }
            let rest = SwiftSource.labelled(arguments).joined(separator: ", ")
            let plan = SwiftSource.call(
                "NavigationPlan",
                [
                    ("destination", "try await screen(\(typeName)(matching: match))", false),
                    ("presentation", ".\(route.presentation.rawValue)", route.presentation == .pushOverRoot),
                    ("tab", SwiftSource.optional(route.tab), route.tab == nil),
                ]
            )
            lines += [
                "            \(head)\(rest.isEmpty ? "" : ", " + rest)) { match in",
                "                .handled(\(plan))",
                "            },",
            ]
        }
        let locations = manifest.routes.map {
            SwiftSource.string("\(fileName):\($0.location.line):\($0.location.column)")
        }
        lines += [
            "        ]",
            "        // Where each route is declared, so a setup error names the manifest's line.",
            "        let locations: [String] = \(SwiftSource.list(locations).continued.continued)",
            "        return zip(routes, locations).map { route, location in",
            "            var route = route",
            "            route.location = location",
            "            return route",
            "        }",
            "    }",
            "",
        ]
        return lines
    }

    /// `makeDispatcher(…, screen:)`: the dispatcher over ``routeTable()``, with the manifest's policy,
    /// router configuration and barrier waits, the app's barriers and handlers checked against it.
    private func dispatcher() -> [String] {
        [
            "    /// The app's dispatcher: the manifest's routes, policy and barrier waits, with the app's",
            "    /// barriers and fallbacks; `screen` gives each route's screen. Throws ``WaypointError`` for a",
            "    /// barrier a route or a wait names that `barriers` lacks, or an action handler missing or extra.",
            "    public static func makeDispatcher<Screen: Hashable & Sendable>(",
            "        barriers: [Barrier] = [],",
            "        mandatoryBarriers: [MandatoryBarrier] = [],",
            "        fallbacks: LinkFallbacks = LinkFallbacks(),",
            "        configuration: DispatcherConfiguration = DispatcherConfiguration(),",
            "        store: any PendingLinkStore = InMemoryPendingLinkStore(),",
            "        clock: any DispatchClock = SystemDispatchClock(),",
            "        screen: @escaping @Sendable (\(typeName)) async throws -> Screen",
            "    ) throws(WaypointError) -> LinkDispatcher<Screen> {",
            "        try notificationCategories.checkHandlers(fallbacks)",
            "        var configuration = configuration",
            "        configuration.barrierWaits.merge(barrierWaits) { _, manifest in manifest }",
            "        return try LinkDispatcher(",
            "            routes: linkRoutes(screen: screen),",
            "            policy: policy,",
            "            router: routerConfiguration,",
            "            barriers: barriers,",
            "            mandatoryBarriers: mandatoryBarriers,",
            "            fallbacks: fallbacks,",
            "            configuration: configuration,",
            "            store: store,",
            "            clock: clock",
            "        )",
            "    }",
        ]
    }
}

extension String {
    /// A multi-line expression continued after `let x = ` at one level in: its later lines indented.
    fileprivate var continued: String {
        split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { $0.offset == 0 ? String($0.element) : "    " + $0.element }.joined(separator: "\n")
    }
}
