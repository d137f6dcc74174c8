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

    static func settings(providerToken: String? = nil) throws -> VisitAnswer.Settings {
        VisitAnswer.Settings(
            appStoreID: "1234567890",
            appStoreProviderToken: providerToken,
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
        // The referrer carries the claim token, then the campaign for Google Play's reports.
        #expect(try Self.referrerNames(play) == ["waypoint_claim", "utm_source", "utm_campaign"])
        #expect(try Self.answer(.iOS, stores).html?.contains("data-claim=") == true)
    }

    @Test("The Play referrer's campaign is the deep link's: the link's own utm_* first, then the visit's")
    func playCampaign() throws {
        var link = Self.link
        link.fallbacks = ShortLink.Fallbacks()
        link.deepLink = "readapp://books/42?utm_source=mail&id=7"
        // The token first; the link's own `utm_source` wins over the visit's; `id` and `ref` are no
        // campaign items.
        let play = try Self.referrer(try #require(try Self.answer(.android, link).location))
        #expect(play.hasPrefix("waypoint_claim="))
        #expect(play.split(separator: "&").dropFirst() == ["utm_source=mail", "utm_campaign=spring"])
        #expect(try ClaimTests.tokens().verify(ClaimAPI.tokenText(play), at: Fixtures.now).code == "spring")
        // A link that passes no query keeps its own campaign alone.
        link.passQuery = false
        let closed = try Self.referrer(try #require(try Self.answer(.android, link).location))
        #expect(closed.split(separator: "&").dropFirst() == ["utm_source=mail"])
        // Escaped once more inside the store URL: an item's own escapes survive the round trip.
        link.deepLink = "readapp://books/42?utm_campaign=spring%26summer"
        let escaped = try #require(try Self.answer(.android, link).location)
        #expect(escaped.hasSuffix("%26utm%5Fcampaign%3Dspring%2526summer"))
        #expect(try Self.referrer(escaped).hasSuffix("&utm_campaign=spring%26summer"))
        // No token (the client had its share of them): the campaign alone; neither: no referrer.
        #expect(
            try Self.referrer(try #require(try Self.android(link, claims: false).location))
                == "utm_campaign=spring%26summer"
        )
        link.deepLink = "readapp://books/42"
        #expect(
            try Self.android(link, claims: false).location
                == "https://play.google.com/store/apps/details?id=com.example.reading"
        )
        // Only the issued token is read as one: a campaign item naming the claim item stays out.
        link.passQuery = true
        let forged = try Self.referrer(
            try #require(
                try Self.android(link, claims: false, query: "utm_x=waypoint_claim=AwE&utm_source=news").location
            )
        )
        #expect(forged == "utm_source=news")
        // The campaign is cut at 512 bytes of items, in order (the token carries the visit's query).
        let many = (1...30).map { "utm_\($0)=" + String(repeating: "x", count: 20) }
        link.deepLink = "readapp://books/42?" + many.joined(separator: "&")
        let cut = try Self.referrer(try #require(try Self.android(link, claims: true).location))
        let items = cut.split(separator: "&").dropFirst().map(String.init)
        #expect(items.count > 10 && items.count < many.count)
        #expect(items == Array(many.prefix(items.count)))
        #expect(items.joined(separator: "&").utf8.count < PlayReferrer.maxCampaignBytes)
        #expect(
            items.joined(separator: "&").utf8.count + many[items.count].utf8.count + 1 > PlayReferrer.maxCampaignBytes
        )
        #expect(PlayReferrer.token(in: "waypoint_claim=AwI&utm_source=news") == "AwI")
        #expect(PlayReferrer.token(in: "AwI") == nil)
    }

    @Test("With a provider token, the App Store button is an App Store Connect campaign link")
    func appStoreCampaign() throws {
        var link = Self.link
        link.fallbacks = ShortLink.Fallbacks()
        func storeButton(_ query: String?, providerToken: String? = "118330", _ link: ShortLink) throws -> String? {
            let page = try #require(
                VisitAnswer.for(
                    code: link.code,
                    link: link,
                    client: .iOS,
                    query: query,
                    now: Fixtures.now,
                    settings: try Self.settings(providerToken: providerToken)
                ).html
            )
            return page.components(separatedBy: "https://apps.apple.com/").dropFirst().first?
                .components(separatedBy: "\"").first
        }
        // The campaign's name from the deep link as the app gets it: `ct` beside `pt`, with `mt=8`.
        #expect(
            try storeButton("utm_campaign=spring&utm_source=news", link)
                == "app/id1234567890?pt=118330&amp;ct=spring&amp;mt=8"
        )
        // No provider token, or no campaign name: the plain App Store page.
        #expect(try storeButton("utm_campaign=spring", providerToken: nil, link) == "app/id1234567890")
        #expect(try storeButton("utm_source=news", link) == "app/id1234567890")
        // As App Store Connect takes a campaign token: decoded, accents dropped, only the characters
        // it allows (no `春`), at most 30, no space at either end, escaped again.
        func ct(_ campaign: String) throws -> String? {
            let button = try #require(try storeButton("utm_campaign=" + campaign, link))
            return button.components(separatedBy: "ct=").dropFirst().first?.components(separatedBy: "&amp;").first?
                .removingPercentEncoding
        }
        #expect(try ct("+Fr%C3%BChling+50%25+off!+(ends+Sunday)+and+more") == "Fruhling 50% off! (ends Sunday")
        #expect(try ct("%C3%A9t%C3%A9+%E6%98%A5+2026") == "ete 2026")
        #expect(try ct(String(repeating: "a", count: 29) + "+b") == String(repeating: "a", count: 29))
        #expect(try ct("%E6%98%A5") == nil)
        // Unreserved characters stay as they are.
        #expect(try storeButton("utm_campaign=summer_sale-2.0~x", link)?.contains("ct=summer_sale-2.0~x&amp;") == true)
        #expect(StoreCampaign.maxAppStoreCampaignLength == 30)
        // The link's own campaign counts when the visit has none.
        link.deepLink = "readapp://books/42?utm_campaign=autumn"
        #expect(try storeButton(nil, link) == "app/id1234567890?pt=118330&amp;ct=autumn&amp;mt=8")
    }

    @Test(
        "An App Store id or provider token that is no number stops the service at start-up, saying where to find it"
    )
    func badStoreNumbers() async throws {
        let store = try await SQLiteLinkStore.open(path: Fixtures.databasePath())
        let numbers: [(given: [String], configuration: (String) -> LinkService.Configuration, advice: String)] = [
            (
                ["", "pt=118330", "12ab", "0", "0118330", String(repeating: "1", count: 21)],
                { LinkService.Configuration(appStoreProviderToken: $0) }, "Campaign Generator"
            ),
            (
                ["id1234567890", "https://apps.apple.com/app/id1234567890", "", "0"],
                { LinkService.Configuration(appStoreID: $0) }, "without 'id'"
            ),
        ]
        for (given, configuration, advice) in numbers {
            for text in given {
                let error = #expect(throws: LinkServiceStartError.self) {
                    try LinkService(manifest: try Fixtures.manifest(), store: store, configuration: configuration(text))
                }
                #expect(error?.message.contains("'\(text)' is not one") == true)
                #expect(error?.message.contains(advice) == true)
            }
            _ = try LinkService(manifest: try Fixtures.manifest(), store: store, configuration: configuration("118330"))
        }
        await store.close()
    }

    /// An Android visit's answer, with claim tokens issued or not.
    static func android(
        _ link: ShortLink,
        claims: Bool,
        query: String? = nil
    ) throws -> VisitAnswer {
        VisitAnswer.for(
            code: link.code,
            link: link,
            client: .android,
            query: query,
            now: Fixtures.now,
            settings: try settings(),
            mayIssueClaim: { claims }
        )
    }

    /// A store URL's referrer, unescaped once as the Install Referrer API gives it to the app.
    static func referrer(_ location: String) throws -> String {
        try #require(
            URLComponents(string: location)?.percentEncodedQueryItems?.first { $0.name == "referrer" }?.value?
                .removingPercentEncoding
        )
    }

    /// The names of a store URL's referrer items, in order.
    static func referrerNames(_ location: String) throws -> [String] {
        try #require(URLComponents(string: "?" + Self.referrer(location))?.queryItems).map(\.name)
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
        // What is left behind is reported: why, for the service's counter and log line.
        #expect(QueryPassthrough.split(long, by: Self.link) == (nil, .tooLong))
        #expect(QueryPassthrough.split("a=<b>&utm_source=news&=v", by: Self.link) == ("utm_source=news", .notURLText))
        #expect(QueryPassthrough.split("utm_source=news&f", by: Self.link) == ("utm_source=news&f", nil))
        #expect(QueryPassthrough.split(long, by: closed) == (nil, nil))
        #expect(try Self.answer(.android, query: "a=<b>&utm_source=news").leftBehind == .notURLText)
        #expect(try Self.answer(.desktop, query: long).leftBehind == .tooLong)
        #expect(try Self.answer(.iOS).leftBehind == nil)
        #expect(try Self.answer(.previewCrawler, query: long).leftBehind == nil)
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
            let url = try ClaimTests.claimURL(inPage: html)
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
        // Left behind for the app, and said so; the web targets still get it.
        #expect(rules.passing(query, to: long).changesRoute)
        #expect(rules.passing(query, to: long).passed == query)
        #expect(rules.passing(query, to: long).appLeftBehind == .changesRoute)
        #expect(rules.passing(query, to: long).leftBehind == nil)
        #expect(!rules.passing("utm_source=news", to: Self.link).changesRoute)
        // An answer counts it only where the app would have had it: the page, not a web redirect.
        #expect(try Self.answer(.iOS, long, query: query).leftBehind == .changesRoute)
        #expect(try Self.answer(.desktop, long, query: query).leftBehind == nil)
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
