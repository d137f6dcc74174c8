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
}
