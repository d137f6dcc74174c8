import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WaypointManifest

@testable import WaypointLinks

/// Issue 40: a target per platform anywhere on the web, and a visit's campaign query passed on to
/// where the visitor goes and to the app.
@Suite("Per-platform fallbacks and query passthrough")
struct FallbackTests {
    static let link = ShortLink(
        code: "spring",
        deepLink: "readapp://books/42",
        route: "book",
        fallbacks: ShortLink.Fallbacks(
            web: "https://www.marketing.example/spring?ref=site",
            ios: "https://www.marketing.example/ios",
            android: "https://www.marketing.example/android",
            desktop: "https://www.marketing.example/desktop#top"
        ),
        createdAt: Fixtures.now
    )

    static func settings() throws -> VisitAnswer.Settings {
        VisitAnswer.Settings(
            appStoreID: "1234567890",
            playPackage: "com.example.reading",
            domains: LinkDomains(ShortLinkSettings(domain: "links.example.com")),
            rules: try LinkRules(manifest: try Fixtures.manifest()),
            pages: try Pages(),
            claims: ClaimTests.tokens()
        )
    }

    static func answer(
        _ client: ClientKind,
        _ link: ShortLink = link,
        query: String? = "utm_source=news&utm_campaign=spring&ref=mail"
    ) throws -> VisitAnswer {
        VisitAnswer.for(
            code: link.code,
            link: link,
            client: client,
            query: query,
            now: Fixtures.now,
            settings: try settings()
        )
    }

    @Test("Each platform goes to its own target, with the visit's query where the target has no such name")
    func perPlatform() throws {
        let android = try Self.answer(.android)
        #expect(android.outcome == .webFallback)
        #expect(
            android.location == "https://www.marketing.example/android?utm_source=news&utm_campaign=spring&ref=mail"
        )
        let desktop = try Self.answer(.desktop)
        #expect(
            desktop.location == "https://www.marketing.example/desktop?utm_source=news&utm_campaign=spring&ref=mail#top"
        )
        // Without a desktop target, desktop goes to the web page, whose own `ref` stays.
        var webOnly = Self.link
        webOnly.fallbacks.desktop = nil
        #expect(
            try Self.answer(.desktop, webOnly).location
                == "https://www.marketing.example/spring?ref=site&utm_source=news&utm_campaign=spring"
        )
        // The iPhone page: "Get the app" leads to the link's own page (no claim: it installs
        // nothing), and "Open in the app" carries the query to the app.
        let page = try #require(try Self.answer(.iOS).html)
        #expect(page.contains("https://www.marketing.example/ios?utm_source=news&amp;utm_campaign=spring&amp;ref=mail"))
        #expect(!page.contains("data-claim="))
        #expect(page.contains("readapp://books/42?utm_source=news&amp;utm_campaign=spring&amp;ref=mail"))
        // Without the per-platform targets: the stores, as before.
        var stores = Self.link
        stores.fallbacks = ShortLink.Fallbacks()
        let play = try #require(try Self.answer(.android, stores).location)
        #expect(play.hasPrefix("https://play.google.com/store/apps/details?id=com.example.reading&referrer="))
        // The referrer carries the campaign to Google Play's reports, before the claim token.
        #expect(try Self.referrer(play).hasPrefix("utm_source=news&utm_campaign=spring&waypoint_claim="))
        #expect(try Self.answer(.iOS, stores).html?.contains("data-claim=") == true)
    }

    @Test("The Play referrer's campaign is the deep link's: the link's own utm_* first, then the visit's")
    func playCampaign() throws {
        var link = Self.link
        link.fallbacks = ShortLink.Fallbacks()
        link.deepLink = "readapp://books/42?utm_source=mail&id=7"
        // The link's own `utm_source` wins over the visit's; `id` and `ref` are no campaign items.
        let play = try Self.referrer(try #require(try Self.answer(.android, link).location))
        #expect(play.hasPrefix("utm_source=mail&utm_campaign=spring&waypoint_claim="))
        #expect(play.split(separator: "&").count == 3)
        // A link that passes no query keeps its own campaign alone.
        link.passQuery = false
        #expect(
            try Self.referrer(try #require(try Self.answer(.android, link).location)).hasPrefix(
                "utm_source=mail&waypoint_claim="
            )
        )
        // Escaped once more inside the store URL: an item's own escapes survive the round trip.
        link.deepLink = "readapp://books/42?utm_campaign=spring%26summer"
        let escaped = try #require(try Self.answer(.android, link).location)
        #expect(escaped.contains("&referrer=utm%5Fcampaign%3Dspring%2526summer%26waypoint%5Fclaim%3D"))
        #expect(try Self.referrer(escaped).hasPrefix("utm_campaign=spring%26summer&waypoint_claim="))
        // No token (the client had its share of them): the campaign alone; neither: no referrer.
        let noToken = VisitAnswer.for(
            code: link.code,
            link: link,
            client: .android,
            now: Fixtures.now,
            settings: try Self.settings(),
            mayIssueClaim: { false }
        )
        #expect(try Self.referrer(try #require(noToken.location)) == "utm_campaign=spring%26summer")
        link.deepLink = "readapp://books/42"
        let bare = VisitAnswer.for(
            code: link.code,
            link: link,
            client: .android,
            now: Fixtures.now,
            settings: try Self.settings(),
            mayIssueClaim: { false }
        )
        #expect(bare.location == "https://play.google.com/store/apps/details?id=com.example.reading")
        #expect(PlayReferrer.token(in: "utm_source=waypoint_claim=x&waypoint_claim=AwI&z") == "AwI")
        #expect(PlayReferrer.token(in: "AwI") == nil)
    }

    /// A store URL's referrer, unescaped once as the Install Referrer API gives it to the app.
    static func referrer(_ location: String) throws -> String {
        try #require(
            URLComponents(string: location)?.percentEncodedQueryItems?.first { $0.name == "referrer" }?.value?
                .removingPercentEncoding
        )
    }

    @Test("passQuery false, an over-long query and items that are not URL text pass nothing on")
    func passNothing() throws {
        var closed = Self.link
        closed.passQuery = false
        #expect(try Self.answer(.android, closed).location == "https://www.marketing.example/android")
        let long = "utm_source=" + String(repeating: "x", count: QueryPassthrough.maxBytes)
        #expect(try Self.answer(.android, query: long).location == "https://www.marketing.example/android")
        // Only items written as a query may hold them reach a Location header or a deep link.
        #expect(
            try Self.answer(.android, query: "a=<b>&c=%zz&d=%41&e=x\"y&=v&f").location
                == "https://www.marketing.example/android?d=%41&f"
        )
        // What is left behind is reported: why, for the service's log line and counter.
        #expect(QueryPassthrough.leftBehind(long, by: Self.link) == .tooLong)
        #expect(QueryPassthrough.leftBehind("a=<b>&utm_source=news", by: Self.link) == .notURLText)
        #expect(QueryPassthrough.leftBehind("utm_source=news&f", by: Self.link) == nil)
        #expect(QueryPassthrough.leftBehind(long, by: closed) == nil)
        #expect(QueryPassthrough.merge("x=1", into: "not a url") == "not a url")
        #expect(QueryPassthrough.merge("", into: "https://a.example/") == "https://a.example/")
    }

    @Test("The query reaches the app: through the iPhone's and Android's claims, and /api/resolve")
    func reachesTheApp() async throws {
        let fixture = try await ServiceFixture.make()
        var link = Self.link
        link.fallbacks = ShortLink.Fallbacks()
        #expect(try await fixture.store.insert(link))
        try await Application(router: fixture.service.router()).test(.router) { client in
            let html = try await client.execute(
                uri: "/spring?utm_source=news&utm_medium=email",
                method: .get,
                headers: [.userAgent: Fixtures.iPhone]
            ) { String(buffer: $0.body) }
            let marker = #"data-claim=""#
            let start = try #require(html.range(of: marker)).upperBound
            let url = String(html[start..<(try #require(html[start...].firstIndex(of: "\"")))])
            let (status, body) = try await ClaimTests.claim(client, #"{"token": "\#(url)"}"#)
            #expect(status == .ok)
            #expect(body.contains(#""deepLink":"readapp://books/42?utm_source=news&utm_medium=email""#))

            let location = try await client.execute(
                uri: "/spring?utm_campaign=spring",
                method: .get,
                headers: [.userAgent: Fixtures.android]
            ) { $0.headers[.location] ?? "" }
            let referrer = try #require(
                URLComponents(string: location)?.queryItems?.first { $0.name == "referrer" }?.value?
                    .removingPercentEncoding
            )
            let token = try #require(referrer.split(separator: "=", maxSplits: 1).last)
            let android = try await ClaimTests.claim(client, #"{"token": "\#(token)"}"#)
            #expect(android.1.contains(#""deepLink":"readapp://books/42?utm_campaign=spring""#))

            let resolved = try await client.execute(uri: "/api/resolve/spring?utm_source=app", method: .get) {
                String(buffer: $0.body)
            }
            #expect(resolved.contains(#""deepLink":"readapp://books/42?utm_source=app""#))
        }
        await fixture.store.close()
    }

    @Test("A visit's query never makes a deep link the app would refuse: the link as saved goes instead")
    func mergedStillResolves() throws {
        let rules = try LinkRules(manifest: try Fixtures.manifest())
        var long = Self.link
        long.deepLink = "readapp://books/42?pad=" + String(repeating: "x", count: 4000)
        #expect(try rules.route(for: long.deepLink) == "book")
        let query = "utm_source=" + String(repeating: "n", count: 200)
        #expect(rules.deepLink(of: long, passing: query) == long.deepLink)
        #expect(rules.deepLink(of: Self.link, passing: "utm_source=news") == "readapp://books/42?utm_source=news")
        var closed = Self.link
        closed.passQuery = false
        #expect(rules.deepLink(of: closed, passing: "utm_source=news") == "readapp://books/42")
    }

    @Test("A claim token carries its query, signed; the old versions still verify")
    func tokens() throws {
        let tokens = ClaimTests.tokens()
        let text = tokens.issue(for: Self.link, platform: .iOS, at: Fixtures.now, query: "utm_source=news")
        let token = try tokens.verify(text, at: Fixtures.now)
        #expect(token.code == "spring")
        #expect(token.query == "utm_source=news")
        #expect(
            try tokens.verify(tokens.issue(for: Self.link, platform: .iOS, at: Fixtures.now), at: Fixtures.now).query
                == nil
        )
        // The longest code and query fit under the length the verifier takes.
        var longest = Self.link
        longest.code = String(repeating: "a", count: LinkRules.maxCodeLength)
        let query = String(repeating: "q", count: QueryPassthrough.maxBytes)
        let big = tokens.issue(for: longest, platform: .android, at: Fixtures.now, query: query)
        #expect(big.utf8.count <= ClaimTokens.maxLength)
        #expect(try tokens.verify(big, at: Fixtures.now).query == query)
    }

    @Test("The API takes per-platform targets and passQuery, and reads them back")
    func api() async throws {
        let fixture = try await ServiceFixture.make()
        try await Application(router: fixture.service.router()).test(.router) { client in
            let body = #"""
                {"code": "camp", "deepLink": "readapp://books/1", "passQuery": false,
                 "fallbacks": {"web": "https://www.marketing.example/", "android": "https://www.marketing.example/a"}}
                """#
            let created = try await client.execute(
                uri: "/api/links",
                method: .post,
                headers: [.authorization: "Bearer \(fixture.token)", .contentType: "application/json"],
                body: ByteBuffer(string: body)
            ) { ($0.status, String(buffer: $0.body)) }
            #expect(created.0 == .created)
            #expect(created.1.contains(#""passQuery":false"#))
            #expect(created.1.contains(#""android":"https://www.marketing.example/a""#))
            let updated = try await client.execute(
                uri: "/api/links/camp",
                method: .patch,
                headers: [.authorization: "Bearer \(fixture.token)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"passQuery": true}"#)
            ) { String(buffer: $0.body) }
            #expect(updated.contains(#""passQuery":true"#))
            #expect(updated.contains(#""web":"https://www.marketing.example/""#))
        }
        let stored = try #require(try await fixture.store.link(code: "camp"))
        #expect(stored.passQuery)
        #expect(stored.fallbacks.android == "https://www.marketing.example/a")
        await fixture.store.close()
    }
}
