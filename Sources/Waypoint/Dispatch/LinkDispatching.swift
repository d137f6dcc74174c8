import Foundation

/// What the Apple adapters need from a dispatcher, without its generic parameters: take what
/// intake made of an entry point, say whether a link was handled, and follow the app's life cycle.
///
/// ``LinkDispatcher`` conforms; a test double can too.
public protocol LinkDispatching: Sendable {
    /// Takes an intake result; the link's identifier when it is a link to run.
    @discardableResult
    func receive(_ result: IntakeResult) async -> UUID?
    /// Waits for the link to finish; whether a route handled it.
    func isHandled(_ id: UUID) async -> Bool
    /// The root UI is installed.
    func appDidBecomeReady() async
    /// The app is in the foreground.
    func appDidBecomeActive() async
    /// The app left the foreground.
    func appDidEnterBackground() async
}

extension LinkDispatching {
    /// Takes results in order (a cold start delivers several at once).
    public func receive(all results: [IntakeResult]) async {
        for result in results { await receive(result) }
    }

    /// Takes a result and waits for it to finish: whether a route handled it, `false` when it was not
    /// a link to run. What a quick action's completion handler reports.
    ///
    /// ```swift
    /// completionHandler(await dispatcher.receiveAndWait(intake.shortcut(item))) // true: a route handled it
    /// ```
    public func receiveAndWait(_ result: IntakeResult) async -> Bool {
        guard let id = await receive(result) else { return false }
        return await isHandled(id)
    }
}

extension LinkDispatcher: LinkDispatching {
    public func isHandled(_ id: UUID) async -> Bool { await outcome(of: id)?.isHandled ?? false }
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
