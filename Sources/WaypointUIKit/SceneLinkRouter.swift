#if canImport(UIKit)
import Foundation
import UIKit
import UserNotifications
import Waypoint

/// Forwards every entry point of one scene (window) to Waypoint. Create one per scene, keep it in
/// the scene delegate, and call it from each callback; every decision is made in the core. Each
/// link it forwards is shown by this scene, and its readiness and activity are this scene's, so
/// an app with several windows routes each link to the window it arrived in.
///
/// ```swift
/// func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
///     links = SceneLinkRouter(intake: app.intake, dispatcher: app.dispatcher, scene: scene)
///     window = …; window?.makeKeyAndVisible()
///     Task { await app.dispatcher.setNavigator({ plan, _ in await navigator.show(plan) }, for: links.scene) }
///     links.connect(connectionOptions)
///     links.rootInstalled()
/// }
/// func sceneDidDisconnect(_ scene: UIScene) { links.disconnect() }
/// ```
@MainActor
public final class SceneLinkRouter {
    /// What turns the scene's values into links.
    public let intake: LinkIntake
    /// Where the links go, as this scene's.
    public let dispatcher: any LinkDispatching
    /// The scene this router forwards for.
    public let scene: SceneID
    /// The last forwarding task: each waits for the one before, so the dispatcher hears this
    /// scene's callbacks in the order UIKit made them (a link before the scene's disconnection).
    private var last: Task<Void, Never>?

    /// A router for one scene; ``SceneID/main`` for an app with one window that does not name it.
    public init(intake: LinkIntake, dispatcher: any LinkDispatching, scene: SceneID = .main) {
        self.intake = intake
        self.dispatcher = dispatcher
        self.scene = scene
    }

    /// A router for `scene`, named by its session's `persistentIdentifier`, which a restored window
    /// keeps, so it gets back the links it had pending when the process was killed.
    public convenience init(intake: LinkIntake, dispatcher: any LinkDispatching, scene: UIScene) {
        self.init(intake: intake, dispatcher: dispatcher, scene: SceneID(scene.session.persistentIdentifier))
    }

    /// `scene(_:willConnectTo:options:)`: the scene connects, showing what `shows` names (target
    /// content identifiers and route roles), and its cold-start URLs, activities, quick action and
    /// notification response are its own. The same response also reaches the notification center
    /// delegate; the dispatcher runs it once.
    public func connect(_ options: UIScene.ConnectionOptions, shows: Set<String> = []) {
        let results = intake.launchResults(
            urls: options.urlContexts.map(\.url),
            activities: options.userActivities.map(UserActivityReader.init),
            shortcut: options.shortcutItem.map(ShortcutItemReader.init),
            notification: options.notificationResponse.map(NotificationResponseReader.init)
        )
        tell { dispatcher, scene in
            await dispatcher.sceneDidConnect(scene, shows: shows)
            await dispatcher.receive(all: results, in: scene)
        }
    }

    /// The scene's root view controller is installed: its held links may navigate.
    public func rootInstalled() { tell { await $0.sceneDidBecomeReady($1) } }

    /// `sceneDidBecomeActive(_:)`.
    public func didBecomeActive() { tell { await $0.sceneDidBecomeActive($1) } }

    /// `sceneWillResignActive(_:)` / `sceneDidEnterBackground(_:)`.
    public func didEnterBackground() { tell { await $0.sceneDidEnterBackground($1) } }

    /// `sceneDidDisconnect(_:)`: links waiting for this scene go to another or wait for one.
    public func disconnect() { tell { await $0.sceneDidDisconnect($1) } }

    /// `scene(_:openURLContexts:)`.
    public func open(_ contexts: Set<UIOpenURLContext>) { forward(contexts.map { intake.url($0.url) }) }

    /// `scene(_:continue:)`.
    public func `continue`(_ activity: NSUserActivity) { forward([intake.userActivity(UserActivityReader(activity))]) }

    /// `windowScene(_:performActionFor:completionHandler:)`: the completion says whether a route
    /// handled the quick action, within 10 seconds (a link still waiting then, behind a login, answers
    /// `false` and goes on).
    public func perform(_ item: UIApplicationShortcutItem, completionHandler: @escaping @MainActor (Bool) -> Void) {
        let result = intake.shortcut(ShortcutItemReader(item))
        tell { dispatcher, scene in
            let id = await dispatcher.receive(result, in: scene)
            // Waiting for the outcome happens outside the chain: a quick action held until the
            // scene is ready must not hold back the callback that makes it ready.
            Task { @MainActor in
                var handled = false
                if let id { handled = await dispatcher.isHandled(id, timeout: quickActionAnswerTime) }
                completionHandler(handled)
            }
        }
    }

    private func forward(_ results: [IntakeResult]) {
        tell { dispatcher, scene in await dispatcher.receive(all: results, in: scene) }
    }

    private func tell(_ event: @escaping @Sendable (any LinkDispatching, SceneID) async -> Void) {
        let (dispatcher, scene, previous) = (self.dispatcher, self.scene, last)
        last = Task {
            await previous?.value
            await event(dispatcher, scene)
        }
    }
}
#endif
