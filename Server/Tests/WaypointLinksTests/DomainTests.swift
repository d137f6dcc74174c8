import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Testing
import WaypointManifest

@testable import WaypointLinks

/// Issue 40: several short-link domains for one app (a brand domain, a campaign domain).
@Suite("Several short-link domains")
struct DomainTests {
    /// The shared manifest with a second short-link domain (listed itself, besides its wildcard).
    static func manifest() throws -> Manifest { try ManifestLoader.parse(manifestText) }

    static let manifestText = Fixtures.manifestText.replacingOccurrences(
        of: "domain: links.example.com",
        with: "domains: [links.example.com, go.example.org]"
    ).replacingOccurrences(of: #""*.example.org"]"#, with: #""*.example.org", go.example.org]"#)

    static func service(_ store: SQLiteLinkStore) throws -> LinkService {
        try LinkService(
            manifest: try manifest(),
            store: store,
            configuration: .init(appStoreID: "1", now: { Fixtures.now })
        )
    }

    static func send(
        _ client: some TestClientProtocol,
        _ token: String,
        _ method: HTTPRequest.Method,
        _ uri: String,
        _ body: String? = nil
    ) async throws -> (HTTPResponse.Status, String) {
        try await client.execute(
            uri: uri,
            method: method,
            headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
            body: body.map { ByteBuffer(string: $0) }
        ) { ($0.status, String(buffer: $0.body)) }
    }

    @Test("A link is on the first domain unless it names another; codes are unique across domains")
    func api() async throws {
        let fixture = try await ServiceFixture.make()
        let service = try Self.service(fixture.store)
        try await Application(router: service.router()).test(.router) { client in
            let first = try await Self.send(
                client,
                fixture.token,
                .post,
                "/api/links",
                #"{"code": "a", "deepLink": "readapp://books/1"}"#
            )
            #expect(first.0 == .created)
            #expect(first.1.contains(#""domain":"links.example.com""#))
            #expect(first.1.contains(#""url":"https://links.example.com/a""#))
            let other = try await Self.send(
                client,
                fixture.token,
                .post,
                "/api/links",
                #"{"code": "b", "domain": "GO.example.org", "deepLink": "readapp://books/2"}"#
            )
            #expect(other.0 == .created)
            #expect(other.1.contains(#""domain":"go.example.org""#))
            #expect(other.1.contains(#""url":"https://go.example.org/b""#))
            // The same code on another domain is still the same code.
            let taken = try await Self.send(
                client,
                fixture.token,
                .post,
                "/api/links",
                #"{"code": "a", "domain": "go.example.org", "deepLink": "readapp://books/3"}"#
            )
            #expect(taken.0 == .conflict)
            let unlisted = try await Self.send(
                client,
                fixture.token,
                .post,
                "/api/links",
                #"{"code": "x1", "domain": "read.example.com", "deepLink": "readapp://books/3"}"#
            )
            #expect(unlisted.0 == .badRequest)
            #expect(
                unlisted.1.contains(
                    "'domain' is one of the manifest's short-link domains: links.example.com, go.example.org; "
                        + "'read.example.com' is not."
                )
            )
            let null = try await Self.send(
                client,
                fixture.token,
                .post,
                "/api/links",
                #"{"code": "x2", "domain": null, "deepLink": "readapp://books/3"}"#
            )
            #expect(null.0 == .badRequest)
            // Moved: its URL follows.
            let moved = try await Self.send(
                client,
                fixture.token,
                .patch,
                "/api/links/a",
                #"{"domain": "go.example.org"}"#
            )
            #expect(moved.1.contains(#""url":"https://go.example.org/a""#))
            // A link stored before there were several domains is on the first.
            #expect(
                try await fixture.store.insert(ShortLink(code: "old", deepLink: "readapp://books/4", route: "book"))
            )
            let old = try await Self.send(client, fixture.token, .get, "/api/links/old")
            #expect(old.1.contains(#""domain":"links.example.com""#))
        }
        await fixture.store.close()
    }

    @Test("A link answers, and resolves, only on its own domain; every listed domain serves the association file")
    func hosts() async throws {
        let fixture = try await ServiceFixture.make()
        let service = try Self.service(fixture.store)
        #expect(
            try await fixture.store.insert(
                ShortLink(code: "spring", domain: "go.example.org", deepLink: "readapp://books/1", route: "book")
            )
        )
        let app = Application(router: service.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let http = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: .init(redirectConfiguration: .disallow)
            )
            do {
                for (host, path, status) in [
                    ("go.example.org", "/spring", 200), ("GO.example.org.", "/spring", 200),
                    ("127.0.0.1", "/spring", 200),
                    ("links.example.com", "/spring", 404), ("evil.example", "/spring", 404),
                    // The app asking on the host it was opened with meets the same rule.
                    ("go.example.org", "/api/resolve/spring", 200), ("links.example.com", "/api/resolve/spring", 404),
                    ("api.example.net", "/api/resolve/spring", 200),
                    ("go.example.org", "/.well-known/apple-app-site-association", 200),
                    ("links.example.com", "/.well-known/apple-app-site-association", 200),
                ] {
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
                    request.headers.replaceOrAdd(name: "Host", value: host)
                    request.headers.replaceOrAdd(name: "User-Agent", value: Fixtures.iPhone)
                    let response = try await http.execute(request, timeout: .seconds(10))
                    #expect(Int(response.status.code) == status, "\(host)\(path)")
                    let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
                    if path == "/spring", status == 200 {
                        // The claim URL is on the link's own domain.
                        #expect(body.contains("data-claim=\"https://go.example.org/c/"), "\(host)")
                    }
                    if path.hasPrefix("/.well-known") { #expect(body.contains(#""/" : "/?*""#), "\(host)") }
                }
            } catch {
                try await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
        await fixture.store.close()
    }

    @Test("The admin page's editor offers the domains, with the link's own selected")
    func adminPicker() async throws {
        let fixture = try await ServiceFixture.make()
        let service = try Self.service(fixture.store)
        let page = service.adminPage
        let fresh = page.templates.render("editor", page.formValues(nil, cookie: "c"))
        #expect(fresh.contains(#"<select id="domain" name="domain">"#))
        #expect(fresh.contains(#"<option value="links.example.com" selected>links.example.com</option>"#))
        let link = ShortLink(code: "x", domain: "go.example.org", deepLink: "readapp://books/1", route: "book")
        let editing = page.templates.render("editor", page.formValues(link, cookie: "c"))
        #expect(editing.contains(#"<option value="go.example.org" selected>go.example.org</option>"#))
        #expect(editing.contains(#"<option value="links.example.com">links.example.com</option>"#))
        // One domain: no picker.
        let single = fixture.service.adminPage
        #expect(!single.templates.render("editor", single.formValues(nil, cookie: "c")).contains("<select"))
        // Domains are named in any case; a link on a domain no longer listed is on the first.
        let domains = LinkDomains(try Self.manifest().shortLinks)
        #expect(domains.domain(named: "Go.Example.org.") == "go.example.org")
        #expect(
            domains.domain(of: ShortLink(code: "y", domain: "gone.example.net", deepLink: "", route: ""))
                == "links.example.com"
        )
        await fixture.store.close()
    }
}
