import Foundation
import Testing
import WaypointTesting

@testable import Waypoint

/// The core logic the Apple adapters only forward to: tested here, on Linux.
@Suite("Adapter support in the core", .timeLimit(.minutes(1)))
struct AdapterSupportTests {
    enum Screen: Hashable, Sendable {
        case home, list
        case order(Int)
    }

    @Test("A plan becomes navigator steps in order")
    func steps() {
        #expect(
            NavigationPlan.pushOverRoot(Screen.order(1234), tab: "home").steps
                == [.dismissPresented, .selectTab("home"), .popToRoot, .push(.order(1234))]
        )
        #expect(NavigationPlan.push(Screen.order(1)).steps == [.dismissPresented, .push(.order(1))])
        #expect(
            NavigationPlan.present(Screen.order(1), tab: "home").steps == [.selectTab("home"), .present(.order(1))]
        )
        #expect(
            NavigationPlan.replaceStack(Screen.order(1), via: [.list]).steps == [
                .dismissPresented, .setStack([.list, .order(1)]),
            ]
        )
        // A cover goes over what is shown, sheet included, and leaves the stack below it as it was.
        let cover = NavigationPlan.fullScreenCover(Screen.order(1), tab: "home")
        #expect(cover.steps == [.selectTab("home"), .presentFullScreen(.order(1))])
        #expect(cover.path(from: [.list]) == [.list])
        #expect(cover.presentation == .fullScreenCover)
    }

    @Test("A web view loads its own pages, routes the app's links, sends other sites outside, refuses the dangerous")
    func webNavigation() throws {
        var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("book", "/books/{id:int}", value: "book")
        try builder.add("pay", "/pay", sources: [.universalLink], value: "pay")
        let resolver = LinkResolver(
            router: try builder.build(),
            policy: LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"])
        )
        func decide(_ url: String, mainFrame: Bool = true, tapped: Bool = true) -> WebNavigationDecision {
            resolver.webNavigationDecision(
                for: WebNavigation(url: url, isMainFrame: mainFrame, isUserInitiated: tapped)
            )
        }
        #expect(decide("https://example.com/books/42") == .route)
        #expect(decide("https://example.com/about") == .load)
        #expect(decide("https://other.org/") == .openOutside)
        #expect(decide("myapp://books/1") == .route)
        #expect(decide("JavaScript:alert(1)") == .refuse("the scheme 'javascript' is never opened"))
        #expect(decide("https://example.com@evil.com/") == .refuse("links with user info (user@host) are refused"))
        // A route limited to universal links is never routed from inside the web view: its page loads.
        #expect(decide("https://example.com/pay") == .load)
        #expect(decide("myapp://pay") == .refuse("no route takes myapp://pay"))
        // A resolver set up wrong (links built with a scheme the policy refuses) names its mistake
        // for every navigation, the app's own pages too, as it resolves every link `.invalid`.
        let mismatched = LinkResolver(router: resolver.router, policy: LinkPolicy(schemes: ["other"]))
        let refusal = mismatched.webNavigationDecision(
            for: WebNavigation(url: "https://example.com/about", isMainFrame: true, isUserInitiated: true)
        )
        guard case .refuse(let reason) = refusal else {
            Issue.record("a resolver set up wrong gave \(refusal)")
            return
        }
        #expect(reason.hasPrefix("The router's linkScheme 'myapp' is not one of the policy's schemes (other)"))
    }

    @Test("Without a tap, or from an embedded frame, a navigation neither routes nor opens another app")
    func untrustedWebNavigation() throws {
        let resolver = LinkResolver(
            router: try makeRouter([("book", "/books/{id:int}")]),
            policy: LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"])
        )
        func decide(
            _ url: String,
            mainFrame: Bool,
            tapped: Bool,
            allowing allowances: WebNavigationAllowances = []
        ) -> WebNavigationDecision {
            resolver.webNavigationDecision(
                for: WebNavigation(url: url, isMainFrame: mainFrame, isUserInitiated: tapped),
                allowing: allowances
            )
        }
        let script = "from a script or a redirect"
        let frame = "from an embedded frame"
        func refused(_ url: String, _ why: String) -> WebNavigationDecision {
            .refuse("\(url) leaves the web view only from a tap in the main frame; this navigation came \(why)")
        }
        // A script setting `location`: the app's own web page loads, nothing is routed or opened.
        #expect(decide("https://example.com/books/42", mainFrame: true, tapped: false) == .load)
        #expect(decide("myapp://books/1", mainFrame: true, tapped: false) == refused("myapp://books/1", script))
        #expect(decide("https://other.org/", mainFrame: true, tapped: false) == refused("https://other.org/", script))
        #expect(
            decide("otherapp://steal", mainFrame: true, tapped: false)
                == .refuse(
                    "the scheme 'otherapp' is not one of the app's schemes (myapp)"
                )
        )
        // An embedded frame: another site loads in the frame, as in a browser; the app's links do not run.
        #expect(decide("https://other.org/embed", mainFrame: false, tapped: true) == .load)
        #expect(decide("https://example.com/books/42", mainFrame: false, tapped: true) == .load)
        #expect(decide("myapp://books/1", mainFrame: false, tapped: true) == refused("myapp://books/1", frame))
        #expect(
            decide("JavaScript:alert(1)", mainFrame: false, tapped: false)
                == .refuse(
                    "the scheme 'javascript' is never opened"
                )
        )
        // The app may allow more, one fact at a time.
        #expect(decide("myapp://books/1", mainFrame: true, tapped: false, allowing: .withoutTap) == .route)
        #expect(decide("https://other.org/", mainFrame: true, tapped: false, allowing: .withoutTap) == .openOutside)
        #expect(
            decide("myapp://books/1", mainFrame: false, tapped: true, allowing: .withoutTap)
                == refused(
                    "myapp://books/1",
                    frame
                )
        )
        #expect(decide("myapp://books/1", mainFrame: false, tapped: true, allowing: .fromSubframes) == .route)
    }

    @Test("The UserDefaults store round-trips, and sets damaged data aside")
    func userDefaultsStore() throws {
        let suite = "waypoint-tests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        let store = UserDefaultsPendingLinkStore(defaults: defaults, key: "pending")
        let link = PendingLink(
            id: UUID(),
            link: "myapp://a",
            source: .urlScheme,
            identity: "x",
            receivedAt: Date(timeIntervalSince1970: 0)
        )
        try store.save([link])
        #expect(try store.load() == [link])
        try store.save([])
        #expect(defaults.data(forKey: "pending") == nil)
        defaults.set(Data("{oops".utf8), forKey: "pending")
        #expect(throws: WaypointError.self) { try store.load() }
        #expect(defaults.data(forKey: "pending.damaged") != nil)
        #expect(try store.load().isEmpty)
        defaults.removePersistentDomain(forName: suite)
    }

    @Test("A wait for an outcome ends at its timeout or when its task is cancelled, and the link goes on")
    func outcomeWaitsAreBounded() async throws {
        let app = try makeApp()
        await app.launch()
        // Held: the root UI is not installed, so the link waits as long as a login would make it.
        let id = try #require(await app.dispatcher.receive(try DeepLink("myapp://open/1")))
        async let timedOut = app.dispatcher.outcome(of: id, timeout: 5)
        await app.clock.waitForSleepers(1)
        app.clock.advance(by: 4)
        #expect(app.clock.sleeperCount == 1)
        app.clock.advance(by: 1)
        #expect(await timedOut == nil)

        let waiting = Task { await app.dispatcher.outcome(of: id) }
        try await Task.sleep(nanoseconds: 20_000_000)  // the wait is registered: cancelling it answers it
        waiting.cancel()
        #expect(await waiting.value == nil)
        async let handled = app.dispatcher.isHandled(id, timeout: 5)  // on the dispatcher's clock
        await app.clock.waitForSleepers(1)
        app.clock.advance(by: 5)
        #expect(await handled == false)

        await app.installRootUI()
        await app.becomeActive()
        #expect(await app.dispatcher.outcome(of: id, timeout: 5)?.isHandled == true)
        #expect(app.clock.sleeperCount == 0)  // the answered wait's timer is gone
        #expect(await app.dispatcher.isHandled(id, timeout: 5) == true)

        let held = try makeApp()
        await held.launch()
        let link = IntakeResult.link(try DeepLink("myapp://open/2"), identity: "2")
        async let answered = held.dispatcher.receiveAndWait(link, timeout: 5)
        await held.clock.waitForSleepers(1)
        held.clock.advance(by: 5)
        #expect(await answered == false)

        // Another conformer gets a real-time bound from the protocol, as long as its wait ends when cancelled.
        struct Slow: LinkDispatching {
            func receive(_ result: IntakeResult, in scene: SceneID?) async -> UUID? { UUID() }
            func isHandled(_ id: UUID) async -> Bool {
                do {
                    try await Task.sleep(for: .seconds(testPatience))
                    Issue.record("receiveAndWait did not cancel its wait at the timeout")
                } catch {}
                return true
            }
            func sceneDidConnect(_ scene: SceneID, shows: Set<String>) async {}
            func sceneDidBecomeReady(_ scene: SceneID) async {}
            func sceneDidBecomeActive(_ scene: SceneID) async {}
            func sceneDidEnterBackground(_ scene: SceneID) async {}
            func sceneDidDisconnect(_ scene: SceneID) async {}
        }
        #expect(await Slow().receiveAndWait(link, timeout: 0.05) == false)
    }

    @Test("A caller can wait for a link's outcome: what a quick action's completion handler reports")
    func outcomeOfLink() async throws {
        let app = try makeApp()
        await app.launch()
        let id = try #require(await app.dispatcher.receive(try DeepLink("myapp://open/1")))
        async let outcome = app.dispatcher.outcome(of: id)
        await app.installRootUI()
        await app.becomeActive()
        #expect(await outcome?.isHandled == true)
        #expect(await app.dispatcher.outcome(of: id)?.isHandled == true)  // after the fact too
        let missing = try #require(await app.dispatcher.receive(try DeepLink("myapp://nowhere")))
        #expect(await app.dispatcher.outcome(of: missing) == .notFound)
        // An identifier the dispatcher never gave out answers at once, instead of waiting for ever.
        #expect(await app.dispatcher.outcome(of: UUID()) == nil)
        #expect(await app.dispatcher.isHandled(UUID()) == false)
    }

    @Test("A quick action's completion reports true only when a route handled it; a cold start's results run in order")
    func receiveAndWait() async throws {
        let app = try makeApp()
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        let dispatcher: any LinkDispatching = app.dispatcher
        #expect(await dispatcher.receiveAndWait(app.intake.url(try #require(URL(string: "myapp://open/1")))))
        #expect(!(await dispatcher.receiveAndWait(app.intake.url(try #require(URL(string: "myapp://nowhere"))))))
        #expect(!(await dispatcher.receiveAndWait(app.intake.text("not a link at all"))))

        let stream = await app.dispatcher.events()
        await dispatcher.receive(all: [
            app.intake.url(try #require(URL(string: "myapp://open/2"))),
            app.intake.url(try #require(URL(string: "myapp://open/3"))),
        ])
        var received: [String] = []
        for await event in stream where event.kind == .received {
            received.append(event.link?.string ?? "")
            if received.count == 2 { break }
        }
        #expect(received == ["myapp://open/2", "myapp://open/3"])
    }
}
