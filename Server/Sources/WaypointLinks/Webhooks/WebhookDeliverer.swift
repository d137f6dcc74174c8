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
/// a receiver that trickles its body cannot hold the queue.
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
    /// Deliveries sent at once.
    static let batchSize = 50
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
            while !Task.isCancelled {
                let sent = await deliverDue()
                // A full batch means more may be due: no pause then.
                if sent < Self.batchSize { try? await Task.sleep(for: Self.pollInterval) }
            }
        }
    }

    /// Sends what is due, at once; how many were tried. Each receiver's name is resolved and checked
    /// once a batch, and its deliveries share one client connecting to the checked address.
    @discardableResult
    func deliverDue() async -> Int {
        let due: [WebhookDelivery]
        do {
            due = try await store.leaseDueDeliveries(at: now(), for: Self.lease, limit: Self.batchSize)
        } catch {
            logger.warning("webhook queue not read", metadata: ["error": "\(error)"])
            return 0
        }
        guard !due.isEmpty else { return 0 }
        // A client for each receiver host, or why it may not be sent to.
        var clients: [String: Result<HTTPClient, WebhookFailure>] = [:]
        for host in Set(due.map { Self.host(of: $0.url) }) {
            guard let host else { continue }
            do {
                let address = try await WebhookReceiver.checkAddresses(of: host, allowPrivate: allowPrivate)
                clients[host] = .success(Self.makeClient(connecting: WebhookReceiver.unbracketed(host), to: address))
            } catch {
                clients[host] = .failure(WebhookFailure(message: error.message))
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for delivery in due {
                let client = Self.host(of: delivery.url).flatMap { clients[$0] }
                group.addTask { await deliver(delivery, with: client) }
            }
        }
        for case .success(let client) in clients.values { try? await client.shutdown() }
        return due.count
    }

    /// Why a receiver's host may not be sent to.
    struct WebhookFailure: Error {
        let message: String
    }

    static func host(of url: String) -> String? { URLComponents(string: url)?.host }

    func deliver(_ delivery: WebhookDelivery, with client: Result<HTTPClient, WebhookFailure>?) async {
        let failure: String?
        switch client {
        case .success(let client): failure = await send(delivery, with: client)
        case .failure(let reason): failure = reason.message
        case nil: failure = "the URL has no host"
        }
        do {
            if let failure {
                let next = now().addingTimeInterval(
                    Double(Self.backoff(afterAttempts: delivery.attempts).components.seconds)
                )
                try await store.retry(id: delivery.id, at: next, error: failure)
                logger.info(
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
