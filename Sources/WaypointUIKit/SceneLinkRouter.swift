#if canImport(UIKit)
import Foundation
import UIKit
import UserNotifications
import Waypoint

/// Forwards every entry point of a scene-based app to Waypoint. Create one, keep it in the scene
/// delegate, and call it from each callback; every decision is made in the core.
///
/// ```swift
/// func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
///     window = …; window?.makeKeyAndVisible()
///     links.connect(connectionOptions)
///     links.rootInstalled()
/// }
/// ```
@MainActor
public final class SceneLinkRouter {
    public let intake: LinkIntake
    public let dispatcher: any LinkDispatching

    public init(intake: LinkIntake, dispatcher: any LinkDispatching) {
        self.intake = intake
        self.dispatcher = dispatcher
    }

    /// `scene(_:willConnectTo:options:)`: the cold-start URLs, activities, quick action and
    /// notification response. The same response also reaches the notification center delegate; the
    /// dispatcher runs it once.
    public func connect(_ options: UIScene.ConnectionOptions) {
        let results = intake.launchResults(
            urls: options.urlContexts.map(\.url),
            activities: options.userActivities.map(UserActivityReader.init),
            shortcut: options.shortcutItem.map(ShortcutItemReader.init),
            notification: options.notificationResponse.map(NotificationResponseReader.init)
        )
        forward(results)
    }

    /// The root view controller is installed: held links may navigate.
    public func rootInstalled() { Task { await dispatcher.appDidBecomeReady() } }

    /// `sceneDidBecomeActive(_:)`.
    public func didBecomeActive() { Task { await dispatcher.appDidBecomeActive() } }

    /// `sceneWillResignActive(_:)` / `sceneDidEnterBackground(_:)`.
    public func didEnterBackground() { Task { await dispatcher.appDidEnterBackground() } }

    /// `scene(_:openURLContexts:)`.
    public func open(_ contexts: Set<UIOpenURLContext>) { forward(contexts.map { intake.url($0.url) }) }

    /// `scene(_:continue:)`.
    public func `continue`(_ activity: NSUserActivity) { forward([intake.userActivity(UserActivityReader(activity))]) }

    /// `windowScene(_:performActionFor:completionHandler:)`: the completion says whether a route
    /// handled the quick action.
    public func perform(_ item: UIApplicationShortcutItem, completionHandler: @escaping @MainActor (Bool) -> Void) {
        let result = intake.shortcut(ShortcutItemReader(item))
        let dispatcher = self.dispatcher
        Task { completionHandler(await dispatcher.receiveAndWait(result)) }
    }

    private func forward(_ results: [IntakeResult]) {
        let dispatcher = self.dispatcher
        Task { await dispatcher.receive(all: results) }
    }
}
#endif
