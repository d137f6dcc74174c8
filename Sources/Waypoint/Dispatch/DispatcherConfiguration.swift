import Foundation

/// Timing and queueing rules of a ``LinkDispatcher``. Every argument has a default.
///
/// ```swift
/// let configuration = DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 8), handlerTimeout: 5)
/// ```
public struct DispatcherConfiguration: Sendable, Hashable {
    /// What happens to links waiting while another runs or the app is not ready.
    public enum QueuePolicy: Sendable, Hashable {
        /// Only the newest waiting link is kept; older waiting ones are superseded (and reported).
        case latestWins
        /// Links run in arrival order; past `limit` waiting links, a new one is dropped (and reported).
        case firstInFirstOut(limit: Int)
    }

    /// What happens to links waiting while another runs or the app is not ready. Default
    /// ``QueuePolicy/latestWins``.
    public var queuePolicy: QueuePolicy
    /// How long a route handler may take before the link is reported timed out. Default 10 s.
    public var handlerTimeout: TimeInterval
    /// How long a barrier's evaluation may take. Default 5 s.
    public var barrierEvaluationTimeout: TimeInterval
    /// How long a barrier's check (presenting login, say) may take, for a barrier without a wait in
    /// ``barrierWaits`` or a ``Barrier/maximumWait`` of its own. Default 300 s.
    public var barrierCheckTimeout: TimeInterval
    /// How long a link may wait (for the app to be ready and active, or behind other links) and
    /// still run, counted from receipt, across process death too. Default 10 minutes: a link that
    /// comes back hours later, when the user has moved on, would take them somewhere unexpected.
    public var maximumPendingAge: TimeInterval
    /// How many redirects (``HandlerResult/redirect(to:)``) one link may follow. Default 4.
    public var maximumRedirects: Int
    /// Whether windows run their links side by side. Default `true`: each scene runs its own links
    /// one at a time, so a login shown in one window does not hold back another's links. `false`
    /// runs one link at a time across all windows (an app whose barriers share one modal flow).
    public var scenesRunIndependently: Bool
    /// How long, in seconds, links wait on a barrier's check, by barrier name: what a manifest's
    /// `barriers: {auth: {wait: 2h}}` says, ahead of the barrier's own ``Barrier/maximumWait``. A name
    /// that is no barrier of the dispatcher fails building it (``WaypointError/Code/unknownBarrier``).
    ///
    /// ```swift
    /// var configuration = DispatcherConfiguration()
    /// configuration.barrierWaits = ["auth": 7200]   // a login may take two hours
    /// ```
    public var barrierWaits: [String: TimeInterval] = [:]

    /// A configuration with every value given or at its default:
    /// `DispatcherConfiguration(handlerTimeout: 5).maximumPendingAge` is `600`.
    public init(
        queuePolicy: QueuePolicy = .latestWins,
        handlerTimeout: TimeInterval = 10,
        barrierEvaluationTimeout: TimeInterval = 5,
        barrierCheckTimeout: TimeInterval = 300,
        maximumPendingAge: TimeInterval = 600,
        maximumRedirects: Int = 4,
        scenesRunIndependently: Bool = true
    ) {
        self.queuePolicy = queuePolicy
        self.handlerTimeout = handlerTimeout
        self.barrierEvaluationTimeout = barrierEvaluationTimeout
        self.barrierCheckTimeout = barrierCheckTimeout
        self.maximumPendingAge = maximumPendingAge
        self.maximumRedirects = maximumRedirects
        self.scenesRunIndependently = scenesRunIndependently
    }
}
