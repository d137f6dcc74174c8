import Foundation
import Testing
import Waypoint
import WaypointLinksClient

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app side of a short link that opened the app, without a service: which links are asked
/// about, and what each answer of the service becomes for the dispatcher.
@Suite("Opening a short link in the app", .serialized)
struct ShortLinkTests {
    let service = LinkServiceClient(
        domain: "Links.Example.com",
        serviceURL: URL(string: "https://service.test/links/"),
        session: CannedService.session
    )
    static let policy = LinkPolicy(
        schemes: ["readapp"],
        associatedDomains: ["links.example.com", "go.example.com", "read.example.com"]
    )
    let intake = LinkIntake(policy: Self.policy)

    /// The app's dispatcher: books, and one page of its own on the short-link domain.
    static func dispatcher() throws -> LinkDispatcher<String> {
        try LinkDispatcher(
            routes: [
                LinkRoute("book", "/books/{id:int}") { .pushOverRoot("book \($0.parameters.int("id") ?? 0)") },
                LinkRoute("help", "https://links.example.com/help", sources: [.universalLink]) { _ in
                    .pushOverRoot("help")
                },
            ],
            policy: policy
        )
    }

    func opening(retries: Int = 0, service: LinkServiceClient? = nil) throws -> ShortLinkResolvingDispatcher {
        try ShortLinkResolvingDispatcher(
            try Self.dispatcher(),
            service: service ?? self.service,
            retries: retries,
            retryDelay: 0.01
        )
    }

    @Test("Only a one-segment code on the service's own host is a short link, as the service stores the code")
    func recognised() {
        let cases: [(String, String?)] = [
            ("https://links.example.com/spring", "spring"),
            ("HTTPS://LINKS.EXAMPLE.COM/Spring_2-b?utm_source=news#top", "spring_2-b"),
            ("  https://links.example.com/spring\n", "spring"),
            ("https://links.example.com./spring", "spring"),
            ("https://links.example.com:443/spring", "spring"),
            ("http://links.example.com/spring", "spring"),
            ("https://links.example.com/" + String(repeating: "a", count: 64), String(repeating: "a", count: 64)),
            ("https://links.example.com/" + String(repeating: "a", count: 65), nil),
            ("https://links.example.com/", nil),
            ("https://links.example.com", nil),
            // As the service routes a path: an empty segment is none, so a browser and the app agree.
            ("https://links.example.com/spring/", "spring"),
            ("https://links.example.com//spring", "spring"),
            ("https://links.example.com/spring//?utm_source=news", "spring"),
            ("https://links.example.com//", nil),
            ("https://links.example.com/spring/x", nil),
            ("https://links.example.com/books/42", nil),
            ("https://links.example.com/c/AQEAAA", nil),
            ("https://links.example.com/sp%72ing", nil),
            ("https://links.example.com/favicon.ico", nil),
            ("https://links%2Eexample.com/spring", nil),
            ("https://links.example.com:8443/spring", nil),
            ("http://links.example.com:443/spring", nil),
            ("https://user@links.example.com/spring", nil),
            ("https://links.example.com.evil.example/spring", nil),
            ("https://read.example.com/spring", nil),
            ("readapp://spring", nil),
            ("spring", nil),
            ("", nil),
        ]
        for (text, code) in cases {
            #expect(service.code(inShortLink: text) == code, "\(text)")
        }
    }

    @Test("The deep link keeps the short link's source, scene, payload and target, and its delivery identity")
    func answers() async throws {
        let opening = try opening()
        CannedService.answer(
            "/links/api/resolve/spring?utm_source=news",
            200,
            #"{"code": "spring", "deepLink": "readapp://books/42?utm_source=news", "route": "book"}"#
        )
        let tapped = intake.url("https://links.example.com/Spring?utm_source=news")
        guard case .link(var shortLink, let tappedIdentity) = tapped else {
            Issue.record("no short link")
            return
        }
        shortLink.scene = SceneID("inbox")
        guard case .link(let link, let identity) = await opening.resolved(.link(shortLink, identity: tappedIdentity))
        else {
            Issue.record("no link")
            return
        }
        #expect(link.string == "readapp://books/42?utm_source=news")
        #expect(link.source == .universalLink)
        #expect(link.scene == SceneID("inbox"))
        #expect(identity == "url:https://links.example.com/Spring?utm_source=news")

        // In a push, the link keeps the push's source (no route gains what a push could not
        // reach), its payload and the window it is for.
        CannedService.answer(
            "/links/api/resolve/spring",
            200,
            #"{"code": "spring", "deepLink": "readapp://books/42", "route": "book"}"#
        )
        let pushed = intake.notification(
            NotificationResponseSnapshot(
                userInfo: ["aps": ["target-content-id": "inbox"], "url": "https://links.example.com/spring", "id": "7"]
            )
        )
        guard case .link(let fromPush, let pushIdentity) = await opening.resolved(pushed),
            case .link(_, let originalIdentity) = pushed
        else {
            Issue.record("no link from the push")
            return
        }
        #expect(pushIdentity == originalIdentity)
        #expect(fromPush.string == "readapp://books/42")
        #expect(fromPush.source == .notification)
        #expect(fromPush.targetContentIdentifier == "inbox")
        #expect(fromPush.payload?["id"]?.text == "7")
    }

    @Test("What is not a short link, or is a route of the app, is never asked of the service")
    func notAsked() async throws {
        let opening = try opening()
        let before = CannedService.requestCount
        for text in [
            "readapp://books/1", "https://links.example.com/books/1", "https://read.example.com/b/1",
            "https://links.example.com/help", "https://elsewhere.example/spring",
        ] {
            let result = intake.url(text)
            #expect(await opening.resolved(result).link == result.link, "\(text)")
        }
        // A route that refuses the link's source is still the app's: refused, not asked.
        let pushedHelp = intake.notification(
            NotificationResponseSnapshot(userInfo: ["aps": [:], "url": "https://links.example.com/help"])
        )
        #expect(await opening.resolved(pushedHelp).link == pushedHelp.link)
        // A link on no associated domain is not the app's to open, even on the service's host: a
        // wrapper for such a service is refused when it is made (ShortLinkSetupTests).
        let elsewhere = LinkServiceClient(domain: "links.elsewhere.example", session: CannedService.session)
        let web = intake.url("https://links.elsewhere.example/spring")
        #expect(web.link?.source == .web)
        #expect(throws: WaypointError.self) { try self.opening(service: elsewhere) }
        #expect(CannedService.requestCount == before)
    }

    @Test("The request carries the link's query as it is, on the resolve path only, with no empty query")
    func request() async throws {
        let opening = try opening()
        CannedService.answer(
            "/links/api/resolve/spring?/../admin",
            200,
            #"{"code": "spring", "deepLink": "readapp://books/1", "route": "book"}"#
        )
        #expect(
            await opening.resolved(intake.url("https://links.example.com/spring?/../admin")).link?.string
                == "readapp://books/1"
        )
        CannedService.answer(
            "/links/api/resolve/spring",
            200,
            #"{"code": "spring", "deepLink": "readapp://books/2", "route": "book"}"#
        )
        #expect(
            await opening.resolved(intake.url("https://links.example.com/spring?")).link?.string == "readapp://books/2"
        )
        #expect(CannedService.lastRequest == "https://service.test/links/api/resolve/spring")
    }

    @Test("The service's not found goes on as the short link; anything else is a failure naming it")
    func refusals() async throws {
        let opening = try opening()
        let tapped = intake.url("https://links.example.com/spring")
        func failure(_ status: Int, _ body: String) async -> WaypointError? {
            CannedService.answer("/links/api/resolve/spring", status, body)
            return await opening.resolved(tapped).error
        }
        CannedService.answer("/links/api/resolve/spring", 404, #"{"error": {"code": "notFound", "message": "No."}}"#)
        #expect(await opening.resolved(tapped).link == tapped.link)
        CannedService.answer("/links/api/resolve/spring", 400, #"{"error": {"code": "invalidCode", "message": "No."}}"#)
        #expect(await opening.resolved(tapped).link == tapped.link)
        // A 404 that is not the service's own (a proxy, a wrong address) is no answer about the code.
        let proxy = await failure(404, "<html>Not Found</html>")
        #expect(proxy?.message.contains("could not be opened: The link service answered 404") == true)

        let expired = await failure(
            410,
            #"{"error": {"code": "expired", "message": "The link 'spring' has expired."}}"#
        )
        #expect(expired?.code == .providerFailed)
        #expect(expired?.input == "https://links.example.com/spring")
        #expect(
            expired?.message
                == "The short link https://links.example.com/spring has expired: The link 'spring' has expired."
        )
        let failing = await failure(503, #"{"error": {"code": "unavailable", "message": "The database is away."}}"#)
        #expect(failing?.code == .providerFailed)
        #expect(
            failing?.message.contains("could not be opened: The link service answered 503: The database is away.")
                == true
        )
        let garbage = await failure(200, "<html>a captive portal</html>")
        #expect(garbage?.message.contains("a body that is not a link") == true)
        let notALink = await failure(200, #"{"code": "spring", "deepLink": "readapp://books/4 2", "route": "book"}"#)
        #expect(notALink?.code == .invalidLink)
        #expect(notALink?.input == "https://links.example.com/spring")
        #expect(notALink?.message.contains("leads to 'readapp://books/4 2', which is not a link") == true)
        // What a service should never answer is not followed: another site, or plain http.
        for foreign in ["https://evil.example/x", "http://read.example.com/b/1"] {
            let error = await failure(200, #"{"code": "spring", "deepLink": "\#(foreign)", "route": "book"}"#)
            #expect(error?.code == .providerFailed)
            #expect(
                error?.message.contains("was not followed: '\(foreign)' is not one of the app's own destinations")
                    == true
            )
        }
    }

    @Test("Only an answer that may change is asked again: a failing service, not an expired link")
    func retries() async throws {
        let opening = try opening(retries: 2)
        let tapped = intake.url("https://links.example.com/spring")
        for (status, body, tries) in [
            (503, #"{"error": {"code": "unavailable", "message": "y"}}"#, 3),
            (429, #"{"error": {"code": "rateLimited", "message": "y"}}"#, 3),
            (404, "<html>Not Found</html>", 3),
            (410, #"{"error": {"code": "expired", "message": "y"}}"#, 1),
            (404, #"{"error": {"code": "notFound", "message": "y"}}"#, 1),
        ] {
            CannedService.answer("/links/api/resolve/spring", status, body)
            let before = CannedService.requestCount
            _ = await opening.resolved(tapped)
            #expect(CannedService.requestCount - before == tries, "\(status) \(body)")
        }
    }

    @Test("A cancelled tap asks no more")
    func cancelled() async throws {
        let opening = try ShortLinkResolvingDispatcher(
            try Self.dispatcher(),
            service: service,
            retries: 2,
            retryDelay: 10
        )
        CannedService.answer("/links/api/resolve/spring", 503, #"{"error": {"code": "unavailable", "message": "y"}}"#)
        let before = CannedService.requestCount
        let started = Date()
        let tap = Task { await opening.resolved(intake.url("https://links.example.com/spring")) }
        try await Task.sleep(nanoseconds: 100_000_000)
        tap.cancel()
        #expect(await tap.value.error?.code == .providerFailed)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(CannedService.requestCount - before == 1)
    }

    @Test("One delivery handed over twice at once is asked once; each short-link domain asks its own service")
    func sharedAndSeveral() async throws {
        let go = LinkServiceClient(
            domain: "go.example.com",
            serviceURL: URL(string: "https://service.test/go"),
            session: CannedService.session
        )
        let opening = try ShortLinkResolvingDispatcher(try Self.dispatcher(), services: [service, go], retries: 0)
        CannedService.answer(
            "/links/api/resolve/spring",
            200,
            #"{"code": "spring", "deepLink": "readapp://books/42", "route": "book"}"#,
            after: 0.3
        )
        let before = CannedService.requestCount
        let tapped = intake.url("https://links.example.com/spring")
        async let first = opening.resolved(tapped)
        async let second = opening.resolved(tapped)
        let (one, two) = await (first, second)
        #expect(one.link?.string == "readapp://books/42" && two.link?.string == "readapp://books/42")
        #expect(CannedService.requestCount - before == 1)

        CannedService.answer(
            "/go/api/resolve/summer",
            200,
            #"{"code": "summer", "deepLink": "readapp://books/7", "route": "book"}"#
        )
        #expect(await opening.resolved(intake.url("https://go.example.com/summer")).link?.string == "readapp://books/7")
    }

    @Test("A claim's answers keep their meaning on the shared request path")
    func claimAnswers() async {
        let cases: [(Int, String, ClaimError?)] = [
            (409, #"{"error": {"code": "alreadyClaimed", "message": "m"}}"#, .refused(.alreadyClaimed, message: "m")),
            (410, #"{"error": {"code": "expired", "message": "m"}}"#, .refused(.expired, message: "m")),
            (404, #"{"error": {"code": "claimInvalid", "message": "m"}}"#, .refused(.notIssued, message: "m")),
            (404, #"{"error": {"code": "notFound", "message": "m"}}"#, .refused(.linkDeleted, message: "m")),
            (404, "<html>Not Found</html>", .unavailable("The link service answered 404: HTTP 404")),
            (400, #"{"error": {"code": "invalidRequest", "message": "m"}}"#, .refused(.badRequest, message: "m")),
            (413, #"{"error": {"code": "tooLarge", "message": "m"}}"#, .refused(.badRequest, message: "m")),
            // A proxy's or a CDN's page is no answer of the service: the next launch asks again.
            (413, "", .unavailable("The link service answered 413: HTTP 413")),
            (400, "<html>Bad Request</html>", .unavailable("The link service answered 400: HTTP 400")),
            (409, "<html>Conflict</html>", .unavailable("The link service answered 409: HTTP 409")),
            (410, "<html>Gone</html>", .unavailable("The link service answered 410: HTTP 410")),
            (
                429, #"{"error": {"code": "rateLimited", "message": "m"}}"#,
                .unavailable("The link service answered 429: m")
            ),
            (503, "", .unavailable("The link service answered 503: HTTP 503")),
            (
                200, "<html>portal</html>",
                .unavailable("The link service answered 200 with a body that is not a claim.")
            ),
            (200, #"{"code": "spring", "deepLink": "readapp://books/42", "route": "book", "platform": "iOS"}"#, nil),
        ]
        for (status, body, expected) in cases {
            CannedService.answer("/links/api/claims", status, body)
            do {
                let claimed = try await service.claim(token: "AQE")
                #expect(expected == nil && claimed.deepLink == "readapp://books/42", "\(status) \(body)")
            } catch {
                #expect(error == expected, "\(status) \(body)")
            }
        }
    }

    @Test("Offline, it tries again within the tap, then fails with the short link as its input")
    func offline() async throws {
        let offline = LinkServiceClient(domain: "links.example.com", serviceURL: URL(string: "http://127.0.0.1:9"))
        let error = try await opening(retries: 1, service: offline).resolved(
            intake.url("https://links.example.com/spring")
        ).error
        #expect(error?.code == .providerFailed)
        #expect(error?.input == "https://links.example.com/spring")
        #expect(error?.message.contains("could not be opened: The link service could not be reached") == true)
    }

    @Test("The dispatcher runs the resolved link when the scene it was told of is ready")
    func forwards() async throws {
        let dispatcher = try Self.dispatcher()
        let shown = Shown()
        await dispatcher.setNavigator { plan, _ in shown.add(plan.destination) }
        let opening = try ShortLinkResolvingDispatcher(dispatcher, service: service)
        CannedService.answer(
            "/links/api/resolve/spring",
            200,
            #"{"code": "spring", "deepLink": "readapp://books/42", "route": "book"}"#
        )
        let id = try #require(await opening.receive(intake.url("https://links.example.com/spring"), in: .main))
        await opening.sceneDidConnect(.main, shows: [])
        await dispatcher.waitUntilIdle()
        #expect(shown.all.isEmpty)
        await opening.sceneDidBecomeReady(.main)
        await opening.sceneDidBecomeActive(.main)
        #expect(await opening.isHandled(id, timeout: 5))
        #expect(shown.all == ["book 42"])
        // A short link that is not the service's goes on as it came, and is reported as before.
        CannedService.answer("/links/api/resolve/nothing", 404, #"{"error": {"code": "notFound", "message": "No."}}"#)
        let unknown = try #require(await opening.receive(intake.url("https://links.example.com/nothing")))
        #expect(await dispatcher.outcome(of: unknown) == .notFound)
        #expect(await opening.isHandled(unknown) == false)
        await opening.sceneDidEnterBackground(.main)
        await opening.sceneDidDisconnect(.main)
    }
}

/// What the navigator was asked to show.
final class Shown: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    var all: [String] { lock.withLock { items } }
    func add(_ item: String) { lock.withLock { items.append(item) } }
}

/// The service's answers, set by each test: a `URLProtocol` in the client's session, so no socket
/// is opened. The suite runs its tests one at a time, since the answers are shared.
final class CannedService: URLProtocol {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var answers: [String: (Int, String, TimeInterval)] = [:]
    nonisolated(unsafe) private static var asked = 0

    nonisolated(unsafe) private static var last = ""

    /// How many requests reached the service.
    static var requestCount: Int { lock.withLock { asked } }
    /// The address of the last request.
    static var lastRequest: String { lock.withLock { last } }

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [CannedService.self]
        return URLSession(configuration: configuration)
    }()

    static func answer(_ pathAndQuery: String, _ status: Int, _ body: String, after delay: TimeInterval = 0) {
        lock.withLock { answers[pathAndQuery] = (status, body, delay) }
    }

    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "service.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let url = request.url ?? URL(fileURLWithPath: "/")
        let key = url.path + (url.query.map { "?" + $0 } ?? "")
        let (status, body, delay) =
            Self.lock.withLock {
                Self.asked += 1
                Self.last = url.absoluteString
                return Self.answers[key]
            } ?? (599, "no answer for \(key)", 0)
        // A slow service: this runs on URLSession's own thread, never the test's.
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)
        if let response { client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed) }
        client?.urlProtocol(self, didLoad: Data(body.utf8))
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
