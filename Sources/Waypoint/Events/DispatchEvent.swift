import Foundation

/// One step in the life of a link, for analytics and logs.
///
/// Every received link produces `.received` first and `.finished(outcome)` last, exactly once.
///
/// ```swift
/// for await event in await dispatcher.events() {
///     log("\(event.kind) \(event.link?.string ?? "") after \(event.elapsed)s")
/// }
/// ```
public struct DispatchEvent<Destination: Hashable & Sendable>: Sendable {
    public enum Kind: Sendable, Hashable {
        case received
        /// Policy refused the link at receipt.
        case rejectedByPolicy(reason: String)
        /// The input could not become a link.
        case invalid(message: String)
        /// A push provider's own push (a silent sync, an in-app message trigger): nothing to open.
        case notForRouting(message: String)
        /// Waiting until the app (or the link's scene) is ready and active and a navigator is set.
        case heldUntilReady
        /// The scene the link waited or ran in disconnected before it was shown: the link goes to
        /// another scene, or waits for one.
        case sceneDisconnected(scene: SceneID)
        case matched(route: String)
        case notFound
        case waitingOnBarrier(barrier: String)
        case barrierPassed(barrier: String)
        case barrierRejected(barrier: String, reason: String)
        case barrierFailed(barrier: String)
        case barrierTimedOut(barrier: String)
        /// Handed to the route's handler.
        case dispatched(route: String)
        case declined(route: String)
        case handled(route: String)
        /// The route's handler redirected the link to another (its text), which runs next.
        case redirected(route: String, to: String)
        case failed(route: String, message: String)
        case timedOut(route: String)
        /// The same delivery is already waiting or running (or, for a notification, already ran).
        case deduplicated
        /// The link waited longer than the configuration's maximum pending age and is not run.
        case expired(age: TimeInterval)
        /// The not-found, pass-through or forbidden handler did not return within the handler
        /// timeout; the link's outcome stands and the next link runs.
        case outcomeHandlerTimedOut(outcome: String)
        case cancelled
        /// A notification was dismissed.
        case dismissed(action: String)
        /// A notification action ran the app's action handler.
        case actionInvoked(action: String)
        /// Links restored from the pending store at launch.
        case restored(count: Int)
        /// The pending store was damaged or could not be written; the message says what was done.
        case storeProblem(message: String)
        /// The link's final outcome.
        case finished(DispatchOutcome<Destination>)
    }

    public let kind: Kind
    /// The dispatcher's identifier for the link, when the event concerns one.
    public let linkID: UUID?
    public let link: DeepLink?
    /// Wall-clock time of the event.
    public let date: Date
    /// Seconds since the link was received (0 for events about no link).
    public let elapsed: TimeInterval

    /// Where the link came from.
    public var source: LinkSource? { link?.source }
}
