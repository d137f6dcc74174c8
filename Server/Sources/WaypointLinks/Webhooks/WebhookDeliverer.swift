import AsyncHTTPClient
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Sends queued deliveries until each gets a 2xx: a POST of the event's JSON with `Waypoint-Event`,
/// `Waypoint-Delivery` (the same id on every retry; receivers dedupe on it) and `Waypoint-Signature`
/// (``WebhookSignature``). A failure (a status other than 2xx, a redirect, a timeout, a receiver
/// that now resolves inside the network) is tried again after 1 second, then 2, 4… doubling up to a
/// day between tries, for as long as the webhook exists. At least once: a crash after the receiver
/// answered but before the row was removed sends it again.
///
/// Each try connects to the address ``WebhookReceiver`` checked (TLS still verifies the name), and
/// reads only the answer's status, so a try lasts at most the name's lookup and ``requestTimeout``:
/// a receiver that trickles its body cannot hold the queue. Nor can one that never answers: up to
/// ``maxInFlight`` tries run at once, a batch is leased as soon as there is room, and each receiver
/// of a batch is resolved and sent to apart from the others, so a slow one holds only its own tries.
///
/// ```swift
/// let deliverer = WebhookDeliverer(store: store, allowPrivate: false)
/// Application(router: router, services: [deliverer])  // polls the queue four times a second
/// await deliverer.deliverDue()                         // or sends what is due now, once
/// ```
struct WebhookDeliverer: Service {
    let store: any WebhookStore
    let allowPrivate: Bool
    var now: @Sendable () -> Date = Date.init
    var logger = Logger(label: "waypoint-links.webhooks")

    /// How often the queue is read: a first try goes out within this of its event.
    static let pollInterval = Duration.milliseconds(250)
    /// How long a leased delivery is this instance's: more than a try can take (the name's lookup,
    /// then at most ``requestTimeout`` for the request), and how long a crash mid-send delays it.
    static let lease = Duration.seconds(30)
    /// Deliveries leased at once.
    static let batchSize = 50
    /// Tries under way at once, over all batches.
    static let maxInFlight = 200
    static let requestTimeout = TimeAmount.seconds(10)
    /// The longest wait between tries.
    static let maxBackoff = Duration.seconds(86_400)

    /// The wait before the next try, after `attempts` tries: 1 s, 2 s, 4 s… up to a day.
    static func backoff(afterAttempts attempts: Int) -> Duration {
        let exponent = min(max(attempts - 1, 0), 17)  // 2^17 s is past a day
        return min(.seconds(1 << exponent), maxBackoff)
    }

    /// A client for one batch's tries to `host`, connecting to `address` whatever `host` resolves to
    /// by then.
    static func makeClient(connecting host: String, to address: String) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            // A redirect could point inside the network: it is a failure, not followed.
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(5), read: requestTimeout)
        )
        configuration.dnsOverride = [host: address]
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    func run() async {
        await cancelWhenGracefulShutdown {
            // Each child sends one batch and returns its size, or sleeps a poll interval and returns 0.
            await withTaskGroup(of: Int.self) { batches in
                var inFlight = 0
                while !Task.isCancelled {
                    let room = min(Self.batchSize, Self.maxInFlight - inFlight)
                    let due = room > 0 ? await lease(limit: room) : []
                    if !due.isEmpty {
                        inFlight += due.count
                        batches.addTask { await send(due) }
                        // A full batch means more may be due: lease again at once, while there is room.
                        if due.count == room { continue }
                    }
                    // Wait for a batch to end (room again) or the next poll, whichever comes first.
                    if inFlight < Self.maxInFlight {
                        batches.addTask {
                            try? await Task.sleep(for: Self.pollInterval)
                            return 0
                        }
                    }
                    inFlight -= await batches.next() ?? 0
                }
            }
        }
    }

    /// Sends what is due now and waits for every try; how many were tried.
    @discardableResult
    func deliverDue() async -> Int {
        await send(lease(limit: Self.batchSize))
    }

    /// Takes up to `limit` due deliveries for 30 seconds (``lease``): no other instance sends them meanwhile.
    func lease(limit: Int) async -> [WebhookDelivery] {
        do {
            return try await store.leaseDueDeliveries(at: now(), for: Self.lease, limit: limit)
        } catch {
            logger.warning("webhook queue not read", metadata: ["error": "\(error)"])
            return []
        }
    }

    /// Tries each delivery once; how many. Each receiver host is resolved and checked once, and its
    /// deliveries share one client connecting to the checked address; hosts go on side by side.
    func send(_ due: [WebhookDelivery]) async -> Int {
        await withTaskGroup(of: Void.self) { hosts in
            for (host, deliveries) in Dictionary(grouping: due, by: { Self.host(of: $0.url) }) {
                hosts.addTask { await send(deliveries, to: host) }
            }
        }
        return due.count
    }

    static func host(of url: String) -> String? { URLComponents(string: url)?.host }

    /// One receiver host's deliveries: its name resolved and checked, then every try at once.
    private func send(_ deliveries: [WebhookDelivery], to host: String?) async {
        let client: HTTPClient
        do throws(LinkServiceError) {
            guard let host else { throw LinkServiceError(.invalidRequest, "the URL has no host") }
            let address = try await WebhookReceiver.checkAddresses(of: host, allowPrivate: allowPrivate)
            client = Self.makeClient(connecting: WebhookReceiver.unbracketed(host), to: address)
        } catch {
            // A receiver the service refuses to reach (a private address without
            // --webhook-allow-private, a name that does not resolve) is the operator's to mend,
            // not a receiver's outage: said as a warning.
            for delivery in deliveries { await record(delivery, failure: error.message, level: .warning) }
            return
        }
        await withTaskGroup(of: Void.self) { tries in
            for delivery in deliveries {
                tries.addTask { await record(delivery, failure: await send(delivery, with: client)) }
            }
        }
        try? await client.shutdown()
    }

    /// Stores a try's result: delivered (`failure` nil), or due again after the backoff.
    private func record(_ delivery: WebhookDelivery, failure: String?, level: Logger.Level = .info) async {
        do {
            if let failure {
                let next = now().addingTimeInterval(
                    Double(Self.backoff(afterAttempts: delivery.attempts).components.seconds)
                )
                try await store.retry(id: delivery.id, at: next, error: failure)
                logger.log(
                    level: level,
                    "webhook delivery failed; will retry",
                    metadata: ["delivery": "\(delivery.id)", "attempts": "\(delivery.attempts)", "error": "\(failure)"]
                )
            } else {
                try await store.markDelivered(id: delivery.id)
            }
        } catch {
            // The lease runs out and the delivery is due again: nothing is lost, at worst sent twice.
            logger.warning("webhook delivery state not stored", metadata: ["error": "\(error)"])
        }
    }

    private func send(_ delivery: WebhookDelivery, with client: HTTPClient) async -> String? {
        var request = HTTPClientRequest(url: delivery.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "waypoint-links-webhooks")
        request.headers.add(name: "Waypoint-Event", value: delivery.event.rawValue)
        request.headers.add(name: "Waypoint-Delivery", value: delivery.id)
        request.headers.add(
            name: "Waypoint-Signature",
            value: WebhookSignature.header(secret: delivery.secret, body: delivery.body, at: now())
        )
        request.body = .bytes(ByteBuffer(string: delivery.body))
        do {
            // The status is the answer; the body is not read (the client closes the connection).
            let response = try await client.execute(request, timeout: Self.requestTimeout)
            return (200..<300).contains(response.status.code) ? nil : "the receiver answered \(response.status.code)"
        } catch {
            return "\(error)"
        }
    }
}
