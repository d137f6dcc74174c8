import Testing
import Waypoint

/// The first code a team adopting Waypoint reads is the README's opening example; this runs it as
/// written (with only the public API) and checks every result its comments promise.
@Suite("The README's opening example does what its comments say")
struct ReadmeExampleTests {
    enum Screen: Sendable, Equatable { case chat, pay }

    @Test("Routing, query values, policy and reverse routing")
    func openingExample() throws {
        var builder = RouterBuilder<Screen>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("messages.detail", "/messages/{id:int}", value: .chat)
        try builder.add("pay", "/pay", value: .pay)
        let resolver = LinkResolver(
            router: try builder.build(),
            policy: LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"])
        )

        let universal = try #require(resolver.resolve("https://example.com/messages/42").match)
        #expect(universal.value == .chat)
        #expect(universal.parameters.int("id") == 42)

        #expect(resolver.resolve("myapp:///pay?order_id=123").match?.link.queryValue("order_id") == "123")

        guard case .forbidden(_, let reason) = resolver.resolve("evil://messages/1") else {
            Issue.record("evil://messages/1 should be forbidden")
            return
        }
        #expect(reason.hasPrefix("the scheme 'evil' is not one of "))

        #expect(try resolver.router.link(for: "messages.detail", ["id": 42]).string == "myapp://messages/42")
    }

    enum AppScreen: Hashable, Sendable {
        case chat(Int)
        case pay(order: String)
    }

    @Test("The dispatcher example: built whole, a held link runs once the app can show it")
    func dispatcherExample() async throws {
        let isLoggedIn = false
        let dispatcher = try LinkDispatcher<AppScreen>(
            routes: [
                LinkRoute("messages.detail", "/messages/{id:int}") {
                    .pushOverRoot(.chat($0.parameters.int("id") ?? 0))
                },
                LinkRoute("pay", "/pay", barriers: ["login"]) {
                    .present(.pay(order: $0.link.queryValue("order_id") ?? ""))
                },
            ],
            policy: LinkPolicy(schemes: ["myapp"]),
            barriers: [
                Barrier("login") { _ in
                    isLoggedIn ? .passed : .needsCheck
                } check: { _ in
                    false
                }
            ]
        )
        let intake = LinkIntake(policy: LinkPolicy(schemes: ["myapp"]))
        let id = try #require(await dispatcher.receive(intake.url("myapp://messages/42")))
        let shown = Locked<[AppScreen]>([])
        await dispatcher.setNavigator { plan, _ in shown.update { $0.append(plan.destination) } }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        #expect(await dispatcher.outcome(of: id) == .handled(route: "messages.detail", plan: .pushOverRoot(.chat(42))))
        #expect(shown.current == [.chat(42)])
        // The comment's promise: a misspelled barrier throws when the dispatcher is built.
        #expect(throws: WaypointError.self) {
            try LinkDispatcher<AppScreen>(
                routes: [LinkRoute("pay", "/pay", barriers: ["logn"]) { _ in .present(.pay(order: "")) }],
                policy: LinkPolicy(schemes: ["myapp"]),
                barriers: [Barrier("login") { _ in .passed }]
            )
        }
    }
}
