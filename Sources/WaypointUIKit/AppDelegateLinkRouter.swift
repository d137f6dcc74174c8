#if canImport(UIKit)
import Foundation
import UIKit
import UserNotifications
import Waypoint

/// Forwards the entry points of an app-delegate app (no scenes) to Waypoint.
///
/// ```swift
/// func application(_ application: UIApplication,
///                  didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
///     links.launch(launchOptions)
/// }
/// ```
@MainActor
public final class AppDelegateLinkRouter {
    public let intake: LinkIntake
    public let dispatcher: any LinkDispatching

    public init(intake: LinkIntake, dispatcher: any LinkDispatching) {
        self.intake = intake
        self.dispatcher = dispatcher
    }

    /// `application(_:didFinishLaunchingWithOptions:)`. Returns what that method should return:
    /// `false` when the app was launched from a quick action, which is then handled here, so UIKit
    /// does not deliver it a second time to `application(_:performActionFor:completionHandler:)`.
    public func launch(_ options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let options = options ?? [:]
        let shortcut = (options[.shortcutItem] as? UIApplicationShortcutItem)?.waypointSnapshot
        var results = intake.launchResults(
            urls: (options[.url] as? URL).map { [$0] } ?? [],
            activities: [NSUserActivity](),
            shortcut: shortcut,
            notification: UNNotificationResponse?.none
        )
        if let remote = options[.remoteNotification] as? [AnyHashable: Any] {
            results.append(
                intake.notification(NotificationResponseSnapshot(userInfo: (try? PayloadValue(any: remote)) ?? .null))
            )
        }
        forward(results)
        return shortcut == nil
    }

    /// `application(_:open:options:)`. Returns whether the link is being handled by Waypoint.
    public func open(_ url: URL) -> Bool {
        let result = intake.url(url)
        forward([result])
        return result.link != nil
    }

    /// `application(_:continue:restorationHandler:)`.
    public func `continue`(_ activity: NSUserActivity) -> Bool {
        let result = intake.userActivity(activity)
        forward([result])
        return result.link != nil
    }

    /// `application(_:performActionFor:completionHandler:)`.
    public func perform(_ item: UIApplicationShortcutItem, completionHandler: @escaping @MainActor (Bool) -> Void) {
        let result = intake.shortcut(item.waypointSnapshot)
        let dispatcher = self.dispatcher
        Task { completionHandler(await dispatcher.receiveAndWait(result)) }
    }

    /// The root view controller is installed.
    public func rootInstalled() { Task { await dispatcher.appDidBecomeReady() } }
    /// `applicationDidBecomeActive(_:)`.
    public func didBecomeActive() { Task { await dispatcher.appDidBecomeActive() } }
    /// `applicationDidEnterBackground(_:)`.
    public func didEnterBackground() { Task { await dispatcher.appDidEnterBackground() } }

    private func forward(_ results: [IntakeResult]) {
        let dispatcher = self.dispatcher
        Task { await dispatcher.receive(all: results) }
    }
}
#endif
