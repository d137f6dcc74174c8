import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Testing
import WaypointLinks
import WaypointManifest

@Suite("Association files, per requested host")
struct WellKnownTests {
    @Test("Each domain of the manifest gets its file; other hosts get none")
    func perHost() throws {
        let files = try WellKnownFiles(manifest: try Fixtures.manifest())
        let expected = AssociationFiles(manifest: try Fixtures.manifest())
        let read = try expected.appleAppSiteAssociation(for: "read.example.com")
        let wildcard = try expected.appleAppSiteAssociation(for: "*.example.org")
        let android = try expected.assetLinks()
        #expect(files.appleAppSiteAssociation(forHost: "read.example.com")?.body == read)
        #expect(files.appleAppSiteAssociation(forHost: "READ.example.com.:443")?.body == read)
        #expect(files.appleAppSiteAssociation(forHost: "news.example.org")?.body == wildcard)
        #expect(read != wildcard)
        for host in ["evil.example", "example.org", "read.example.com.evil.example", "", "[::1]:8080"] {
            #expect(files.appleAppSiteAssociation(forHost: host) == nil, "\(host)")
        }
        #expect(files.assetLinks?.body == android)
    }

    @Test("A manifest whose file iOS would drop stops the service at start-up")
    func tooLarge() async throws {
        let literal = String(repeating: "x", count: 80)
        let routes = (0..<1_500).map { "  - name: r\($0)\n    pattern: /\(literal)/\($0)\n" }.joined()
        let manifest = try ManifestLoader.parse(
            "domains: [links.example.com]\nappIDs: [ABCDE12345.com.example.app]\nroutes:\n" + routes
        )
        let store = try await SQLiteLinkStore.open(path: Fixtures.databasePath())
        do {
            _ = try LinkService(manifest: manifest, store: store)
            Issue.record("started with a file over 128 KB")
        } catch {
            #expect(error.message.hasPrefix("links.example.com: "))
            #expect(error.message.contains("128"))
        }
        await store.close()
    }

    @Test("A manifest without a short-link domain is refused at start-up")
    func linkDomain() async throws {
        let store = try await SQLiteLinkStore.open(path: Fixtures.databasePath())
        let manifest = try ManifestLoader.parse(
            "domains: [read.example.com]\nappIDs: [ABCDE12345.com.example.app]\nroutes:\n  - name: a\n    pattern: /a\n"
        )
        do {
            _ = try LinkService(manifest: manifest, store: store)
            Issue.record("started without a short-link domain")
        } catch {
            #expect(error.message.hasPrefix("The manifest has no 'shortLinks' section"))
        }
        await store.close()
    }

    @Test("The short-link domain's file opens the app for every code and never for the service's own paths")
    func shortLinkDomain() throws {
        let files = try WellKnownFiles(manifest: try Fixtures.manifest())
        let links = try #require(files.appleAppSiteAssociation(forHost: "links.example.com"))
        let read = try #require(files.appleAppSiteAssociation(forHost: "read.example.com"))
        let text = String(decoding: links.body, as: UTF8.self)
        #expect(text.contains(#""/" : "/?*""#))
        #expect(text.contains(#""/" : "/api/*""#) && text.contains(#""exclude" : true"#))
        #expect(!String(decoding: read.body, as: UTF8.self).contains(#""/" : "/?*""#))
    }

    /// Over a real socket, so the `Host` header is what a client sends.
    @Test("Served over HTTP: 200, JSON, an entity tag and no redirect; 304 when unchanged; 404 for other hosts")
    func live() async throws {
        let fixture = try await ServiceFixture.make()
        let app = Application(
            router: fixture.service.router(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0))
        )
        let expected = AssociationFiles(manifest: try Fixtures.manifest())
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let http = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: .init(redirectConfiguration: .disallow)
            )
            func get(
                _ path: String,
                host: String,
                headers extra: [(String, String)] = []
            ) async throws -> HTTPClientResponse {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
                request.headers.replaceOrAdd(name: "Host", value: host)
                for (name, value) in extra { request.headers.add(name: name, value: value) }
                return try await http.execute(request, timeout: .seconds(10))
            }
            do {
                for host in ["read.example.com", "links.example.com:8080", "news.example.org"] {
                    let response = try await get("/.well-known/apple-app-site-association", host: host)
                    #expect(response.status == .ok)
                    #expect(response.headers.first(name: "Content-Type") == "application/json")
                    let body = try await response.body.collect(upTo: 1 << 20)
                    let domain = host.hasSuffix("example.org") ? "*.example.org" : String(host.split(separator: ":")[0])
                    let file = try expected.appleAppSiteAssociation(for: domain)
                    #expect(Data(body.readableBytesView) == file)
                    let tag = try #require(response.headers.first(name: "ETag"))
                    let again = try await get(
                        "/.well-known/apple-app-site-association",
                        host: host,
                        headers: [("If-None-Match", tag)]
                    )
                    #expect(again.status == .notModified)
                }
                let android = try await get("/.well-known/assetlinks.json", host: "read.example.com")
                #expect(android.status == .ok)
                let other = try await get("/.well-known/apple-app-site-association", host: "evil.example")
                #expect(other.status == .notFound)
                let body = try await other.body.collect(upTo: 1 << 16)
                #expect(String(buffer: body).contains(#""code":"notFound""#))
            } catch {
                try await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
        await fixture.store.close()
    }

    @Test("/health reads the database")
    func health() async throws {
        let fixture = try await ServiceFixture.make()
        let app = Application(router: fixture.service.router())
        try await app.test(.router) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"links":"readable","status":"ok"}"#)
            }
        }
        await fixture.store.close()
    }
}
