import Foundation

/// What the Apple adapters need from a dispatcher, without its generic parameters: take what
/// intake made of an entry point, say whether a link was handled, and follow the app's life cycle.
///
/// ``LinkDispatcher`` conforms; a test double can too.
///
/// ```swift
/// let dispatching: any LinkDispatching = dispatcher
/// if let id = await dispatching.receive(intake.url("myapp://pay")) {
///     let shown = await dispatching.isHandled(id, timeout: 5)   // true once the pay screen was shown
/// }
/// ```
public protocol LinkDispatching: Sendable {
    /// Takes an intake result that arrived through `scene` (`nil`: a way in without one); the
    /// link's identifier when it is a link to run.
    @discardableResult
    func receive(_ result: IntakeResult, in scene: SceneID?) async -> UUID?
    /// Waits for the link to finish; whether a route handled it. Returns (`false`) when the waiting
    /// task is cancelled.
    func isHandled(_ id: UUID) async -> Bool
    /// Waits for the link to finish, at most `timeout` seconds: whether a route handled it, and
    /// `false` when the time passes first (the link goes on). A conformer that has a clock of its own
    /// measures the time with it; the default races ``isHandled(_:)`` against a sleep, so its
    /// ``isHandled(_:)`` must return when its task is cancelled.
    func isHandled(_ id: UUID, timeout: TimeInterval) async -> Bool
    /// A scene connected, showing what `shows` names.
    func sceneDidConnect(_ scene: SceneID, shows: Set<String>) async
    /// The scene's root UI is installed.
    func sceneDidBecomeReady(_ scene: SceneID) async
    /// The scene is in the foreground.
    func sceneDidBecomeActive(_ scene: SceneID) async
    /// The scene left the foreground.
    func sceneDidEnterBackground(_ scene: SceneID) async
    /// The scene disconnected.
    func sceneDidDisconnect(_ scene: SceneID) async
}

extension LinkDispatching {
    /// Takes an intake result from a way in without a scene.
    @discardableResult
    public func receive(_ result: IntakeResult) async -> UUID? { await receive(result, in: nil) }

    /// Takes results in order (a cold start delivers several at once).
    public func receive(all results: [IntakeResult], in scene: SceneID? = nil) async {
        for result in results { await receive(result, in: scene) }
    }

    /// Takes a result and waits for it to finish: whether a route handled it, `false` when it was not
    /// a link to run, or when `timeout` seconds pass first. What a quick action's completion handler
    /// reports.
    ///
    /// ```swift
    /// completionHandler(await dispatcher.receiveAndWait(intake.shortcut(item), in: scene, timeout: 10)) // true: handled
    /// ```
    public func receiveAndWait(
        _ result: IntakeResult,
        in scene: SceneID? = nil,
        timeout: TimeInterval? = nil
    ) async
        -> Bool
    {
        guard let id = await receive(result, in: scene) else { return false }
        guard let timeout else { return await isHandled(id) }
        return await isHandled(id, timeout: timeout)
    }

    /// Waits for the link to finish, at most `timeout` seconds of real time: whether a route handled
    /// it, and `false` when the time passes first (the link goes on, and its outcome is reported as
    /// events). What a quick action's completion handler answers, which must not wait behind a login.
    ///
    /// ```swift
    /// completionHandler(await dispatcher.isHandled(id, timeout: 10))   // false after 10 s
    /// ```
    public func isHandled(_ id: UUID, timeout: TimeInterval) async -> Bool {
        await withTaskGroup(of: Bool?.self) { group in
            group.addTask { await self.isHandled(id) }
            group.addTask {
                try? await Task.sleep(nanoseconds: nanoseconds(timeout))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? false
        }
    }

    /// The root UI of ``SceneID/main`` is installed.
    public func appDidBecomeReady() async { await sceneDidBecomeReady(.main) }
    /// ``SceneID/main`` is in the foreground.
    public func appDidBecomeActive() async { await sceneDidBecomeActive(.main) }
    /// ``SceneID/main`` left the foreground.
    public func appDidEnterBackground() async { await sceneDidEnterBackground(.main) }
}

extension LinkDispatcher: LinkDispatching {
    /// Waits for the link `id` to finish, then says whether a route handled it; `false` at once for an
    /// unknown id, or when the waiting task is cancelled.
    public func isHandled(_ id: UUID) async -> Bool { await outcome(of: id)?.isHandled ?? false }

    /// Waits at most `timeout` seconds on the dispatcher's clock (``outcome(of:timeout:)``).
    public func isHandled(_ id: UUID, timeout: TimeInterval) async -> Bool {
        await outcome(of: id, timeout: timeout)?.isHandled ?? false
    }
}

extension LinkIntake {
    /// Everything a cold start delivers at once (`UIScene.ConnectionOptions` or launch options), in
    /// the order it is handled: URLs, user activities, the quick action, the notification response.
    ///
    /// ```swift
    /// intake.launchResults(urls: [url], activities: [UserActivitySnapshot](), shortcut: ShortcutItemSnapshot?.none,
    ///                      notification: NotificationResponseSnapshot?.none)
    /// ```
    public func launchResults(
        urls: [URL],
        activities: [some UserActivityRepresentable],
        shortcut: (some ShortcutItemRepresentable)?,
        notification: (some NotificationResponseRepresentable)?
    ) -> [IntakeResult] {
        var results = urls.map { url($0) }
        results += activities.map { userActivity($0) }
        if let shortcut { results.append(self.shortcut(shortcut)) }
        if let notification { results.append(self.notification(notification)) }
        return results
    }
}
