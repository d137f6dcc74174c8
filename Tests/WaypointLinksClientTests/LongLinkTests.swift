import Foundation
import Testing
import Waypoint
@_spi(WaypointLinks) @testable import WaypointLinksClient

/// A long Firebase Dynamic Link that opened the app: read as the service reads it, with no request.
/// In the short-link suite, whose service stub counts requests: run alongside, a count could move.
extension ShortLinkTests {
    @Test("A long link's deep link is its 'link' with its campaign, as Firebase read it")
    func longLinkReading() throws {
        let cases: [(String, String)] = [
            ("https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F7", "readapp://books/7"),
            // Campaign items join the link's query, as they came; the link's own win.
            (
                "https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F7&utm_source=news&isi=123&utm_medium=mail",
                "readapp://books/7?utm_source=news&utm_medium=mail"
            ),
            (
                "https://links.example.com/?utm_source=news&link=readapp%3A%2F%2Fbooks%2F7%3Futm_source%3Dapp",
                "readapp://books/7?utm_source=app"
            ),
            // `ct` names the campaign where nothing else does.
            (
                "https://links.example.com/?link=readapp://books/7&ct=spring%20sale",
                "readapp://books/7?utm_campaign=spring%20sale"
            ),
            (
                "https://links.example.com/?link=readapp://books/7&ct=x&utm_campaign=y",
                "readapp://books/7?utm_campaign=y"
            ),
            // The first `link` counts; a fragment left unescaped belongs to the deep link.
            ("https://links.example.com/?link=readapp://books/7&link=readapp://books/8", "readapp://books/7"),
            (
                "https://links.example.com/?link=https://read.example.com/b/42#ch2&utm_source=a",
                "https://read.example.com/b/42?utm_source=a#ch2"
            ),
            // A `+` is a space, as a form writes it; a stray `%` is itself.
            ("https://links.example.com/?link=readapp://search?q%3Dred+shoes", "readapp://search?q=red shoes"),
            ("https://links.example.com/?link=readapp://sale/50%off", "readapp://sale/50%off"),
        ]
        for (text, deepLink) in cases {
            #expect(try LongDynamicLink(text).deepLink == deepLink, "\(text)")
        }
        let read = try LongDynamicLink(
            "https://x.page.link/?link=readapp://b&st=Spring+sale&isi=1&isi=2&efr=1&ct=c&utm_campaign=u"
        )
        #expect(read.parameters["st"] == "Spring sale")
        #expect(read.parameters["isi"] == "1")
        #expect(read.parameterNames == ["st", "isi", "isi", "efr", "ct"])
        #expect(read.campaignTokenPassedOver)

        #expect(throws: LongDynamicLinkError.self) { try LongDynamicLink("https://links.example.com/?isi=123") }
        do {
            _ = try LongDynamicLink("https://links.example.com/?link=&isi=123")
            Issue.record("an empty link was read")
        } catch {
            #expect(error.message.contains("has an empty 'link' parameter"))
        }
        do {
            _ = try LongDynamicLink("no link at all")
            Issue.record("text with no scheme was read")
        } catch {
            #expect(error.message == "'no link at all' is not a URL.")
        }
    }

    @Test("Only the root of the service's own host with a 'link' is a long link of it")
    func longLinkRecognised() {
        let link = "link=readapp%3A%2F%2Fbooks%2F7"
        let cases: [(String, String?)] = [
            ("https://links.example.com/?\(link)", "readapp://books/7"),
            ("https://links.example.com?\(link)", "readapp://books/7"),
            ("HTTP://Links.Example.com.:80/?\(link)", "readapp://books/7"),
            ("  https://links.example.com/?\(link)\n", "readapp://books/7"),
            // As the service reads it: an empty segment is none, and a browser never sends the fragment.
            ("https://links.example.com//?\(link)", "readapp://books/7"),
            ("https://links.example.com/?\(link)#chapter-2&isi=1", "readapp://books/7"),
            ("https://links.example.com/?utm_source=news&\(link)#x", "readapp://books/7?utm_source=news"),
            ("https://links.example.com/?utm_source=news#&\(link)", nil),
            ("https://links.example.com/?isi=123", nil),
            ("https://links.example.com/", nil),
            ("https://links.example.com/?", nil),
            ("https://links.example.com/link/?\(link)", nil),
            ("https://links.example.com/spring?\(link)", nil),
            ("https://links.example.com:8443/?\(link)", nil),
            ("https://user@links.example.com/?\(link)", nil),
            ("https://go.example.com/?\(link)", nil),
            ("readapp://links.example.com/?\(link)", nil),
        ]
        for (text, deepLink) in cases {
            #expect(service.deepLink(inLongLink: text) == deepLink, "\(text)")
        }
    }

    @Test("A long link opens its deep link with no request, by the redirect rule, before any route of the app")
    func longLinkOpened() async throws {
        let opening = try opening()
        let before = CannedService.requestCount
        let tapped = intake.url("https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F7&utm_source=news&isi=1")
        guard case .link(let longLink, let tappedIdentity) = tapped,
            case .link(let link, let identity) = await opening.resolved(tapped)
        else {
            Issue.record("no link")
            return
        }
        #expect(longLink.source == .universalLink)
        #expect(link.string == "readapp://books/7?utm_source=news")
        #expect(identity == tappedIdentity)
        // Anyone can write a long link: its custom-scheme link counts as one, not as a verified
        // universal link; an https link of the app's stays a universal link.
        #expect(link.source == .urlScheme)
        let web = await opening.resolved(
            intake.url("https://links.example.com/?link=https%3A%2F%2Fread.example.com%2Fb%2F4")
        )
        #expect(web.link?.string == "https://read.example.com/b/4")
        #expect(web.link?.source == .universalLink)
        #expect(CannedService.requestCount == before)

        // In a push: the push's source, payload and target stay.
        let pushed = intake.notification(
            NotificationResponseSnapshot(
                userInfo: [
                    "aps": ["target-content-id": "inbox"],
                    "url": "https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F8", "id": "7",
                ]
            )
        )
        let fromPush = await opening.resolved(pushed).link
        #expect(fromPush?.string == "readapp://books/8")
        #expect(fromPush?.source == .notification)
        #expect(fromPush?.targetContentIdentifier == "inbox")
        #expect(fromPush?.payload?["id"]?.text == "7")
    }

    @Test("A long link leads only where it could alone: the app's own destinations, a whole link, its own source")
    func longLinkRefused() async throws {
        let opening = try opening()
        let foreign = await opening.resolved(
            intake.url("https://links.example.com/?link=https%3A%2F%2Fevil.example%2F")
        )
        #expect(foreign.error?.code == .providerFailed)
        #expect(foreign.error?.input == "https://links.example.com/?link=https%3A%2F%2Fevil.example%2F")
        #expect(foreign.error?.message.contains("The long link") == true)
        let broken = await opening.resolved(intake.url("https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F4%202"))
        #expect(broken.error?.code == .invalidLink)
        #expect(broken.error?.message.contains("leads to 'readapp://books/4 2', which is not a link") == true)
        // A path alone is no link: the service refuses it too.
        let path = await opening.resolved(intake.url("https://links.example.com/?link=%2Faccount%2Fdelete"))
        #expect(path.error?.code == .invalidLink)
        #expect(path.error?.message.contains("not a whole link (it names no scheme)") == true)

        // A route for verified universal links only does not open for a custom-scheme long link.
        let dispatcher = try LinkDispatcher<String>(
            routes: [
                LinkRoute("delete", "/account/delete", sources: [.universalLink]) { _ in .pushOverRoot("delete") }
            ],
            policy: Self.policy
        )
        let guarded = try ShortLinkResolvingDispatcher(dispatcher, service: service, retries: 0)
        let deletion = await guarded.resolved(
            intake.url("https://links.example.com/?link=readapp%3A%2F%2Faccount%2Fdelete")
        )
        let deleting = try #require(deletion.link)
        #expect(deleting.source == .urlScheme)
        #expect(dispatcher.resolver.resolve(deleting).match == nil)
        var verified = deleting
        verified.source = .universalLink
        #expect(dispatcher.resolver.resolve(verified).match != nil)
    }

    @Test("A long link keeps the source it came with unless tapped; each service reads its own domain's")
    func longLinkSources() async throws {
        let go = LinkServiceClient(domain: "go.example.com", session: CannedService.session)
        let opening = try ShortLinkResolvingDispatcher(try Self.dispatcher(), services: [service, go], retries: 0)
        // Text from an in-app message stays text: it never was a verified universal link.
        let inMessage = await opening.resolved(intake.text("https://go.example.com/?link=readapp%3A%2F%2Fbooks%2F9"))
        #expect(inMessage.link?.string == "readapp://books/9")
        #expect(inMessage.link?.source == .text)
        let tapped = await opening.resolved(intake.url("https://go.example.com/?link=readapp%3A%2F%2Fbooks%2F9"))
        #expect(tapped.link?.source == .urlScheme)

        // A link the intake's own policy leaves on the web is not the app's to open, whatever its host.
        let webIntake = LinkIntake(policy: LinkPolicy(schemes: ["readapp"], associatedDomains: ["read.example.com"]))
        let before = CannedService.requestCount
        for text in ["https://links.example.com/spring", "https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F9"] {
            let web = webIntake.url(text)
            #expect(web.link?.source == .web, "\(text)")
            #expect(await opening.resolved(web).link == web.link, "\(text)")
        }
        #expect(CannedService.requestCount == before)
    }

    @Test("A route of the app at the root does not take a long link's place")
    func longLinkBeforeRootRoutes() async throws {
        let tapped = intake.url("https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F7")
        for pattern in ["/", "https://links.example.com/", "/**"] {
            let home = try LinkDispatcher<String>(
                routes: [
                    LinkRoute("home", pattern) { _ in .pushOverRoot("home") },
                    LinkRoute("book", "/books/{id:int}") { _ in .pushOverRoot("book") },
                ],
                policy: Self.policy
            )
            let opening = try ShortLinkResolvingDispatcher(home, service: service, retries: 0)
            #expect(await opening.resolved(tapped).link?.string == "readapp://books/7", "\(pattern)")
            // The root without a `link` is the app's route, as before.
            let root = intake.url("https://links.example.com/?utm_source=x")
            #expect(await opening.resolved(root).link == root.link, "\(pattern)")
            // A long link whose `link` cannot be read is reported, not handed to the root route
            // with its `link` dropped: the first `link` counts, as Firebase read it, and is empty.
            let unreadable = "https://links.example.com/?link=&link=readapp%3A%2F%2Fbooks%2F7"
            let refused = await opening.resolved(intake.url(unreadable))
            #expect(refused.error?.code == .invalidLink, "\(pattern)")
            #expect(refused.error?.input == unreadable, "\(pattern)")
            #expect(refused.error?.message.contains("cannot be read: ") == true, "\(pattern)")
            #expect(refused.error?.message.contains("has an empty 'link' parameter") == true, "\(pattern)")
        }
        #expect(service.deepLink(inLongLink: "https://links.example.com/?link=&link=readapp%3A%2F%2Fbooks%2F7") == nil)
    }

    @Test("A delivery still waiting keeps the answer when another copy of it is cancelled")
    func sharedResolutionOutlivesOneCancellation() async throws {
        let opening = try opening()
        CannedService.answer(
            "/links/api/resolve/spring",
            200,
            #"{"code": "spring", "deepLink": "readapp://books/42", "route": "book"}"#,
            after: 0.5
        )
        let before = CannedService.requestCount
        let tapped = intake.url("https://links.example.com/spring")
        // A cold start's push reaches the scene and the notification center's delegate; the scene
        // goes away while the service answers.
        let scene = Task { await opening.resolved(tapped) }
        try await Task.sleep(nanoseconds: 100_000_000)
        let delegate = Task { await opening.resolved(tapped) }
        try await Task.sleep(nanoseconds: 100_000_000)
        scene.cancel()
        #expect(await delegate.value.link?.string == "readapp://books/42")
        #expect(CannedService.requestCount - before == 1)
        // The cancelled copy hands on no link that would wait for its window.
        let given = await scene.value
        #expect(given.error?.code == .providerFailed)
        #expect(given.error?.message.contains("the delivery was cancelled") == true)

        // Every copy cancelled: the question is dropped, and the next delivery asks anew.
        CannedService.answer("/links/api/resolve/spring", 503, #"{"error": {"code": "unavailable", "message": "y"}}"#)
        let retrying = try ShortLinkResolvingDispatcher(
            try Self.dispatcher(),
            service: service,
            retries: 2,
            retryDelay: 10
        )
        let first = Task { await retrying.resolved(tapped) }
        try await Task.sleep(nanoseconds: 100_000_000)
        first.cancel()
        #expect(await first.value.error?.code == .providerFailed)
        CannedService.answer(
            "/links/api/resolve/spring",
            200,
            #"{"code": "spring", "deepLink": "readapp://books/42", "route": "book"}"#
        )
        #expect(await retrying.resolved(tapped).link?.string == "readapp://books/42")
    }

    @Test("A claim URL on any of the app's short-link domains is claimed from the service on its domain")
    func claimingOnSeveralDomains() async throws {
        let go = LinkServiceClient(
            domain: "go.example.com",
            serviceURL: URL(string: "https://service.test/go"),
            session: CannedService.session
        )
        CannedService.answer(
            "/go/api/claims",
            200,
            #"{"code": "summer", "deepLink": "readapp://books/7", "route": "book", "platform": "iOS"}"#
        )
        let provider = try ClaimingDeferredLinkProvider(
            services: [service, go],
            source: PastedClaimURL("https://go.example.com/c/AQEAAAAAbm9uY2Vub25jZQ")
        )
        #expect(provider.service.domain == "links.example.com")
        #expect(try await provider.deferredLink() == "readapp://books/7")
        #expect(CannedService.lastRequest == "https://service.test/go/api/claims")
    }
}

/// The wrapper's setup: a short-link domain the app cannot receive links on fails where it is made.
@Suite("Short and long links: the wrapper's setup")
struct ShortLinkSetupTests {
    @Test("No service, a domain that is no host name, or one the policy does not associate, fails when made")
    func setup() throws {
        let dispatcher = try ShortLinkTests.dispatcher()
        func problem(_ domains: [String]) -> WaypointError? {
            do {
                _ = try ShortLinkResolvingDispatcher(
                    dispatcher,
                    services: domains.map { LinkServiceClient(domain: $0) }
                )
                return nil
            } catch {
                return error
            }
        }
        #expect(problem([])?.message.contains("at least one service") == true)
        let unassociated = problem(["links.example.com", "links.elsewhere.example"])
        #expect(unassociated?.code == .invalidConfiguration)
        #expect(unassociated?.input == "links.elsewhere.example")
        #expect(unassociated?.message.contains("not one of the policy's associated domains") == true)
        for domain in ["links.example.com/go", "*.example.com", "links example.com", ""] {
            let error = problem([domain])
            #expect(error?.code == .invalidConfiguration, "\(domain)")
            #expect(error?.message.contains("is not a host name") == true, "\(domain)")
        }
        // As a URL, in any case, with its trailing dot, is the domain: the client takes its host.
        #expect(problem(["https://Links.Example.com/", "go.example.com."]) == nil)

        // Under a wildcard the policy associates, a domain is the app's; the wildcard's own domain is not.
        let wildcard = try LinkDispatcher<String>(
            routes: [],
            policy: LinkPolicy(schemes: ["readapp"], associatedDomains: ["*.example.com"])
        )
        #expect(throws: Never.self) {
            try ShortLinkResolvingDispatcher(wildcard, service: LinkServiceClient(domain: "go.example.com"))
        }
        #expect(throws: WaypointError.self) {
            try ShortLinkResolvingDispatcher(wildcard, service: LinkServiceClient(domain: "example.com"))
        }
    }

    @Test("Retries that would hold a link over a minute offline fail when made")
    func retryBounds() throws {
        let dispatcher = try ShortLinkTests.dispatcher()
        let service = LinkServiceClient(domain: "links.example.com")
        func problem(_ retries: Int, _ delay: TimeInterval) -> WaypointError? {
            do {
                _ = try ShortLinkResolvingDispatcher(dispatcher, service: service, retries: retries, retryDelay: delay)
                return nil
            } catch {
                return error
            }
        }
        // The default waits about 11 s (two tries of 5 s, one wait of 1 s); 3 after 2 s about 34 s.
        for (retries, delay) in [(1, 1.0), (0, 0), (3, 2), (5, 0.9), (11, 0)] {
            #expect(problem(retries, delay) == nil, "\(retries) after \(delay) s")
        }
        for (retries, delay) in [(5, 1.0), (12, 0), (1000, 60), (1, 1e19), (Int.max, 1)] {
            let error = problem(retries, delay)
            #expect(error?.code == .invalidConfiguration, "\(retries) after \(delay) s")
            #expect(error?.message.contains("over the 60 s someone waits") == true, "\(retries) after \(delay) s")
        }
        #expect(problem(5, 1)?.message.contains("may hold a short link 61 s") == true)
        #expect(problem(1, 1e19)?.message.contains("more than a day") == true)
        for (retries, delay) in [(-1, 1.0), (1, -1), (1, .nan), (1, .infinity)] {
            let error = problem(retries, delay)
            #expect(error?.code == .invalidConfiguration, "\(retries) after \(delay) s")
            #expect(error?.message.contains("both 0 or more") == true, "\(retries) after \(delay) s")
        }
    }

    @Test("A deferred-link provider for several domains fails when made with none, or with one that is no host")
    func claimingSetup() throws {
        let source = PastedClaimURL(nil)
        #expect(throws: WaypointError.self) { try ClaimingDeferredLinkProvider(services: [], source: source) }
        for domain in ["*.example.com", "links example.com", ""] {
            do {
                _ = try ClaimingDeferredLinkProvider(
                    services: [LinkServiceClient(domain: "links.example.com"), LinkServiceClient(domain: domain)],
                    source: source
                )
                Issue.record("\(domain) was taken")
            } catch {
                #expect(error.code == .invalidConfiguration, "\(domain)")
                #expect(error.input == domain, "\(domain)")
            }
        }
    }
}

/// The shared question behind duplicate deliveries, driven directly.
@Suite("One question for duplicate deliveries")
struct ResolutionsUnderWayTests {
    /// Counts the questions asked; each answers after `seconds`, whether or not it was cancelled
    /// (a request already on the wire).
    final class Questions: @unchecked Sendable {
        private let lock = NSLock()
        private var asked = 0
        var count: Int { lock.withLock { asked } }
        func ask(answering seconds: Double) async -> IntakeResult {
            lock.withLock { asked += 1 }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { done.resume() }
            }
            return .failure(WaypointError(.providerFailed, message: "answered"))
        }
    }

    @Test("A delivery arriving after every earlier copy gave up asks anew, while the given-up question still runs")
    func askedAnewAfterEveryCopyCancelled() async throws {
        let underWay = ResolutionsUnderWay()
        let questions = Questions()
        let first = Task { await underWay.result(for: "push:1") { await questions.ask(answering: 0.5) } }
        try await Task.sleep(nanoseconds: 100_000_000)
        first.cancel()
        try await Task.sleep(nanoseconds: 50_000_000)
        // The first question has not answered yet; a copy arriving now does not join a cancelled one.
        _ = await underWay.result(for: "push:1") { await questions.ask(answering: 0.05) }
        #expect(questions.count == 2)
        _ = await first.value

        // A copy arriving while another still waits joins it: one question.
        async let one = underWay.result(for: "push:2") { await questions.ask(answering: 0.2) }
        try await Task.sleep(nanoseconds: 50_000_000)
        async let two = underWay.result(for: "push:2") { await questions.ask(answering: 0.2) }
        _ = await (one, two)
        #expect(questions.count == 3)
    }
}
