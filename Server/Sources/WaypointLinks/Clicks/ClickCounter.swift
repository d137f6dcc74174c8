import Foundation
import Logging
import Metrics
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Counts clicks without slowing the redirect: ``count(_:)`` adds to a table in memory, and a
/// service writes the table to the store as one batch on a fixed cadence (the window, 1 second by
/// default), whatever else is being written, and once more when the service stops gracefully
/// (after the HTTP server has answered its last request), so no acknowledged click is lost then.
///
/// A `kill -9` loses at most the clicks acknowledged within the last window. With a window of 0
/// a visit is answered only once the batch holding its click is stored (batches are written back to
/// back, so visits under way share a write): nothing acknowledged is ever lost, for the cost in
/// `Server/BENCHMARKS.md`.
///
/// A batch that fails to write stays in memory, with its id, and is written again before anything
/// newer; the store applies a batch id once, so a retry after an unclear failure counts nothing twice.
///
/// ```swift
/// let counter = ClickCounter(store: store)
/// try await counter.count(ClickKey(code: "spring", at: .now, client: .iOS, outcome: .landingPage),
///                         from: [.referrer("https://news.example.com/spring")])
/// try await counter.flush()  // the store now has it
/// ```
public actor ClickCounter: Service {
    let store: any LinkStore
    /// How long a counted click may wait in memory; zero writes it before the visit is answered.
    public nonisolated let window: Duration
    let logger: Logger
    /// Counted, not yet handed to the store. Behind a lock rather than in the actor: a visit counts
    /// without hopping off its event loop and back, which cost a third of a redirect's time.
    private let pending = NIOLockedValueBox(Pending())
    /// Handed to the store and not acknowledged: written again, with the same id, before anything new.
    private var unacknowledged: (batch: ClickBatch, number: Int)?
    /// `waypoint_links_visits_total`, one for each client and outcome.
    private let visitCounters: [ClickKey.Kind: Metrics.Counter]
    private let unwrittenGauge: Metrics.Gauge
    private let writeFailures: Metrics.Counter
    /// Told of each batch once it is stored: the webhooks' `link.clicked`.
    private let stored: @Sendable (ClickBatch) async -> Void

    struct Pending {
        var counts: [ClickKey: Int] = [:]
        /// Where the clicks in `counts` came from.
        var sources = ClickSourceTally()
        /// The number of the batch `counts` will be written in; batches are numbered from 1.
        var batch = 1
        /// Every batch up to this number is stored.
        var stored = 0
        /// With a window of 0: visits waiting for their batch, by a number of their own, resumed
        /// with whether it was stored.
        var waiting: [Int: (batch: Int, visit: CheckedContinuation<Bool, Never>)] = [:]
        var nextWaiter = 0
        /// Set once the counter has written for the last time: a visit waits for nothing after.
        var closed = false
        /// With a window of 0: the writer, idle until a click is counted.
        var idleWriter: CheckedContinuation<Void, Never>?
    }

    public init(
        store: any LinkStore,
        window: Duration = .seconds(1),
        logger: Logger = Logger(label: "waypoint-links.clicks")
    ) {
        self.init(store: store, window: window, logger: logger, metrics: .none)
    }

    init(
        store: any LinkStore,
        window: Duration = .seconds(1),
        logger: Logger,
        metrics: ServiceMetrics,
        stored: @escaping @Sendable (ClickBatch) async -> Void = { _ in }
    ) {
        self.store = store
        self.stored = stored
        self.window = max(window, .zero)
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

    /// Counts one click, and where it came from. With a window it returns at once, and the click
    /// reaches the store with the next write; with a window of 0 it returns once the click is stored.
    ///
    /// - Throws: ``StoreError`` (window 0 only) when the write that holds the click failed: the
    ///   visit should not be acknowledged. The click stays counted and is written by a later try.
    nonisolated(nonsending) public func count(
        _ key: ClickKey,
        from sources: [ClickSource] = []
    ) async throws(LinkServiceError) {
        let batch = record(key, from: sources)
        guard window == .zero else { return }
        let waiter = pending.withLockedValue { pending in
            defer { pending.nextWaiter += 1 }
            return pending.nextWaiter
        }
        // A visit cancelled while it waits (its server stopping) is answered at once, unstored.
        let stored = await withTaskCancellationHandler {
            await withCheckedContinuation { visit in
                let answer: Bool? = pending.withLockedValue { pending in
                    if pending.stored >= batch { return true }
                    if pending.closed || Task.isCancelled { return false }
                    pending.waiting[waiter] = (batch, visit)
                    return nil
                }
                if let answer { visit.resume(returning: answer) }
            }
        } onCancel: {
            pending.withLockedValue { $0.waiting.removeValue(forKey: waiter) }?.visit.resume(returning: false)
        }
        guard stored else {
            throw LinkServiceError(
                .unavailable,
                "The visit could not be recorded yet: the database did not answer. It may still be counted once "
                    + "the database answers; try again later."
            )
        }
    }

    /// Adds the click to the table in memory; the number of the batch it will be written in.
    @discardableResult
    nonisolated func record(_ key: ClickKey, from sources: [ClickSource] = []) -> Int {
        visitCounters[ClickKey.Kind(client: key.client, outcome: key.outcome)]?.increment()
        let (batch, writer) = pending.withLockedValue { pending in
            pending.counts[key, default: 0] += 1
            for source in sources {
                pending.sources.add(ClickSourceKey(code: key.code, day: key.day, source: source))
            }
            defer { pending.idleWriter = nil }
            return (pending.batch, pending.idleWriter)
        }
        writer?.resume()
        return batch
    }

    /// How many clicks are counted and not yet stored.
    public var unwritten: Int {
        pending.withLockedValue { $0.counts.values.reduce(0, +) }
            + (unacknowledged?.batch.counts.values.reduce(0, +) ?? 0)
    }

    /// Writes what is counted. On failure everything stays counted, to be written by a later call.
    /// The write runs in a task of its own, so a cancelled caller (a stopping service) still writes.
    public func flush() async throws(StoreError) {
        // A batch that failed before goes first, then what was counted since.
        for _ in 0..<2 {
            if unacknowledged == nil {
                // Taken in one step: a click counted meanwhile goes in the next batch.
                unacknowledged = pending.withLockedValue { pending in
                    guard !pending.counts.isEmpty else { return nil }
                    defer {
                        pending.counts = [:]
                        pending.sources = ClickSourceTally()
                        pending.batch += 1
                    }
                    return (ClickBatch(counts: pending.counts, sources: pending.sources.counts), pending.batch)
                }
            }
            guard let (batch, number) = unacknowledged else { return }
            let store = self.store
            let written: Result<Void, StoreError> = await Task {
                do throws(StoreError) {
                    return .success(try await store.addClicks(batch))
                } catch {
                    return .failure(error)
                }
            }.value
            if case .failure(let error) = written {
                writeFailures.increment()
                unwrittenGauge.record(unwritten)
                // Visits waiting for this batch are told; their clicks stay counted and are retried.
                resumeWaiting { $0.batch <= number ? false : nil }
                throw error
            }
            // Another call may have written this batch meanwhile and moved on to the next.
            guard unacknowledged?.number == number else { continue }
            unacknowledged = nil
            await stored(batch)
            pending.withLockedValue { $0.stored = max($0.stored, number) }
            resumeWaiting { $0.batch <= number ? true : nil }
            unwrittenGauge.record(unwritten)
        }
    }

    /// Resumes the waiting visits `decide` gives an answer for.
    private func resumeWaiting(_ decide: ((batch: Int, visit: CheckedContinuation<Bool, Never>)) -> Bool?) {
        let answered = pending.withLockedValue { pending in
            var answered: [(CheckedContinuation<Bool, Never>, Bool)] = []
            for (id, waiter) in pending.waiting {
                guard let answer = decide(waiter) else { continue }
                answered.append((waiter.visit, answer))
                pending.waiting[id] = nil
            }
            return answered
        }
        for (visit, answer) in answered { visit.resume(returning: answer) }
    }

    /// Writes on the window's cadence until the service group shuts down gracefully, then writes
    /// the rest (trying for up to ten seconds when the database does not answer).
    public func run() async {
        await cancelWhenGracefulShutdown {
            let clock = ContinuousClock()
            var next = clock.now
            while !Task.isCancelled {
                if self.window == .zero {
                    await self.untilCounted()
                } else {
                    // A fixed cadence: a slow write does not push the next one back by its own length.
                    next = max(next.advanced(by: self.window), clock.now)
                    try? await Task.sleep(until: next, clock: clock)
                }
                do {
                    try await self.flush()
                } catch {
                    self.logger.warning(
                        "click counts not written yet; kept for the next try",
                        metadata: ["error": "\(error)"]
                    )
                    if self.window == .zero { try? await Task.sleep(for: .milliseconds(100)) }
                }
            }
        }
        await writeTheRest()
    }

    /// Writes what is left when the service stops; also called by the command after the server has
    /// stopped, in case the service group was cut short. Returns whether every counted click is
    /// written (or none was left).
    @discardableResult
    public func writeTheRest() async -> Bool {
        // Whatever happens below, no visit waits after it.
        defer {
            pending.withLockedValue { $0.closed = true }
            resumeWaiting { _ in false }
        }
        for attempt in 1...20 {
            do {
                try await flush()
                if unwritten == 0 { return true }
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
        return false
    }

    /// With a window of 0: returns once a click is counted, or the task is cancelled.
    private func untilCounted() async {
        guard unacknowledged == nil else { return }  // a failed batch is retried without waiting
        await withTaskCancellationHandler {
            await withCheckedContinuation { writer in
                let counted = pending.withLockedValue { pending in
                    if pending.counts.isEmpty && !Task.isCancelled {
                        pending.idleWriter = writer
                        return false
                    }
                    return true
                }
                if counted { writer.resume() }
            }
        } onCancel: {
            pending.withLockedValue { pending in
                defer { pending.idleWriter = nil }
                return pending.idleWriter
            }?.resume()
        }
    }
}
