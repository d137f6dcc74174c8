import Foundation
import Testing
import Waypoint
import WaypointTesting

@testable import WaypointManifest

/// The link setup generated beside the typed routes (`Generated/*.swift`, compiled with these tests)
/// is the manifest's, and an app builds its dispatcher from it with one `switch`.
@Suite("Generated link setup", .timeLimit(.minutes(1)))
struct GeneratedSetupTests {
    static let codegen = ToolRunner.root.appendingPathComponent("Tests/WaypointManifestTests/Snapshots/codegen.yaml")
        .path

    /// What the generated enum's statics hold, to compare with the manifest they came from.
    struct Setup {
        let policy = CodegenRoute.policy
        let routerConfiguration = CodegenRoute.routerConfiguration
        let categories = CodegenRoute.notificationCategories
        let intake = CodegenRoute.intake
        let quickActions = CodegenRoute.quickActions
        let barrierWaits = CodegenRoute.barrierWaits
        let routes = CodegenRoute.linkRoutes { "\($0)" }
    }

    @Test("Policy, intake, categories, quick actions, barrier waits and routes are the manifest's, value for value")
    func sameAsManifest() throws {
        let manifest = try ManifestLoader.load(file: Self.codegen)
        let setup = Setup()
        #expect(setup.policy == manifest.makePolicy())
        #expect(setup.routerConfiguration == manifest.routerConfiguration)
        #expect(setup.categories == NotificationCategoryCatalog(manifest.notifications.categories))

        let (generated, expected) = (setup.intake, manifest.makeIntake())
        #expect(generated.policy == expected.policy)
        #expect(generated.linkKeys == expected.linkKeys)
        #expect(generated.notificationProviders == expected.notificationProviders)
        // The manifest's own providers are printed in full: every place, marker and the sample.
        #expect(generated.notificationProviders.count == 4)
        for (made, read) in zip(generated.notificationProviders, expected.notificationProviders) {
            #expect(made.title == read.title)
            #expect(made.links == read.links)
            #expect(made.buttons == read.buttons)
            #expect(made.internalMarkers == read.internalMarkers)
            #expect(made.reference == read.reference)
            #expect(made.samplePayload("gen://orders/9") == read.samplePayload("gen://orders/9"))
        }
        #expect(generated.notificationRules == expected.notificationRules)
        #expect(generated.notificationCategories == expected.notificationCategories)
        #expect(generated.notificationSettingsLink == expected.notificationSettingsLink)
        #expect(generated.shortcutRoutes == expected.shortcutRoutes)
        #expect(generated.activityRoutes == expected.activityRoutes)
        #expect(generated.webMessages == expected.webMessages)
        #expect(generated.webOrigins == expected.webOrigins)
        #expect(generated.maximumPayloadDepth == expected.maximumPayloadDepth)

        // Every combination of the states the manifest's `when:` names shows what the manifest shows.
        let keys = Set(manifest.quickActions.flatMap(\.conditions.keys)).sorted()
        var states: [[String: String]] = [[:]]
        for key in keys {
            let values = Set(manifest.quickActions.flatMap { $0.conditions[key] ?? [] }).sorted() + ["other"]
            states = states.flatMap { state in [state] + values.map { state.merging([key: $0]) { $1 } } }
        }
        #expect(states.count > 1 || keys.isEmpty)
        for state in states {
            #expect(setup.quickActions.items(for: state) == manifest.quickActionItems(for: state), "\(state)")
        }
        #expect(setup.quickActions.linkTemplates == expected.shortcutRoutes)
        #expect(setup.barrierWaits == manifest.barrierWaits.mapValues(\.wait))

        #expect(setup.routes.map(\.name) == manifest.routes.map(\.name))
        #expect(setup.routes.map(\.pattern) == manifest.routes.map(\.pattern.text))
        #expect(setup.routes.map(\.barriers) == manifest.routes.map(\.barriers))
        #expect(setup.routes.map(\.sources) == manifest.routes.map(\.sources))
        #expect(setup.routes.map(\.priority) == manifest.routes.map(\.priority))
        #expect(setup.routes.map(\.sceneRole) == manifest.routes.map(\.scene))
        let file = URL(fileURLWithPath: manifest.file).lastPathComponent
        #expect(
            setup.routes.map(\.location)
                == manifest.routes.map { "\(file):\($0.location.line):\($0.location.column)" }
        )
    }

    enum Screen: Hashable, Sendable {
        case order(Int)
        case search(String)
        case other(String)
    }

    /// The app's one handler: a screen for every case, checked exhaustive by the compiler.
    @Sendable static func screen(_ route: CodegenRoute) -> Screen {
        switch route {
        case .order(let id): .order(id)
        case .search(let q, _, _, _, _): .search(q)
        case .home, .userProfile, .item, .files, .required, .keyword, .webOnly, .route2faSetup, .sayHiNow, .owner:
            .other(route.name)
        }
    }

    @Test("The generated dispatcher shows each route as the manifest says: presentation, tab, barrier wait, redirect")
    func dispatcher() async throws {
        let slowLogin = SlowLogin()
        let login = slowLogin.barrier
        let clock = ManualClock()
        let dispatcher = try CodegenRoute.makeDispatcher(
            barriers: [login],
            fallbacks: LinkFallbacks(actions: ["like": { _ in }]),
            configuration: DispatcherConfiguration(barrierCheckTimeout: 300),
            clock: clock,
            screen: Self.screen
        )
        #expect(dispatcher.configuration.barrierWaits == ["login": 7200])
        await dispatcher.setNavigator { _, _ in }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()

        // Behind `login`, whose check outlasts the dispatcher's 300 s but not the manifest's two hours.
        let order = try #require(await dispatcher.receive(CodegenRoute.intake.url("gen://orders/5")))
        await clock.waitForSleepers(1)
        clock.advance(by: 400)
        slowLogin.answer()
        #expect(await dispatcher.outcome(of: order) == .handled(route: "order", plan: .present(.order(5), tab: "shop")))

        // An old path, redirected with its parameter and query; case-insensitive as the manifest says.
        let legacy = try #require(await dispatcher.receive(CodegenRoute.intake.url("gen://O/6?utm_source=mail")))
        #expect(
            await dispatcher.outcome(of: legacy)
                == .redirected(
                    to: "/orders/6?utm_source=mail",
                    outcome: .handled(route: "order", plan: .present(.order(6), tab: "shop"))
                )
        )
        let search = try #require(await dispatcher.receive(try DeepLink("gen://search?q=flat")))
        #expect(await dispatcher.outcome(of: search) == .handled(route: "search", plan: .pushOverRoot(.search("flat"))))

        // A link without a required query parameter fails its route, saying which.
        let bare = try #require(await dispatcher.receive(try DeepLink("gen://search?page=2")))
        #expect(
            await dispatcher.outcome(of: bare)
                == .failed(
                    route: "search",
                    message: "The link 'gen://search?page=2' has no String value for the query parameter 'q', which "
                        + "the route 'search' needs."
                )
        )
    }

    @Test("A barrier or action handler the manifest needs and the app did not give fails building, at its line")
    func setupMistakes() throws {
        func error(_ build: () throws(WaypointError) -> Void) -> WaypointError? {
            do {
                try build()
                return nil
            } catch {
                return error
            }
        }
        let like: [String: @Sendable (NotificationActionInvocation) async -> Void] = ["like": { _ in }]
        let noBarrier = error { () throws(WaypointError) in
            _ = try CodegenRoute.makeDispatcher(fallbacks: LinkFallbacks(actions: like), screen: Self.screen)
        }
        #expect(noBarrier?.code == .unknownBarrier)
        #expect(
            noBarrier?.message
                == "The route 'order' (codegen.yaml:23:5) names the barrier 'login', which is not supplied "
                + "(no barriers are supplied)."
        )
        let login = Barrier("login") { _ in .passed }
        let noHandler = error { () throws(WaypointError) in
            _ = try CodegenRoute.makeDispatcher(barriers: [login], screen: Self.screen)
        }
        #expect(noHandler?.code == .unknownAction)
        #expect(noHandler?.names == ["like"])
        let stray = error { () throws(WaypointError) in
            _ = try CodegenRoute.makeDispatcher(
                barriers: [login],
                fallbacks: LinkFallbacks(actions: like.merging(["share": { _ in }]) { $1 }),
                screen: Self.screen
            )
        }
        #expect(stray?.code == .unknownAction)
        #expect(stray?.names == ["share"])
    }

    @Test("A match the typed route cannot be made from says why")
    func matchingErrors() throws {
        let router = try ManifestLoader.load(file: Self.codegen).makeRouter()
        let empty = try #require(try router.match("gen://search"))
        #expect(throws: WaypointError.self) { try CodegenRoute(matching: empty) }
        let bare = try #require(try router.match("gen://search?page=2"))
        do {
            _ = try CodegenRoute(matching: bare)
            Issue.record("a link without q made a case")
        } catch {
            #expect(error.code == .missingParameter)
            #expect(error.names == ["search", "q"])
            #expect(error.input == "gen://search?page=2")
        }
        var builder = RouterBuilder<Int>()
        try builder.add("elsewhere", "/x", value: 1)
        let other = try #require(try builder.build().match("/x"))
        #expect {
            try CodegenRoute(matching: other)
        } throws: { error in
            (error as? WaypointError)?.code == .unknownRoute
                && "\(error)" == "The route 'elsewhere' is not a route of codegen.yaml."
        }
    }

    @Test("codegen refuses what building the dispatcher would, at the manifest's line")
    func codegenRefuses() throws {
        let nowhere = try ManifestLoader.parse(
            """
            schemes: [app]
            routes:
              - {name: book, pattern: "/books/{id:int}"}
              - {name: old.book, pattern: "/b/{id:int}", redirect: "/bok/{id}"}
            """,
            file: "app.yaml"
        )
        #expect {
            try RouteCodeGenerator(manifest: nowhere).source()
        } throws: { error in
            "\(error)".hasPrefix("app.yaml:4:5: The redirect of 'old.book' leads to '/bok/{id}'")
                && "\(error)".hasSuffix("which no route that shows a screen matches.")
        }
        let clash = try ManifestLoader.parse(
            """
            schemes: [app]
            routes:
              - {name: book, pattern: "/books/{id}"}
              - {name: title, pattern: "/books/{name}"}
            """,
            file: "app.yaml"
        )
        #expect {
            try RouteCodeGenerator(manifest: clash).source()
        } throws: { error in
            "\(error)".hasPrefix("app.yaml:4:5:")
        }
    }

    @Test("A route named like a generated member, or an enum named like a type the code uses, is refused")
    func reservedNames() throws {
        let policy = try ManifestLoader.parse("routes:\n  - {name: policy, pattern: /policy}\n", file: "app.yaml")
        #expect {
            try RouteCodeGenerator(manifest: policy).source()
        } throws: { error in
            "\(error)".hasPrefix("app.yaml:2:5: The route 'policy' makes the Swift case 'policy'")
        }
        // Lint names every such route in one run, not one a run.
        let several = try ManifestLoader.parse(
            "routes:\n  - {name: policy, pattern: /policy}\n  - {name: intake, pattern: /intake}\n"
                + "  - {name: make dispatcher, pattern: /m}\n",
            file: "app.yaml"
        )
        let clashes = ManifestLinter(manifest: several).lint().filter { $0.code == "typed-routes" }
        #expect(clashes.map(\.location?.line) == [2, 3, 4], "\(clashes)")
        let fine = try ManifestLoader.parse("routes:\n  - {name: about, pattern: /about}\n")
        #expect(throws: ManifestError.self) { try RouteCodeGenerator(manifest: fine, typeName: "Screen").source() }
        #expect(throws: ManifestError.self) { try RouteCodeGenerator(manifest: fine, typeName: "LinkPolicy").source() }
        #expect(throws: ManifestError.self) {
            try ManifestLoader.parse("routes: []\nquickActionLimit: -1\n")
        }
    }
}
