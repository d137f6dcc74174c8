import Foundation

/// One step in the life of a link, for analytics and logs.
///
/// Every received link produces `.received` first and `.finished(outcome)` last, exactly once; what
/// happened to it is said once, by its ``DispatchOutcome``, and the steps between say how it got
/// there. Input that never became a link to run (a push that is not for routing, text that is not a
/// link, a notification action with no handler) produces `.finished` alone.
///
/// ```swift
/// for await event in await dispatcher.events() {
///     if case .finished(let outcome) = event.kind { log("\(event.link?.string ?? "") → \(outcome)") }
/// }
/// ```
public struct DispatchEvent<Destination: Hashable & Sendable>: Sendable {
    /// The steps; `.finished` carries the outcome.
    public enum Kind: Sendable, Hashable {
        /// The link arrived: the first event of every link received in this process (a link restored
        /// from the store is counted by ``restored(count:)`` instead).
        case received
        /// Waiting until the app (or the link's scene) is ready and active and a navigator is set.
        case heldUntilReady
        /// The scene the link waited or ran in disconnected before it was shown: the link goes to
        /// another scene, or waits for one.
        case sceneDisconnected(scene: SceneID)
        /// A route takes the link; its barriers, then its handler, come next.
        case matched(route: String)
        /// A barrier's check is under way (the login screen is up).
        case waitingOnBarrier(barrier: String)
        /// The barrier let the link go on, at once or after its check.
        case barrierPassed(barrier: String)
        /// Handed to the route's handler.
        case dispatched(route: String)
        /// The route's handler declined: the next route that takes the link is tried.
        case declined(route: String)
        /// The route's handler redirected the link to another (its text), which runs next.
        case redirected(route: String, to: String)
        /// The not-found, pass-through or forbidden handler did not return within the handler
        /// timeout; the link's outcome stands and the next link runs.
        case outcomeHandlerTimedOut(outcome: String)
        /// A notification was dismissed.
        case dismissed(action: String)
        /// A notification action ran the app's action handler.
        case actionInvoked(action: String)
        /// Links restored from the pending store at launch.
        case restored(count: Int)
        /// The pending store was damaged or could not be written; the message says what was done.
        case storeProblem(message: String)
        /// What happened to the link, once: its final outcome.
        case finished(DispatchOutcome<Destination>)
    }

    /// What happened.
    public let kind: Kind
    /// The dispatcher's identifier for the link, when the event concerns one.
    public let linkID: UUID?
    /// The link, when the event concerns one.
    public let link: DeepLink?
    /// Wall-clock time of the event.
    public let date: Date
    /// Seconds since the link was received (0 for events about no link).
    public let elapsed: TimeInterval

    /// Where the link came from.
    public var source: LinkSource? { link?.source }
}
