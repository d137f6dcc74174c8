import Foundation
import Logging
import NIOConcurrencyHelpers

/// Puts an event in the delivery queue for every webhook that wants it, once the change it tells
/// of is stored: the caller has written the link (or the claim, or the click batch) first, and the
/// API answers after the event is queued. A queued event is never lost. One can be lost only
/// between those two writes: by a crash, or by a database that fails the queue's write three times
/// in a row right after taking the change's (then it is logged as `webhook event lost`, with its
/// body, for a person to replay).
///
/// ```swift
/// await events.emit(.linkDeleted, LinkDeleted(code: "spring"))
/// // {"createdAt":"2026-11-24T12:00:00Z","data":{"code":"spring"},"event":"link.deleted"}
/// ```
struct WebhookEvents: Sendable {
    /// Nil for a store that keeps no webhooks: nothing is queued.
    let store: (any WebhookStore)?
    let now: @Sendable () -> Date
    let logger: Logger
    /// Which events some webhook wants, read at most once a second: a visit's click batch costs no
    /// write when none does.
    let subscriptions = Subscriptions()

    init(store: (any WebhookStore)?, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.store = store
        self.now = now
        self.logger = logger
    }

    static let none = WebhookEvents(store: nil, now: Date.init, logger: Logger(label: "waypoint-links.webhooks"))

    /// The events the stored webhooks want, and when they were read. Another instance's new webhook
    /// is seen within ``lifetime``; this instance's own at once (``forget()``).
    final class Subscriptions: Sendable {
        private struct State {
            var known: (events: Set<WebhookEvent>, readAt: Date)?
            /// Raised by each ``forget()``: a read that began before one is not kept after it.
            var generation = 0
        }

        private let state = NIOLockedValueBox(State())
        static let lifetime: TimeInterval = 1

        func wanted(_ event: WebhookEvent, store: any WebhookStore, at date: Date) async -> Bool {
            let (known, generation) = state.withLockedValue { ($0.known, $0.generation) }
            if let known, date.timeIntervalSince(known.readAt) < Self.lifetime, date >= known.readAt {
                return known.events.contains(event)
            }
            // Unread (or unreadable: then queue, and let the store decide) counts as wanted.
            guard let webhooks = try? await store.webhooks() else { return true }
            let events = Set(webhooks.flatMap(\.events))
            state.withLockedValue { state in
                if state.generation == generation { state.known = (events, date) }
            }
            return events.contains(event)
        }

        func forget() {
            state.withLockedValue { state in
                state.known = nil
                state.generation += 1
            }
        }
    }

    /// The body every delivery of one event shares.
    struct Body<Data: Encodable>: Encodable {
        let event: WebhookEvent
        let createdAt: Date
        let data: Data
    }

    struct LinkDeleted: Encodable { let code: String }

    struct LinkClaimed: Encodable {
        let code: String
        let platform: ClaimPlatform
        let claimedAt: Date
    }

    /// A click batch's counts, several links' at once.
    struct LinkClicked: Encodable {
        struct Row: Encodable {
            let code: String
            let day: String
            let client: ClientKind
            let outcome: VisitOutcome
            let count: Int
        }

        let clicks: [Row]

        init(_ batch: ClickBatch) {
            clicks = batch.rows.map {
                Row(
                    code: $0.key.code,
                    day: ClickKey.dayText($0.key.day),
                    client: $0.key.client,
                    outcome: $0.key.outcome,
                    count: $0.count
                )
            }
        }
    }

    /// Queues the event; a database that fails is tried three times, then the event is logged as lost.
    func emit(_ event: WebhookEvent, _ data: some Encodable) async {
        guard let store else { return }
        let date = now()
        guard await subscriptions.wanted(event, store: store, at: date) else { return }
        let body: String
        do {
            body = String(
                decoding: try JSONBody.encoder.encode(Body(event: event, createdAt: date, data: data)),
                as: UTF8.self
            )
        } catch {
            // Strings, numbers and dates only: not expected, and not passed over unseen.
            logger.critical("webhook event not encoded", metadata: ["event": "\(event.rawValue)", "error": "\(error)"])
            return
        }
        for attempt in 1...3 {
            do {
                try await store.enqueue(event, body: body, at: date)
                return
            } catch {
                logger.error(
                    "webhook event not queued",
                    metadata: ["event": "\(event.rawValue)", "attempt": "\(attempt)", "error": "\(error)"]
                )
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        logger.critical("webhook event lost", metadata: ["event": "\(event.rawValue)", "body": "\(body)"])
    }
}
