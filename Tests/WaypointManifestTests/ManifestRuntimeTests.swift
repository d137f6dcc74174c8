import Foundation
import Testing
import Waypoint
import WaypointTesting

@testable import WaypointManifest

@Suite(
    "The manifest is applied in full at runtime: what the tool reports is what the app does",
    .timeLimit(.minutes(1))
)
struct ManifestRuntimeTests {
    /// Records which barriers ran, in order, and lets every link through.
    final class Recorder: Sendable {
        private let names = Locked<[String]>([])
        func append(_ name: String) { names.withLock { $0.append(name) } }
        func take() -> [String] {
            names.withLock { names in
                defer { names = [] }
                return names
            }
        }
    }

    /// A value shared with barriers and the navigator.
    final class Shared<Value: Sendable>: Sendable {
        private let value: Locked<Value>
        init(_ value: Value) { self.value = Locked(value) }
        var current: Value { value.withLock { $0 } }
        func update(_ change: (inout Value) -> Void) { value.withLock(change) }
    }

    /// Sample links for a route: one per link style the manifest offers, parameters filled by type.
    static func sampleLinks(_ route: ManifestRoute, _ manifest: Manifest, _ router: Router<ManifestRoute>) -> [String] {
        var parameters: [String: ParameterValue] = [:]
        var wildcards: [String] = []
        for segment in route.pattern.expansions.last ?? [] {
            switch segment {
            case .parameter(let name, let type):
                switch type {
                case .int: parameters[name] = .int(7)
                case .double: parameters[name] = .double(1.5)
                case .bool: parameters[name] = .bool(true)
                case .uuid: parameters[name] = .uuid(UUID(uuidString: "6F1C2B0E-3D4A-4E5F-8A9B-0C1D2E3F4A5B") ?? UUID())
                case .string: parameters[name] = .string("x")
                }
            case .wildcard: wildcards.append("w")
            case .catchAll: wildcards += ["a", "b"]
            default: break
            }
        }
        var styles: [LinkStyle?] = [nil]
        styles += manifest.schemes.map { LinkStyle.scheme($0) }
        styles += manifest.domains.filter { !$0.hasPrefix("*.") }.map { LinkStyle.universal(host: $0) }
        var links: [String] = []
        for style in styles {
            if let link = try? router.link(for: route.name, parameters, wildcards: wildcards, style: style),
                !links.contains(link.string)
            {
                links.append(link.string)
            }
        }
        return links
    }

    @Test(
        "For every route of every example manifest, resolve's route, barriers, destination, tab and sources are the runtime's",
        arguments: ["apartments", "payments", "reading", "tutoring", "notifications"]
    )
    func resolveAgreesWithRuntime(name: String) async throws {
        let manifest = try ManifestLoader.load(file: ToolRunner.manifest("\(name).yaml"))
        let resolver = try manifest.makeResolver()
        let intake = manifest.makeIntake()
        let recorder = Recorder()
        let barrierNames = Set(manifest.routes.flatMap(\.barriers))
        // Each destination maps to a screen named after it, so the comparison below is between the
        // report and what the navigator is handed, not the manifest with itself.
        let handlerActions = manifest.notifications.categories.flatMap(\.actions).filter { $0.target == .handler }
        let dispatcher: LinkDispatcher<String> = try manifest.makeDispatcher(
            destinations: Dictionary(
                manifest.routes.filter { $0.redirect == nil }.map { route in
                    (
                        route.destinationKey,
                        { @Sendable (_: LinkRoute<String>.Match) in "screen:" + route.destinationKey }
                    )
                },
                uniquingKeysWith: { first, _ in first }
            ),
            barriers: barrierNames.map { name in
                Barrier(name) { _ in
                    recorder.append(name)
                    return .passed
                }
            },
            fallbacks: LinkFallbacks(
                actions: Dictionary(handlerActions.map { ($0.id, { @Sendable (_: NotificationActionInvocation) in }) })
                {
                    first,
                    _ in first
                }
            )
        )
        await dispatcher.setNavigator { _, _ in }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        var compared = 0
        for route in manifest.routes {
            for link in Self.sampleLinks(route, manifest, resolver.router) {
                let report = ResolveReport.make(input: link, intake: intake.url(link), resolver: resolver)
                let id = try #require(await dispatcher.receive(intake.url(link)), "\(link) was not taken")
                let outcome = await dispatcher.outcome(of: id)
                let barriers = recorder.take()
                switch report.status {
                case .matched where report.redirect != nil:
                    guard case .redirected(let target, _) = outcome else {
                        Issue.record("\(name): \(link) ran as \(String(describing: outcome))")
                        continue
                    }
                    #expect(target == report.redirect, "\(name): \(link)")
                case .matched:
                    let destination = try #require(report.destination)
                    let presentation = report.presentation ?? .pushOverRoot
                    #expect(
                        outcome
                            == .handled(
                                route: report.route ?? "",
                                plan: presentation.plan("screen:" + destination, tab: report.tab)
                            ),
                        "\(name): \(link)"
                    )
                    #expect(barriers == report.barriers, "\(name): \(link)")
                    let declared = dispatcher.resolver.router.routes.first { $0.name == report.route }
                    #expect(report.sources == (declared?.sources.map { $0.sorted { $0.rawValue < $1.rawValue } } ?? []))
                    #expect(declared?.priority == route.priority)
                case .forbidden:
                    if case .forbidden = outcome {
                    } else {
                        Issue.record("\(name): \(link) ran as \(String(describing: outcome))")
                    }
                default:
                    Issue.record("\(name): the sample link \(link) of route '\(route.name)' is \(report.status)")
                }
                compared += 1
            }
        }
        #expect(compared >= manifest.routes.count)
    }

    static let orders = """
        schemes: [myapp]
        domains: [example.com]
        routes:
          - {name: orders, pattern: "/orders/{id:int}", barriers: [login], destination: order, tab: shop}
        notifications: {keys: [deeplink]}
        quickActions:
          - {type: orders, title: Orders, link: "/orders/{id}"}
        activities: {com.example.order: "/orders/{id}"}
        webView: {origins: [example.com], messages: [{name: openLink}]}
        """

    /// The link `/orders/5`, through every way into the app.
    static func deliveries(_ intake: LinkIntake) async -> [(String, IntakeResult)] {
        struct Provider: DeferredLinkProvider {
            func deferredLink() async throws -> String? { "myapp://orders/5" }
        }
        struct FirstLaunch: DeferredLinkRecord {
            func load() -> DeferredLinkState { .unsettled(attempts: 0) }
            func save(_ state: DeferredLinkState) {}
        }
        var results: [(String, IntakeResult)] = [
            ("url scheme", intake.url("myapp://orders/5")),
            ("universal link", intake.url("https://example.com/orders/5")),
            (
                "notification",
                intake.notification(NotificationResponseSnapshot(userInfo: ["deeplink": "myapp://orders/5"]))
            ),
            ("quick action", intake.shortcut(ShortcutItemSnapshot(type: "orders", userInfo: ["id": 5]))),
            (
                "activity",
                intake.userActivity(UserActivitySnapshot(activityType: "com.example.order", userInfo: ["id": 5]))
            ),
            (
                "web message",
                intake.webMessage(
                    WebMessageSnapshot(
                        name: "openLink",
                        body: "https://example.com/orders/5",
                        origin: "https://example.com"
                    )
                )
            ),
            ("text", intake.text("myapp://orders/5")),
        ]
        if let deferred = await intake.deferredLink(from: Provider(), record: FirstLaunch()) {
            results.append(("deferred", deferred))
        }
        return results
    }

    @Test("A manifest route with barriers: [login] is never handled without login passing, from every way in")
    func manifestBarrierFromEveryWay() async throws {
        let manifest = try ManifestLoader.parse(Self.orders)
        let intake = manifest.makeIntake()
        let loggedIn = Shared(false)
        let shown = Shared<[String]>([])
        let dispatcher: LinkDispatcher<String> = try manifest.makeDispatcher(
            destinations: ["order": { match in "order \(match.parameters.int("id") ?? 0)" }],
            barriers: [Barrier("login") { _ in loggedIn.current ? .passed : .rejected("logged out") }]
        )
        await dispatcher.setNavigator { plan, _ in shown.update { $0.append(plan.destination) } }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        let ways = await Self.deliveries(intake)
        #expect(ways.count == 8)
        for (way, result) in ways {
            let id = try #require(await dispatcher.receive(result), "\(way) was not taken")
            #expect(
                await dispatcher.outcome(of: id) == .barrierRejected(barrier: "login", reason: "logged out"),
                "\(way)"
            )
        }
        #expect(shown.current.isEmpty)
        loggedIn.update { $0 = true }
        for (way, result) in ways {
            let id = try #require(await dispatcher.receive(result), "\(way) was not taken")
            #expect(
                await dispatcher.outcome(of: id)
                    == .handled(route: "orders", plan: .pushOverRoot("order 5", tab: "shop")),
                "\(way)"
            )
        }
        #expect(shown.current.count == 8)
    }

    @Test("A manifest naming a barrier or destination the app did not supply fails when the dispatcher is built")
    func missingPieces() throws {
        let manifest = try ManifestLoader.parse(Self.orders, file: "shop.yaml")
        func error(
            _ destinations: [String: @Sendable (LinkRoute<String>.Match) throws -> String],
            _ barriers: [Barrier]
        ) -> String? {
            do {
                _ = try manifest.makeDispatcher(destinations: destinations, barriers: barriers)
                return nil
            } catch {
                return error.message
            }
        }
        let login = Barrier("login") { _ in .passed }
        #expect(
            error(["order": { _ in "" }], [])
                == "The route 'orders' (shop.yaml:4:5) names the barrier 'login', which is not supplied (no barriers are supplied)."
        )
        #expect(
            error(["ordr": { _ in "" }], [login])
                == "The route 'orders' (shop.yaml:4:5) leads to the destination 'order', which the app did not map (mapped: ordr)."
        )
        #expect(
            error(["order": { _ in "" }, "cart": { _ in "" }], [login])
                == "The app maps the destination 'cart', which no route of shop.yaml leads to."
        )
        #expect(error(["order": { _ in "" }], [login]) == nil)
    }

    @Test(
        "A barrier's wait in the manifest outlasts the check timeout; a wait for a barrier not supplied fails the build"
    )
    func barrierWaits() async throws {
        let manifest = try ManifestLoader.parse(Self.orders + "\nbarriers: {login: {wait: 2h}}\n", file: "shop.yaml")
        #expect(manifest.barrierWaits["login"]?.wait == 7200)
        let slowLogin = SlowLogin()
        let login = slowLogin.barrier
        let clock = ManualClock()
        let dispatcher: LinkDispatcher<String> = try manifest.makeDispatcher(
            destinations: ["order": { "order \($0.parameters.int("id") ?? 0)" }],
            barriers: [login],
            configuration: DispatcherConfiguration(barrierCheckTimeout: 300),
            clock: clock
        )
        await dispatcher.setNavigator { _, _ in }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        let id = try #require(await dispatcher.receive(try DeepLink("myapp://orders/5")))
        await clock.waitForSleepers(1)  // the check's wait
        clock.advance(by: 400)  // past the dispatcher's 300 s, within the manifest's two hours
        slowLogin.answer()
        #expect(
            await dispatcher.outcome(of: id) == .handled(route: "orders", plan: .pushOverRoot("order 5", tab: "shop"))
        )

        let order: [String: @Sendable (LinkRoute<String>.Match) throws -> String] = ["order": { _ in "" }]
        do {
            _ = try manifest.makeDispatcher(
                destinations: order,
                barriers: [Barrier("login") { _ in .passed }, Barrier("age") { _ in .passed }]
            )
        } catch {
            Issue.record("a supplied barrier with a wait failed: \(error)")
        }
        let stray = try ManifestLoader.parse(Self.orders + "\nbarriers: {logn: {wait: 30m}}\n", file: "shop.yaml")
        #expect(throws: WaypointError.self) {
            _ = try stray.makeDispatcher(destinations: order, barriers: [login])
        }
        do {
            _ = try stray.makeDispatcher(destinations: order, barriers: [login])
        } catch {
            #expect(error.code == .unknownBarrier)
            #expect(
                error.message
                    == "shop.yaml:10:18: A wait is set for the barrier 'logn' (barrierWaits), which is not supplied "
                    + "(supplied: login)."
            )
        }
        // A mandatory barrier's wait applies like any barrier's (the dispatcher reads barrierWaits by
        // name for every check); no route names a mandatory barrier, and lint says nothing of a name
        // that is no slip of a route's barrier.
        let mandatory = try ManifestLoader.parse(Self.orders + "\nbarriers: {maintenance: {wait: 1h}}\n")
        do {
            let built: LinkDispatcher<String> = try mandatory.makeDispatcher(
                destinations: order,
                barriers: [login],
                mandatoryBarriers: [MandatoryBarrier(Barrier("maintenance") { _ in .passed })]
            )
            #expect(built.configuration.barrierWaits == ["maintenance": 3600])
        } catch {
            Issue.record("a wait for a mandatory barrier failed: \(error)")
        }
        #expect(ManifestLinter(manifest: mandatory).lint().filter { $0.code == "unused-barrier" }.isEmpty)
        // A near name with a wait of its own is no slip of this one: the stale wait is not called one.
        let both = try ManifestLoader.parse(Self.orders + "\nbarriers: {logn: {wait: 30m}, login: {wait: 1h}}\n")
        #expect(ManifestLinter(manifest: both).lint().filter { $0.code == "unused-barrier" }.isEmpty)
        let linted = ManifestLinter(manifest: stray).lint().filter { $0.code == "unused-barrier" }
        #expect(
            linted.map(\.message) == [
                "The barrier 'logn' has a wait, but no route names it; the route 'orders' names 'login', which has none. "
                    + "One of the two names is misspelled."
            ]
        )
    }

    @Test(
        "A route's presentation reaches its plan and the resolve report; a name for one that is not Swift's says which"
    )
    func presentations() async throws {
        let manifest = try ManifestLoader.parse(
            """
            schemes: [myapp]
            routes:
              - {name: filters, pattern: /filters, presentation: present}
              - {name: player, pattern: "/player/{id:int}", presentation: fullScreenCover, tab: watch}
              - {name: signup, pattern: /signup, presentation: replaceStack}
              - {name: detail, pattern: "/detail/{id:int}", presentation: push}
              - {name: home, pattern: /home, tab: main}
            """
        )
        #expect(
            manifest.routes.map(\.presentation) == [.present, .fullScreenCover, .replaceStack, .push, .pushOverRoot]
        )
        let destinations: [String: @Sendable (LinkRoute<String>.Match) throws -> String] = [
            "filters": { _ in "filters" }, "player": { "player \($0.parameters.int("id") ?? 0)" },
            "signup": { _ in "signup" }, "detail": { _ in "detail" }, "home": { _ in "home" },
        ]
        let dispatcher: LinkDispatcher<String> = try manifest.makeDispatcher(destinations: destinations)
        await dispatcher.setNavigator { _, _ in }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        let expected: [(String, NavigationPlan<String>)] = [
            ("myapp://filters", .present("filters")), ("myapp://player/7", .fullScreenCover("player 7", tab: "watch")),
            ("myapp://signup", .replaceStack("signup")), ("myapp://detail/1", .push("detail")),
            ("myapp://home", .pushOverRoot("home", tab: "main")),
        ]
        for (link, plan) in expected {
            let id = try #require(await dispatcher.receive(try DeepLink(link)))
            let outcome = await dispatcher.outcome(of: id)
            guard case .handled(_, let shown) = outcome else {
                Issue.record("\(link) ended as \(String(describing: outcome))")
                continue
            }
            #expect(shown == plan, "\(link)")
        }
        let report = ResolveReport.make(
            input: "myapp://player/7",
            intake: manifest.makeIntake().url("myapp://player/7"),
            resolver: try manifest.makeResolver()
        )
        #expect(report.presentation == .fullScreenCover)
        #expect(report.json["presentation"] == .string("fullScreenCover"))

        #expect {
            _ = try ManifestLoader.parse("routes:\n  - {name: a, pattern: /a, presentation: sheet}\n")
        } throws: { error in
            "\(error)".hasSuffix(
                ":2:42: Unknown presentation 'sheet'. Did you mean 'present'? The presentations are: push, "
                    + "pushOverRoot, present, fullScreenCover, replaceStack."
            )
        }
        #expect {
            _ = try ManifestLoader.parse("routes:\n  - {name: a, pattern: /a, presentation: fullscreencovr}\n")
        } throws: { error in
            "\(error)".contains("Did you mean 'fullScreenCover'?")
        }
    }

    @Test("A redirect route sends an old path to a new route with its parameters and query; one leading nowhere fails")
    func redirects() async throws {
        let text = """
            schemes: [myapp]
            routes:
              - {name: book, pattern: "/books/{id:int}"}
              - {name: legacy.book, pattern: "/b/{id:int}", redirect: "/books/{id}"}
            """
        let manifest = try ManifestLoader.parse(text, file: "shop.yaml")
        let destinations: [String: @Sendable (LinkRoute<String>.Match) throws -> String] = [
            "book": { "book \($0.parameters.int("id") ?? 0) from \($0.link.queryValue("utm_source") ?? "-")" }
        ]
        let dispatcher: LinkDispatcher<String> = try manifest.makeDispatcher(destinations: destinations)
        await dispatcher.setNavigator { _, _ in }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        let id = try #require(await dispatcher.receive(try DeepLink("myapp://b/7?utm_source=mail")))
        #expect(
            await dispatcher.outcome(of: id)
                == .redirected(
                    to: "/books/7?utm_source=mail",
                    outcome: .handled(route: "book", plan: .pushOverRoot("book 7 from mail"))
                )
        )
        let report = ResolveReport.make(
            input: "myapp://b/7?utm_source=mail",
            intake: manifest.makeIntake().url("myapp://b/7?utm_source=mail"),
            resolver: try manifest.makeResolver()
        )
        #expect(report.redirect == "/books/7?utm_source=mail")
        #expect(report.destination == nil)
        #expect(try RouteCodeGenerator(manifest: manifest).cases().map(\.route.name) == ["book"])

        let nowhere = try ManifestLoader.parse(
            text.replacingOccurrences(of: #"redirect: "/books/{id}""#, with: #"redirect: "/book/{id}""#),
            file: "shop.yaml"
        )
        let message =
            "shop.yaml:4:5: The redirect of 'legacy.book' leads to '/book/{id}' (made as '/book/1'), which no "
            + "route that shows a screen matches. Did you mean '/books/{id:int}'?"
        #expect {
            _ = try nowhere.makeDispatcher(destinations: destinations)
        } throws: { error in
            (error as? WaypointError)?.code == .invalidRedirect && "\(error)" == message
        }
        let linted = ManifestLinter(manifest: nowhere).lint().filter { $0.code == "redirect-leads-nowhere" }
        #expect(linted.map(\.severity) == [.error])
        // A redirect to a redirect is followed as the dispatcher follows it; a loop is not.
        let chained = try ManifestLoader.parse(
            "schemes: [myapp]\nroutes:\n  - {name: books, pattern: \"/books/{id:int}\"}\n"
                + "  - {name: a, pattern: \"/a/{id:int}\", redirect: \"/b/{id}\"}\n"
                + "  - {name: b, pattern: \"/b/{id:int}\", redirect: \"/books/{id}\"}\n"
                + "  - {name: ping, pattern: \"/ping\", redirect: \"/pong\"}\n"
                + "  - {name: pong, pattern: \"/pong\", redirect: \"/ping\"}\n"
        )
        #expect(
            ManifestLinter(manifest: chained).lint().filter { $0.code == "redirect-leads-nowhere" }.map(\.message) == [
                "The redirect of 'ping' loops: ping → pong → ping.",
                "The redirect of 'pong' loops: pong → ping → pong.",
            ]
        )

        #expect {
            _ = try ManifestLoader.parse(text.replacingOccurrences(of: "{id}\"}", with: "{bookID}\"}"))
        } throws: { error in
            "\(error)".contains(
                "The redirect of 'legacy.book' uses '{bookID}', which its pattern '/b/{id:int}' does not have."
            )
        }
        #expect {
            _ = try ManifestLoader.parse(text.replacingOccurrences(of: "redirect:", with: "tab: x, redirect:"))
        } throws: { error in
            "\(error)".contains("The route 'legacy.book' redirects, so it shows no screen: remove its 'tab'.")
        }
        #expect {
            _ = try ManifestLoader.parse(text.replacingOccurrences(of: #""/b/{id:int}""#, with: #""/b(/{id:int})""#))
        } throws: { error in
            "\(error)".contains(
                "uses '{id}', which its pattern '/b(/{id:int})' does not have in every link (it is optional)."
            )
        }
        let fragment = try ManifestLoader.parse(
            text.replacingOccurrences(of: #""/books/{id}""#, with: #""/books/{id}#top""#)
        )
        let carried = ResolveReport.make(
            input: "myapp://b/7?utm_source=mail",
            intake: fragment.makeIntake().url("myapp://b/7?utm_source=mail"),
            resolver: try fragment.makeResolver()
        )
        #expect(carried.redirect == "/books/7?utm_source=mail#top")
    }

    @Test("A barrier's wait is a duration, and a mistake in one names its line")
    func barrierWaitDurations() throws {
        func wait(_ text: String) throws -> TimeInterval? {
            try ManifestLoader.parse("routes: []\nbarriers: {login: {wait: \(text)}}\n").barrierWaits["login"]?.wait
        }
        #expect(try wait("3600") == 3600)
        #expect(try wait("90s") == 90)
        #expect(try wait("30m") == 1800)
        #expect(try wait("2h") == 7200)
        #expect(try wait("1d") == 86400)
        for bad in ["soon", "-5", "0", "1.5h", "2w", "''", "99999999d", "367d", "31622400d"] {
            #expect(throws: ManifestError.self, "\(bad)") { _ = try wait(bad) }
        }
        #expect {
            _ = try ManifestLoader.parse("routes: []\nbarriers:\n  login: {wait: soon}\n")
        } throws: { error in
            "\(error)".contains(":3:") && "\(error)".contains("'barriers.login.wait' must be a duration")
        }
        #expect(throws: ManifestError.self) { _ = try ManifestLoader.parse("routes: []\nbarriers: {login: {}}\n") }
        #expect(throws: ManifestError.self) {
            _ = try ManifestLoader.parse("routes: []\nbarriers: {login: {wait: 1h, retries: 2}}\n")
        }
    }

    @Test("A handler: true notification action needs its handler, and a handler needs its action")
    func actionHandlers() throws {
        let path = ToolRunner.manifest("notifications.yaml")
        let manifest = try ManifestLoader.parse(
            try String(contentsOfFile: path, encoding: .utf8),
            file: "notifications.yaml"
        )
        let destinations = Dictionary(
            manifest.routes.map { route in (route.destinationKey, { @Sendable (_: LinkRoute<String>.Match) in "" }) }
        ) { first, _ in first }
        let barriers = Set(manifest.routes.flatMap(\.barriers)).map { Barrier($0) { _ in .passed } }
        func message(_ actions: [String: @Sendable (NotificationActionInvocation) async -> Void]) -> String? {
            do {
                _ = try manifest.makeDispatcher(
                    destinations: destinations,
                    barriers: barriers,
                    fallbacks: LinkFallbacks(actions: actions)
                )
                return nil
            } catch {
                return error.message
            }
        }
        #expect(
            message([:])
                == "notifications.yaml: The notification action 'like' runs an action handler (handler: true), which the app did not give in fallbacks.actions."
        )
        #expect(
            message(["like": { _ in }, "lik": { _ in }])
                == "notifications.yaml: The app gives an action handler for 'lik', which no notification action declares with handler: true."
        )
        #expect(message(["like": { _ in }]) == nil)
    }

    @Test("Priority and sources reach the runtime's routes")
    func priorityAndSources() throws {
        let manifest = try ManifestLoader.parse(
            """
            schemes: [myapp]
            domains: [example.com]
            routes:
              - {name: a, pattern: /a, priority: 3, sources: [universalLink]}
            """
        )
        let dispatcher: LinkDispatcher<String> = try manifest.makeDispatcher(destinations: ["a": { _ in "a" }])
        let route = try #require(dispatcher.resolver.router.routes.first)
        #expect(route.priority == 3)
        #expect(route.sources == [.universalLink])
    }

    @Test("A route's scene role sends its window-less links to the window that shows it; resolve reports it")
    func sceneRoles() async throws {
        let manifest = try ManifestLoader.parse(
            """
            schemes: [myapp]
            routes:
              - {name: chat, pattern: "/chat/{id:int}", scene: inbox}
              - {name: home, pattern: /home}
            """
        )
        #expect(manifest.routes.first?.scene == "inbox")
        let dispatcher: LinkDispatcher<String> = try manifest.makeDispatcher(
            destinations: ["chat": { "chat \($0.parameters.int("id") ?? 0)" }, "home": { _ in "home" }]
        )
        let shown = Shared<[String]>([])
        let windows: [(scene: SceneID, shows: Set<String>)] = [("inbox-window", ["inbox"]), ("other", [])]
        for (scene, shows) in windows {
            await dispatcher.sceneDidConnect(scene, shows: shows)
            await dispatcher.setNavigator(
                { plan, _ in shown.update { $0.append("\(scene): \(plan.destination)") } },
                for: scene
            )
            await dispatcher.sceneDidBecomeReady(scene)
            await dispatcher.sceneDidBecomeActive(scene)
        }
        let intake = manifest.makeIntake()
        await dispatcher.receive(intake.url("myapp://chat/4"))
        await dispatcher.waitUntilIdle()
        await dispatcher.receive(intake.url("myapp://home"))
        await dispatcher.waitUntilIdle()
        #expect(shown.current == ["inbox-window: chat 4", "other: home"])
        let report = ResolveReport.make(
            input: "myapp://chat/4",
            intake: intake.url("myapp://chat/4"),
            resolver: try manifest.makeResolver()
        )
        #expect(report.scene == "inbox")
        #expect(report.text.contains("  scene:      inbox"))
    }
}
