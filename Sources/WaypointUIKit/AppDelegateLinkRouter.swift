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
    /// What turns the app delegate's values into links.
    public let intake: LinkIntake
    /// Where the links go.
    public let dispatcher: any LinkDispatching

    /// A router that reads with `intake` and hands each link to `dispatcher`:
    /// `AppDelegateLinkRouter(intake: app.intake, dispatcher: app.dispatcher)`.
    public init(intake: LinkIntake, dispatcher: any LinkDispatching) {
        self.intake = intake
        self.dispatcher = dispatcher
    }

    /// `application(_:didFinishLaunchingWithOptions:)`: the launch URL and quick action. Returns
    /// what that method should return: `false` when the app was launched from a quick action, which
    /// is then handled here, so UIKit does not deliver it again to
    /// `application(_:performActionFor:completionHandler:)`.
    ///
    /// A notification in the launch options is left alone: the same tap reaches
    /// `NotificationCenterForwarder` (set it as the center's delegate before this method returns),
    /// with the request identifier that the launch options lack, and is routed once from there.
    /// A user activity likewise arrives in `application(_:continue:restorationHandler:)`.
    public func launch(_ options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let options = options ?? [:]
        let shortcut = (options[.shortcutItem] as? UIApplicationShortcutItem).map(ShortcutItemReader.init)
        forward(
            intake.launchResults(
                urls: (options[.url] as? URL).map { [$0] } ?? [],
                activities: [UserActivityReader](),
                shortcut: shortcut,
                notification: NotificationResponseReader?.none
            )
        )
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
        let result = intake.userActivity(UserActivityReader(activity))
        forward([result])
        return result.link != nil
    }

    /// `application(_:performActionFor:completionHandler:)`: the completion says whether a route
    /// handled the quick action, within 10 seconds (a link still waiting then, behind a login, answers
    /// `false` and goes on).
    public func perform(_ item: UIApplicationShortcutItem, completionHandler: @escaping @MainActor (Bool) -> Void) {
        let result = intake.shortcut(ShortcutItemReader(item))
        let dispatcher = self.dispatcher
        Task { completionHandler(await dispatcher.receiveAndWait(result, timeout: quickActionAnswerTime)) }
    }

    /// The root view controller is installed.
    public func rootInstalled() { Task { await dispatcher.appDidBecomeReady() } }
    /// `applicationDidBecomeActive(_:)`.
    public func didBecomeActive() { Task { await dispatcher.appDidBecomeActive() } }
    /// `applicationDidEnterBackground(_:)`.
    public func didEnterBackground() { Task { await dispatcher.appDidEnterBackground() } }

    /// `application(_:didDiscardSceneSessions:)`: windows the user closed (or the system
    /// discarded while the app was not running) release the links that waited for them, which
    /// then go to another window.
    public func discard(_ sessions: Set<UISceneSession>) {
        let scenes = sessions.map { SceneID($0.persistentIdentifier) }
        let dispatcher = self.dispatcher
        Task { for scene in scenes { await dispatcher.sceneDidDisconnect(scene) } }
    }

    private func forward(_ results: [IntakeResult]) {
        let dispatcher = self.dispatcher
        Task { await dispatcher.receive(all: results) }
    }
}

/// How long a quick action's completion handler waits for its link: one that waits longer (behind a
/// login) answers `false`, and goes on.
let quickActionAnswerTime: TimeInterval = 10
#endif
