import Foundation

// `indirect`: the values of each case live in one box, so code that copies or switches over an outcome
// moves one word, whatever the payload's layout (2 KB less machine code for a device; Scripts/measure-core.sh).
/// What happened to a link: the one vocabulary of the dispatcher's events (``DispatchEvent/Kind/finished(_:)``),
/// ``LinkDispatcher/outcome(of:timeout:)`` and the app's logs. Every received link ends in exactly one
/// outcome, reported once, with its reason.
///
/// ```swift
/// await dispatcher.outcome(of: id)  // .handled(route: "messages.detail", plan: .pushOverRoot(.chat(1)))
/// await dispatcher.outcome(of: id)  // .barrierFailed(barrier: "auth"): the user did not log in
/// ```
public indirect enum DispatchOutcome<Destination: Hashable & Sendable>: Sendable, Hashable {
    /// A route's handler handled it; the plan went to the navigator once.
    case handled(route: String, plan: NavigationPlan<Destination>)
    /// Routes matched, and every handler declined.
    case declined
    /// The link is the app's, but no route matches.
    case notFound
    /// Policy refused it.
    case forbidden(reason: String)
    /// Not the app's: handed to the pass-through handler to open outside.
    case passThrough
    /// The input could not become a link (or names a notification action with no handler).
    case invalid(message: String)
    /// A push provider's own push (a silent sync, an in-app message trigger), or a button it sent
    /// that opens no link and has no action handler ("Open app"): nothing to open and nothing
    /// wrong, so no fallback runs.
    case notForRouting(message: String)
    /// The handler failed.
    case failed(route: String, message: String)
    /// The handler did not complete in time; a late completion is ignored.
    case timedOut(route: String)
    /// A barrier refused the link.
    case barrierRejected(barrier: String, reason: String)
    /// A barrier's check failed or was cancelled (the user did not log in).
    case barrierFailed(barrier: String)
    /// A barrier's evaluation or check did not answer in time.
    case barrierTimedOut(barrier: String)
    /// The same delivery is already waiting or running, or is a notification request that already
    /// ran (see ``LinkDispatcher/receive(_:identity:)``).
    case deduplicated
    /// It waited longer than ``DispatcherConfiguration/maximumPendingAge`` and was not run; `age`
    /// counts the wall clock too, so time the device slept is included.
    case expired(age: TimeInterval)
    /// A newer link replaced it while it waited (latest-wins).
    case superseded
    /// The first-in-first-out queue was full.
    case dropped
    /// Cancelled while waiting or running.
    case cancelled
    /// A handler redirected the link to another (`to`, its text), which then ended as `outcome`:
    /// the original link is the one the events name, so both are reported.
    case redirected(to: String, outcome: DispatchOutcome<Destination>)
    /// A redirect could not be followed: a loop, a chain past the bound, or a target that is not a
    /// link. The reason names the chain.
    case redirectFailed(reason: String)

    /// Whether a route handled the link: `.handled`, directly or at the end of redirects.
    public var isHandled: Bool { final.isHandledHere }

    /// The outcome at the end of any redirects.
    public var final: Self {
        if case .redirected(_, let outcome) = self { return outcome.final }
        return self
    }

    private var isHandledHere: Bool {
        if case .handled = self { return true }
        return false
    }
}
