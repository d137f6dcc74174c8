// Scenario 1: the apartment-booking app's links, shared by the UIKit and SwiftUI apps.
//
// The manifest is the one source: every route with its presentation, the redirect of old chat links,
// the host barrier's wait, the quick actions, the notification category and the push provider are in
// Examples/Manifests/apartments.yaml. `AppRoute` and its link setup (WaypointRoutes.swift) are
// generated from it; the Swift below is the one thing the manifest cannot say: which screen each
// route shows, and how the app logs in.
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

/// Everything about links, built once at launch, before any link can arrive.
struct ApartmentLinks: Sendable {
    let intake = AppRoute.intake
    let dispatcher: LinkDispatcher<Screen>

    /// - Parameters:
    ///   - isHost: whether the user is logged in as a host, asked when a host-only link runs.
    ///   - logInAsHost: presents the login; `true` when the user logged in.
    ///   - markRead: the notification action "Mark as read", which runs without opening a screen.
    init(
        pendingLinks store: any PendingLinkStore,
        isHost: @escaping @Sendable () async -> Bool,
        logInAsHost: @escaping @Sendable () async -> Bool,
        markRead: @escaping @Sendable (NotificationActionInvocation) async -> Void = { _ in }
    ) throws {
        let host = Barrier("host") { _ in
            await isHost() ? .passed : .needsCheck
        } check: { _ in
            await logInAsHost()
        }
        // One handler: the screen of each route. Adding a route to the manifest without a screen
        // here does not compile.
        dispatcher = try AppRoute.makeDispatcher(
            barriers: [host],
            fallbacks: LinkFallbacks(actions: ["markRead": markRead]),
            store: store
        ) { route in
            switch route {
            case .activity: .recentActivity
            case .messages: .messages
            case .messagesDetail(let id): .chat(id)
            case .requestDetail(let id): .request(id)
            case .listingNew: .newListing
            }
        }
    }

    /// The quick actions a profile sees (the manifest's `when: {profile: host}`).
    func quickActionItems(for profile: Profile) -> [QuickActionItem] {
        AppRoute.quickActions.items(for: ["profile": profile.rawValue])
    }

    /// The notification categories to register at launch.
    var notificationCategories: NotificationCategoryCatalog { AppRoute.notificationCategories }
}
