import UIKit
import UserNotifications
import Waypoint
import WaypointUIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    /// `nil` only if the app's own setup has a mistake (a bad pattern, a barrier nobody supplies),
    /// which `Tools/AdapterCheck` catches by building it in CI; a damaged store is
    /// reported through the dispatcher's events.
    let links = try? ApartmentLinks(
        pendingLinks: try PendingLinkStorage.store(),
        isHost: { await Session.shared.isHost },
        logInAsHost: { await Session.shared.logInAsHost() }
    )
    private(set) var notificationForwarder: NotificationCenterForwarder?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        guard let links else { return true }
        let forwarder = NotificationCenterForwarder(intake: links.intake, dispatcher: links.dispatcher)
        UNUserNotificationCenter.current().delegate = forwarder
        notificationForwarder = forwarder
        CatalogInstaller.installQuickActions(links.quickActionItems(for: .guest), in: application)
        CatalogInstaller.installCategories(links.notificationCategories)
        return true
    }

    /// Windows closed in the app switcher, or discarded while the app was not running: links that
    /// waited for them go to another window.
    func application(_ application: UIApplication, didDiscardSceneSessions sceneSessions: Set<UISceneSession>) {
        guard let links else { return }
        AppDelegateLinkRouter(intake: links.intake, dispatcher: links.dispatcher).discard(sceneSessions)
    }
}
