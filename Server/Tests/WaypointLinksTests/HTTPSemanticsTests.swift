import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Testing
import WaypointLinks

/// HEAD wherever GET is, and 405 with `Allow` for a method a known path does not take.
@Suite("HTTP methods")
struct HTTPSemanticsTests {
    @Test("HEAD answers as GET does, with no body, and a HEAD of a short link is not counted as a click")
    func head() async throws {
        let fixture = try await ServiceFixture.make()
        #expect(try await fixture.store.insert(VisitTests.link))
        try await Application(router: fixture.service.router()).test(.router) { client in
            let paths: [(String, HTTPFields)] = [
                ("/spring", [.userAgent: Fixtures.desktop]),
                ("/spring", [.userAgent: Fixtures.iPhone]),
                ("/unknown-code", [.userAgent: Fixtures.desktop]),
                ("/health", [:]),
                ("/.well-known/apple-app-site-association", [:]),  // no Host here: 404 JSON both ways
                ("/api/resolve/spring", [:]),
            ]
            for (path, headers) in paths {
                let get = try await client.execute(uri: path, method: .get, headers: headers)
                let head = try await client.execute(uri: path, method: .head, headers: headers)
                #expect(head.status == get.status, "\(path)")
                #expect(head.body.readableBytes == 0, "\(path)")
                for name in [HTTPField.Name.contentType, .location, .contentLength, .cacheControl] {
                    #expect(head.headers[name] == get.headers[name], "\(path) \(name)")
                }
            }
        }
        try await fixture.service.clicks.flush()
        // The GETs of /spring (desktop, iPhone) and /api/resolve/spring; none of the HEADs.
        #expect(try await fixture.store.clicks(code: "spring").reduce(0) { $0 + $1.count } == 3)
        await fixture.store.close()
    }

    @Test("A method a known path does not take is 405 with Allow and a JSON reason; an unknown path stays 404")
    func methodNotAllowed() async throws {
        let fixture = try await ServiceFixture.make()
        try await Application(router: fixture.service.router()).test(.router) { client in
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.post, "/spring", "GET, HEAD"),
                (.delete, "/health", "GET, HEAD"),
                (.put, "/.well-known/apple-app-site-association", "GET, HEAD"),
                (.delete, "/api/links", "GET, HEAD, POST"),
                (.post, "/api/links/spring", "GET, HEAD, PATCH, DELETE"),
                (.get, "/api/claims", "POST"),
                (.head, "/api/claims", "POST"),
                (.post, "/api/resolve/spring", "GET, HEAD"),
                // Any method, not only those the router knows by name.
                (.trace, "/health", "GET, HEAD"),
                (try #require(HTTPRequest.Method("QUERY")), "/api/links", "GET, HEAD, POST"),
            ]
            for (method, path, allow) in cases {
                try await client.execute(uri: path, method: method, headers: AdminAPITests.headers(fixture.token)) {
                    #expect($0.status == .methodNotAllowed, "\(method) \(path)")
                    #expect($0.headers[.allow] == allow, "\(method) \(path)")
                    if method != .head {
                        let error = AdminAPITests.error($0.body)
                        #expect(error.code == "methodNotAllowed", "\(method) \(path)")
                        #expect(error.message == "\(path) does not take \(method); it takes \(allow).")
                    }
                }
            }
            try await client.execute(uri: "/api/links/spring/nothing", method: .get) {
                #expect($0.status == .notFound)
            }
        }
        await fixture.store.close()
    }

    /// Hostile input, round 3: a short link answered on any `Host`, so any domain pointed at the
    /// service served the app's links.
    @Test("A short link answers only on the short-link domain (and loopback names); any other Host gets the 404 page")
    func linkHosts() async throws {
        let fixture = try await ServiceFixture.make()
        #expect(try await fixture.store.insert(VisitTests.link))
        let app = Application(
            router: fixture.service.router(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0))
        )
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let http = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: .init(redirectConfiguration: .disallow)
            )
            do {
                for (host, status) in [
                    ("links.example.com", 302), ("LINKS.example.com:443", 302), ("links.example.com.", 302),
                    ("localhost:8080", 302), ("127.0.0.1", 302), ("[::1]:8080", 302),
                    ("evil.example", 404), ("links.example.com.evil.net", 404), ("read.example.com", 404),
                    ("evil.example@links.example.com", 404),
                ] {
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/spring")
                    request.headers.replaceOrAdd(name: "Host", value: host)
                    request.headers.replaceOrAdd(name: "User-Agent", value: Fixtures.desktop)
                    let response = try await http.execute(request, timeout: .seconds(10))
                    #expect(Int(response.status.code) == status, "\(host)")
                }
            } catch {
                try await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
        await fixture.store.close()
    }
}
