import Foundation
import Testing

@testable import Waypoint

/// What got past the safety helpers in the second adversarial round: white space, ports and
/// escaped hosts in redirect targets, sources read from text, look-alike resource names, web
/// message origins on other ports, and payloads converted under another limit.
@Suite("The safety helpers hold against the second round of hostile input")
struct SafetyHelperTests {
    static let policy = LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com", "*.example.com"])

    static func makeResolver() throws -> LinkResolver<String> {
        var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("orders", "/orders/{id:int}", value: "order")
        try builder.add("pay", "/pay", sources: [.universalLink], value: "payment")
        try builder.add("login", "/login", value: "login")
        return LinkResolver(router: try builder.build(), policy: policy)
    }

    @Test(
        "A redirect target with decoded white space, control characters, or dot and empty segments is not the app's own",
        arguments: [
            "/%09/evil.com", "/%0A/evil.com", "/%0D/evil.com", "/%0d%0a/evil.com", "/%20/evil.com",
            "/orders/%C2%85/x", "/%E2%80%A8/evil.com", "/%7F/evil.com",
            // Dot and empty segments a URL resolver turns into `//evil.com`.
            "/.//evil.com", "/x/..//evil.com", "/%2e//evil.com", "/%2E%2E//evil.com", "/orders//evil.com",
            "/./evil.com/..", "/orders/%2e%2e",
        ]
    )
    func whiteSpaceInTargets(target: String) {
        #expect(!Self.policy.isOwnDestination(target))
    }

    @Test("A fully qualified host (a trailing dot) is the same host to policy and to routes restricted to it")
    func trailingDotHost() throws {
        var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("web", "https://example.com/books/{id:int}", value: "book")
        let resolver = LinkResolver(router: try builder.build(), policy: Self.policy)
        let dotted = try DeepLink("https://EXAMPLE.com./books/7")
        #expect(dotted.host == "example.com")
        #expect(Self.policy.evaluate(dotted) == .allow)
        #expect(resolver.resolve(dotted).match?.route.name == "web")
        #expect(resolver.resolve("https://www.example.com./books/7").status == .notFound)  // another host
        #expect(DomainPattern("example.com.").matches("example.com"))
        #expect(DomainPattern("*.example.com").matches("a.example.com."))
        // Only one dot is the qualified form; an empty label is still no host.
        #expect(throws: WaypointError.self) { try DeepLink("https://example.com../books/7") }
    }

    @Test("Plain paths stay the app's own: a trailing slash, dots inside a name, a query or fragment")
    func ownPaths() {
        for target in ["/", "/orders/1/", "/files/v1.2.pdf", "/orders/1?next=//evil.com", "/a/b#//x", "/..a/b."] {
            #expect(Self.policy.isOwnDestination(target), "\(target)")
        }
    }

    @Test("A next= parameter that hides white space behind a second encoding is refused once decoded")
    func doubleEncodedNext() throws {
        let match = try #require(try Self.makeResolver().resolve("myapp://login?next=%2F%2509%2Fevil.com").match)
        let next = try #require(match.link.queryValue("next"))
        #expect(next == "/%09/evil.com")
        #expect(!Self.policy.isOwnDestination(next))
    }

    @Test(
        "A web target is the app's own only at the default port",
        arguments: [
            ("https://example.com/x", true), ("https://example.com:443/x", true), ("https://example.com:/x", true),
            ("https://example.com:8443/x", false), ("https://example.com:80/x", false),
            ("https://example.com:abc/x", false), ("https://example.com:99999/x", false),
            ("https://example.com:-1/x", false), ("https://example.com:443:80/x", false),
        ]
    )
    func ports(target: String, own: Bool) {
        #expect(Self.policy.isOwnDestination(target) == own)
    }

    @Test("A port that is not digits up to 65535 makes the link invalid, with a typed error")
    func invalidPorts() throws {
        for text in [
            "https://example.com:abc/x", "https://example.com:99999/", "https://example.com:-1/",
            "https://example.com:443:80/", "https://[::1]x/",
        ] {
            #expect(throws: WaypointError.self, "\(text)") { try DeepLink(text) }
            do {
                _ = try DeepLink(text)
            } catch {
                #expect(error.code == .invalidPort, "\(text): \(error.code)")
                #expect(error.message.contains("port"))
            }
        }
        for host in ["..example.com", ".example.com", "a..example.com", "example.com..", "[]", "."] {
            #expect(throws: WaypointError.self, "\(host)") { try DeepLink("https://\(host)/x") }
        }
        #expect(try DeepLink("https://example.com./x").host == "example.com")
        #expect(try DeepLink("https://example.com:65535/").port == 65535)
        #expect(try DeepLink("https://[::1]:8080/").host == "[::1]")
    }

    @Test(
        "A host with an escape or a character no domain name has is refused, under a wildcard domain too",
        arguments: ["%2F", "%23", "%40", "%5C", "%3A", "%09", "%2E", "!", "$", "'", "*", "~"]
    )
    func escapedHosts(escape: String) throws {
        let target = "https://a\(escape).example.com/orders/1"
        #expect(!Self.policy.isOwnDestination(target))
        #expect(throws: WaypointError.self) { try DeepLink(target) }
        do {
            _ = try DeepLink(target)
        } catch {
            #expect(error.code == .invalidHost, "\(target): \(error.code)")
        }
        #expect(!DomainPattern("*.example.com").matches("a\(escape).example.com"))
    }

    @Test("A host's error names the byte and says how to write an international domain")
    func hostMessage() {
        do {
            _ = try DeepLink("https://ex%C3%A4mple.com/")
            Issue.record("a percent-encoded host was accepted")
        } catch {
            #expect(error.code == .invalidHost)
            #expect(error.message.contains("'%' in its host at byte 10"))
            #expect(error.message.contains("punycode"))
        }
    }

    @Test("A string's source is never inferred: an https string does not reach a universal-link-only route")
    func sourceFromTheWayIn() throws {
        let resolver = try Self.makeResolver()
        #expect(try DeepLink("https://example.com/pay").source == .text)
        #expect(try DeepLink("myapp://pay").source == .text)
        #expect(resolver.resolve("https://example.com/pay").status == .forbidden)
        // The way in decides: what the system opened as a universal link is one.
        #expect(resolver.resolve("https://example.com/pay", source: .universalLink).status == .matched)
        let intake = LinkIntake(policy: Self.policy)
        #expect(intake.url("https://example.com/pay").link?.source == .universalLink)
        #expect(intake.text("https://example.com/pay").link?.source == .text)
    }

    @Test("Following next= keeps the outer link's source and refuses other sites")
    func followingNext() throws {
        let resolver = try Self.makeResolver()
        let fromScheme = try DeepLink("myapp://login?next=https%3A%2F%2Fexample.com%2Fpay", source: .urlScheme)
        let next = try #require(fromScheme.queryValue("next"))
        // The naive way runs the universal-link-only route from a custom-scheme link: it is forbidden now.
        #expect(resolver.resolve(next).status == .forbidden)
        let followed = resolver.resolve(redirect: next, from: fromScheme)
        guard case .forbidden(let link, let reason) = followed else {
            Issue.record("expected forbidden, got \(followed.status)")
            return
        }
        #expect(link.source == .urlScheme)
        #expect(reason == "the route 'pay' accepts links only from universalLink, not from urlScheme")

        let fromUniversal = try DeepLink("https://example.com/login?next=%2Fpay", source: .universalLink)
        #expect(resolver.resolve(redirect: "/pay", from: fromUniversal).match?.link.source == .universalLink)
        let orders = resolver.resolve(redirect: "/orders/7", from: fromScheme)
        #expect(orders.match?.parameters.int("id") == 7)

        for foreign in ["https://evil.com/", "/%09/evil.com", "//evil.com", "https://example.com:8443/pay"] {
            guard case .forbidden(_, let reason) = resolver.resolve(redirect: foreign, from: fromUniversal) else {
                Issue.record("\(foreign) was followed")
                continue
            }
            #expect(
                reason
                    == "'\(foreign)' is not one of the app's own destinations; following it would be an open redirect"
            )
        }
        #expect(resolver.resolve(redirect: "not a link", from: fromUniversal).status == .invalid)
    }

    @Test(
        "A resource name with a C1 control character or a look-alike of '.', '/', '\\' or '~' is refused",
        arguments: [
            "a\u{85}b", "a\u{9B}b", "\u{FF0E}\u{FF0E}", "a\u{FF0F}b", "\u{2025}", "\u{2024}\u{2024}",
            "\u{FE52}\u{FE52}",
            "x\u{FF3C}y", "\u{FF5E}root",
        ]
    )
    func resourceNameLookAlikes(name: String) throws {
        var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("files", "/files/{name}", value: "file")
        let router = try builder.build()
        let encoded = percentEncode(name, allowed: .pathSegment)
        let match = try #require(try router.match("myapp://files/\(encoded)"))
        #expect(throws: WaypointError.self) { try match.parameters.resourceName("name") }
    }

    @Test("A plain international name, or a look-alike that normalizes to one, is still a resource name")
    func resourceNameInternational() throws {
        var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("files", "/files/{name}", value: "file")
        let router = try builder.build()
        // Look-alikes that normalize to a plain name are plain names: `a․b` reads `a.b`.
        for name in ["第一章.pdf", "résumé.txt", "Straße", "a\u{2024}b", "Wait\u{2026}.pdf", "x\u{FF5E}y"] {
            let match = try #require(try router.match("myapp://files/\(percentEncode(name, allowed: .pathSegment))"))
            #expect(try match.parameters.resourceName("name") == name)
        }
    }

    @Test("A web message from an allowed host on another port is refused")
    func webMessagePorts() {
        var intake = LinkIntake(policy: Self.policy)
        intake.webMessages = [WebMessageRoute(name: "openLink")]
        func result(_ origin: String) -> IntakeResult {
            intake.webMessage(WebMessageSnapshot(name: "openLink", body: "/orders/1", origin: origin))
        }
        #expect(result("https://example.com").link != nil)
        #expect(result("https://example.com:443").link != nil)
        for origin in ["https://example.com:8443", "https://www.example.com:1", "http://example.com"] {
            #expect(result(origin).error?.code == .untrustedOrigin, "\(origin)")
        }
    }

    @Test("A payload converted before holds the limit it meets, and the error names where")
    func convertedPayloadDepth() throws {
        var deep = PayloadValue.object(["deeplink": "myapp://orders/1"])
        for _ in 0..<10 { deep = .object(["a": deep]) }
        // Made under the default limit of 16, then read under a limit of 4.
        #expect(throws: Never.self) { try PayloadValue(any: deep) }
        do {
            _ = try PayloadValue(any: ["data": deep] as [String: Any], maxDepth: 4)
            Issue.record("a deep converted payload passed a lower limit")
        } catch {
            #expect(error.code == .payloadTooDeep)
            #expect(error.message == "The payload nests deeper than 4 levels at 'data.a.a.a.a'.")
            #expect(error.input == "an object of 1 members")
        }
        let listed = PayloadValue.array([.array([.array([.string("x")])])])
        do {
            _ = try PayloadValue(any: ["list": listed] as [String: Any], maxDepth: 2)
            Issue.record("a deep converted array passed a lower limit")
        } catch {
            #expect(error.message == "The payload nests deeper than 2 levels at 'list[0][0]'.")
        }
        var intake = LinkIntake(policy: Self.policy, maximumPayloadDepth: 3)
        intake.webMessages = [WebMessageRoute(name: "openLink")]
        let message = WebMessageSnapshot(name: "openLink", body: deep, origin: "https://example.com")
        #expect(intake.webMessage(message).error?.code == .payloadTooDeep)
    }
}
