import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import Testing

@testable import WaypointLinks

/// A clock the test moves.
final class TestClock: Sendable {
    private let date = NIOLockedValueBox(Fixtures.now)

    var now: Date { date.withLockedValue { $0 } }

    func advance(_ seconds: TimeInterval) { date.withLockedValue { $0 += seconds } }
}

@Suite("Rate limits")
struct RateLimitTests {
    @Test("A bucket lets a burst through, refuses the next, and refills at the limit's rate")
    func bucket() {
        let limiter = RateLimiter(RateLimit(perMinute: 60, burst: 3), name: "tests")
        let start = Fixtures.now
        for _ in 1...3 { #expect(limiter.spend("a", at: start)) }
        #expect(!limiter.spend("a", at: start))
        #expect(limiter.blocks("a", at: start))
        // Another client has a bucket of its own.
        #expect(limiter.spend("b", at: start))
        // One token a second comes back, never more than the burst.
        #expect(limiter.spend("a", at: start.addingTimeInterval(1)))
        #expect(!limiter.spend("a", at: start.addingTimeInterval(1.5)))
        for _ in 1...3 { #expect(limiter.spend("a", at: start.addingTimeInterval(100))) }
        #expect(!limiter.spend("a", at: start.addingTimeInterval(100)))
        // A refund gives back what a spend took, never past the burst.
        let later = start.addingTimeInterval(200)
        #expect(limiter.spend("c", at: later))
        limiter.refund("c", at: later)
        limiter.refund("c", at: later)
        for _ in 1...3 { #expect(limiter.spend("c", at: later)) }
        #expect(!limiter.spend("c", at: later))
        // A clock stepping back refills nothing and takes nothing.
        #expect(!limiter.spend("a", at: start))
        #expect(limiter.limit.retryAfterSeconds == 1)
        #expect(RateLimit(perMinute: 4).retryAfterSeconds == 15)
        #expect(RateLimit(perMinute: 600).burst == 150)
    }

    @Test("Off means off")
    func off() {
        let limiter = RateLimiter(.off, name: "tests")
        for _ in 1...1000 { #expect(limiter.spend("a", at: Fixtures.now)) }
        #expect(!limiter.blocks("a", at: Fixtures.now))
        #expect(limiter.trackedClients == 0)
    }

    @Test("Memory stays bounded however many addresses a flood comes from")
    func bounded() {
        let limiter = RateLimiter(RateLimit(perMinute: 60, burst: 2), name: "tests", maxClients: 100)
        // Quiet clients (full buckets) are dropped first; a busy one keeps its empty bucket.
        for _ in 1...2 { #expect(limiter.spend("busy", at: Fixtures.now)) }
        for index in 0..<99 { _ = limiter.spend("quiet-\(index)", at: Fixtures.now.addingTimeInterval(-60)) }
        #expect(limiter.trackedClients == 100)
        #expect(limiter.spend("new", at: Fixtures.now))
        #expect(limiter.trackedClients == 2)
        #expect(limiter.blocks("busy", at: Fixtures.now))
        // Every bucket in use: the table starts over rather than growing.
        for index in 0..<10_000 { _ = limiter.spend("flood-\(index)", at: Fixtures.now) }
        #expect(limiter.trackedClients <= 100)

        // A scan that would free less than a quarter drops the clients quiet longest, down to three
        // quarters: 5 busy a while ago, 75 busy now and 20 quiet, then a new one.
        let busy = RateLimiter(RateLimit(perMinute: 6, burst: 2), name: "tests", maxClients: 100)
        for index in 0..<5 {
            for _ in 1...2 { _ = busy.spend("earlier-\(index)", at: Fixtures.now.addingTimeInterval(-5)) }
        }
        for index in 0..<75 {
            for _ in 1...2 { _ = busy.spend("busy-\(index)", at: Fixtures.now) }
        }
        for index in 0..<20 { _ = busy.spend("quiet-\(index)", at: Fixtures.now.addingTimeInterval(-600)) }
        #expect(busy.trackedClients == 100)
        #expect(busy.spend("new", at: Fixtures.now))
        #expect(busy.trackedClients == 76)
        #expect(busy.blocks("busy-0", at: Fixtures.now))  // still limited
        #expect(!busy.blocks("earlier-0", at: Fixtures.now))
    }

    @Test("Clients are told apart by address, IPv6 by its /64, and behind a proxy by the entry it added")
    func clientAddresses() {
        #expect(ClientAddress.key(peer: "192.0.2.7", forwarded: nil) == "192.0.2.7")
        #expect(ClientAddress.key(peer: "2001:db8:1:2:aaaa::1", forwarded: nil) == "2001:db8:1:2::/64")
        #expect(ClientAddress.key(peer: "2001:DB8:1:2:bbbb:0:0:9", forwarded: nil) == "2001:db8:1:2::/64")
        #expect(ClientAddress.key(peer: "2001:db8::1", forwarded: nil) == "2001:db8:0:0::/64")
        #expect(ClientAddress.key(peer: "[fe80::1%eth0]", forwarded: nil) == "fe80:0:0:0::/64")
        #expect(ClientAddress.key(peer: "::ffff:192.0.2.7", forwarded: nil) == "192.0.2.7")
        #expect(ClientAddress.key(peer: nil, forwarded: nil) == "unknown")
        // Proxies that add the client's port.
        #expect(ClientAddress.key(peer: "10.0.0.2", forwarded: "198.51.100.7:5678") == "198.51.100.7")
        #expect(ClientAddress.key(peer: "10.0.0.2", forwarded: "[2001:db8:1:2::9]:443") == "2001:db8:1:2::/64")
        // The client wrote the first entries; the proxy appended the last.
        #expect(ClientAddress.key(peer: "10.0.0.2", forwarded: "1.1.1.1, 198.51.100.7") == "198.51.100.7")
        // Not an address: counted as it is, so it cannot escape the limit by spelling.
        #expect(ClientAddress.prefix64("1:2:3") == nil)
        #expect(ClientAddress.prefix64("1::2::3") == nil)
        #expect(ClientAddress.prefix64("1:2:3:4:5:6:7:8:9") == nil)
        #expect(ClientAddress.prefix64("g::1") == nil)
    }

    func withService(
        _ configuration: LinkService.Configuration,
        _ body: @Sendable (any TestClientProtocol, ServiceFixture) async throws -> Void
    ) async throws {
        let fixture = try await ServiceFixture.make { $0 = configuration }
        #expect(try await fixture.store.insert(VisitTests.link))
        try await Application(router: fixture.service.router()).test(.live) { client in
            try await body(client, fixture)
        }
        await fixture.store.close()
    }

    @Test("A scan of unknown codes gets 429 with Retry-After, for known codes too, until the limit refills")
    func unknownCodes() async throws {
        let clock = TestClock()
        let configuration = LinkService.Configuration(
            unknownCodeLimit: RateLimit(perMinute: 6, burst: 3),
            now: { clock.now }
        )
        try await withService(configuration) { client, _ in
            // Known codes spend nothing, and neither do paths that cannot be codes (a browser's icons).
            for _ in 1...10 { try await client.execute(uri: "/spring", method: .get) { #expect($0.status == .found) } }
            for uri in ["/favicon.ico", "/robots.txt", "/apple-touch-icon.png", "/favicon.ico"] {
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .notFound) }
            }
            for code in ["a1", "a2", "a3"] {
                try await client.execute(uri: "/\(code)", method: .get) { #expect($0.status == .notFound) }
            }
            for uri in ["/a4", "/spring", "/api/resolve/spring", "/api/resolve/a5"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .tooManyRequests, "\(uri)")
                    #expect(response.headers[.retryAfter] == "10")
                    #expect(String(buffer: response.body).contains(#""code":"rateLimited""#))
                }
            }
            clock.advance(10)
            try await client.execute(uri: "/spring", method: .get) { #expect($0.status == .found) }
            try await client.execute(uri: "/api/resolve/a6", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/spring", method: .get) { #expect($0.status == .tooManyRequests) }
        }
    }

    @Test("The admin API's limit counts requests without a valid token too")
    func admin() async throws {
        // A clock that stands still: a slow machine must not refill the bucket between requests.
        let configuration = LinkService.Configuration(
            adminLimit: RateLimit(perMinute: 60, burst: 2),
            now: { Fixtures.now }
        )
        try await withService(configuration) { client, fixture in
            try await client.execute(uri: "/api/links", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/links", method: .get, headers: AdminAPITests.headers(fixture.token)) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/links", method: .get, headers: AdminAPITests.headers(fixture.token)) {
                #expect($0.status == .tooManyRequests)
                #expect($0.headers[.retryAfter] == "1")
            }
            // Visits are not admin requests.
            try await client.execute(uri: "/spring", method: .get) { #expect($0.status == .found) }
        }
    }

    @Test("Behind a proxy, the header it names tells clients apart")
    func forwardedHeader() async throws {
        let configuration = LinkService.Configuration(
            unknownCodeLimit: RateLimit(perMinute: 6, burst: 1),
            clientAddressHeader: "X-Forwarded-For",
            now: { Fixtures.now }
        )
        try await withService(configuration) { client, _ in
            func visit(_ code: String, from address: String) async throws -> HTTPResponse.Status {
                var headers = HTTPFields()
                if let name = HTTPField.Name("X-Forwarded-For") { headers[name] = "203.0.113.9, \(address)" }
                return try await client.execute(uri: "/\(code)", method: .get, headers: headers) { $0.status }
            }
            let statuses = [
                try await visit("x1", from: "198.51.100.1"),
                try await visit("x2", from: "198.51.100.1"),
                try await visit("x3", from: "198.51.100.2"),
            ]
            #expect(statuses == [.notFound, .tooManyRequests, .notFound])
        }
    }

    @Test(
        "A client address or country header that is no header name stops the service at start-up, naming it",
        arguments: [
            LinkService.Configuration(clientAddressHeader: "X Forwarded"),
            LinkService.Configuration(countryHeader: "CF IPCountry"),
        ]
    )
    func badHeaderName(configuration: LinkService.Configuration) async throws {
        let store = try await SQLiteLinkStore.open(path: Fixtures.databasePath())
        let error = #expect(throws: LinkServiceStartError.self) {
            try LinkService(manifest: try Fixtures.manifest(), store: store, configuration: configuration)
        }
        let named = configuration.clientAddressHeader ?? configuration.countryHeader ?? ""
        #expect(error?.message.contains("'\(named)' is not a header name") == true)
        await store.close()
    }
}
