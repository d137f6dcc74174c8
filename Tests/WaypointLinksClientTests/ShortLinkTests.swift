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
        serviceURL: URL(string: "https://service.test"),
        session: CannedService.session
    )
    let intake = LinkIntake(
        policy: LinkPolicy(schemes: ["readapp"], associatedDomains: ["links.example.com", "read.example.com"])
    )

    @Test("Only a one-segment code on the service's own host, over https, is a short link")
    func recognised() {
        let cases: [(String, String?)] = [
            ("https://links.example.com/spring", "spring"),
            ("HTTPS://LINKS.EXAMPLE.COM/Spring_2-b?utm_source=news#top", "Spring_2-b"),
            ("  https://links.example.com/spring\n", "spring"),
            ("https://links.example.com/" + String(repeating: "a", count: 64), String(repeating: "a", count: 64)),
            ("https://links.example.com/" + String(repeating: "a", count: 65), nil),
            ("https://links.example.com/", nil),
            ("https://links.example.com", nil),
            ("https://links.example.com/books/42", nil),
            ("https://links.example.com/c/AQEAAA", nil),
            ("https://links.example.com/sp%72ing", nil),
            ("https://links.example.com/favicon.ico", nil),
            ("https://links%2Eexample.com/spring", nil),
            ("https://links.example.com:8443/spring", nil),
            ("https://user@links.example.com/spring", nil),
            ("http://links.example.com/spring", nil),
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

    @Test("The service's answer becomes the link the dispatcher takes, with the short link's source and identity")
    func answers() async throws {
        let opening = ShortLinkResolvingDispatcher(Recorder(), service: service, retries: 0)
        CannedService.answer(
            "/api/resolve/spring?utm_source=news",
            200,
            #"{"code": "spring", "deepLink": "readapp://books/42?utm_source=news", "route": "book"}"#
        )
        let tapped = intake.url("https://links.example.com/spring?utm_source=news")
        guard case .link(let link, let identity) = await opening.resolved(tapped) else {
            Issue.record("no link")
            return
        }
        #expect(link.string == "readapp://books/42?utm_source=news")
        #expect(link.source == .universalLink)
        #expect(identity == "url:https://links.example.com/spring?utm_source=news")

        // In a push, the link keeps the push's source: no route gains what a push could not reach.
        CannedService.answer(
            "/api/resolve/spring",
            200,
            #"{"code": "spring", "deepLink": "readapp://books/42", "route": "book"}"#
        )
        let pushed = intake.notification(
            NotificationResponseSnapshot(userInfo: ["aps": [:], "url": "https://links.example.com/spring"])
        )
        #expect(await opening.resolved(pushed).link?.source == .notification)
        #expect(await opening.resolved(pushed).link?.string == "readapp://books/42")
    }

    @Test(
        "Not found goes on as the short link; expired, failing, or a deep link that is no link, is a failure naming it"
    )
    func refusals() async throws {
        let opening = ShortLinkResolvingDispatcher(Recorder(), service: service, retries: 0)
        let tapped = intake.url("https://links.example.com/spring")
        func failure(_ status: Int, _ body: String) async -> WaypointError? {
            CannedService.answer("/api/resolve/spring", status, body)
            return await opening.resolved(tapped).error
        }
        for status in [404, 400] {
            CannedService.answer("/api/resolve/spring", status, #"{"error": {"code": "notFound", "message": "No."}}"#)
            #expect(await opening.resolved(tapped).link == tapped.link)
        }
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
    }

    @Test("Only an answer that may change is asked again: a failing service, not an expired link")
    func retries() async {
        let opening = ShortLinkResolvingDispatcher(Recorder(), service: service, retries: 2, retryDelay: 0.01)
        let tapped = intake.url("https://links.example.com/spring")
        for (status, tries) in [(503, 3), (429, 3), (410, 1), (404, 1)] {
            CannedService.answer("/api/resolve/spring", status, #"{"error": {"code": "x", "message": "y"}}"#)
            let before = CannedService.requestCount
            _ = await opening.resolved(tapped)
            #expect(CannedService.requestCount - before == tries, "\(status)")
        }
    }

    @Test("Offline, it tries again within the tap, then fails with the short link as its input")
    func offline() async {
        let offline = LinkServiceClient(domain: "links.example.com", serviceURL: URL(string: "http://127.0.0.1:9"))
        let opening = ShortLinkResolvingDispatcher(Recorder(), service: offline, retries: 1, retryDelay: 0.01)
        let error = await opening.resolved(intake.url("https://links.example.com/spring")).error
        #expect(error?.code == .providerFailed)
        #expect(error?.input == "https://links.example.com/spring")
        #expect(error?.message.contains("could not be opened: The link service could not be reached") == true)
    }

    @Test("Everything else goes to the dispatcher as it came, with the scene's life")
    func forwards() async throws {
        let recorder = Recorder()
        let opening = ShortLinkResolvingDispatcher(recorder, service: service)
        let scene = SceneID("inbox")
        // Neither is asked of the service: a custom scheme, and a web link on no associated domain.
        _ = await opening.receive(intake.url("readapp://books/1"), in: scene)
        let web = intake.url("https://elsewhere.example/spring")
        #expect(web.link?.source == .web)
        _ = await opening.receive(web, in: nil)
        await opening.sceneDidConnect(scene, shows: ["inbox"])
        await opening.sceneDidBecomeReady(scene)
        await opening.sceneDidBecomeActive(scene)
        await opening.sceneDidEnterBackground(scene)
        await opening.sceneDidDisconnect(scene)
        #expect(await opening.isHandled(UUID()) == false)
        #expect(
            recorder.calls == [
                "receive readapp://books/1 in inbox", "receive https://elsewhere.example/spring in -",
                "connect inbox [\"inbox\"]", "ready inbox", "active inbox", "background inbox", "disconnect inbox",
                "isHandled",
            ]
        )
    }
}

/// A dispatcher that writes down what it is told.
final class Recorder: LinkDispatching, @unchecked Sendable {
    private let lock = NSLock()
    private var log: [String] = []
    var calls: [String] { lock.withLock { log } }
    private func add(_ call: String) { lock.withLock { log.append(call) } }

    func receive(_ result: IntakeResult, in scene: SceneID?) async -> UUID? {
        add("receive \(result.link?.string ?? "-") in \(scene?.description ?? "-")")
        return result.link == nil ? nil : UUID()
    }
    func isHandled(_ id: UUID) async -> Bool {
        add("isHandled")
        return false
    }
    func sceneDidConnect(_ scene: SceneID, shows: Set<String>) async { add("connect \(scene) \(shows.sorted())") }
    func sceneDidBecomeReady(_ scene: SceneID) async { add("ready \(scene)") }
    func sceneDidBecomeActive(_ scene: SceneID) async { add("active \(scene)") }
    func sceneDidEnterBackground(_ scene: SceneID) async { add("background \(scene)") }
    func sceneDidDisconnect(_ scene: SceneID) async { add("disconnect \(scene)") }
}

/// The service's answers, set by each test: a `URLProtocol` in the client's session, so no socket
/// is opened. The suite runs its tests one at a time, since the answers are shared.
final class CannedService: URLProtocol {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var answers: [String: (Int, String)] = [:]
    nonisolated(unsafe) private static var asked = 0

    /// How many requests reached the service.
    static var requestCount: Int { lock.withLock { asked } }

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [CannedService.self]
        return URLSession(configuration: configuration)
    }()

    static func answer(_ pathAndQuery: String, _ status: Int, _ body: String) {
        lock.withLock { answers[pathAndQuery] = (status, body) }
    }

    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "service.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let url = request.url ?? URL(fileURLWithPath: "/")
        let key = url.path + (url.query.map { "?" + $0 } ?? "")
        let (status, body) =
            Self.lock.withLock {
                Self.asked += 1
                return Self.answers[key]
            } ?? (599, "no answer for \(key)")
        let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)
        if let response { client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed) }
        client?.urlProtocol(self, didLoad: Data(body.utf8))
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
