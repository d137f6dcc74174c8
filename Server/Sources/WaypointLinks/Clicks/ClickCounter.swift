import Foundation
import Logging
import Metrics
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Counts clicks without slowing the redirect: `record` adds to a table in memory, and a service
/// writes the table to the store as one batch every second, and once more when the service stops
/// gracefully (after the HTTP server has answered its last request), so no counted click is lost.
///
/// A batch that fails to write stays in memory, with its id, and is written again later; the store
/// applies a batch id once, so a retry after an unclear failure counts nothing twice. A `kill -9`
/// loses what was counted since the last write (at most one interval).
///
/// ```swift
/// let counter = ClickCounter(store: store)
/// counter.record(ClickKey(code: "spring", at: .now, client: .iOS, outcome: .landingPage))
/// try await counter.flush()  // the store now has it
/// ```
public actor ClickCounter: Service {
    let store: any LinkStore
    let interval: Duration
    let logger: Logger
    /// Counted, not yet handed to the store. Behind a lock rather than in the actor: a visit counts
    /// without hopping off its event loop and back, which cost a third of a redirect's time.
    private let pending = NIOLockedValueBox<[ClickKey: Int]>([:])
    /// Handed to the store and not acknowledged: written again, with the same id, before anything new.
    private var unacknowledged: ClickBatch?
    /// `waypoint_links_visits_total`, one for each client and outcome.
    private let visitCounters: [ClickKey.Kind: Metrics.Counter]
    private let unwrittenGauge: Metrics.Gauge
    private let writeFailures: Metrics.Counter

    public init(
        store: any LinkStore,
        interval: Duration = .seconds(1),
        logger: Logger = Logger(label: "waypoint-links.clicks")
    ) {
        self.init(store: store, interval: interval, logger: logger, metrics: .none)
    }

    init(store: any LinkStore, interval: Duration = .seconds(1), logger: Logger, metrics: ServiceMetrics) {
        self.store = store
        self.interval = interval
        self.logger = logger
        var counters: [ClickKey.Kind: Metrics.Counter] = [:]
        for client in ClientKind.allCases {
            for outcome in VisitOutcome.allCases {
                counters[ClickKey.Kind(client: client, outcome: outcome)] = metrics.visits(
                    client: client,
                    outcome: outcome
                )
            }
        }
        self.visitCounters = counters
        self.unwrittenGauge = metrics.unwrittenClicks()
        self.writeFailures = metrics.clickWriteFailures()
    }

    /// Counts one click; it reaches the store with the next write.
    public nonisolated func record(_ key: ClickKey) {
        pending.withLockedValue { $0[key, default: 0] += 1 }
        visitCounters[ClickKey.Kind(client: key.client, outcome: key.outcome)]?.increment()
    }

    /// How many clicks are counted and not yet stored.
    public var unwritten: Int {
        pending.withLockedValue { $0.values.reduce(0, +) } + (unacknowledged?.counts.values.reduce(0, +) ?? 0)
    }

    /// Writes what is counted. On failure everything stays counted, to be written by a later call.
    public func flush() async throws(StoreError) {
        if unacknowledged == nil {
            // Taken in one step: a click counted meanwhile waits for the next batch.
            let counted = pending.withLockedValue { pending in
                defer { pending = [:] }
                return pending
            }
            if !counted.isEmpty { unacknowledged = ClickBatch(counts: counted) }
        }
        guard let batch = unacknowledged else { return }
        do {
            try await store.addClicks(batch)
        } catch {
            writeFailures.increment()
            unwrittenGauge.record(unwritten)
            throw error
        }
        // Counts recorded while the write was under way are in `pending`, for the next batch.
        if unacknowledged?.id == batch.id { unacknowledged = nil }
        unwrittenGauge.record(unwritten)
    }

    /// Writes every interval until the service group shuts down gracefully, then writes the rest
    /// (trying for up to ten seconds when the database does not answer).
    public func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: self.interval)
                do {
                    try await self.flush()
                } catch {
                    self.logger.warning(
                        "click counts not written yet; kept for the next try",
                        metadata: ["error": "\(error)"]
                    )
                }
            }
        }
        for attempt in 1...20 {
            do {
                try await flush()
                if unwritten == 0 { return }
            } catch {
                logger.error(
                    "click counts not written at shutdown",
                    metadata: ["attempt": "\(attempt)", "error": "\(error)"]
                )
                // A detached sleep: this task is cancelled by now, and Task.sleep would return at once.
                await Task.detached { try? await Task.sleep(for: .milliseconds(500)) }.value
            }
        }
        logger.critical("click counts lost at shutdown", metadata: ["clicks": "\(unwritten)"])
    }
}
