import AsyncHTTPClient
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

@testable import WaypointLinks

/// Issue 41: webhooks. Registered through the API, signed, delivered at least once from a queue in
/// the database, retried with backoff, and never aimed inside the service's network by default.
@Suite("Webhooks")
struct WebhookTests {
    @Test(
        "Only public addresses are receivers: loopback, private, link-local and the like are not",
        arguments: [
            ([93, 184, 216, 34], true), ([8, 8, 8, 8], true), ([127, 0, 0, 1], false), ([10, 1, 2, 3], false),
            ([172, 16, 0, 1], false), ([172, 32, 0, 1], true), ([192, 168, 1, 1], false),
            ([169, 254, 169, 254], false),
            ([100, 64, 0, 1], false), ([0, 0, 0, 0], false), ([224, 0, 0, 1], false), ([198, 18, 0, 1], false),
            ([192, 0, 2, 1], false), ([198, 51, 100, 1], false), ([203, 0, 113, 1], false), ([192, 0, 3, 1], true),
        ] as [([UInt8], Bool)]
    )
    func ipv4(address: [UInt8], isPublic: Bool) {
        #expect(WebhookReceiver.isPublic(address) == isPublic)
    }

    @Test("IPv6: loopback, unique local, link-local and IPv4 inside IPv6 are judged as they should be")
    func ipv6() {
        func address(_ words: [UInt16]) -> [UInt8] { words.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
        #expect(!WebhookReceiver.isPublic(address([0, 0, 0, 0, 0, 0, 0, 1])))
        #expect(!WebhookReceiver.isPublic(address([0, 0, 0, 0, 0, 0, 0, 0])))
        #expect(!WebhookReceiver.isPublic(address([0xFD00, 0, 0, 0, 0, 0, 0, 1])))
        #expect(!WebhookReceiver.isPublic(address([0xFE80, 0, 0, 0, 0, 0, 0, 1])))
        #expect(!WebhookReceiver.isPublic(address([0, 0, 0, 0, 0, 0xFFFF, 0x7F00, 0x0001])))  // ::ffff:127.0.0.1
        #expect(WebhookReceiver.isPublic(address([0, 0, 0, 0, 0, 0xFFFF, 0x5DB8, 0xD822])))  // ::ffff:93.184.216.34
        #expect(WebhookReceiver.isPublic(address([0x2606, 0x2800, 0x220, 1, 0x248, 0x1893, 0x25C8, 0x1946])))
        #expect(!WebhookReceiver.isPublic(address([0, 0, 0, 0, 0, 0, 0x7F00, 0x0001])))  // ::127.0.0.1
        #expect(!WebhookReceiver.isPublic(address([0x64, 0xFF9B, 1, 0, 0, 0, 0x5DB8, 0xD822])))  // local NAT64
        #expect(!WebhookReceiver.isPublic(address([0x2002, 0x0A00, 0x0001, 0, 0, 0, 0, 1])))  // 6to4 of 10.0.0.1
        #expect(WebhookReceiver.isPublic(address([0x2002, 0x5DB8, 0xD822, 0, 0, 0, 0, 1])))  // 6to4 of a public one
        // ::ffff:0:127.0.0.1 (translated), Teredo, benchmarking, a site-local and a multicast address.
        #expect(!WebhookReceiver.isPublic(address([0, 0, 0, 0, 0xFFFF, 0, 0x7F00, 0x0001])))
        #expect(WebhookReceiver.isPublic(address([0, 0, 0, 0, 0xFFFF, 0, 0x5DB8, 0xD822])))
        #expect(!WebhookReceiver.isPublic(address([0x2001, 0, 0x4136, 0xE378, 0x8000, 0x63BF, 0x3FFF, 0xFDD2])))
        #expect(!WebhookReceiver.isPublic(address([0x2001, 0x0002, 0, 0, 0, 0, 0, 1])))
        #expect(!WebhookReceiver.isPublic(address([0xFEC0, 0, 0, 0, 0, 0, 0, 1])))
        #expect(!WebhookReceiver.isPublic(address([0xFF02, 0, 0, 0, 0, 0, 0, 1])))
        #expect(!WebhookReceiver.isPublic(address([0x3FFF, 0, 0, 0, 0, 0, 0, 1])))  // 3fff::/20, documentation
        #expect(WebhookReceiver.isPublic(address([0x2A00, 0x1450, 0, 0, 0, 0, 0, 1])))
        #expect(!WebhookReceiver.isPublic(address([0x4000, 0, 0, 0, 0, 0, 0, 1])))
    }

    @Test("A try connects to an IPv4 address when the name has one")
    func preferredAddress() {
        let loopback6: [UInt8] = Array(repeating: 0, count: 15) + [1]
        #expect(WebhookReceiver.preferred([loopback6, [127, 0, 0, 1]]) == [127, 0, 0, 1])
        #expect(WebhookReceiver.preferred([loopback6]) == loopback6)
        #expect(WebhookReceiver.preferred([]) == nil)
    }

    @Test("Backoff: 1 s, then doubling, up to a day")
    func backoff() {
        #expect(WebhookDeliverer.backoff(afterAttempts: 1) == .seconds(1))
        #expect(WebhookDeliverer.backoff(afterAttempts: 2) == .seconds(2))
        #expect(WebhookDeliverer.backoff(afterAttempts: 5) == .seconds(16))
        #expect(WebhookDeliverer.backoff(afterAttempts: 17) == .seconds(65_536))
        #expect(WebhookDeliverer.backoff(afterAttempts: 18) == .seconds(86_400))
        #expect(WebhookDeliverer.backoff(afterAttempts: 1_000) == .seconds(86_400))
    }

    static func json(_ buffer: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
    }

    @Test("POST, GET and DELETE /api/webhooks: a secret shown once, bad input and inside receivers refused")
    func api() async throws {
        let fixture = try await ServiceFixture.make()
        do {
            try await Application(router: fixture.service.router()).test(.router) { client in
                let headers: HTTPFields = [.authorization: "Bearer \(fixture.token)", .contentType: "application/json"]
                func post(_ body: String) async throws -> (HTTPResponse.Status, [String: Any]) {
                    try await client.execute(
                        uri: "/api/webhooks",
                        method: .post,
                        headers: headers,
                        body: ByteBuffer(string: body)
                    ) { ($0.status, Self.json($0.body)) }
                }
                let (status, created) = try await post(
                    #"{"url": "https://93.184.216.34/hooks", "events": ["link.created", "link.clicked", "link.created"]}"#
                )
                #expect(status == .created)
                let id = try #require(created["id"] as? String)
                #expect(id.hasPrefix("wh_"))
                #expect((created["secret"] as? String)?.hasPrefix("whsec_") == true)
                #expect(created["events"] as? [String] == ["link.created", "link.clicked"])
                for (body, phrase) in [
                    (#"{"url": "ftp://93.184.216.34/", "events": ["link.created"]}"#, "http or https URL"),
                    (#"{"url": "https://u:p@93.184.216.34/", "events": ["link.created"]}"#, "user name or password"),
                    (#"{"url": "https://93.184.216.34/", "events": ["link.opened"]}"#, "'link.opened' is no event"),
                    (#"{"url": "https://93.184.216.34/", "events": []}"#, "at least one event"),
                    (#"{"url": "https://93.184.216.34/", "events": ["link.created"], "secret": "x"}"#, "Unknown field"),
                    (#"{"url": "http://127.0.0.1:9/", "events": ["link.created"]}"#, "--webhook-allow-private"),
                    (#"{"url": "http://localhost/", "events": ["link.created"]}"#, "loopback, private or link-local"),
                    (#"{"url": "http://10.1.2.3/", "events": ["link.created"]}"#, "10.1.2.3"),
                    (
                        #"{"url": "http://169.254.169.254/latest/meta-data", "events": ["link.created"]}"#,
                        "169.254.169.254"
                    ),
                    (#"{"url": "http://[::1]:8080/", "events": ["link.created"]}"#, "loopback"),
                    (#"{"url": "http://[::ffff:127.0.0.1]/", "events": ["link.created"]}"#, "loopback"),
                    (#"{"url": "https://no-such-host.invalid/", "events": ["link.created"]}"#, "does not resolve"),
                ] {
                    let (status, body) = try await post(body)
                    #expect(status == .badRequest, "\(body)")
                    let message = (body["error"] as? [String: Any])?["message"] as? String ?? ""
                    #expect(message.contains(phrase), "\(message)")
                }
                try await client.execute(uri: "/api/webhooks", method: .get, headers: headers) { response in
                    let list = try #require(Self.json(response.body)["webhooks"] as? [[String: Any]])
                    #expect(list.count == 1)
                    #expect(list.first?["secret"] == nil)
                    #expect(list.first?["url"] as? String == "https://93.184.216.34/hooks")
                }
                try await client.execute(uri: "/api/webhooks/\(id)", method: .delete, headers: headers) {
                    #expect($0.status == .noContent)
                }
                try await client.execute(uri: "/api/webhooks/\(id)", method: .delete, headers: headers) {
                    #expect($0.status == .notFound)
                }
                try await client.execute(uri: "/api/webhooks", method: .get) { #expect($0.status == .unauthorized) }
            }
        } catch {
            Issue.record(error)
        }
        await fixture.store.close()
    }
}

/// A receiver on loopback that records what it is sent and answers what `answer` says.
final class Inbox: Sendable {
    struct Received: Sendable {
        let event: String
        let delivery: String
        let signature: String
        let body: String
        let at: ContinuousClock.Instant
    }

    private let state = NIOLockedValueBox<[Received]>([])
    /// The status to answer for a delivery, given how many times it came before.
    let answer: @Sendable (_ delivery: String, _ earlier: Int) -> HTTPResponse.Status

    init(answer: @escaping @Sendable (String, Int) -> HTTPResponse.Status = { _, _ in .ok }) { self.answer = answer }

    var received: [Received] { state.withLockedValue { $0 } }

    /// The receiver, on a port of its own on 127.0.0.1.
    func application() -> some ApplicationProtocol {
        Application(router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 20))
            let headers = request.headers
            let delivery = headers[HTTPField.Name("Waypoint-Delivery")!] ?? ""
            let earlier = self.state.withLockedValue { received in
                defer {
                    received.append(
                        Received(
                            event: headers[HTTPField.Name("Waypoint-Event")!] ?? "",
                            delivery: delivery,
                            signature: headers[HTTPField.Name("Waypoint-Signature")!] ?? "",
                            body: body,
                            at: ContinuousClock.now
                        )
                    )
                }
                return received.filter { $0.delivery == delivery }.count
            }
            return Response(status: self.answer(delivery, earlier))
        }
        return router
    }
}

@Suite("Webhook deliveries")
struct WebhookDeliveryTests {
    /// A service on `database` that allows a receiver on loopback, with the real clock.
    static func service(
        _ database: String,
        now: @escaping @Sendable () -> Date = Date.init
    ) async throws -> (LinkService, any LinkStore) {
        let store = try await LinkStores.open(database)
        let service = try LinkService(
            manifest: try Fixtures.manifest(),
            store: store,
            configuration: LinkService.Configuration(webhookAllowPrivate: true, now: now)
        )
        return (service, store)
    }

    /// The HMAC a receiver computes for a delivery.
    static func verify(_ received: Inbox.Received, secret: String) -> Bool {
        let parts = Dictionary(
            uniqueKeysWithValues: received.signature.split(separator: ",").compactMap { part -> (String, String)? in
                let pair = part.split(separator: "=", maxSplits: 1)
                return pair.count == 2 ? (String(pair[0]), String(pair[1])) : nil
            }
        )
        guard let t = parts["t"], let v1 = parts["v1"] else { return false }
        let code = HMAC<SHA256>.authenticationCode(
            for: Data("\(t).\(received.body)".utf8),
            using: SymmetricKey(data: Data(secret.utf8))
        )
        return code.map { String(format: "%02x", $0) }.joined() == v1
    }

    /// Runs the deliverer until `done` or 10 seconds.
    static func deliver(_ service: LinkService, until done: () -> Bool) async throws {
        let deliverer = try #require(service.deliverer)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(10))
        while !done() && clock.now < deadline {
            await deliverer.deliverDue()
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test("Every event reaches the receiver once, signed, with its headers", arguments: Engine.available)
    func events(engine: Engine) async throws {
        let inbox = Inbox()
        let receiver = inbox.application()
        let (service, store) = try await Self.service(try await engine.newDatabase())
        let token = APIToken.makeSecret()
        #expect(try await store.addToken(name: "tests", secretHash: APIToken.hash(token), createdAt: Date()))
        do {
            try await receiver.test(.live) { receiverClient in
                let port = try #require(receiverClient.port)
                try await Application(router: service.router()).test(.router) { client in
                    let headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/json"]
                    func send(
                        _ uri: String,
                        _ method: HTTPRequest.Method,
                        _ body: String? = nil
                    ) async throws -> [String: Any] {
                        try await client.execute(
                            uri: uri,
                            method: method,
                            headers: headers,
                            body: body.map { ByteBuffer(string: $0) }
                        ) { Self.jsonOrEmpty($0.body) }
                    }
                    let created = try await send(
                        "/api/webhooks",
                        .post,
                        #"{"url": "http://127.0.0.1:\#(port)/hook", "events": ["link.created", "link.updated", "link.deleted", "link.clicked", "link.claimed"]}"#
                    )
                    let secret = try #require(created["secret"] as? String)
                    _ = try await send("/api/links", .post, #"{"code": "spring", "deepLink": "readapp://books/42"}"#)
                    _ = try await send("/api/links/spring", .patch, #"{"preview": {"title": "Spring"}}"#)
                    try await client.execute(uri: "/spring", method: .get, headers: [.userAgent: Fixtures.desktop]) {
                        _ in
                    }
                    try await service.clicks.flush()
                    let link = try #require(try await store.link(code: "spring"))
                    let claimToken = ClaimTokens(secret: store.sharedSecret, lifetime: 3_600)
                        .issue(for: link, platform: .iOS, at: Date())
                    let claimed = try await send("/api/claims", .post, #"{"token": "\#(claimToken)"}"#)
                    #expect(claimed["code"] as? String == "spring")
                    _ = try await send("/api/links/spring", .delete)
                    #expect(try await (store as? any WebhookStore)?.undeliveredCount() == 5)
                    try await Self.deliver(service) { inbox.received.count >= 5 }
                    let received = inbox.received
                    #expect(
                        Set(received.map(\.event))
                            == ["link.created", "link.updated", "link.clicked", "link.claimed", "link.deleted"]
                    )
                    #expect(received.count == 5)
                    #expect(Set(received.map(\.delivery)).count == 5)
                    for item in received {
                        #expect(Self.verify(item, secret: secret), "\(item.event)")
                        #expect(item.delivery.hasPrefix("whd_"))
                        let body = Self.jsonOrEmpty(ByteBuffer(string: item.body))
                        #expect(body["event"] as? String == item.event)
                        #expect(body["createdAt"] is String)
                    }
                    let clicked = try #require(received.first { $0.event == "link.clicked" })
                    let clicks = (Self.jsonOrEmpty(ByteBuffer(string: clicked.body))["data"] as? [String: Any])?[
                        "clicks"
                    ]
                    #expect((clicks as? [[String: Any]])?.first?["code"] as? String == "spring")
                    let claim = try #require(received.first { $0.event == "link.claimed" })
                    #expect(claim.body.contains(#""code":"spring""#) && claim.body.contains(#""platform":"iOS""#))
                    let deleted = try #require(received.first { $0.event == "link.deleted" })
                    #expect(deleted.body.contains(#""data":{"code":"spring"}"#))
                    #expect(try await (store as? any WebhookStore)?.undeliveredCount() == 0)
                }
            }
        } catch {
            Issue.record(error)
        }
        await store.close()
    }

    static func jsonOrEmpty(_ buffer: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
    }

    @Test("A receiver that never answers holds up only its own deliveries")
    func silentReceiver() async throws {
        let inbox = Inbox()
        let receiver = inbox.application()
        // Takes connections and reads what is sent, and never answers: each try waits out its timeout.
        let silent = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let (service, store) = try await Self.service(try await Engine.sqlite.newDatabase())
        do {
            let silentPort = try #require(silent.localAddress?.port)
            try await receiver.test(.live) { receiverClient in
                let port = try #require(receiverClient.port)
                let webhooks = try #require(store as? any WebhookStore)
                for (id, url) in [("wh_silent", silentPort), ("wh_inbox", port)].map({
                    ($0, "http://127.0.0.1:\($1)/hook")
                }) {
                    try await webhooks.addWebhook(
                        Webhook(id: id, url: url, events: [.linkCreated], createdAt: Date()),
                        secret: "whsec_\(id)"
                    )
                }
                let deliverer = try #require(service.deliverer)
                let running = Task { await deliverer.run() }
                // Each link reaches the inbox within 5 s (about 0.3 s here), while the silent
                // receiver's tries of the earlier links wait out their 10 s: a deliverer that waited for
                // a whole batch would take nearly 10 s from the second link on.
                for (index, code) in ["one", "two", "three"].enumerated() {
                    _ = try await service.admin.create(LinkInput(code: code, deepLink: "readapp://books/\(index + 1)"))
                    let start = ContinuousClock.now
                    while inbox.received.count <= index && start.duration(to: .now) < .seconds(8) {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                    let waited = start.duration(to: .now)
                    #expect(inbox.received.count == index + 1)
                    #expect(waited < .seconds(5), "link \(code) reached the inbox after \(waited)")
                }
                running.cancel()
                await running.value
            }
        } catch {
            Issue.record(error)
        }
        try? await silent.close()
        await store.close()
    }

    @Test("A redirect is a failure, not followed: the delivery is tried again")
    func redirectFails() async throws {
        let inbox = Inbox { _, earlier in earlier == 0 ? .found : .ok }
        let receiver = inbox.application()
        let (service, store) = try await Self.service(try await Engine.sqlite.newDatabase())
        do {
            try await receiver.test(.live) { receiverClient in
                let port = try #require(receiverClient.port)
                let webhooks = try #require(store as? any WebhookStore)
                // A name, resolved and reached on its IPv4 address.
                try await webhooks.addWebhook(
                    Webhook(
                        id: "wh_r",
                        url: "http://localhost:\(port)/hook",
                        events: [.linkDeleted],
                        createdAt: Date()
                    ),
                    secret: "whsec_r"
                )
                #expect(try await webhooks.enqueue(.linkDeleted, body: #"{"code":"x"}"#, at: Date()) == 1)
                try await Self.deliver(service) { inbox.received.count >= 2 }
                #expect(inbox.received.count == 2)
                #expect(try await webhooks.undeliveredCount() == 0)
            }
        } catch {
            Issue.record(error)
        }
        await store.close()
    }

    @Test("Two instances on one database send each delivery once", arguments: Engine.available)
    func twoInstances(engine: Engine) async throws {
        let inbox = Inbox()
        let receiver = inbox.application()
        let database = try await engine.newDatabase()
        let (first, firstStore) = try await Self.service(database)
        let (second, secondStore) = try await Self.service(database)
        do {
            try await receiver.test(.live) { receiverClient in
                let port = try #require(receiverClient.port)
                let webhooks = try #require(firstStore as? any WebhookStore)
                try await webhooks.addWebhook(
                    Webhook(
                        id: "wh_two",
                        url: "http://127.0.0.1:\(port)/hook",
                        events: [.linkDeleted],
                        createdAt: Date()
                    ),
                    secret: "whsec_two"
                )
                for index in 0..<60 {
                    try await webhooks.enqueue(.linkDeleted, body: #"{"code":"c\#(index)"}"#, at: Date())
                }
                let firstDeliverer = try #require(first.deliverer)
                let secondDeliverer = try #require(second.deliverer)
                let clock = ContinuousClock()
                let deadline = clock.now.advanced(by: .seconds(10))
                while inbox.received.count < 60 && clock.now < deadline {
                    async let one = firstDeliverer.deliverDue()
                    async let other = secondDeliverer.deliverDue()
                    _ = await (one, other)
                }
                #expect(inbox.received.count == 60)
                #expect(Set(inbox.received.map(\.delivery)).count == 60)
                #expect(try await webhooks.undeliveredCount() == 0)
            }
        } catch {
            Issue.record(error)
        }
        await firstStore.close()
        await secondStore.close()
    }

    @Test(
        "A failed delivery is retried after 1 s, then 2 s, with the same id; a restart loses none",
        arguments: Engine.available
    )
    func retriesAndRestart(engine: Engine) async throws {
        // Fails every delivery's first two tries, then takes it.
        let inbox = Inbox { _, earlier in earlier < 2 ? .serviceUnavailable : .ok }
        let receiver = inbox.application()
        let database = try await engine.newDatabase()
        // The service's clock, moved by hand: the schedule is checked to the tenth of a second, where
        // a wall clock under CI's load (every suite at once) stretched a 1 s wait past 2.3 s.
        let clock = NIOLockedValueBox(Date())
        let now: @Sendable () -> Date = { clock.withLockedValue { $0 } }
        @Sendable func advance(_ seconds: TimeInterval) { clock.withLockedValue { $0 += seconds } }
        do {
            try await receiver.test(.live) { receiverClient in
                let port = try #require(receiverClient.port)
                var (service, store) = try await Self.service(database, now: now)
                let webhooks = try #require(store as? any WebhookStore)
                try await webhooks.addWebhook(
                    Webhook(
                        id: "wh_test",
                        url: "http://127.0.0.1:\(port)/hook",
                        events: [.linkCreated],
                        createdAt: now()
                    ),
                    secret: "whsec_test"
                )
                _ = try await service.admin.create(LinkInput(code: "spring", deepLink: "readapp://books/42"))
                var deliverer = try #require(service.deliverer)
                // The first try at once; it fails.
                #expect(await deliverer.deliverDue() == 1)
                // The second 1 s later, not before; it fails too.
                advance(0.9)
                #expect(await deliverer.deliverDue() == 0)
                advance(0.1)
                #expect(await deliverer.deliverDue() == 1)
                // The third 2 s after that, by another instance started on the same database.
                advance(1.9)
                #expect(await deliverer.deliverDue() == 0)
                await store.close()
                (service, store) = try await Self.service(database, now: now)
                deliverer = try #require(service.deliverer)
                #expect(await deliverer.deliverDue() == 0)
                advance(0.1)
                #expect(await deliverer.deliverDue() == 1)
                let received = inbox.received
                #expect(received.count == 3)
                #expect(Set(received.map(\.delivery)).count == 1)
                #expect(received.allSatisfy { Self.verify($0, secret: "whsec_test") })
                #expect(try await (store as? any WebhookStore)?.undeliveredCount() == 0)
                await store.close()
            }
        } catch {
            Issue.record(error)
        }
    }
}
