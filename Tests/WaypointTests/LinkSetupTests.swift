import Foundation
import Testing
import WaypointTesting

@testable import Waypoint

@Suite(
    "A dispatcher is built whole: every mistake in its setup fails there, and nothing runs before it can",
    .timeLimit(.minutes(1))
)
struct LinkSetupTests {
    enum Screen: Hashable, Sendable {
        case chat(Int)
        case pay
    }

    static let policy = LinkPolicy(schemes: ["myapp"])
    static let login = Barrier("login") { _ in .passed }

    static func setupError(
        _ routes: [LinkRoute<Screen>],
        barriers: [Barrier] = [login]
    ) -> WaypointError? {
        do {
            _ = try LinkDispatcher(routes: routes, policy: policy, barriers: barriers)
            return nil
        } catch {
            return error
        }
    }

    @Test("A misspelled barrier name is a setup error naming the route and the name")
    func misspelledBarrier() {
        let error = Self.setupError([LinkRoute("pay", "/pay", barriers: ["logn"]) { _ in .present(.pay) }])
        #expect(error?.code == .unknownBarrier)
        #expect(error?.message == "The route 'pay' names the barrier 'logn', which is not supplied (supplied: login).")
        let none = Self.setupError(
            [LinkRoute("pay", "/pay", barriers: ["login"]) { _ in .present(.pay) }],
            barriers: []
        )
        #expect(
            none?.message
                == "The route 'pay' names the barrier 'login', which is not supplied (no barriers are supplied)."
        )
    }

    @Test("A policy listing what is no scheme or no domain is a setup error naming the entry")
    func policyEntries() {
        let routes = [LinkRoute<Screen>("pay", "/pay") { _ in .present(.pay) }]
        func error(_ policy: LinkPolicy) -> WaypointError? {
            do {
                _ = try LinkDispatcher(routes: routes, policy: policy)
                return nil
            } catch {
                return error
            }
        }
        let scheme = error(LinkPolicy(schemes: ["myapp://"]))
        #expect(scheme?.code == .invalidScheme)
        #expect(scheme?.input == "myapp://")
        #expect(
            scheme?.message
                == "The policy's schemes: 'myapp://' is not a scheme; write 'myapp' (no ':' or '//'): a scheme is a "
                + "letter, then letters, digits, '+', '-' and '.'."
        )
        #expect(error(LinkPolicy(passThroughSchemes: ["tel:"]))?.code == .invalidScheme)
        #expect(error(LinkPolicy(deniedSchemes: ["my app"]))?.message.contains("'my app' is not a scheme") == true)
        let domain = error(LinkPolicy(schemes: ["myapp"], associatedDomains: ["https://example.com/"]))
        #expect(domain?.code == .invalidHost)
        #expect(
            domain?.message
                == "The policy's associatedDomains: 'https://example.com/' is not a domain; write 'example.com' or "
                + "'*.example.com'."
        )
        #expect(error(LinkPolicy(passThroughHosts: ["blog.example.com:8080"]))?.code == .invalidHost)
        #expect(error(LinkPolicy(deniedHosts: ["*."]))?.code == .invalidHost)
        // What apps write builds: schemes with '+', '-', '.', digits; wildcard and plain domains.
        #expect(
            error(
                LinkPolicy(
                    schemes: ["myapp", "com.example.app", "x-callback+v2", "fb123"],
                    associatedDomains: ["example.com", "*.example.com", "xn--bcher-kva.de"],
                    passThroughSchemes: ["tel", "mailto"],
                    passThroughHosts: ["blog.example.com"]
                )
            ) == nil
        )
    }

    @Test("Without a dispatcher the same mistakes are found: a resolver resolves every link as the mistake")
    func resolverSetup() throws {
        var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "myap"))
        try builder.add("messages", "/messages/{id:int}", value: "messages")
        let router = try builder.build()
        let badPolicy = LinkPolicy(schemes: ["myapp://"])
        #expect(throws: WaypointError.self) { try badPolicy.check() }
        let fromPolicy = LinkResolver(router: router, policy: badPolicy).resolve("myapp://messages/1")
        guard case .invalid(let policyError) = fromPolicy else {
            Issue.record("a policy listing 'myapp://' resolved \(fromPolicy)")
            return
        }
        #expect(policyError.code == .invalidScheme)
        #expect(policyError.message.hasPrefix("The policy's schemes: 'myapp://' is not a scheme; write 'myapp'"))
        // Every way in meets it: a redirect, lenient text, and the candidates a dispatcher would try.
        let broken = LinkResolver(router: router, policy: badPolicy)
        let outer = try DeepLink("myapp://login", source: .urlScheme)
        #expect(broken.resolve(redirect: "/messages/1", from: outer).status == .invalid)
        #expect(broken.resolve(text: "/messages/1").status == .invalid)
        #expect(broken.candidates(for: try DeepLink("/messages/1")).isEmpty)
        #expect(LinkResolver(router: router, policy: LinkPolicy()).candidates(for: try DeepLink("/messages/1")).isEmpty)
        // The router builds links with a scheme the policy refuses: reported, not a "forbidden" per link.
        let policy = LinkPolicy(schemes: ["myapp"])
        guard
            case .invalid(let schemeError) = LinkResolver(router: router, policy: policy).resolve("myapp://messages/1")
        else {
            Issue.record("a router whose linkScheme the policy refuses resolved a link")
            return
        }
        #expect(
            schemeError.message
                == "The router's linkScheme 'myap' is not one of the policy's schemes (myapp): every link built for "
                + "a route without a scheme would be refused."
        )
        do {
            _ = try LinkDispatcher<Screen>(
                routes: [LinkRoute("pay", "/pay") { _ in .present(.pay) }],
                policy: policy,
                router: RouterConfiguration(linkScheme: "myap")
            )
            Issue.record("a dispatcher was built with a linkScheme its policy refuses")
        } catch {
            #expect(error.code == .invalidScheme)
        }
        // A matching scheme, in any case, resolves as before.
        var good = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "MyApp"))
        try good.add("messages", "/messages/{id:int}", value: "messages")
        let matched = LinkResolver(router: try good.build(), policy: policy).resolve("myapp://messages/1")
        #expect(matched.match?.route.name == "messages")
    }

    @Test("A link template whose braces do not pair fails the intake's check, and names the template when filled")
    func templateBraces() throws {
        for (text, problem) in [
            ("/messages/{data.messageId", "a '{' is never closed"),
            ("/messages/data.messageId}", "a '}' closes no placeholder"),
            ("/messages/{}", "'{}' names no value"),
            ("/messages/{a{b}}", "a '{' opens a placeholder inside another"),
        ] {
            #expect(LinkTemplate(text).problem == problem)
            do {
                _ = try LinkTemplate(text).fill(from: ["data": ["messageId": "1"], "a": "1", "b": "2"])
                Issue.record("'\(text)' was filled")
            } catch {
                #expect(error.code == .invalidConfiguration)
                #expect(
                    error.message
                        == "The link template '\(text)': \(problem); write each placeholder as {key.path}."
                )
            }
        }
        #expect(LinkTemplate("/messages/{data.messageId}?tab={tab}").problem == nil)
        #expect(LinkTemplate("/settings").problem == nil)

        var intake = LinkIntake(policy: LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"]))
        intake.notificationRules = [NotificationRule(.present("data.messageId"), link: "/messages/{data.messageId}")]
        intake.shortcutRoutes = ["new": "/listings/new"]
        intake.webOrigins = ["example.com"]
        try intake.check()
        // A push that meets the broken rule fails naming the template, not the link it would have made.
        var broken = intake
        broken.notificationRules = [NotificationRule(.present("data.messageId"), link: "/messages/{data.messageId")]
        #expect {
            try broken.check()
        } throws: { error in
            (error as? WaypointError)?.message.hasPrefix("The notification rule 1 of 1: The link template") == true
        }
        let push = broken.notification(
            NotificationResponseSnapshot(userInfo: ["aps": [:], "data": ["messageId": "1"]])
        )
        guard case .failure(let error) = push else {
            Issue.record("a push through a broken rule gave \(push)")
            return
        }
        #expect(error.message.contains("The link template '/messages/{data.messageId': a '{' is never closed"))
        // Every other place a template or an origin is given is checked too.
        var shortcut = intake
        shortcut.shortcutRoutes = ["new": "/listings/{kind"]
        #expect {
            try shortcut.check()
        } throws: { error in
            (error as? WaypointError)?.message.hasPrefix("The quick action 'new': The link template '/listings/{kind'")
                == true
        }
        // Each place a template is given is named, so the app knows which one to mend.
        var places = intake
        places.notificationCategories = NotificationCategoryCatalog([
            NotificationCategory(
                id: "post",
                actions: [NotificationAction(id: "open", title: "Open", target: .link("/p/{id"))]
            )
        ])
        places.activityRoutes = ["com.example.view": "/v/{}"]
        places.webMessages = [WebMessageRoute(name: "openBook", link: "/books/{id")]
        func place(_ intake: LinkIntake) -> String? {
            do {
                try intake.check()
                return nil
            } catch {
                return error.message.components(separatedBy: ": The link template").first
            }
        }
        #expect(place(places) == "The action 'open' of the category 'post'")
        places.notificationCategories = NotificationCategoryCatalog()
        #expect(place(places) == "The activity 'com.example.view'")
        places.activityRoutes = [:]
        #expect(place(places) == "The web message 'openBook'")
        var settings = intake
        settings.notificationSettingsLink = "/settings/}"
        #expect(throws: WaypointError.self) { try settings.check() }
        var origin = intake
        origin.webOrigins = ["https://example.com"]
        do {
            try origin.check()
            Issue.record("a web origin written as a URL passed the check")
        } catch {
            #expect(error.code == .invalidHost)
            #expect(error.message.hasPrefix("The web origins: 'https://example.com' is not a domain"))
        }
        var policy = intake
        policy.policy = LinkPolicy(schemes: ["myapp://"])
        #expect(throws: WaypointError.self) { try policy.check() }
    }

    @Test(
        "A timeout or wait of 0 seconds or less, or NaN, a queue that keeps nothing and a negative redirect count are setup errors"
    )
    func configurationValues() {
        let routes = [LinkRoute<Screen>("pay", "/pay", barriers: ["login"]) { _ in .present(.pay) }]
        func error(_ configuration: DispatcherConfiguration, barrier: Barrier = Self.login) -> WaypointError? {
            do {
                _ = try LinkDispatcher(
                    routes: routes,
                    policy: Self.policy,
                    barriers: [barrier],
                    configuration: configuration
                )
                return nil
            } catch {
                return error
            }
        }
        let zero = error(DispatcherConfiguration(handlerTimeout: 0))
        #expect(zero?.code == .invalidConfiguration)
        #expect(
            zero?.message
                == "The dispatcher's handlerTimeout is 0.0 seconds; a timeout or a wait must be more than 0 and finite."
        )
        #expect(error(DispatcherConfiguration(barrierCheckTimeout: .nan))?.code == .invalidConfiguration)
        #expect(error(DispatcherConfiguration(maximumPendingAge: -600))?.code == .invalidConfiguration)
        #expect(error(DispatcherConfiguration(barrierEvaluationTimeout: .infinity))?.code == .invalidConfiguration)
        var waits = DispatcherConfiguration()
        waits.barrierWaits = ["login": -5]
        #expect(
            error(waits)?.message.hasPrefix("The dispatcher's wait for the barrier 'login' is -5.0 seconds") == true
        )
        #expect(error(DispatcherConfiguration(maximumRedirects: -1))?.code == .invalidConfiguration)
        #expect(error(DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 0)))?.code == .invalidConfiguration)
        let instant = Barrier("login", maximumWait: 0) { _ in .passed }
        #expect(
            error(DispatcherConfiguration(), barrier: instant)?.message
                == "The barrier 'login''s maximumWait is 0.0 seconds; a timeout or a wait must be more than 0 and finite."
        )
        // What apps set builds: no redirects at all, short timeouts, a queue of one.
        #expect(
            error(
                DispatcherConfiguration(
                    queuePolicy: .firstInFirstOut(limit: 1),
                    handlerTimeout: 0.05,
                    maximumRedirects: 0
                )
            )
                == nil
        )
    }

    @Test("Two barriers with one name, a bad pattern and two routes with one name are setup errors")
    func otherMistakes() {
        let twice = Self.setupError([], barriers: [Self.login, Barrier("login") { _ in .needsCheck }])
        #expect(twice?.code == .duplicateBarrier)
        #expect(twice?.message == "Two barriers are named 'login'; each name must be one barrier.")
        do {
            _ = try LinkDispatcher<Screen>(
                routes: [],
                policy: Self.policy,
                barriers: [Self.login],
                mandatoryBarriers: [MandatoryBarrier(Barrier("login") { _ in .passed })]
            )
            Issue.record("a mandatory barrier named like a route barrier was accepted")
        } catch {
            #expect(
                error.message
                    == "Two barriers are named 'login' (a mandatory one among them); each name must be one barrier."
            )
        }
        let pattern = Self.setupError([LinkRoute("chat", "/messages/{id:integer}") { _ in .push(.chat(0)) }])
        #expect(pattern?.code == .invalidPattern)
        #expect(
            pattern?.message
                == "The route 'chat': Pattern '/messages/{id:integer}': unknown parameter type 'integer' (known: int, uuid, bool, double, string) (offset 10)."
        )
        let names = Self.setupError([
            LinkRoute("chat", "/messages/{id:int}") { _ in .push(.chat(0)) },
            LinkRoute("chat", "/chat/{id:int}") { _ in .push(.chat(0)) },
        ])
        #expect(names?.code == .invalidRouteTable)
        #expect(names?.message.hasPrefix("Two routes are named 'chat'") == true)
    }

    @Test("A redirect route whose target leads nowhere, or uses a parameter it lacks, is a setup error")
    func redirectTargets() {
        let chat = LinkRoute<Screen>("messages.detail", "/messages/{id:int}") { _ in .push(.chat(1)) }
        let misspelled = Self.setupError([
            chat, LinkRoute("chat.legacy", "/chat/{id:int}", redirectingTo: "/mesages/{id}"),
        ])
        #expect(misspelled?.code == .invalidRedirect)
        #expect(misspelled?.names == ["chat.legacy"])
        #expect(
            misspelled?.message
                == "The redirect of 'chat.legacy' leads to '/mesages/{id}' (made as '/mesages/1'), which no route "
                + "that shows a screen matches."
        )
        let unknown = Self.setupError([chat, LinkRoute("old", "/old/{id:int}", redirectingTo: "/messages/{ident}")])
        #expect(
            unknown?.message == "The redirect of 'old' uses '{ident}', which its pattern '/old/{id:int}' does not have."
        )
        let optional = Self.setupError([chat, LinkRoute("old", "/old(/{id:int})", redirectingTo: "/messages/{id}")])
        #expect(
            optional?.message
                == "The redirect of 'old' uses '{id}', which its pattern '/old(/{id:int})' does not have in every "
                + "link (it is optional)."
        )
        // A chain is followed as the dispatcher follows it: within maximumRedirects, without a loop.
        let a = LinkRoute<Screen>("a", "/a/{id:int}", redirectingTo: "/b/{id}")
        let b = LinkRoute<Screen>("b", "/b/{id:int}", redirectingTo: "/messages/{id}")
        #expect(Self.setupError([chat, a, b]) == nil)
        do {
            _ = try LinkDispatcher(
                routes: [chat, a, b],
                policy: Self.policy,
                configuration: DispatcherConfiguration(maximumRedirects: 1)
            )
            Issue.record("a chain of two redirects built with maximumRedirects 1")
        } catch {
            #expect(
                error.message
                    == "The redirect of 'a' takes 2 redirect(s) (a → b), more than the dispatcher's maximumRedirects (1)."
            )
        }
        let loop = Self.setupError([
            chat, LinkRoute("ping", "/ping", redirectingTo: "/pong"),
            LinkRoute("pong", "/pong", redirectingTo: "/ping"),
        ])
        #expect(loop?.message == "The redirect of 'ping' loops: ping → pong → ping.")
        // A target that is not the app's own fails as it would when a link arrives.
        let foreign = Self.setupError([
            chat, LinkRoute("out", "/out/{id:int}", redirectingTo: "otherapp://messages/{id}"),
        ])
        #expect(
            foreign?.message
                == "The redirect of 'out' leads to 'otherapp://messages/1', which is not one of the app's own "
                + "destinations (a path, one of the policy's schemes or an associated domain)."
        )
        let brace = Self.setupError([chat, LinkRoute("old", "/old/{id:int}", redirectingTo: "/messages/{id")])
        #expect(
            brace?.message
                == "The redirect of 'old': the link template '/messages/{id': a '{' is never closed."
        )
        // An untyped parameter may hold any text, an int among them: it may lead to an int's route.
        #expect(Self.setupError([chat, LinkRoute("tag", "/tags/{name}", redirectingTo: "/messages/{name}")]) == nil)
        // What apps write builds: a kept parameter, a full URL, a target that needs no parameter, a manifest location.
        #expect(
            Self.setupError([chat, LinkRoute("chat.legacy", "/chat/{id:int}", redirectingTo: "/messages/{id}")]) == nil
        )
        #expect(
            Self.setupError([chat, LinkRoute("web", "/m/{id:int}", redirectingTo: "myapp://messages/{id}")]) == nil
        )
        #expect(Self.setupError([chat, LinkRoute("home", "/start", redirectingTo: "/messages/1")]) == nil)
        var located = LinkRoute<Screen>("old", "/old/{id:int}", redirectingTo: "/nowhere")
        located.location = "shop.yaml:4:5"
        #expect(Self.setupError([chat, located])?.message.hasPrefix("shop.yaml:4:5: The redirect of 'old'") == true)
    }

    @Test("A route's handler builds the destination from the match, typed parameters in hand")
    func declaredDestination() async throws {
        let dispatcher = try LinkDispatcher<Screen>(
            routes: [
                LinkRoute("chat", "/messages/{id:int}") { match in .pushOverRoot(.chat(match.parameters.int("id") ?? 0))
                }
            ],
            policy: Self.policy
        )
        let shown = Locked<[Screen]>([])
        await dispatcher.setNavigator { plan, _ in shown.update { $0.append(plan.destination) } }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        let id = try #require(await dispatcher.receive(try DeepLink("myapp://messages/42")))
        #expect(await dispatcher.outcome(of: id) == .handled(route: "chat", plan: .pushOverRoot(.chat(42))))
        #expect(shown.current == [.chat(42)])
    }

    enum Step: CaseIterable { case navigator, ready, active, deliver }

    @Test(
        "1,000 random orderings of navigator, readiness, activation and deliveries: every link handled once, none lost"
    )
    func randomOrderings() async throws {
        var random = SeededRandom(seed: 18)
        for ordering in 0..<1_000 {
            let dispatcher = try LinkDispatcher<Screen>(
                routes: [
                    LinkRoute("chat", "/messages/{id:int}") { match in .push(.chat(match.parameters.int("id") ?? 0)) },
                    LinkRoute("pay", "/pay", barriers: ["login"]) { _ in .present(.pay) },
                ],
                policy: Self.policy,
                barriers: [Self.login],
                configuration: DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 16))
            )
            let shown = Locked<[Screen]>([])
            let deliveries = Int.random(in: 1...4, using: &random)
            var steps: [Step] = [.navigator, .ready, .active] + Array(repeating: .deliver, count: deliveries)
            steps.shuffle(using: &random)
            var ids: [UUID] = []
            var delivered = 0
            for step in steps {
                switch step {
                case .navigator:
                    await dispatcher.setNavigator { plan, _ in shown.update { $0.append(plan.destination) } }
                case .ready: await dispatcher.appDidBecomeReady()
                case .active: await dispatcher.appDidBecomeActive()
                case .deliver:
                    delivered += 1
                    let text = delivered == 2 ? "myapp://pay" : "myapp://messages/\(delivered)"
                    if let id = await dispatcher.receive(try DeepLink(text)) { ids.append(id) }
                }
            }
            var handled = 0
            for id in ids where await dispatcher.outcome(of: id)?.isHandled == true { handled += 1 }
            let context = "ordering \(ordering): \(steps)"
            #expect(ids.count == deliveries, "a delivery was refused: \(context)")
            #expect(handled == deliveries, "a link was not handled: \(context)")
            #expect(shown.current.count == deliveries, "shown other than once per link: \(context)")
            if handled != deliveries { return }
        }
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String { "refused" }
    }

    @Test("A trailing closure that only throws, or throws before it returns, builds without a label")
    func throwingClosuresNeedNoLabel() async throws {
        let dispatcher = try LinkDispatcher<Screen>(
            routes: [
                LinkRoute("refuse", "/refuse") { _ in throw Refused() },
                LinkRoute("chat", "/chat/{id}") { match in
                    guard let id = match.parameters.int("id") else { throw Refused() }
                    return .push(.chat(id))
                },
                LinkRoute("decline", "/decline/{id}") { match in
                    _ = try match.parameters.resourceName("id")
                    return .declined
                },
            ],
            policy: Self.policy
        )
        await dispatcher.setNavigator { _, _ in }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        let refused = try #require(await dispatcher.receive(try DeepLink("myapp://refuse")))
        #expect(await dispatcher.outcome(of: refused) == .failed(route: "refuse", message: "refused"))
        let chat = try #require(await dispatcher.receive(try DeepLink("myapp://chat/7")))
        #expect(await dispatcher.outcome(of: chat) == .handled(route: "chat", plan: .push(.chat(7))))
        let unsafe = try #require(await dispatcher.receive(try DeepLink("myapp://decline/a%2Fb")))
        let outcome = await dispatcher.outcome(of: unsafe)
        guard case .failed(let route, let message) = outcome else {
            Issue.record("a handler that threw ended as \(String(describing: outcome))")
            return
        }
        #expect(route == "decline")
        #expect(message.contains("is not a plain name: it contains '/'"))
    }
}
