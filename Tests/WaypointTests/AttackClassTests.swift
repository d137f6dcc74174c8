import Foundation
import Testing

@testable import Waypoint

/// OWASP MASTG's deep-link attack classes, each delivered through every way into the app that can
/// carry it. What must hold: nothing dangerous is routed, opened or loaded; what is refused is a
/// typed outcome with a reason, never a crash and never "handled".
@Suite("Hostile input from every way in")
struct AttackClassTests {
    static let policy = LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"])

    static func makeResolver() throws -> LinkResolver<String> {
        var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("messages.detail", "/messages/{id:int}", value: "chat")
        try builder.add("files", "/files/{name}", value: "file")
        try builder.add("open", "/open", value: "web view")
        try builder.add("pay", "/pay", sources: [.universalLink], value: "payment")
        try builder.add("login", "/login", value: "login")
        return LinkResolver(router: try builder.build(), policy: policy)
    }

    static let intake = LinkIntake(
        policy: policy,
        shortcutRoutes: ["file": "/files/{name}"],
        webMessages: [WebMessageRoute(name: "openLink")],
        webOrigins: ["example.com"]
    )

    /// Every way a piece of text can reach the app.
    enum Way: String, CaseIterable, CustomTestStringConvertible {
        case urlScheme, universalLink, notification, quickAction, userActivity, webMessage, text, deferred
        var testDescription: String { rawValue }
    }

    struct FixedProvider: DeferredLinkProvider {
        let text: String
        func deferredLink() async throws -> String? { text }
    }

    struct FirstLaunch: DeferredLinkRecord {
        func load() -> DeferredLinkState { .unsettled(attempts: 0) }
        func save(_ state: DeferredLinkState) {}
    }

    /// What intake makes of `text` arriving through `way`; `nil` when that way cannot even carry it
    /// (Foundation's `URL` refuses it, so the system could never deliver it).
    static func deliver(_ text: String, via way: Way) async -> IntakeResult? {
        switch way {
        case .urlScheme, .universalLink:
            return URL(string: text).map { intake.url($0) }
        case .notification:
            return intake.notification(NotificationResponseSnapshot(userInfo: ["deeplink": .string(text)]))
        case .quickAction:
            return intake.shortcut(ShortcutItemSnapshot(type: "file", userInfo: ["name": .string(text)]))
        case .userActivity:
            return URL(string: text).map {
                intake.userActivity(UserActivitySnapshot(activityType: UserActivityType.browsingWeb, webpageURL: $0))
            }
        case .webMessage:
            return intake.webMessage(
                WebMessageSnapshot(name: "openLink", body: .string(text), origin: "https://example.com")
            )
        case .text:
            return intake.text(text)
        case .deferred:
            return await intake.deferredLink(from: FixedProvider(text: text), record: FirstLaunch())
        }
    }

    /// A tap on a link in the web view's main frame: the most trusted web navigation.
    static func tap(_ url: String) -> WebNavigation {
        WebNavigation(url: url, isMainFrame: true, isUserInitiated: true)
    }

    /// The outcome's name: `undeliverable`, `invalid` (intake refused it), or the resolution's status.
    static func outcome(of text: String, via way: Way) async throws -> (status: String, match: RouteMatch<String>?) {
        guard let result = await deliver(text, via: way) else { return ("undeliverable", nil) }
        guard let link = result.link else { return ("invalid", nil) }
        let resolution = try makeResolver().resolve(link)
        return (resolution.status.rawValue, resolution.match)
    }

    static let dangerousSchemeLinks = [
        "javascript:alert(document.cookie)", "JavaScript:alert(1)", "JAVASCRIPT://%0Aalert(1)",
        " javascript:alert(1)", "\u{01}javascript:alert(1)", "\tjavascript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", "file:///etc/passwd", "FILE:///private/var",
        "vbscript:msgbox(1)", "VBScript:msgbox(1)",
    ]

    @Test(
        "javascript:, data:, file: and vbscript: in any case, after white space or control characters, are never routed or opened",
        arguments: dangerousSchemeLinks,
        Way.allCases
    )
    func dangerousSchemes(text: String, way: Way) async throws {
        let (status, _) = try await Self.outcome(of: text, via: way)
        if way == .quickAction {
            // A quick action's values fill a parameter of the app's own route: the text is data.
            #expect(status == "matched" || status == "notFound")
        } else {
            #expect(["undeliverable", "invalid", "forbidden"].contains(status), "\(text) via \(way): \(status)")
        }
        if case .refuse = try Self.makeResolver().webNavigationDecision(for: Self.tap(text)) {
        } else {
            Issue.record("a web view would not refuse \(text)")
        }
        #expect(!Self.policy.isOwnDestination(text))
    }

    static let foreignHostLinks = [
        "https://example.com@evil.com/messages/1", "https://user:pass@example.com/messages/1",
        "https:\\\\evil.com/messages/1", "https://evil.com\\@example.com/messages/1", "//evil.com/messages/1",
        "https://ex\u{0430}mple.com/messages/1", "https://example.com.evil.com/messages/1",
        "https://evil.com/example.com/messages/1", "https://example.com%2F@evil.com/messages/1",
        "https://example.com%252F@evil.com/", "https://evil.com%2Fexample.com/messages/1",
        "https://evil.com:443@example.com:443@evil.com/",
    ]

    @Test("Look-alike and foreign hosts never route as the app's own domain", arguments: foreignHostLinks, Way.allCases)
    func foreignHosts(text: String, way: Way) async throws {
        let (status, match) = try await Self.outcome(of: text, via: way)
        if way == .quickAction {
            #expect(match?.parameters.string("name") == text || status == "notFound" || status == "invalid")
        } else {
            // "//evil.com/messages/1" is a path inside the app at most; it never names a host.
            #expect(match == nil || match?.link.host == nil, "\(text) via \(way) matched \(String(describing: match))")
            #expect(match?.route.name != "messages.detail" || match?.link.host == nil)
        }
        #expect(!Self.policy.isOwnDestination(text), "\(text) passed as an own destination")
        #expect(try Self.makeResolver().webNavigationDecision(for: Self.tap(text)) != .load)
    }

    @Test("An IDN look-alike is not the app's domain, even written in punycode")
    func idnLookAlike() throws {
        let resolver = try Self.makeResolver()
        #expect(resolver.resolve("https://xn--exmple-4nf.com/messages/1").status == .passThrough)
        #expect(resolver.resolve(text: "https://ex\u{0430}mple.com/messages/1").match == nil)
        #expect(resolver.resolve("https://EXAMPLE.com/messages/1").status == .matched)
    }

    @Test("Open redirects: only the app's own paths, schemes and domains pass as a next= target")
    func openRedirects() throws {
        let own = [
            "/orders/1", "/orders/1?tab=2#top", "myapp://messages/1", "https://example.com/orders/1",
            "HTTPS://Example.com/x",
        ]
        for target in own { #expect(Self.policy.isOwnDestination(target), "\(target)") }
        let foreign = [
            "//evil.com", "/\\evil.com", "///evil.com", "https://evil.com", "https://example.com@evil.com",
            "https:evil.com", "/%2F%2Fevil.com", "/%5Cevil.com", "/\u{0}evil", "evil.com", "javascript:alert(1)",
            "otherapp://steal", "", " /orders/1",
            "http://example.com/orders/1",  // routed in the app, but never loaded over plain http
        ]
        for target in foreign { #expect(!Self.policy.isOwnDestination(target), "\(target)") }

        let match = try #require(try Self.makeResolver().resolve("myapp://login?next=https%3A%2F%2Fevil.com%2F").match)
        let next = try #require(match.link.queryValue("next"))
        #expect(next == "https://evil.com/")
        #expect(!Self.policy.isOwnDestination(next))
    }

    static let traversalLinks = [
        "myapp://files/..%2F..%2Fetc%2Fpasswd", "myapp://files/%2e%2e%2f%2e%2e%2fsecret", "myapp://files/%2E%2E",
        "myapp://files/..%5Csecret", "myapp://files/~root", "myapp://files/a%00b",
    ]

    @Test("Path traversal in a resource parameter is refused by name, after decoding", arguments: traversalLinks)
    func pathTraversal(link: String) throws {
        let resolver = try Self.makeResolver()
        switch resolver.resolve(link) {
        case .matched(let match):
            #expect(throws: WaypointError.self) { try match.parameters.resourceName("name") }
        case .invalid:
            break  // refused before routing (a NUL byte)
        case let other:
            Issue.record("\(link) ended as \(other.status)")
        }
    }

    @Test("Traversal arriving through a quick action's values is refused the same way")
    func traversalFromQuickAction() async throws {
        let (_, match) = try await Self.outcome(of: "../../Library/Preferences", via: .quickAction)
        let files = try #require(match)
        #expect(files.route.name == "files")
        #expect(throws: WaypointError.self) { try files.parameters.resourceName("name") }
    }

    @Test("A resource name's error says what is wrong and which parameter")
    func resourceNameMessages() throws {
        let resolver = try Self.makeResolver()
        let match = try #require(resolver.resolve("myapp://files/..%2Fsecrets").match)
        #expect {
            try match.parameters.resourceName("name")
        } throws: { error in
            (error as? WaypointError)?.message
                == "The parameter 'name' ('../secrets') is not a plain name: it contains '/'."
        }
        // Decoded once: a double-encoded `../` is the literal name `%2e%2e%2f`, with no separator in it.
        let doubleEncoded = try #require(resolver.resolve("myapp://files/%252e%252e%252f").match)
        #expect(try doubleEncoded.parameters.resourceName("name") == "%2e%2e%2f")
        let plain = try #require(resolver.resolve("myapp://files/chapter-1.pdf").match)
        #expect(try plain.parameters.resourceName("name") == "chapter-1.pdf")
        #expect(throws: WaypointError.self) { try plain.parameters.resourceName("missing") }
    }

    /// Hostile input, round 3: characters that change how a name or path reads when shown.
    static let bidiLinks = [
        "myapp://files/invoice%E2%80%AEfdp.exe", "myapp://files/a%E2%80%ABb", "myapp://files/%E2%81%A6x%E2%81%A9",
        "myapp://files/a%E2%80%8Fb", "myapp://files/a%D8%9Cb", "myapp://messages/1?from=%E2%80%AEnimda",
        "myapp://messages/1#%E2%80%AD", "https://example.com/files/a%E2%80%AEb",
    ]

    @Test(
        "A bidirectional formatting character in any part of a link is refused with its reason (RFC 3987)",
        arguments: bidiLinks
    )
    func bidiControls(text: String) throws {
        #expect {
            try DeepLink(text)
        } throws: { error in
            guard let error = error as? WaypointError else { return false }
            return error.code == .invalidCharacter && error.message.contains("bidirectional formatting character")
        }
        // Whatever way it arrives.
        #expect(Self.intake.text(text).link == nil)
    }

    @Test("Invisible and direction-changing characters are not plain names; joiners in a link still route")
    func invisibleCharactersInNames() throws {
        let resolver = try Self.makeResolver()
        for (escaped, code) in [
            ("a%E2%80%8Bb", "200B"), ("%EF%BB%BFx", "FEFF"), ("x%C2%ADy", "00AD"), ("a%E2%80%8Db", "200D"),
            ("a%E2%81%A0b", "2060"), ("a%E2%80%A8b", "2028"), ("%E3%85%A4", "3164"),
        ] {
            let match = try #require(resolver.resolve("myapp://files/\(escaped)").match, "\(escaped)")
            #expect {
                try match.parameters.resourceName("name")
            } throws: { error in
                (error as? WaypointError)?.message.hasSuffix(
                    "is not a plain name: it contains an invisible or direction-changing character (U+\(code))."
                ) == true
            }
        }
        // A zero-width joiner inside an emoji is no bidi control: the link routes, the text is kept.
        let family = try #require(resolver.resolve("myapp://messages/1?name=%F0%9F%91%A8%E2%80%8D%F0%9F%91%A9").match)
        #expect(family.link.queryValue("name") == "\u{1F468}\u{200D}\u{1F469}")
    }

    /// Hostile input, round 3: an empty port. RFC 3986 (3.2.3) reads it as the scheme's default.
    @Test("An empty port is the scheme's default, as RFC 3986 reads it, for routing and for every safety check")
    func emptyPort() throws {
        let link = try DeepLink("https://example.com:/messages/1")
        #expect(link.port == nil)
        #expect(Self.policy.isUniversalLink(link))
        #expect(
            try Self.makeResolver().resolve("https://example.com:/messages/1").match?.route.name == "messages.detail"
        )
        #expect(Self.policy.isOwnDestination("https://example.com:/messages/1"))
        #expect(!Self.policy.isOwnDestination("https://example.com:/\\evil.com"))
    }

    @Test("Overlong input, too many segments or query items, invalid UTF-8 and NUL bytes are typed errors")
    func limits() throws {
        func code(_ text: String) -> WaypointError.Code? {
            do {
                _ = try DeepLink(text)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code("myapp://a/" + String(repeating: "x", count: 5000)) == .tooLong)
        #expect(code("myapp://" + Array(repeating: "a", count: 40).joined(separator: "/")) == .tooManySegments)
        #expect(code("myapp://a?" + (0..<100).map { "k\($0)=v" }.joined(separator: "&")) == .tooManyQueryItems)
        #expect(code("myapp://a/%FF%FE") == .invalidUTF8)
        #expect(code("myapp://a/%00") == .nulByte)
        #expect(code("myapp://a/\u{0}") != nil)
        // The same through lenient text intake, which encodes spaces but not the rest.
        for text in ["myapp://a/%FF", "myapp://a/%00", "myapp://a/" + String(repeating: "x", count: 5000)] {
            #expect(Self.intake.text(text).link == nil)
        }
        // A payload nested deeper than the limit.
        var deep: [String: Any] = ["deeplink": "myapp://messages/1"]
        for _ in 0..<40 { deep = ["a": deep] }
        #expect(throws: WaypointError.self) { try PayloadValue(any: deep) }
    }

    @Test(
        "A route accepting only universal links refuses the same link from every other way in",
        arguments: Way.allCases,
        ["https", "http"]
    )
    func universalLinkOnly(way: Way, scheme: String) async throws {
        let (status, match) = try await Self.outcome(of: "\(scheme)://example.com/pay?order_id=123", via: way)
        switch way {
        case .urlScheme, .universalLink, .userActivity:
            // A link on the associated domain, opened by the system: a universal link, `http` too
            // ("universal links are standard HTTP or HTTPS links", Apple).
            #expect(status == "matched", "\(way) \(scheme): \(status)")
            #expect(match?.route.name == "pay")
        case .quickAction:
            #expect(match?.route.name != "pay")
        default:
            #expect(status == "forbidden" || status == "invalid", "\(way): \(status)")
        }
        let custom = try await Self.outcome(of: "myapp://pay?order_id=123", via: way)
        #expect(custom.match?.route.name != "pay", "\(way) reached the payment route from a custom scheme")
    }

    @Test("http and https on an associated domain are universal links; another port or domain is not")
    func plainHTTPLabels() throws {
        #expect(Self.policy.isUniversalLink(try DeepLink("https://example.com/pay")))
        #expect(Self.policy.isUniversalLink(try DeepLink("http://example.com/pay")))
        #expect(Self.policy.isUniversalLink(try DeepLink("http://example.com:80/pay")))
        #expect(!Self.policy.isUniversalLink(try DeepLink("http://example.com:443/pay")))
        #expect(!Self.policy.isUniversalLink(try DeepLink("https://example.com:8443/pay")))
        #expect(!Self.policy.isUniversalLink(try DeepLink("https://other.org/pay")))
        #expect(!Self.policy.isUniversalLink(try DeepLink("http://other.org/pay")))
        // The system delivers a browsing-web activity only after verifying the association.
        let activity = UserActivitySnapshot(
            activityType: UserActivityType.browsingWeb,
            webpageURL: URL(string: "http://example.com/messages/1")
        )
        #expect(Self.intake.userActivity(activity).link?.source == .universalLink)
        if case .link(let fromSystem, _) = Self.intake.url("http://other.org/messages/1") {
            #expect(fromSystem.source == .web)
        } else {
            Issue.record("intake refused a well-formed http link")
        }
        let resolver = try Self.makeResolver()
        #expect(resolver.webNavigationDecision(for: Self.tap("http://other.org/about")) == .openOutside)
        #expect(resolver.webNavigationDecision(for: Self.tap("https://example.com/about")) == .load)
        #expect(
            resolver.webNavigationDecision(for: Self.tap("http://example.com/about"))
                == .refuse("http://example.com/about is not https; the web view loads https pages only")
        )
        // A redirect target is loaded as well as routed: plain http never counts as the app's own.
        #expect(!Self.policy.isOwnDestination("http://example.com/orders/1"))
    }

    static let plainHTTPPages = [
        "http://example.com/about", "http://EXAMPLE.com/about", "http://example.com/", "http://example.com",
        "http://example.com:80/about", "http://example.com/about?next=/messages/1", "http://example.com/about#top",
        "http://example.com/files/report.pdf", "http://example.com/%61bout", "http://example.com./about",
        "http://other.org/about",
    ]

    /// Hostile input, round 3: an `http` page on the app's own domain loaded in the web view.
    @Test(
        "The web view loads no plain-http page, the app's own domains included, from any frame or tap",
        arguments: plainHTTPPages,
        [(true, true), (true, false), (false, true), (false, false)]
    )
    func webViewHTTPSOnly(text: String, frameAndTap: (Bool, Bool)) throws {
        let navigation = WebNavigation(url: text, isMainFrame: frameAndTap.0, isUserInitiated: frameAndTap.1)
        let resolver = try Self.makeResolver()
        for allowances in [WebNavigationAllowances(), [.withoutTap, .fromSubframes]] {
            let decision = resolver.webNavigationDecision(for: navigation, allowing: allowances)
            #expect(decision != .load, "\(text) \(frameAndTap) \(allowances)")
        }
    }

    @Test("The refusal names the route and the sources it accepts")
    func universalLinkOnlyReason() throws {
        let resolution = try Self.makeResolver().resolve(try DeepLink("myapp://pay", source: .urlScheme))
        guard case .forbidden(_, let reason) = resolution else {
            Issue.record("expected forbidden, got \(resolution.status)")
            return
        }
        #expect(reason == "the route 'pay' accepts links only from universalLink, not from urlScheme")
    }

    /// A dispatcher whose "auth" barrier guards the chat route; the check (the login screen) is
    /// always cancelled. Returns what the navigator was shown.
    static func protectedDispatcher(
        loggedIn: Locked<Bool>,
        store: any PendingLinkStore = InMemoryPendingLinkStore()
    ) async throws -> (LinkDispatcher<String>, Locked<[String]>) {
        // The same table as makeResolver's, each route declared with what it shows.
        let routes = try makeResolver().router.routes.map { route in
            LinkRoute<String>(
                route.name,
                route.pattern.description,
                barriers: route.name == "messages.detail" ? ["auth"] : [],
                sources: route.sources,
                priority: route.priority
            ) { _ in .push(route.value) }
        }
        let dispatcher = try LinkDispatcher(
            routes: routes,
            policy: policy,
            router: RouterConfiguration(linkScheme: "myapp"),
            barriers: [Barrier("auth") { _ in loggedIn.current ? .passed : .needsCheck }],
            store: store
        )
        let shown = Locked<[String]>([])
        await dispatcher.setNavigator { plan, _ in shown.update { $0.append(plan.destination) } }
        return (dispatcher, shown)
    }

    @Test("A route behind a barrier is never handled without it passing, from any way in", arguments: Way.allCases)
    func barrierFromEveryWay(way: Way) async throws {
        let loggedIn = Locked(false)
        let (dispatcher, shown) = try await Self.protectedDispatcher(loggedIn: loggedIn)
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        let text = way == .urlScheme ? "myapp://messages/1" : "https://example.com/messages/1"
        let result: IntakeResult?
        if way == .quickAction {
            let intake = LinkIntake(policy: Self.policy, shortcutRoutes: ["chat": "/messages/{id}"])
            result = intake.shortcut(ShortcutItemSnapshot(type: "chat", userInfo: ["id": 1]))
        } else {
            result = await Self.deliver(text, via: way)
        }
        let delivered = try #require(result)
        let id = try #require(await dispatcher.receive(delivered))
        #expect(await dispatcher.outcome(of: id) == .barrierFailed(barrier: "auth"))
        #expect(shown.current.isEmpty)
    }

    @Test("A link held while logged in is checked again after a logout, and after a relaunch from the store")
    func heldLinkAfterLogout() async throws {
        let loggedIn = Locked(true)
        let store = InMemoryPendingLinkStore()
        let (dispatcher, shown) = try await Self.protectedDispatcher(loggedIn: loggedIn, store: store)
        let held = try #require(await dispatcher.receive(try DeepLink("myapp://messages/1")))
        loggedIn.update { $0 = false }  // logout before the UI is ready
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        #expect(await dispatcher.outcome(of: held) == .barrierFailed(barrier: "auth"))

        // The process dies with a link pending; the next launch is logged out.
        let (first, _) = try await Self.protectedDispatcher(loggedIn: Locked(true), store: store)
        await first.receive(try DeepLink("myapp://messages/2"))
        #expect(try store.load().count == 1)
        let (relaunched, relaunchedShown) = try await Self.protectedDispatcher(loggedIn: loggedIn, store: store)
        let events = await relaunched.events()
        #expect(await relaunched.restorePendingLinks() == 1)
        await relaunched.appDidBecomeReady()
        await relaunched.appDidBecomeActive()
        for await event in events {
            if case .finished(let outcome) = event.kind {
                #expect(outcome == .barrierFailed(barrier: "auth"))
                break
            }
        }
        #expect(shown.current.isEmpty)
        #expect(relaunchedShown.current.isEmpty)
    }
}
