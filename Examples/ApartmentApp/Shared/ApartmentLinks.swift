// Scenario 1 of DESIGN.md: the apartment-booking app's links, shared by the UIKit and SwiftUI apps.
import Foundation
import Waypoint

enum Screen: Hashable, Sendable {
    case recentActivity, messages
    case chat(Int)
    case request(Int)
    case newListing
}

enum Profile: String, Sendable {
    case guest, host
}

/// Everything about links, built once at launch: route table, policy, intake, dispatcher, catalogs.
struct ApartmentLinks: Sendable {
    let resolver: LinkResolver<Screen>
    let intake: LinkIntake
    let dispatcher: LinkDispatcher<Screen, Screen>
    let quickActions: QuickActionCatalog<Profile>

    init(pendingLinks store: any PendingLinkStore) throws {
        var builder = RouterBuilder<Screen>(configuration: RouterConfiguration(linkScheme: "deeplinkTutorial"))
        try builder.add("activity", "/activity", value: .recentActivity)
        try builder.add("messages", "/messages", value: .messages)
        try builder.add("messages.detail", "/messages/{id:int}", value: .chat(0))
        try builder.add("request.detail", "/request/{id:int}", value: .request(0))
        try builder.add("listing.new", "/listings/new", value: .newListing)
        let policy = LinkPolicy(schemes: ["deeplinkTutorial"], associatedDomains: ["apartments.example.com"])
        resolver = LinkResolver(router: try builder.build(), policy: policy)
        quickActions = QuickActionCatalog([
            QuickAction(type: "activity", title: "Recent activity", iconName: "clock", link: "/activity"),
            QuickAction(type: "messages", title: "Messages", iconName: "message", link: "/messages"),
            QuickAction(type: "listing.new", title: "New listing", iconName: "plus", link: "/listings/new") {
                $0 == .host
            },
        ])
        intake = LinkIntake(
            policy: policy,
            notificationRules: [NotificationRule(.present("data.messageId"), link: "/messages/{data.messageId}")],
            shortcutRoutes: quickActions.linkTemplates
        )
        dispatcher = LinkDispatcher(resolver: resolver, store: store)
    }

    /// Route handlers: every route becomes a screen pushed over the home screen, so Back returns home.
    func registerHandlers(
        isLoggedIn: @escaping @Sendable () async -> Bool,
        presentLogin: @escaping @Sendable () async -> Bool
    ) async {
        await dispatcher.handleOtherRoutes { match in
            var screen = match.value
            if let id = match.parameters.int("id") {
                switch screen {
                case .chat: screen = .chat(id)
                case .request: screen = .request(id)
                default: break
                }
            }
            return .handled(.pushOverRoot(screen))
        }
        await dispatcher.register(
            Barrier("host") { _ in
                await isLoggedIn() ? .passed : .needsCheck
            } check: { _ in
                await presentLogin()
            }
        )
        await dispatcher.protect("listing.new", with: ["host"])
        await dispatcher.restorePendingLinks()
    }
}
