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
    /// comes back hours later, when the user has moved on, would take them somewhere unexpected. A
    /// link waiting on a barrier's check lives as long as the check may take, when that is longer
    /// (``barrierWaits``: a login given an hour), across process death too.
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

    /// How long a link waits on `barrier`'s check: its wait here, else its own, else the default.
    func checkWait(for barrier: Barrier) -> TimeInterval {
        barrierWaits[barrier.name] ?? barrier.maximumWait ?? barrierCheckTimeout
    }

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

extension DispatcherConfiguration {
    /// Checks the values an app set: every timeout and wait more than 0 seconds and finite, a queue
    /// that keeps at least one link, a redirect count of 0 or more. A timeout of 0 or less would
    /// end every link as timed out at once, and a NaN one is never reached: neither is what anyone
    /// meant, so the dispatcher is not built with one.
    ///
    /// - Throws: ``WaypointError`` with code `invalidConfiguration`, naming the value.
    package func check() throws(WaypointError) {
        let timeouts = [
            ("handlerTimeout", handlerTimeout), ("barrierEvaluationTimeout", barrierEvaluationTimeout),
            ("barrierCheckTimeout", barrierCheckTimeout), ("maximumPendingAge", maximumPendingAge),
        ]
        for (name, seconds) in timeouts { try Self.checkDuration(seconds, of: "The dispatcher's \(name)") }
        for name in barrierWaits.keys.map({ $0 }).stablySorted() {
            try Self.checkDuration(barrierWaits[name] ?? 0, of: "The dispatcher's wait for the barrier '\(name)'")
        }
        if maximumRedirects < 0 {
            throw WaypointError(
                .invalidConfiguration,
                message: "The dispatcher's maximumRedirects is \(maximumRedirects); it must be 0 (no redirect) or more."
            )
        }
        if case .firstInFirstOut(let limit) = queuePolicy, limit < 1 {
            throw WaypointError(
                .invalidConfiguration,
                message: "The dispatcher's queue keeps at most \(limit) waiting links (firstInFirstOut(limit:)); "
                    + "it must keep 1 or more, or every link that waits is dropped."
            )
        }
    }

    /// Throws unless `seconds` is a time a timeout or a wait can be: more than 0, and finite.
    static func checkDuration(_ seconds: TimeInterval, of what: String) throws(WaypointError) {
        guard seconds.isFinite, seconds > 0 else {
            throw WaypointError(
                .invalidConfiguration,
                message: "\(what) is \(seconds) seconds; a timeout or a wait must be more than 0 and finite."
            )
        }
    }
}
