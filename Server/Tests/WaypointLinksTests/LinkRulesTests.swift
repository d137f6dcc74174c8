import Foundation
import Testing
import WaypointManifest

@testable import WaypointLinks

@Suite("What a short link may hold")
struct LinkRulesTests {
    @Test("Codes are lowercased; anything that could reach another path or pass for a code is refused")
    func codes() throws {
        #expect(try LinkRules.normalizedCode("Spring-Sale_2") == "spring-sale_2")
        // "spr\u{0456}ng" has a Cyrillic і that looks like the Latin i.
        let refused = [
            "", "a/b", "..", "%2e%2e", "a%2Fb", "spr\u{0456}ng", "caf\u{00E9}", "a b", "a\nb",
            String(repeating: "x", count: 65), "api", "API", "health", "metrics",
            // The Kelvin sign, which Unicode lowers to `k`.
            "\u{212A}", "spring\u{212A}",
        ]
        for text in refused {
            #expect(throws: LinkServiceError.self, "\(text.debugDescription) passed") {
                try LinkRules.normalizedCode(text)
            }
        }
        do {
            _ = try LinkRules.normalizedCode("spr\u{0456}ng")
        } catch {
            #expect(
                error.message == "A code holds only ASCII letters, digits, '-' and '_'; 'spr\u{0456}ng' has U+0456."
            )
        }
    }

    @Test("A deep link must resolve to a route of the manifest, as the app will receive it")
    func deepLinks() throws {
        let rules = try LinkRules(manifest: try Fixtures.manifest())
        #expect(try rules.route(for: "readapp://books/42") == "book")
        #expect(try rules.route(for: "https://read.example.com/b/42") == "web.book")
        // Received as a verified universal link, so a route limited to those takes it.
        #expect(try rules.route(for: "https://read.example.com/account/delete") == "account.delete")
        let cases: [(String, String)] = [
            ("readapp://books/forty-two", "No route of the manifest matches 'readapp://books/forty-two'."),
            ("readapp://account/delete", "The app would refuse 'readapp://account/delete': "),
            ("https://evil.example/b/1", "'https://evil.example/b/1' is not a link of this app; use "),
            ("/books/1", "has no scheme"),
            ("javascript:alert(1)", "javascript"),
        ]
        for (link, reason) in cases {
            do {
                let route = try rules.route(for: link)
                Issue.record("\(link) resolved to \(route)")
            } catch {
                #expect(error.code == .deepLinkUnresolved)
                #expect(error.message.contains(reason), "\(error.message)")
            }
        }
    }

    @Test("Fallbacks lead to any https page an admin chose; previews only to the manifest's domains")
    func fallbacksAndPreviews() throws {
        let rules = try LinkRules(manifest: try Fixtures.manifest())
        try rules.check(
            ShortLink.Fallbacks(
                appStoreID: "1234567890",
                playPackage: "com.example.reading",
                web: "https://read.example.com/b/1"
            ),
            nil
        )
        // Issue 40: a campaign page anywhere, and a target per platform.
        try rules.check(
            ShortLink.Fallbacks(
                web: "https://www.marketing.example/spring?ref=link",
                ios: "https://testflight.apple.com/join/abc",
                android: "https://www.marketing.example/android",
                desktop: "https://www.marketing.example:8443/desktop#top"
            ),
            nil
        )
        let long = "https://example.com/" + String(repeating: "a", count: LinkRules.maxURLLength)
        var refused: [(ShortLink.Fallbacks, ShortLink.Preview?, LinkServiceError.Code)] = [
            (.init(web: "http://read.example.com/"), nil, .urlNotAllowed),
            (.init(web: "https://user@read.example.com/"), nil, .urlNotAllowed),
            (.init(web: "https://bank.example:pw@evil.example/"), nil, .urlNotAllowed),
            (.init(web: "javascript:alert(1)"), nil, .urlNotAllowed),
            (.init(web: "data:text/html,<script>alert(1)</script>"), nil, .urlNotAllowed),
            (.init(web: "//evil.example/"), nil, .urlNotAllowed),
            (.init(web: "https:///path"), nil, .urlNotAllowed),
            (.init(web: "https://example.com/a\nb"), nil, .urlNotAllowed),
            (.init(web: "https://example.com/a b"), nil, .urlNotAllowed),
            (.init(web: "https://example.com/\u{202E}gnp"), nil, .urlNotAllowed),
            (.init(web: long), nil, .urlNotAllowed),
            (.init(ios: "http://example.com/"), nil, .urlNotAllowed),
            (.init(android: "intent://scan#Intent;end"), nil, .urlNotAllowed),
            (.init(desktop: "ftp://example.com/"), nil, .urlNotAllowed),
            (.init(appStoreID: "id123"), nil, .invalidRequest),
            (.init(appStoreID: "0"), nil, .invalidRequest),
            (.init(appStoreID: "0123456789"), nil, .invalidRequest),
            (.init(playPackage: "com..x"), nil, .invalidRequest),
            (.init(), .init(imageURL: "https://evil.example/i.png"), .urlNotAllowed),
            (.init(), .init(title: "Sale\r\nSet-Cookie: a=b"), .invalidRequest),
            (.init(), .init(title: String(repeating: "x", count: 201)), .invalidRequest),
        ]
        refused.append((.init(web: "https://example.com/\u{0}"), nil, .urlNotAllowed))
        for (fallbacks, preview, code) in refused {
            do {
                try rules.check(fallbacks, preview)
                Issue.record("\(fallbacks) \(String(describing: preview)) passed")
            } catch {
                #expect(error.code == code, "\(error)")
            }
        }
    }

    @Test("A preview image may be on the hosts shortLinks.imageHosts lists, as on the manifest's domains")
    func imageHosts() throws {
        let text = Fixtures.manifestText.replacingOccurrences(
            of: "domain: links.example.com",
            with: "domain: links.example.com\n  imageHosts: [cdn.example.net, \"*.images.example\"]"
        )
        let rules = try LinkRules(manifest: try ManifestLoader.parse(text))
        for allowed in [
            "https://cdn.example.net/cover.png", "https://eu.images.example/a.jpg", "https://read.example.com/c.png",
        ] {
            try rules.check(ShortLink.Fallbacks(), ShortLink.Preview(imageURL: allowed))
        }
        for refused in [
            "https://evil.example/i.png", "http://cdn.example.net/i.png", "https://cdn.example.net:8443/i.png",
        ] {
            #expect(throws: LinkServiceError.self, "\(refused)") {
                try rules.check(ShortLink.Fallbacks(), ShortLink.Preview(imageURL: refused))
            }
        }
        do {
            try rules.check(ShortLink.Fallbacks(), ShortLink.Preview(imageURL: "https://evil.example/i.png"))
        } catch {
            #expect(error.message.contains("shortLinks.imageHosts"), "\(error.message)")
        }
        // The hosts are no associated domains: no route, short link or association file is there.
        #expect(!(try ManifestLoader.parse(text)).domains.contains("cdn.example.net"))
        #expect(throws: ManifestError.self) {
            try ManifestLoader.parse(
                Fixtures.manifestText.replacingOccurrences(
                    of: "domain: links.example.com",
                    with: "domain: links.example.com\n  imageHosts: [\"https://cdn.example.net/\"]"
                )
            )
        }
    }

    @Test("An update keeps absent fields, clears null ones, and cannot change the code")
    func updates() throws {
        let rules = try LinkRules(manifest: try Fixtures.manifest())
        let link = try rules.newLink(
            from: LinkInput(
                deepLink: "readapp://books/1",
                fallbacks: .init(web: "https://read.example.com/b/1"),
                preview: .init(title: "One")
            ),
            code: "one",
            now: Fixtures.now
        )
        let body = #"{"deepLink": "https://read.example.com/b/2", "preview": null}"#
        let input = try JSONDecoder().decode(LinkInput.self, from: Data(body.utf8))
        let later = Fixtures.now.addingTimeInterval(5)
        let updated = try rules.updated(link, with: input, now: later)
        #expect(updated.deepLink == "https://read.example.com/b/2")
        #expect(updated.route == "web.book")
        #expect(updated.preview == nil)
        #expect(updated.fallbacks.web == "https://read.example.com/b/1")
        #expect(updated.createdAt == Fixtures.now && updated.updatedAt == later)
        #expect(throws: LinkServiceError.self) { try rules.updated(link, with: LinkInput(code: "two"), now: later) }
    }

    @Test("A code the app's own routes take on the link's domain is refused: the app would open the route")
    func codesTheAppTakes() throws {
        // A route for every associated domain (`/search`), one for the second short-link domain
        // alone, and the fixture's routes.
        let text = DomainTests.manifestText.replacingOccurrences(
            of: "routes:\n",
            with:
                "routes:\n  - name: search\n    pattern: /search\n  - name: promo\n    pattern: https://go.example.org/promo\n"
        )
        let rules = try LinkRules(manifest: try ManifestLoader.parse(text))
        func refusal(_ code: String, on domain: String = "links.example.com") -> String? {
            do {
                try rules.checkNotTakenByApp(code, on: domain, chosen: true)
                return nil
            } catch {
                #expect(error.code == .invalidCode)
                return error.message
            }
        }
        #expect(
            refusal("search")
                == "The app opens https://links.example.com/search with the route 'search' and never asks the "
                + "service, so a visitor with the app would not get this link; choose another code, or put the "
                + "link on another short-link domain."
        )
        #expect(refusal("search", on: "go.example.org")?.contains("route 'search'") == true)
        // A route pinned to one domain takes its code there only.
        #expect(refusal("promo") == nil)
        #expect(refusal("promo", on: "go.example.org")?.contains("route 'promo'") == true)
        // Paths of more than one segment are never a code; other codes are free.
        #expect(refusal("books") == nil)
        #expect(refusal("spring", on: "go.example.org") == nil)

        // Moving a link to the domain where a route takes its code is refused the same way.
        let promo = try rules.newLink(from: LinkInput(deepLink: "readapp://books/1"), code: "promo", now: Fixtures.now)
        #expect(throws: LinkServiceError.self) {
            try rules.updated(promo, with: LinkInput(domain: "go.example.org"), now: Fixtures.now)
        }
        #expect(
            try rules.updated(promo, with: LinkInput(domain: "links.example.com"), now: Fixtures.now).code == "promo"
        )
    }

    @Test("A misspelled field is refused, not ignored")
    func unknownField() {
        do {
            _ = try JSONDecoder().decode(LinkInput.self, from: Data(#"{"deeplink": "readapp://books/1"}"#.utf8))
            Issue.record("a misspelled field was ignored")
        } catch let error as LinkServiceError {
            #expect(
                error.message
                    == "Unknown field 'deeplink'; a link has code, domain, deepLink, fallbacks, preview, passQuery, expiresAt."
            )
        } catch {
            Issue.record("\(error)")
        }
        // A thousand made-up keys: the first five in order, and how many more.
        let keys = (0..<1_000).shuffled().map { "\"k\(1_000 + $0)\": 1" }.joined(separator: ", ")
        do {
            _ = try JSONDecoder().decode(LinkInput.self, from: Data("{\(keys)}".utf8))
            Issue.record("made-up fields were ignored")
        } catch let error as LinkServiceError {
            #expect(error.message.hasPrefix("Unknown field 'k1000', 'k1001', 'k1002', 'k1003', 'k1004' and 995 more;"))
        } catch {
            Issue.record("\(error)")
        }
    }
}

@Suite("Who followed a link")
struct ClientKindTests {
    @Test("Phones, crawlers and everyone else are told apart by their user agents")
    func kinds() {
        #expect(ClientKind(userAgent: Fixtures.iPhone) == .iOS)
        #expect(ClientKind(userAgent: "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)") == .iOS)
        #expect(ClientKind(userAgent: Fixtures.android) == .android)
        #expect(ClientKind(userAgent: Fixtures.desktop) == .desktop)
        #expect(ClientKind(userAgent: nil) == .desktop)
        for crawler in [
            Fixtures.slack, Fixtures.iMessage, "Twitterbot/1.0", "LinkedInBot/1.0 (compatible; Mozilla/5.0)",
            "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", "WhatsApp/2.23.20.0 i",
            "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
        ] {
            #expect(ClientKind(userAgent: crawler) == .previewCrawler, "\(crawler)")
        }
    }
}

@Suite("Dates in request bodies")
struct RequestDateTests {
    @Test("expiresAt takes RFC 3339 as clients write it, and refuses what is not a date and time")
    func internetDates() throws {
        func expiry(_ text: String) throws -> Date? {
            let body = #"{"deepLink": "readapp://books/1", "expiresAt": "\#(text)"}"#
            return try JSONBody.decoder.decode(LinkInput.self, from: Data(body.utf8)).expiresAt
        }
        let newYear = Date(timeIntervalSince1970: 1_798_761_600)
        #expect(try expiry("2027-01-01T00:00:00Z") == newYear)
        #expect(try expiry("2027-01-01T00:00:00.000Z") == newYear)
        #expect(try expiry("2027-01-01t00:00:00z") == newYear)
        #expect(try expiry("2027-01-01T05:30:00+05:30") == newYear)
        #expect(try expiry("0098-10-03T15:57:12-19:01") != nil)
        for text in ["2027-01-01", "tomorrow", "2027-13-01T00:00:00Z", ""] {
            #expect(throws: DecodingError.self, "\(text)") { try expiry(text) }
        }
    }
}
