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
            let culprit = routes.last { error.routes.contains($0.name) }
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
