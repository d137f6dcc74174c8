import Testing
import WaypointCore

/// WaypointCore stands alone: an app that only resolves links builds, matches, refuses and links
/// back with this one import, without the dispatcher's module.
@Suite("WaypointCore on its own")
struct CoreAloneTests {
    enum Screen: Sendable { case chat, pay }

    func resolver() throws -> LinkResolver<Screen> {
        var builder = RouterBuilder<Screen>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("messages.detail", "/messages/{id:int}", value: .chat)
        try builder.add("pay", "/pay", value: .pay)
        return LinkResolver(
            router: try builder.build(),
            policy: LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"])
        )
    }

    @Test("A universal link matches its route with typed parameters")
    func matches() throws {
        let resolution = try resolver().resolve("https://example.com/messages/42")
        guard case .matched(let match) = resolution else {
            Issue.record("expected a match, got \(resolution)")
            return
        }
        #expect(match.value == .chat)
        #expect(match.parameters.int("id") == 42)
    }

    @Test("The policy refuses an unknown scheme, and a route links back")
    func refusesAndLinksBack() throws {
        let resolver = try resolver()
        guard case .forbidden(_, let reason) = resolver.resolve("evil://messages/1") else {
            Issue.record("expected the policy to refuse evil://")
            return
        }
        #expect(reason.contains("evil"))
        // The routes a link could run are asked of the policy first, as a resolution is.
        #expect(try resolver.candidates(for: DeepLink("myapp://messages/1")).map(\.route.name) == ["messages.detail"])
        #expect(try resolver.candidates(for: DeepLink("evil://messages/1")).isEmpty)
        #expect(try resolver.candidates(for: DeepLink("https://elsewhere.org/messages/1")).isEmpty)
        #expect(try resolver.router.link(for: "messages.detail", ["id": 42]).string == "myapp://messages/42")
    }
}
