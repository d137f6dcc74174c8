// Scenario 1: the apartment-booking app's links, shared by the UIKit and SwiftUI apps.
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

/// Everything about links, built once at launch, before any link can arrive: the routes with what
/// each becomes, the policy, intake, the dispatcher and the quick-action catalog.
struct ApartmentLinks: Sendable {
    let intake: LinkIntake
    let dispatcher: LinkDispatcher<Screen>
    let quickActions: QuickActionCatalog<Profile>

    /// - Parameters:
    ///   - isHost: whether the user is logged in as a host, asked when a host-only link runs.
    ///   - logInAsHost: presents the login; `true` when the user logged in.
    init(
        pendingLinks store: any PendingLinkStore,
        isHost: @escaping @Sendable () async -> Bool,
        logInAsHost: @escaping @Sendable () async -> Bool
    ) throws {
        let policy = LinkPolicy(schemes: ["deeplinkTutorial"], associatedDomains: ["apartments.example.com"])
        // Every route is pushed over the home screen, so Back returns home.
        dispatcher = try LinkDispatcher(
            routes: [
                LinkRoute("activity", "/activity") { _ in .pushOverRoot(.recentActivity) },
                LinkRoute("messages", "/messages") { _ in .pushOverRoot(.messages) },
                LinkRoute("messages.detail", "/messages/{id:int}") { match in
                    .pushOverRoot(.chat(match.parameters.int("id") ?? 0))
                },
                LinkRoute("request.detail", "/request/{id:int}") { match in
                    .pushOverRoot(.request(match.parameters.int("id") ?? 0))
                },
                LinkRoute("listing.new", "/listings/new", barriers: ["host"]) { _ in .pushOverRoot(.newListing) },
            ],
            policy: policy,
            router: RouterConfiguration(linkScheme: "deeplinkTutorial"),
            barriers: [
                Barrier("host") { _ in
                    await isHost() ? .passed : .needsCheck
                } check: { _ in
                    await logInAsHost()
                }
            ],
            store: store
        )
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
    }
}
