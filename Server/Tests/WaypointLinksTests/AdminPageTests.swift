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
            let page = try await client.execute(uri: "/admin", method: .get) { String(buffer: $0.body) }
            let csrf = try #require(Self.value(of: "csrf", in: page))
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
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
}
