import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import WaypointLinks

/// The admin page without a browser: sessions, CSRF and escaping. (`Server/BrowserTests` drives it
/// in Chromium.)
@Suite("The admin page")
struct AdminPageTests {
    static func form(_ fields: [String: String]) -> ByteBuffer {
        var components = URLComponents()
        components.queryItems = fields.map { URLQueryItem(name: $0.key, value: $0.value) }
        return ByteBuffer(string: components.percentEncodedQuery ?? "")
    }

    static func value(of name: String, in html: String) -> String? {
        guard let start = html.range(of: #"name="\#(name)" value=""#)?.upperBound,
            let end = html[start...].firstIndex(of: "\"")
        else { return nil }
        return String(html[start..<end])
    }

    @Test("Sign-in sets an HttpOnly, Secure, SameSite=Strict cookie; a wrong token or a missing CSRF token does not")
    func signIn() async throws {
        let fixture = try await ServiceFixture.make()
        try await Application(router: fixture.service.router()).test(.router) { client in
            let (page, nonceCookie) = try await client.execute(uri: "/admin", method: .get) {
                (String(buffer: $0.body), $0.headers[.setCookie] ?? "")
            }
            let csrf = try #require(Self.value(of: "csrf", in: page))
            let nonce = try #require(nonceCookie.split(separator: ";").first.map(String.init))
            #expect(nonce.hasPrefix("wl_signin="))
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: nonce]
            let wrong = try await client.execute(
                uri: "/admin/session",
                method: .post,
                headers: form,
                body: Self.form(["csrf": csrf, "token": "wl_nope"])
            ) { $0 }
            #expect(wrong.status == .unauthorized)
            #expect(wrong.headers[.setCookie] == nil)
            let forged = try await client.execute(
                uri: "/admin/session",
                method: .post,
                headers: form,
                body: Self.form(["token": fixture.token])
            ) { $0 }
            #expect(forged.headers[.setCookie] == nil)
            let signedIn = try await client.execute(
                uri: "/admin/session",
                method: .post,
                headers: form,
                body: Self.form(["csrf": csrf, "token": fixture.token])
            ) { $0 }
            #expect(signedIn.status == .seeOther)
            let cookie = try #require(signedIn.headers[.setCookie])
            for flag in ["HttpOnly", "Secure", "SameSite=Strict", "Path=/admin"] {
                #expect(cookie.contains(flag), "\(cookie)")
            }
            let session = try #require(cookie.split(separator: ";").first.map(String.init))

            // Signed in: a form without the session's CSRF token saves nothing.
            let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: session]
            let noCSRF = try await client.execute(
                uri: "/admin/links",
                method: .post,
                headers: headers,
                body: Self.form(["code": "x", "deepLink": "readapp://books/1"])
            ) { $0.status }
            #expect(noCSRF == .forbidden)
            #expect(try await fixture.store.link(code: "x") == nil)

            // With it, a link is created, and what it echoes is escaped.
            let list = try await client.execute(uri: "/admin", method: .get, headers: [.cookie: session]) {
                String(buffer: $0.body)
            }
            let token = try #require(Self.value(of: "csrf", in: list))
            let created = try await client.execute(
                uri: "/admin/links",
                method: .post,
                headers: headers,
                body: Self.form([
                    "csrf": token, "code": "x", "deepLink": "readapp://books/1", "title": "<script>alert(1)</script>",
                ])
            ) { $0 }
            #expect(created.status == .seeOther)
            #expect(created.headers[.location] == "/admin/links/x")
            let editor = try await client.execute(uri: "/admin/links/x", method: .get, headers: [.cookie: session]) {
                $0
            }
            let html = String(buffer: editor.body)
            #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(!html.contains("<script>alert"))
            #expect(editor.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)

            // Editing keeps what the page does not show: a Play package and a preview image set
            // through the API.
            let full = ShortLink(
                code: "full",
                deepLink: "readapp://books/2",
                route: "book",
                fallbacks: ShortLink.Fallbacks(playPackage: "com.example.reading"),
                preview: ShortLink.Preview(imageURL: "https://read.example.com/i/2.png"),
                createdAt: Fixtures.now
            )
            #expect(try await fixture.store.insert(full))
            let edited = try await client.execute(
                uri: "/admin/links/full",
                method: .post,
                headers: headers,
                body: Self.form(["csrf": token, "deepLink": "readapp://books/3", "title": "Three"])
            ) { $0.status }
            #expect(edited == .seeOther)
            let stored = try #require(try await fixture.store.link(code: "full"))
            #expect(stored.deepLink == "readapp://books/3")
            #expect(stored.fallbacks.playPackage == "com.example.reading")
            #expect(stored.preview == ShortLink.Preview(title: "Three", imageURL: "https://read.example.com/i/2.png"))

            // The live check answers the route, or the reason.
            let check = try await client.execute(
                uri: "/admin/check?deepLink=readapp%3A%2F%2Fbooks%2F7",
                method: .get,
                headers: [.cookie: session]
            ) { String(buffer: $0.body) }
            #expect(check.contains(#""route":"book""#))
            let bad = try await client.execute(
                uri: "/admin/check?deepLink=readapp%3A%2F%2Fnowhere",
                method: .get,
                headers: [.cookie: session]
            ) { String(buffer: $0.body) }
            #expect(bad.contains(#""error":"#))
            let anonymous = try await client.execute(uri: "/admin/check?deepLink=x", method: .get) { $0.status }
            #expect(anonymous == .unauthorized)
            // A forged or altered cookie is no session.
            let altered = try await client.execute(uri: "/admin", method: .get, headers: [.cookie: session + "0"]) {
                String(buffer: $0.body)
            }
            #expect(altered.contains("Sign in"))
        }
        await fixture.store.close()
    }

    /// Signs in through the form, as a browser does; the session cookie (`wl_admin=…`).
    static func signIn(_ client: some TestClientProtocol, token: String) async throws -> String {
        let (page, nonceCookie) = try await client.execute(uri: "/admin", method: .get) {
            (String(buffer: $0.body), $0.headers[.setCookie] ?? "")
        }
        let csrf = try #require(Self.value(of: "csrf", in: page))
        let nonce = try #require(nonceCookie.split(separator: ";").first.map(String.init))
        let cookie = try await client.execute(
            uri: "/admin/session",
            method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded", .cookie: nonce],
            body: Self.form(["csrf": csrf, "token": token])
        ) { $0.headers[.setCookie] ?? "" }
        return try #require(cookie.split(separator: ";").first.map(String.init))
    }

    static func isSignedIn(_ client: some TestClientProtocol, _ session: String) async throws -> Bool {
        try await client.execute(uri: "/admin", method: .get, headers: [.cookie: session]) {
            !String(buffer: $0.body).contains("Sign in")
        }
    }

    /// Hostile input, round 3: signing out left the cookie working for eight more hours.
    @Test("Signing out ends the session on the server; so do 30 idle minutes and revoking the token")
    func sessionsEnd() async throws {
        let clock = TestClock()
        let fixture = try await ServiceFixture.make { $0.now = { clock.now } }
        try await Application(router: fixture.service.router()).test(.router) { client in
            let session = try await Self.signIn(client, token: fixture.token)
            #expect(try await Self.isSignedIn(client, session))
            let page = try await client.execute(uri: "/admin", method: .get, headers: [.cookie: session]) {
                String(buffer: $0.body)
            }
            let csrf = try #require(Self.value(of: "csrf", in: page))
            _ = try await client.execute(
                uri: "/admin/signout",
                method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", .cookie: session],
                body: Self.form(["csrf": csrf])
            ) { $0.status }
            // The same cookie, kept or copied elsewhere, opens nothing.
            #expect(try await !Self.isSignedIn(client, session))

            // Idle: a request within 30 minutes keeps it; 30 minutes with none end it.
            let idle = try await Self.signIn(client, token: fixture.token)
            clock.advance(29 * 60)
            #expect(try await Self.isSignedIn(client, idle))
            clock.advance(29 * 60)
            #expect(try await Self.isSignedIn(client, idle))
            clock.advance(30 * 60 + 1)
            #expect(try await !Self.isSignedIn(client, idle))

            // Revoking the token ends the sessions it opened.
            let revoked = try await Self.signIn(client, token: fixture.token)
            #expect(try await Self.isSignedIn(client, revoked))
            #expect(try await fixture.store.removeTokens(named: "tests") == 1)
            #expect(try await !Self.isSignedIn(client, revoked))
        }
        await fixture.store.close()
    }

    /// Hostile input, round 3: the sign-in form's CSRF token was the same for everyone.
    @Test("Each visitor's sign-in form has its own CSRF token, good only with that visitor's nonce cookie")
    func signInCSRFPerVisitor() async throws {
        let fixture = try await ServiceFixture.make()
        try await Application(router: fixture.service.router()).test(.router) { client in
            func visit() async throws -> (csrf: String, cookie: String) {
                try await client.execute(uri: "/admin", method: .get) {
                    let html = String(buffer: $0.body)
                    let cookie = ($0.headers[.setCookie] ?? "").split(separator: ";").first.map(String.init) ?? ""
                    return (Self.value(of: "csrf", in: html) ?? "", cookie)
                }
            }
            let first = try await visit()
            let second = try await visit()
            #expect(first.csrf != second.csrf)
            #expect(first.cookie != second.cookie)
            for flag in ["HttpOnly", "Secure", "SameSite=Strict"] {
                let header = try await client.execute(uri: "/admin", method: .get) { $0.headers[.setCookie] ?? "" }
                #expect(header.contains(flag))
            }
            // One visitor's token with another's cookie, or with none: no session.
            for cookie in [second.cookie, ""] {
                let status = try await client.execute(
                    uri: "/admin/session",
                    method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded", .cookie: cookie],
                    body: Self.form(["csrf": first.csrf, "token": fixture.token])
                ) { ($0.status, $0.headers[.setCookie] ?? "") }
                #expect(status.0 == .unauthorized)
                #expect(!status.1.contains("wl_admin="))
            }
        }
        await fixture.store.close()
    }
}
