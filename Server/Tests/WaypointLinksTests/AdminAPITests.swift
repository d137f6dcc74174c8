import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WaypointLinks

/// The admin API through Hummingbird's in-process test client.
@Suite("The admin API")
struct AdminAPITests {
    static func json(_ buffer: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
    }

    static func error(_ buffer: ByteBuffer) -> (code: String?, message: String?) {
        let error = json(buffer)["error"] as? [String: Any]
        return (error?["code"] as? String, error?["message"] as? String)
    }

    func withClient(_ body: @Sendable (any TestClientProtocol, String) async throws -> Void) async throws {
        let fixture = try await ServiceFixture.make()
        let app = Application(router: fixture.service.router())
        try await app.test(.router) { client in try await body(client, fixture.token) }
        await fixture.store.close()
    }

    /// `POST /api/links` with `body`, authorised, and `check` on the answer.
    static func create(
        _ client: any TestClientProtocol,
        _ token: String,
        _ body: String,
        _ check: (TestResponse) throws -> Void
    ) async throws {
        try check(
            try await client.execute(
                uri: "/api/links",
                method: .post,
                headers: headers(token),
                body: ByteBuffer(string: body)
            )
        )
    }

    static func headers(_ token: String) -> HTTPFields {
        [.authorization: "Bearer \(token)", .contentType: "application/json"]
    }

    @Test("Without a token, or with one the service did not issue, every call is 401 with a JSON reason")
    func authentication() async throws {
        try await withClient { client, token in
            for (headers, message) in [
                (
                    HTTPFields(),
                    "The admin API needs 'Authorization: Bearer <token>'; create a token with 'waypoint-links token create'."
                ),
                ([.authorization: "Bearer wl_forged"], "That token is not one this service issued."),
                (
                    [.authorization: "Basic \(token)"],
                    "The admin API needs 'Authorization: Bearer <token>'; create a token with 'waypoint-links token create'."
                ),
            ] as [(HTTPFields, String)] {
                try await client.execute(uri: "/api/links", method: .get, headers: headers) { response in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.wwwAuthenticate] == "Bearer realm=\"waypoint-links\"")
                    #expect(Self.error(response.body) == ("unauthorized", message))
                }
            }
            try await client.execute(
                uri: "/api/links",
                method: .post,
                headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"code":"sneaky","deepLink":"readapp://books/1"}"#)
            ) { response in #expect(response.status == .unauthorized) }
            try await client.execute(uri: "/api/links/sneaky", method: .get, headers: Self.headers(token)) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("Create, read, list, update and delete a link")
    func lifecycle() async throws {
        try await withClient { client, token in
            let body = #"""
                {"code": "Spring", "deepLink": "https://read.example.com/b/42",
                 "fallbacks": {"web": "https://read.example.com/b/42", "appStoreID": "1234567890"},
                 "preview": {"title": "Spring sale", "description": "<script>alert(1)</script>"},
                 "expiresAt": "2027-01-01T00:00:00Z"}
                """#
            try await Self.create(client, token, body) {
                response in
                #expect(response.status == .created)
                #expect(response.headers[.location] == "/api/links/spring")
                let link = Self.json(response.body)
                #expect(link["code"] as? String == "spring")
                #expect(link["route"] as? String == "web.book")
                #expect(link["url"] as? String == "https://links.example.com/spring")
                #expect(link["expiresAt"] as? String == "2027-01-01T00:00:00Z")
                #expect((link["preview"] as? [String: Any])?["description"] as? String == "<script>alert(1)</script>")
            }
            try await client.execute(uri: "/api/links/SPRING", method: .get, headers: Self.headers(token)) { response in
                #expect(response.status == .ok)
                #expect(Self.json(response.body)["deepLink"] as? String == "https://read.example.com/b/42")
            }
            let patch = #"{"deepLink": "readapp://books/7", "preview": null}"#
            try await client.execute(
                uri: "/api/links/spring",
                method: .patch,
                headers: Self.headers(token),
                body: ByteBuffer(string: patch)
            ) { response in
                #expect(response.status == .ok)
                let link = Self.json(response.body)
                #expect(link["route"] as? String == "book")
                #expect(link["preview"] == nil)
                #expect((link["fallbacks"] as? [String: Any])?["web"] as? String == "https://read.example.com/b/42")
            }
            try await client.execute(uri: "/api/links/spring", method: .delete, headers: Self.headers(token)) {
                response in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/api/links/spring", method: .get, headers: Self.headers(token)) { response in
                #expect(response.status == .notFound)
                #expect(Self.error(response.body) == ("notFound", "No link has the code 'spring'."))
            }
        }
    }

    @Test("Edits of one link at once, a field each, are all kept: none undoes another")
    func concurrentEdits() async throws {
        try await withClient { client, token in
            try await Self.create(client, token, #"{"code": "race", "deepLink": "readapp://books/1"}"#) {
                #expect($0.status == .created)
            }
            for round in 0..<25 {
                let edits = [
                    #"{"fallbacks": {"web": "https://read.example.com/b/\#(round)"}}"#,
                    #"{"preview": {"title": "Round \#(round)"}}"#,
                    #"{"passQuery": \#(round % 2 == 0)}"#,
                    #"{"deepLink": "readapp://books/\#(round)"}"#,
                ]
                try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for edit in edits {
                        group.addTask {
                            try await client.execute(
                                uri: "/api/links/race",
                                method: .patch,
                                headers: Self.headers(token),
                                body: ByteBuffer(string: edit)
                            ) { $0.status }
                        }
                    }
                    for try await status in group { #expect(status == .ok) }
                }
                try await client.execute(uri: "/api/links/race", method: .get, headers: Self.headers(token)) {
                    let link = Self.json($0.body)
                    #expect(
                        (link["fallbacks"] as? [String: Any])?["web"] as? String
                            == "https://read.example.com/b/\(round)",
                        "round \(round)"
                    )
                    #expect(
                        (link["preview"] as? [String: Any])?["title"] as? String == "Round \(round)",
                        "round \(round)"
                    )
                    #expect(link["passQuery"] as? Bool == (round % 2 == 0), "round \(round)")
                    #expect(link["deepLink"] as? String == "readapp://books/\(round)", "round \(round)")
                }
            }
        }
    }

    @Test("A list searches with q; a query parameter an endpoint does not read is refused, not ignored")
    func queryParameters() async throws {
        try await withClient { client, token in
            for (code, deepLink) in [("spring", "readapp://books/1"), ("autumn", "readapp://books/2")] {
                try await Self.create(client, token, #"{"code": "\#(code)", "deepLink": "\#(deepLink)"}"#) {
                    #expect($0.status == .created)
                }
            }
            try await client.execute(uri: "/api/links?q=SPR", method: .get, headers: Self.headers(token)) {
                let links = Self.json($0.body)["links"] as? [[String: Any]]
                #expect(links?.compactMap { $0["code"] as? String } == ["spring"])
            }
            try await client.execute(uri: "/api/links?q=books/2&limit=1", method: .get, headers: Self.headers(token)) {
                let links = Self.json($0.body)["links"] as? [[String: Any]]
                #expect(links?.compactMap { $0["code"] as? String } == ["autumn"])
            }
            let refused = [
                (
                    "/api/links/spring/analytics?from=2026-01-01",
                    "Unknown query parameter 'from'; GET /api/links/CODE/analytics takes no query parameter."
                ),
                ("/api/links?search=spring", "Unknown query parameter 'search'; GET /api/links takes after, limit, q."),
                (
                    "/api/links/spring?x=1&y=2",
                    "Unknown query parameter 'x' (and 1 more); GET /api/links/CODE takes no query parameter."
                ),
                ("/api/webhooks?all=1", "Unknown query parameter 'all'; GET /api/webhooks takes no query parameter."),
            ]
            for (uri, message) in refused {
                try await client.execute(uri: uri, method: .get, headers: Self.headers(token)) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect(Self.error(response.body) == ("invalidRequest", message), "\(uri)")
                }
            }
        }
    }

    @Test("A link without a code gets an unguessable one")
    func generatedCode() async throws {
        try await withClient { client, token in
            var codes: Set<String> = []
            for _ in 0..<3 {
                try await Self.create(client, token, #"{"deepLink": "readapp://books/1"}"#) { response in
                    #expect(response.status == .created)
                    let code = Self.json(response.body)["code"] as? String ?? ""
                    #expect(code.count == 14)
                    codes.insert(code)
                }
            }
            #expect(codes.count == 3)
        }
    }

    @Test("Refusals: each has its status, its code and a message to act on")
    func refusals() async throws {
        try await withClient { client, token in
            let cases: [(String, HTTPResponse.Status, String, String)] = [
                (
                    #"{"code": "a/b", "deepLink": "readapp://books/1"}"#, .badRequest, "invalidCode",
                    "A code holds only ASCII letters, digits, '-' and '_'; 'a/b' has '/'."
                ),
                (
                    #"{"code": "x", "deepLink": null}"#, .badRequest, "invalidRequest",
                    "'deepLink' cannot be null; leave it out instead. Only 'fallbacks', 'preview' and 'expiresAt' "
                        + "can be null, which clears them."
                ),
                (
                    #"{"code": "x", "deepLink": "readapp://nowhere"}"#, .unprocessableContent, "deepLinkUnresolved",
                    "No route of the manifest matches 'readapp://nowhere'."
                ),
                (
                    #"{"code": "x", "deepLink": "readapp://books/1", "fallbacks": {"web": "http://example.com/"}}"#,
                    .unprocessableContent, "urlNotAllowed",
                    "fallbacks.web must be an https URL, such as https://www.example.com/spring; 'http://example.com/' is not."
                ),
                (
                    #"{"code": "x", "deepLink": "readapp://books/1", "fallbacks": {"desktop": "https://a@b.example/"}}"#,
                    .unprocessableContent, "urlNotAllowed",
                    "fallbacks.desktop holds a user name before '@', which makes the URL read as another site; remove it."
                ),
                (
                    #"{"code": "x", "deepLink": "readapp://books/1", "passQuery": null}"#, .badRequest,
                    "invalidRequest",
                    "'passQuery' cannot be null; leave it out instead. Only 'fallbacks', 'preview' and 'expiresAt' "
                        + "can be null, which clears them."
                ),
                (
                    #"{"code": "x"}"#, .badRequest, "invalidRequest",
                    "A link needs 'deepLink': the link the app receives."
                ),
                (
                    #"{"code": 7, "deepLink": "readapp://books/1"}"#, .badRequest, "invalidRequest",
                    "'code' should be a string."
                ),
                (
                    #"{"deepLink": "readapp://books/1", "expiresAt": "tomorrow"}"#, .badRequest, "invalidRequest",
                    #"'expiresAt' should be a date and time in the years 1970 to 9999, such as "2027-01-01T00:00:00Z"."#
                ),
                // A year of seven digits, which the date parser once wrapped round to the year -4712.
                (
                    #"{"deepLink": "readapp://books/1", "expiresAt": "9999999-01-01T00:00:00Z"}"#, .badRequest,
                    "invalidRequest",
                    #"'expiresAt' should be a date and time in the years 1970 to 9999, such as "2027-01-01T00:00:00Z"."#
                ),
                (
                    #"{"deepLink": "readapp://books/1", "expiresAt": "10000-01-01T00:00:00Z"}"#, .badRequest,
                    "invalidRequest",
                    #"'expiresAt' should be a date and time in the years 1970 to 9999, such as "2027-01-01T00:00:00Z"."#
                ),
                (
                    #"{"deepLink": "readapp://books/1", "expiresAt": "2020-01-01T00:00:00Z"}"#, .badRequest,
                    "invalidRequest",
                    "'expiresAt' (2020-01-01T00:00:00Z) is not in the future; give a later date, or delete the link "
                        + "to end it now."
                ),
                (
                    #"{"deepLink": "readapp://books/1", "expiresAt": "1969-12-31T23:59:59Z"}"#, .badRequest,
                    "invalidRequest", "'expiresAt' (1969-12-31T23:59:59Z) is not in the future"
                ),
                // Hostile input, round 3: text that reads differently on screen than it is written.
                (
                    #"{"deepLink": "readapp://books/1", "preview": {"title": "invoice\u202Egnp.exe"}}"#, .badRequest,
                    "invalidRequest",
                    "preview.title holds an invisible or direction-changing character (U+202E); remove it, so the "
                        + "text reads on screen as it is written."
                ),
                (
                    #"{"deepLink": "readapp://books/1", "preview": {"description": "Pay\u200Bpal"}}"#, .badRequest,
                    "invalidRequest", "preview.description holds an invisible or direction-changing character (U+200B)"
                ),
                (#"{"deepLink": "#, .badRequest, "invalidRequest", "The body is not valid JSON"),
                (#"[1, 2]"#, .badRequest, "invalidRequest", "the body"),
                (
                    #"{"deepLink": "readapp://books/1", "preview": {"titel": "x"}}"#, .badRequest, "invalidRequest",
                    "Unknown field 'titel' in 'preview'; preview has title, description, imageURL."
                ),
            ]
            for (body, status, code, message) in cases {
                try await Self.create(client, token, body) {
                    response in
                    #expect(response.status == status, "\(body)")
                    let error = Self.error(response.body)
                    #expect(error.code == code, "\(body)")
                    #expect(
                        error.message?.hasPrefix(message) == true || error.message?.contains(message) == true,
                        "\(body): \(error.message ?? "")"
                    )
                }
            }
            let taken = #"{"code": "taken", "deepLink": "readapp://books/1"}"#
            try await Self.create(client, token, taken) {
                #expect($0.status == .created)
            }
            try await Self.create(client, token, taken) {
                #expect($0.status == .conflict)
                #expect(Self.error($0.body).code == "codeTaken")
            }
            let huge = #"{"deepLink": "readapp://books/1", "code": ""# + String(repeating: "x", count: 20_000) + #""}"#
            try await Self.create(client, token, huge) {
                #expect($0.status == .contentTooLarge)
                #expect(Self.error($0.body).code == "tooLarge")
            }
            try await client.execute(uri: "/api/links/taken", method: .put, headers: Self.headers(token)) {
                #expect($0.status == .methodNotAllowed)
                #expect($0.headers[.allow] == "GET, HEAD, PATCH, DELETE")
                #expect(Self.error($0.body).code == "methodNotAllowed")
            }
            // The last second of the year 9999 is the latest expiry; an edit to a past one is refused.
            try await Self.create(
                client,
                token,
                #"{"code": "long", "deepLink": "readapp://books/1", "expiresAt": "9999-12-31T23:59:59Z"}"#
            ) {
                #expect($0.status == .created)
                #expect(Self.json($0.body)["expiresAt"] as? String == "9999-12-31T23:59:59Z")
            }
            try await client.execute(
                uri: "/api/links/long",
                method: .patch,
                headers: Self.headers(token),
                body: ByteBuffer(string: #"{"expiresAt": "2026-11-24T11:59:59Z"}"#)
            ) {
                #expect($0.status == .badRequest)
                #expect(
                    Self.error($0.body).message?.hasPrefix("'expiresAt' (2026-11-24T11:59:59Z) is not in the future")
                        == true
                )
            }
        }
    }

    @Test("Listing pages through every link once, in code order")
    func listing() async throws {
        try await withClient { client, token in
            for code in ["cc", "aa", "ee", "bb", "dd"] {
                let body = #"{"code": "\#(code)", "deepLink": "readapp://books/1"}"#
                try await Self.create(client, token, body) {
                    #expect($0.status == .created)
                }
            }
            var seen: [String] = []
            var after: String? = nil
            repeat {
                let uri = "/api/links?limit=2" + (after.map { "&after=\($0)" } ?? "")
                try await client.execute(uri: uri, method: .get, headers: Self.headers(token)) { response in
                    let page = Self.json(response.body)
                    seen += (page["links"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
                    after = page["next"] as? String
                }
            } while after != nil
            #expect(seen == ["aa", "bb", "cc", "dd", "ee"])
            for bad in ["limit=0", "limit=201", "limit=x", "after=a%2Fb"] {
                try await client.execute(uri: "/api/links?\(bad)", method: .get, headers: Self.headers(token)) {
                    #expect($0.status == .badRequest, "\(bad)")
                }
            }
        }
    }
}
