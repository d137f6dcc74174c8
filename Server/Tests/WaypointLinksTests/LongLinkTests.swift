import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Prometheus
import Testing
import WaypointLinksClient
import WaypointManifest

@testable import WaypointLinks

/// Long Firebase Dynamic Links visited on a short-link domain (`/?link=…`), answered as short links
/// with their fields when long links are on, and never leading off the team's own sites.
@Suite("Long Dynamic Links")
struct LongLinkTests {
    /// A service with long links on and `www.example.com` allowed, and its metrics in a registry of its own.
    static func withService(
        longLinks: Bool = true,
        hosts: [String] = ["www.example.com"],
        appStoreID: String? = "1234567890",
        _ body: @Sendable (any TestClientProtocol, ServiceFixture, PrometheusCollectorRegistry) async throws -> Void
    ) async throws {
        let registry = PrometheusCollectorRegistry()
        let fixture = try await ServiceFixture.make(appStoreID: appStoreID) {
            $0.longLinks = longLinks
            $0.longLinkHosts = longLinks ? hosts : []
            $0.metrics = registry
        }
        // The store is closed whatever the checks find.
        do {
            try await Application(router: fixture.service.router()).test(.router) { client in
                try await body(client, fixture, registry)
            }
        } catch {
            Issue.record(error)
        }
        await fixture.store.close()
    }

    static func get(
        _ client: some TestClientProtocol,
        _ uri: String,
        as userAgent: String
    ) async throws -> (status: HTTPResponse.Status, location: String?, body: String) {
        try await client.execute(uri: uri, method: .get, headers: [.userAgent: userAgent]) {
            ($0.status, $0.headers[.location], String(buffer: $0.body))
        }
    }

    static let book = "/?link=readapp%3A%2F%2Fbooks%2F7&st=Seven&utm_source=mail"

    @Test("An iPhone gets the landing page of the long link's deep link, and its claim gives that link once")
    func iPhoneAndClaim() async throws {
        try await Self.withService { client, fixture, registry in
            let page = try await Self.get(client, Self.book, as: Fixtures.iPhone)
            #expect(page.status == .ok)
            #expect(page.body.contains("readapp://books/7?utm_source=mail"))
            #expect(page.body.contains("Seven"))
            let url = try ClaimTests.claimURL(inPage: page.body)
            #expect(url.hasPrefix("https://links.example.com/c/"))
            let (status, body) = try await ClaimTests.claim(client, #"{"token": "\#(url)"}"#)
            #expect(status == .ok)
            #expect(
                body == #"{"code":"","deepLink":"readapp://books/7?utm_source=mail","platform":"iOS","route":"book"}"#
            )
            #expect(try await ClaimTests.claim(client, #"{"token": "\#(url)"}"#).0 == .conflict)
            // The claim URL opened in a browser goes to the deep link, unclaimed.
            let token = String(url.dropFirst("https://links.example.com/c/".count))
            let opened = try await Self.get(client, "/c/\(token)", as: Fixtures.desktop)
            #expect(opened.status == .found)
            #expect(opened.location == "readapp://books/7?utm_source=mail")
            // Nothing is stored for a long link; its visit is counted without a code.
            #expect(try await fixture.store.links(after: nil, limit: 10, containing: nil).isEmpty)
            let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
            #expect(
                SharedMetrics.value(
                    #"waypoint_links_long_link_visits_total{client="iOS",outcome="landingPage"}"#,
                    in: text
                ) == 1
            )
        }
    }

    @Test("The app reads the claim URL of a long link with a deep link of 2,000 bytes")
    func longClaimURL() async throws {
        try await Self.withService { client, _, _ in
            let campaign = String(repeating: "x", count: 1_960)
            let page = try await Self.get(client, Self.book + "&utm_content=" + campaign, as: Fixtures.iPhone)
            let url = try ClaimTests.claimURL(inPage: page.body)
            #expect(url.count > 2_600)
            // What the app does with the pasteboard, then the claim.
            let token = try #require(LinkServiceClient(domain: "links.example.com").token(inClaimURL: url))
            let (status, body) = try await ClaimTests.claim(client, #"{"token": "\#(token)"}"#)
            #expect(status == .ok)
            #expect(body.contains(campaign))
        }
    }

    @Test("Android goes to Play with a claim, desktops to ofl on an allowed host, crawlers get the preview")
    func otherClients() async throws {
        try await Self.withService { client, _, _ in
            let android = try await Self.get(client, Self.book, as: Fixtures.android)
            #expect(android.status == .found)
            let location = try #require(android.location)
            #expect(location.hasPrefix("https://play.google.com/store/apps/details?id=com.example.reading&referrer="))
            let referrer = try #require(
                URLComponents(string: location)?.queryItems?.first { $0.name == "referrer" }?.value
            )
            let token = try #require(URLComponents(string: "?" + referrer)?.queryItems?.first?.value)
            let (status, body) = try await ClaimTests.claim(client, #"{"token": "\#(token)"}"#)
            #expect(status == .ok)
            #expect(body.contains(#""platform":"android""#) && body.contains(#""route":"book""#))

            let desktop = try await Self.get(
                client,
                "/?link=readapp%3A%2F%2Fbooks%2F7&ofl=https%3A%2F%2Fwww.example.com%2Fbooks%2F7",
                as: Fixtures.desktop
            )
            #expect(desktop.status == .found)
            #expect(desktop.location == "https://www.example.com/books/7")
            // An empty path segment is none (`//?link=…`), as the app reads it too; a first `link`
            // left empty is no long link of anything, here as in the app (which reports it).
            let doubled = try await Self.get(
                client,
                "//?link=readapp%3A%2F%2Fbooks%2F7&ofl=https%3A%2F%2Fwww.example.com%2Fbooks%2F7",
                as: Fixtures.desktop
            )
            #expect(doubled.location == "https://www.example.com/books/7")
            let emptyFirst = try await Self.get(
                client,
                "/?link=&link=readapp%3A%2F%2Fbooks%2F7&ofl=https%3A%2F%2Fwww.example.com%2Fbooks%2F7",
                as: Fixtures.desktop
            )
            #expect(emptyFirst.status != .found)
            #expect(emptyFirst.status.code < 500)
            // An https deep link is the desktop's page too, as in Firebase.
            let web = try await Self.get(client, "/?link=https%3A%2F%2Fread.example.com%2Fb%2F42", as: Fixtures.desktop)
            #expect(web.location == "https://read.example.com/b/42")

            // An image off the manifest's domains is left out; the rest of the preview is kept.
            let preview = try await Self.get(
                client,
                "/?link=readapp%3A%2F%2Fbooks%2F7&st=Seven&si=https%3A%2F%2Fcdn.elsewhere.example%2Fx.png",
                as: Fixtures.slack
            )
            #expect(preview.status == .ok)
            #expect(preview.body.contains(#"og:title" content="Seven""#))
            #expect(!preview.body.contains("og:image") && !preview.body.contains("twitter:image"))
            // The page's address is the long link itself, which a crawler fetches again.
            let pageURL = "https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F7&amp;st=Seven"
            #expect(preview.body.contains(#"og:url" content=""# + pageURL))

            // Characters a browser sends unescaped (`|`, `{`, `^`) read as themselves.
            let raw = try await Self.get(
                client,
                "/?link=https%3A%2F%2Fread.example.com%2Fb%2F42&st=Sale+|+50%25+off+{now}^",
                as: Fixtures.iPhone
            )
            #expect(raw.status == .ok)
            #expect(raw.body.contains("Sale | 50% off {now}^"))
            #expect(raw.body.contains("https://read.example.com/b/42"))
        }
    }

    @Test(
        "A long link that leads off the team's sites, to another app or to no route is not followed",
        arguments: [
            // An open redirect on the team's domain, for each web target.
            "/?link=readapp%3A%2F%2Fbooks%2F7&ofl=https%3A%2F%2Fevil.example%2F",
            "/?link=readapp%3A%2F%2Fbooks%2F7&afl=https%3A%2F%2Fevil.example%2F",
            "/?link=readapp%3A%2F%2Fbooks%2F7&ifl=https%3A%2F%2Fevil.example%2F",
            "/?link=readapp%3A%2F%2Fbooks%2F7&ofl=http%3A%2F%2Fwww.example.com%2F",
            "/?link=readapp%3A%2F%2Fbooks%2F7&ofl=https%3A%2F%2Fwww.example.com%40evil.example%2F",
            // Another app's store listing.
            "/?link=readapp%3A%2F%2Fbooks%2F7&isi=999",
            "/?link=readapp%3A%2F%2Fbooks%2F7&apn=com.other.app",
            // No route, no link, no URL.
            "/?link=https%3A%2F%2Fevil.example%2Fb%2F42",
            "/?link=readapp%3A%2F%2Fnowhere",
            "/?utm_source=mail",
            "/?link=",
            "/?link=%ZZ",
        ]
    )
    func refused(uri: String) async throws {
        try await Self.withService { client, _, registry in
            for userAgent in [Fixtures.iPhone, Fixtures.android, Fixtures.desktop] {
                let answer = try await Self.get(client, uri, as: userAgent)
                #expect(answer.status == .notFound, "\(uri)")
                #expect(answer.location == nil)
                #expect(answer.body.contains("<html"))
            }
            let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
            #expect(
                SharedMetrics.value(
                    #"waypoint_links_long_link_visits_total{client="desktop",outcome="notFound"}"#,
                    in: text
                ) == 1
            )
        }
    }

    @Test("A long link naming a store when the service has no id of its own for it is not followed")
    func storesWithoutOwnID() async throws {
        try await Self.withService(appStoreID: nil) { client, _, _ in
            let named = try await Self.get(client, "/?link=readapp%3A%2F%2Fbooks%2F7&isi=999", as: Fixtures.iPhone)
            #expect(named.status == .notFound)
            // Without isi, the page is the deep link's, with no App Store button to offer.
            let plain = try await Self.get(client, "/?link=readapp%3A%2F%2Fbooks%2F7", as: Fixtures.iPhone)
            #expect(plain.status == .ok)
            #expect(!plain.body.contains("apps.apple.com"))
        }
    }

    @Test("A wildcard host lets a subdomain through; Android follows afl; text is escaped; HEAD is no visit")
    func details() async throws {
        try await Self.withService(hosts: ["*.example.com"]) { client, _, registry in
            let desktop = try await Self.get(
                client,
                "/?link=readapp%3A%2F%2Fbooks%2F7&ofl=https%3A%2F%2Fshop.example.com%2F",
                as: Fixtures.desktop
            )
            #expect(desktop.location == "https://shop.example.com/")
            let android = try await Self.get(
                client,
                "/?link=readapp%3A%2F%2Fbooks%2F7&afl=https%3A%2F%2Fshop.example.com%2Fandroid",
                as: Fixtures.android
            )
            #expect(android.location == "https://shop.example.com/android")
            let script = "/?link=readapp%3A%2F%2Fbooks%2F7&st=%3Cscript%3Ealert(1)%3C%2Fscript%3E&sd=%22%3E%3Cimg%3E"
            for userAgent in [Fixtures.iPhone, Fixtures.slack] {
                let page = try await Self.get(client, script, as: userAgent)
                #expect(page.status == .ok)
                #expect(!page.body.contains("<script>alert") && !page.body.contains("\"><img>"))
                #expect(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            }
            let head = try await client.execute(uri: Self.book, method: .head, headers: [.userAgent: Fixtures.iPhone]) {
                $0.status
            }
            #expect(head == .ok)
            let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
            let series = #"waypoint_links_long_link_visits_total{client="iOS",outcome="landingPage"}"#
            // The iPhone's GET above, not the HEAD.
            #expect(SharedMetrics.value(series, in: text) == 1)
        }
    }

    @Test("Off, as by default, a long link is the 404 page an unknown code gets")
    func off() async throws {
        try await Self.withService(longLinks: false) { client, _, _ in
            let answer = try await Self.get(client, Self.book, as: Fixtures.iPhone)
            #expect(answer.status == .notFound)
            #expect(answer.body.contains("<html"))
            let root = try await Self.get(client, "/", as: Fixtures.desktop)
            #expect(root.status == .notFound)
            #expect(root.body.contains("Nothing is linked at this address."))
        }
    }

    @Test("The manifest's shortLinks.longLinks answers them without --long-links; the app reads the claim's deep link")
    func fromTheManifest() async throws {
        var manifest = try Fixtures.manifest()
        manifest.shortLinks?.longLinks = true
        let store = try await SQLiteLinkStore.open(path: Fixtures.databasePath())
        let service = try LinkService(
            manifest: manifest,
            store: store,
            configuration: LinkService.Configuration(
                appStoreID: "1234567890",
                longLinkHosts: ["www.example.com"],
                now: { Fixtures.now }
            )
        )
        let association = try #require(
            try WellKnownFiles(manifest: manifest).appleAppSiteAssociation(forHost: "links.example.com")
        )
        // The app is opened for them: the short-link domain's file claims `/` with a `link` item.
        let file = try JSONSerialization.jsonObject(with: association.body) as? [String: Any]
        let details = (file?["applinks"] as? [String: Any])?["details"] as? [[String: Any]]
        let components = details?.first?["components"] as? [[String: Any]] ?? []
        #expect(
            components.contains {
                $0["/"] as? String == "/" && $0["?"] as? [String: String] == ["link": "?*"] && $0["exclude"] == nil
            }
        )
        do {
            try await Application(router: service.router()).test(.router) { client in
                let page = try await Self.get(client, Self.book, as: Fixtures.iPhone)
                #expect(page.status == .ok)
                let url = try ClaimTests.claimURL(inPage: page.body)
                let (status, body) = try await ClaimTests.claim(client, #"{"token": "\#(url)"}"#)
                #expect(status == .ok)
                // One reading: the app opened by the long link gets the deep link a claim gives after an install.
                let inApp = LinkServiceClient(domain: "links.example.com").deepLink(
                    inLongLink: "https://links.example.com" + Self.book
                )
                #expect(inApp == "readapp://books/7?utm_source=mail")
                #expect(body.contains(#""deepLink":"\#(inApp ?? "-")""#))
            }
        } catch {
            Issue.record(error)
        }
        await store.close()
    }

    @Test("A route at the root takes no long link from the service; an image host is not a long link's to use")
    func rootRouteAndImageHosts() async throws {
        let text = Fixtures.manifestText.replacingOccurrences(
            of: "shortLinks:\n  domain: links.example.com",
            with: "shortLinks:\n  domain: links.example.com\n  longLinks: true\n  imageHosts: [cdn.elsewhere.example]"
        ).replacingOccurrences(of: "routes:\n", with: "routes:\n  - name: home\n    pattern: /\n")
        let store = try await SQLiteLinkStore.open(path: Fixtures.databasePath())
        let service = try LinkService(
            manifest: try ManifestLoader.parse(text),
            store: store,
            configuration: LinkService.Configuration(appStoreID: "1234567890", now: { Fixtures.now })
        )
        do {
            try await Application(router: service.router()).test(.router) { client in
                let page = try await Self.get(client, Self.book, as: Fixtures.iPhone)
                #expect(page.status == .ok)
                #expect(page.body.contains("readapp://books/7?utm_source=mail"))
                // Anyone can write a long link: its image stays on the manifest's own domains.
                let preview = try await Self.get(
                    client,
                    "/?link=readapp%3A%2F%2Fbooks%2F7&st=Seven&si=https%3A%2F%2Fcdn.elsewhere.example%2Fx.png",
                    as: Fixtures.slack
                )
                #expect(preview.status == .ok)
                #expect(!preview.body.contains("og:image"))
            }
        } catch {
            Issue.record(error)
        }
        await store.close()
    }

    @Test("A --long-link-host without --long-links, or one that is no host, stops the service at start-up")
    func startErrors() async throws {
        let store = try await SQLiteLinkStore.open(path: Fixtures.databasePath())
        let cases: [(LinkService.Configuration, String)] = [
            (LinkService.Configuration(longLinkHosts: ["www.example.com"]), "does nothing without --long-links"),
            (LinkService.Configuration(longLinks: true, longLinkHosts: ["https://www.example.com"]), "is not a host"),
            (LinkService.Configuration(longLinks: true, longLinkHosts: [""]), "is not a host"),
            (LinkService.Configuration(longLinks: true, longLinkHosts: ["*.com"]), "is not a host"),
            (LinkService.Configuration(longLinks: true, longLinkHosts: ["com"]), "is not a host"),
        ]
        for (configuration, message) in cases {
            let error = #expect(throws: LinkServiceStartError.self) {
                try LinkService(manifest: try Fixtures.manifest(), store: store, configuration: configuration)
            }
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        }
        _ = try LinkService(
            manifest: try Fixtures.manifest(),
            store: store,
            configuration: LinkService.Configuration(longLinks: true, longLinkHosts: ["*.example.com"])
        )
        await store.close()
    }

    @Test("A long link's claim token carries its deep link, signed, and ages like the others")
    func tokens() throws {
        let tokens = ClaimTokens(secret: Array(repeating: 1, count: 32), lifetime: 3_600)
        var link = ShortLink(
            code: "",
            deepLink: "readapp://books/7?q=" + String(repeating: "x", count: 2_000),
            route: "book"
        )
        link.createdAt = Fixtures.now
        let text = tokens.issue(for: link, platform: .android, at: Fixtures.now)
        #expect(text.utf8.count <= ClaimTokens.maxLength)
        let token = try tokens.verify(text, at: Fixtures.now)
        #expect(token.deepLink == link.deepLink)
        #expect(token.code.isEmpty && token.platform == .android)
        #expect(throws: LinkServiceError.self) { try tokens.verify(text, at: Fixtures.now.addingTimeInterval(3_700)) }
        var forged = Array(text.utf8)
        forged[40] = forged[40] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: LinkServiceError.self) { try tokens.verify(String(decoding: forged, as: UTF8.self), at: nil) }
        // A short link's token is as it was.
        link.code = "spring"
        #expect(try tokens.verify(tokens.issue(for: link, platform: .iOS, at: Fixtures.now), at: nil).deepLink == nil)
    }
}
