import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import WaypointLinks

/// `GET /{code}`: where each visitor goes when the app did not open.
@Suite("Following a short link")
struct VisitTests {
    static let link = ShortLink(
        code: "spring",
        deepLink: "https://read.example.com/b/42",
        route: "web.book",
        fallbacks: ShortLink.Fallbacks(web: "https://read.example.com/b/42"),
        preview: ShortLink.Preview(
            title: "Spring <script>alert(1)</script>",
            description: "\"Quoted\" & 'single'",
            imageURL: "https://read.example.com/i/42.png"
        ),
        createdAt: Fixtures.now
    )

    func visit(
        _ code: String,
        userAgent: String?,
        links: [ShortLink] = [link],
        _ check: @escaping @Sendable (TestResponse) throws -> Void
    ) async throws {
        let fixture = try await ServiceFixture.make()
        for link in links { #expect(try await fixture.store.insert(link)) }
        let app = Application(router: fixture.service.router())
        try await app.test(.router) { client in
            var headers = HTTPFields()
            if let userAgent { headers[.userAgent] = userAgent }
            try await client.execute(uri: "/\(code)", method: .get, headers: headers) { try check($0) }
        }
        await fixture.store.close()
    }

    static func html(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test("An iPhone gets a page that opens the app or offers the App Store")
    func iPhone() async throws {
        try await visit("spring", userAgent: Fixtures.iPhone) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(response.headers[.cacheControl] == "no-store")
            let html = Self.html(response)
            #expect(html.contains(#"<a class="button" href="https://read.example.com/b/42">Open in the app</a>"#))
            #expect(
                html.contains(
                    #"href="https://apps.apple.com/app/id1234567890" data-claim="https://links.example.com/c/"#
                )
            )
            #expect(html.contains("Spring &lt;script&gt;alert(1)&lt;/script&gt;"))
            // The one script is the claim copy, allowed by its hash and nothing else.
            #expect(html.components(separatedBy: "<script>").count == 2)
            let script = try #require(
                html.components(separatedBy: "<script>").last?.components(separatedBy: "</script>").first
            )
            #expect(script == Pages.claimScript)
            // A browser runs it only if the page's policy names its exact hash.
            let hash = Data(SHA256.hash(data: Data(script.utf8))).base64EncodedString()
            let policy = try #require(response.headers[.contentSecurityPolicy])
            #expect(policy.contains("script-src 'sha256-\(hash)';"))
        }
    }

    @Test("Android goes to the Play Store with the click's claim token in the install referrer")
    func android() async throws {
        try await visit("Spring", userAgent: Fixtures.android) { response in
            #expect(response.status == .found)
            let location = try #require(response.headers[.location])
            let prefix =
                "https://play.google.com/store/apps/details?id=com.example.reading&referrer=waypoint%5Fclaim%3D"
            #expect(location.hasPrefix(prefix))
            #expect(location.count > prefix.count + 40)
        }
        // A visit's campaign goes into the referrer too, after the token, for Google Play's reports.
        try await visit("spring?utm_source=news&ref=mail", userAgent: Fixtures.android) { response in
            let location = try #require(response.headers[.location])
            #expect(location.contains("&referrer=waypoint%5Fclaim%3D"))
            #expect(location.hasSuffix("%26utm%5Fsource%3Dnews"))
        }
    }

    @Test("A desktop browser goes to the web fallback; without one, to the landing page")
    func desktop() async throws {
        try await visit("spring", userAgent: Fixtures.desktop) { response in
            #expect(response.status == .found)
            #expect(response.headers[.location] == "https://read.example.com/b/42")
        }
        let bare = ShortLink(code: "bare", deepLink: "readapp://books/1", route: "book", createdAt: Fixtures.now)
        try await visit("bare", userAgent: nil, links: [bare]) { response in
            #expect(response.status == .ok)
            #expect(Self.html(response).contains(#"href="readapp://books/1""#))
        }
    }

    @Test("An empty path segment is no segment: /spring/ and //spring are the short link spring, as the app reads them")
    func emptySegments() async throws {
        // The app's LinkServiceClient takes these for `spring` too (WaypointLinksClientTests), and
        // the association file's `/?*` opens the app for them: the browser and the app must agree.
        for code in ["spring/", "/spring", "spring//"] {
            try await visit(code, userAgent: Fixtures.desktop) { response in
                #expect(response.status == .found, "\(code)")
                #expect(response.headers[.location] == "https://read.example.com/b/42", "\(code)")
            }
        }
    }

    @Test("Preview crawlers get Open Graph and Twitter card tags, everything they echo escaped")
    func crawlers() async throws {
        for agent in [Fixtures.slack, Fixtures.iMessage] {
            try await visit("spring", userAgent: agent) { response in
                #expect(response.status == .ok)
                let html = Self.html(response)
                #expect(
                    html.contains(#"<meta property="og:title" content="Spring &lt;script&gt;alert(1)&lt;/script&gt;">"#)
                )
                #expect(
                    html.contains(
                        #"<meta property="og:description" content="&quot;Quoted&quot; &amp; &#39;single&#39;">"#
                    )
                )
                #expect(html.contains(#"<meta property="og:image" content="https://read.example.com/i/42.png">"#))
                #expect(html.contains(#"<meta property="og:url" content="https://links.example.com/spring">"#))
                #expect(html.contains(#"<meta name="twitter:card" content="summary_large_image">"#))
                #expect(!html.contains("<script>"))
            }
        }
    }

    @Test("The app that a short link opened gets the deep link behind it, once it is live")
    func resolve() async throws {
        let fixture = try await ServiceFixture.make()
        var expired = Self.link
        expired.code = "old"
        expired.expiresAt = Fixtures.now
        #expect(try await fixture.store.insert(Self.link))
        #expect(try await fixture.store.insert(expired))
        let app = Application(router: fixture.service.router())
        try await app.test(.router) { client in
            try await client.execute(uri: "/api/resolve/Spring", method: .get) { response in
                #expect(response.status == .ok)
                #expect(
                    String(buffer: response.body)
                        == #"{"code":"spring","deepLink":"https://read.example.com/b/42","route":"web.book"}"#
                )
            }
            for (code, status, error) in [
                ("old", HTTPResponse.Status.gone, "expired"), ("autumn", .notFound, "notFound"),
                ("a.b", .badRequest, "invalidCode"),
            ] {
                try await client.execute(uri: "/api/resolve/\(code)", method: .get) { response in
                    #expect(response.status == status)
                    #expect(String(buffer: response.body).contains(#""code":"\#(error)""#))
                }
            }
        }
        await fixture.store.close()
    }

    @Test("What a link does not have is left out of its pages, not printed as nil")
    func absentFields() async throws {
        let plain = ShortLink(
            code: "plain",
            deepLink: "readapp://books/1",
            route: "book",
            preview: ShortLink.Preview(title: "Plain"),
            createdAt: Fixtures.now
        )
        for agent in [Fixtures.slack, Fixtures.iPhone] {
            try await visit("plain", userAgent: agent, links: [plain]) { response in
                let html = Self.html(response)
                #expect(html.contains("Plain"))
                #expect(!html.contains("nil"))
                #expect(!html.contains("og:description") && !html.contains("og:image"))
            }
        }
    }

    @Test("An unknown code is a 404 page, an expired link a 410 page, whatever the code holds")
    func missing() async throws {
        try await visit("autumn", userAgent: Fixtures.iPhone) { response in
            #expect(response.status == .notFound)
            #expect(Self.html(response).contains("Nothing is linked at “autumn”."))
        }
        try await visit("%3Cscript%3E", userAgent: Fixtures.desktop) { response in
            #expect(response.status == .notFound)
            #expect(!Self.html(response).contains("<script>"))
        }
        var expired = Self.link
        expired.expiresAt = Fixtures.now
        try await visit("spring", userAgent: Fixtures.android, links: [expired]) { response in
            #expect(response.status == .gone)
            #expect(Self.html(response).contains("The link “spring” is no longer in use."))
        }
    }
}
