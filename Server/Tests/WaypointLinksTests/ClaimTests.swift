import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import WaypointLinks

/// Deferred links: a click's claim token, issued by the landing page or the Play Store redirect,
/// gives its link once through `POST /api/claims`.
@Suite("Claiming a deferred link")
struct ClaimTests {
    static let link = ShortLink(
        code: "spring",
        deepLink: "readapp://books/42",
        route: "book",
        createdAt: Fixtures.now
    )

    static func tokens(lifetime: TimeInterval = 86_400) -> ClaimTokens {
        ClaimTokens(secret: Array(repeating: 9, count: 32), lifetime: lifetime)
    }

    @Test("A token carries its code and platform, and is refused when changed, cut or too old")
    func tokenChecks() throws {
        let tokens = Self.tokens()
        var sale = Self.link
        sale.code = "spring-sale"
        let text = tokens.issue(for: sale, platform: .android, at: Fixtures.now)
        let token = try tokens.verify(text, at: Fixtures.now.addingTimeInterval(3600))
        #expect(token.code == "spring-sale")
        #expect(token.platform == .android)
        #expect(token.id.count == 24)
        // Two clicks on one link get two tokens, each claimable once.
        #expect(
            try tokens.verify(tokens.issue(for: sale, platform: .android, at: Fixtures.now), at: Fixtures.now)
                .id != token.id
        )

        var changed = Array(text)
        changed[10] = changed[10] == "A" ? "B" : "A"
        let bad = [
            String(changed), String(text.dropLast(3)), "", "AAAA", text + "%", String(repeating: "A", count: 400),
        ]
        for candidate in bad {
            do {
                _ = try tokens.verify(candidate, at: Fixtures.now)
                Issue.record("took \(candidate)")
            } catch {
                #expect(error.code == .claimInvalid)
            }
        }
        // Another database's secret signs tokens this one does not take.
        let other = ClaimTokens(secret: Array(repeating: 8, count: 32), lifetime: 86_400)
        #expect(throws: LinkServiceError.self) { try other.verify(text, at: Fixtures.now) }
        do {
            _ = try tokens.verify(text, at: Fixtures.now.addingTimeInterval(86_400 + 60))
            Issue.record("a token a day and a minute old was taken")
        } catch {
            #expect(error.code == .expired)
        }
        // The signature is checked even where the age is not (`GET /c/{token}`).
        #expect(try tokens.verify(text, at: nil).code == "spring-sale")
    }

    /// Runs `body` against a service whose store holds ``link``, its clock at `clock`.
    func withService(
        claimLimit: RateLimit = LinkService.Configuration.defaultClaimLimit,
        claimTokenLimit: RateLimit = LinkService.Configuration.defaultClaimTokenLimit,
        clock: TestClock = TestClock(),
        _ body: @escaping @Sendable (any TestClientProtocol, ServiceFixture) async throws -> Void
    ) async throws {
        let fixture = try await ServiceFixture.make { configuration in
            configuration.claimLimit = claimLimit
            configuration.claimTokenLimit = claimTokenLimit
            configuration.now = { clock.now }
        }
        #expect(try await fixture.store.insert(Self.link))
        try await Application(router: fixture.service.router()).test(.router) { client in
            try await body(client, fixture)
        }
        await fixture.store.close()
    }

    /// The claim URL an iPhone's landing page copies on "Get the app".
    static func claimURL(from client: some TestClientProtocol, code: String = "spring") async throws -> String {
        let html = try await client.execute(uri: "/\(code)", method: .get, headers: [.userAgent: Fixtures.iPhone]) {
            String(buffer: $0.body)
        }
        return try claimURL(inPage: html)
    }

    /// The claim URL a landing page's "Get the app" copies (its `data-claim`).
    static func claimURL(inPage html: String) throws -> String {
        let start = try #require(html.range(of: #"data-claim=""#)).upperBound
        let end = try #require(html[start...].firstIndex(of: "\""))
        return String(html[start..<end])
    }

    static func claim(_ client: some TestClientProtocol, _ body: String) async throws -> (HTTPResponse.Status, String) {
        try await client.execute(
            uri: "/api/claims",
            method: .post,
            headers: [.contentType: "application/json"],
            body: ByteBuffer(string: body)
        ) { ($0.status, String(buffer: $0.body)) }
    }

    @Test("The landing page's claim URL gives the link once, counted as an iOS install")
    func claimOnce() async throws {
        try await withService { client, fixture in
            let url = try await Self.claimURL(from: client)
            #expect(url.hasPrefix("https://links.example.com/c/"))
            let (status, body) = try await Self.claim(client, #"{"token": "\#(url)"}"#)
            #expect(status == .ok)
            #expect(body == #"{"code":"spring","deepLink":"readapp://books/42","platform":"iOS","route":"book"}"#)
            let again = try await Self.claim(client, #"{"token": "\#(url)"}"#)
            #expect(again.0 == .conflict)
            #expect(again.1.contains(#""code":"alreadyClaimed""#))
            let installs = try await fixture.store.installs(code: "spring")
            #expect(installs == [InstallCount(day: ClickKey.day(of: Fixtures.now), platform: .iOS, count: 1)])
        }
    }

    @Test("The Play Store referrer's token is claimed the same way, as an Android install")
    func android() async throws {
        try await withService { client, fixture in
            // What the Install Referrer API hands the app: the referrer, a query string, read as one.
            let referrer = try await Self.playReferrer(from: client, query: "utm_source=news&utm_campaign=spring")
            let items = try #require(URLComponents(string: "?" + referrer)?.queryItems)
            #expect(items.map(\.name) == ["waypoint_claim", "utm_source", "utm_campaign"])
            let token = try #require(items.first?.value)
            let (status, body) = try await Self.claim(client, #"{"token": "\#(token)"}"#)
            #expect(status == .ok)
            #expect(body.contains(#""platform":"android""#))
            #expect(body.contains(#""deepLink":"readapp://books/42?utm_source=news&utm_campaign=spring""#))
            #expect(try await fixture.store.installs(code: "spring").map(\.platform) == [.android])
        }
    }

    @Test("An app written for the referrer that held the token alone still claims a link with a campaign")
    func androidEarlierReaders() async throws {
        // More visits and claims from one client than the limits allow at once: limits off.
        try await withService(claimLimit: .off, claimTokenLimit: .off) { client, fixture in
            // Ways an app may have read `waypoint_claim=<token>`, now met with a campaign after it.
            let readers: [String: (String) -> String?] = [
                "the whole referrer": { $0 },
                "after the first =": { String($0.split(separator: "=", maxSplits: 1).last ?? "") },
                "Java's split(\"=\")[1]": { String($0.split(separator: "=")[1]) },
                "a prefix checked, then dropped": {
                    $0.hasPrefix("waypoint_claim=") ? String($0.dropFirst("waypoint_claim=".count)) : nil
                },
                "a query item": {
                    URLComponents(string: "?" + $0)?.queryItems?.first { $0.name == "waypoint_claim" }?.value
                },
            ]
            for (name, read) in readers {
                // A campaign value may hold `/c/`, as a claim URL does: the token is still found.
                let referrer = try await Self.playReferrer(from: client, query: "utm_source=news&utm_content=a/c/b")
                let sent = try #require(read(referrer), "\(name) found no token in \(referrer)")
                let (status, body) = try await Self.claim(client, #"{"token": "\#(sent)"}"#)
                #expect(status == .ok, "\(name): \(body)")
            }
            // The one reading this breaks: what follows the last `=` is now the campaign's last value.
            let referrer = try await Self.playReferrer(from: client, query: "utm_source=news")
            let last = String(referrer.split(separator: "=").last ?? "")
            #expect(try await Self.claim(client, #"{"token": "\#(last)"}"#).0 == .notFound)
            // Without a campaign the referrer is what it was, and every reading claims.
            let bare = try await Self.playReferrer(from: client, query: nil)
            #expect(bare.hasPrefix("waypoint_claim=") && !bare.contains("&"))
            #expect(try await Self.claim(client, #"{"token": "\#(bare.split(separator: "=").last ?? "")"}"#).0 == .ok)
            #expect(try await fixture.store.installs(code: "spring").map(\.count) == [readers.count + 1])
        }
    }

    /// The install referrer of an Android visit of `/spring`, unescaped once as the Install Referrer
    /// API gives it.
    static func playReferrer(from client: some TestClientProtocol, query: String?) async throws -> String {
        let location = try await client.execute(
            uri: "/spring" + (query.map { "?" + $0 } ?? ""),
            method: .get,
            headers: [.userAgent: Fixtures.android]
        ) {
            $0.headers[.location] ?? ""
        }
        return try #require(
            URLComponents(string: location)?.percentEncodedQueryItems?.first { $0.name == "referrer" }?.value?
                .removingPercentEncoding
        )
    }

    @Test("A token that is forged, too old, for a deleted link, or badly sent is refused with its reason")
    func refusals() async throws {
        let clock = TestClock()
        try await withService(clock: clock) { client, fixture in
            let forged = Self.tokens().issue(for: Self.link, platform: .iOS, at: Fixtures.now)
            var (status, body) = try await Self.claim(client, #"{"token": "\#(forged)"}"#)
            #expect(status == .notFound)
            #expect(body.contains(#""code":"claimInvalid""#))

            (status, body) = try await Self.claim(client, #"{"token": 42}"#)
            #expect(status == .badRequest)
            (status, body) = try await Self.claim(client, #"{"token": "x", "code": "spring"}"#)
            #expect(status == .badRequest)
            #expect(body.contains("Unknown field 'code'"))

            let old = try await Self.claimURL(from: client)
            clock.advance(86_400 + 120)
            (status, body) = try await Self.claim(client, #"{"token": "\#(old)"}"#)
            #expect(status == .gone)
            #expect(body.contains("expired"))

            let fresh = try await Self.claimURL(from: client)
            #expect(try await fixture.store.delete(code: "spring"))
            (status, body) = try await Self.claim(client, #"{"token": "\#(fresh)"}"#)
            #expect(status == .notFound)
            #expect(body.contains("has been deleted"))
            // Nothing was counted for the refused claims.
            #expect(try await fixture.store.installs(code: "spring").isEmpty)
        }
    }

    /// Hostile input, round 3: a token names its link, not only its code.
    @Test("A link deleted and made again with the same code is another link: its old tokens claim nothing")
    func sameCodeRemade() async throws {
        let clock = TestClock()
        try await withService(clock: clock) { client, fixture in
            let old = try await Self.claimURL(from: client)
            #expect(try await fixture.store.delete(code: "spring"))
            clock.advance(60)
            var remade = Self.link
            remade.createdAt = clock.now
            remade.deepLink = "readapp://books/43"
            #expect(try await fixture.store.insert(remade))
            var (status, body) = try await Self.claim(client, #"{"token": "\#(old)"}"#)
            #expect(status == .notFound)
            #expect(body.contains("has been deleted"))
            // A token issued for the new link claims it.
            let fresh = try await Self.claimURL(from: client)
            (status, body) = try await Self.claim(client, #"{"token": "\#(fresh)"}"#)
            #expect(status == .ok)
            #expect(body.contains("readapp://books/43"))
            #expect(try await fixture.store.installs(code: "spring").count == 1)
        }
    }

    /// Hostile input, round 3: landing pages fetched in a loop minted tokens to inflate installs.
    @Test("Claim tokens are issued to a client up to its limit; past it, pages and redirects carry none")
    func mintingLimited() async throws {
        let fixture = try await ServiceFixture.make { $0.claimTokenLimit = RateLimit(perMinute: 60, burst: 3) }
        #expect(try await fixture.store.insert(Self.link))
        try await Application(router: fixture.service.router()).test(.router) { client in
            var claimURLs = 0
            for _ in 0..<5 {
                let html = try await client.execute(
                    uri: "/spring",
                    method: .get,
                    headers: [.userAgent: Fixtures.iPhone]
                ) {
                    String(buffer: $0.body)
                }
                if html.contains("data-claim=") { claimURLs += 1 }
                #expect(html.contains("apps.apple.com"))  // the page still offers the store
            }
            #expect(claimURLs == 3)
            let location = try await client.execute(
                uri: "/spring",
                method: .get,
                headers: [.userAgent: Fixtures.android]
            ) {
                $0.headers[.location] ?? ""
            }
            #expect(location.hasPrefix("https://play.google.com/store/apps/details?id=com.example.reading"))
            // The referrer is escaped inside the store URL: what a token would look like there.
            #expect(!location.contains("waypoint%5Fclaim"))
            #expect(location == "https://play.google.com/store/apps/details?id=com.example.reading")
        }
        await fixture.store.close()
    }

    @Test("Claims are rate-limited per client")
    func rateLimited() async throws {
        try await withService(claimLimit: RateLimit(perMinute: 60, burst: 3)) { client, _ in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<5 { statuses.append(try await Self.claim(client, #"{"token": "nope"}"#).0) }
            #expect(statuses == [.notFound, .notFound, .notFound, .tooManyRequests, .tooManyRequests])
        }
    }

    @Test("A claim URL opened in a browser goes to its link's page without claiming it")
    func openInBrowser() async throws {
        try await withService { client, fixture in
            let url = try await Self.claimURL(from: client)
            let path = String(url.dropFirst("https://links.example.com".count))
            let location = try await client.execute(uri: path, method: .get) { $0.headers[.location] }
            #expect(location == "/spring")
            #expect(try await fixture.store.installs(code: "spring").isEmpty)
            let status = try await client.execute(uri: "/c/forged", method: .get) { $0.status }
            #expect(status == .notFound)
        }
    }
}
