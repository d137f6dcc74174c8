import Testing

@testable import Waypoint
@testable import WaypointCore

@Suite("Policy decides before routing, and every outcome is distinct")
struct PolicyTests {
    let resolver: LinkResolver<String>

    init() throws {
        let router = try makeRouter([("messages", "/messages/{id:int}"), ("home", "/")])
        resolver = LinkResolver(
            router: router,
            policy: LinkPolicy(
                schemes: ["MyApp"],
                associatedDomains: ["example.com", "*.example.com"],
                deniedSchemes: ["legacy"],
                deniedHosts: ["ads.example.com"],
                passThroughSchemes: ["tel"],
                passThroughHosts: ["blog.example.com"]
            )
        )
    }

    @Test(
        "Each link gets exactly one outcome",
        arguments: [
            ("myapp://messages/1", "matched"),
            ("https://example.com/messages/1", "matched"),
            ("https://m.example.com/messages/1", "matched"),
            ("/messages/1", "matched"),
            ("myapp://messages/abc", "notFound"),
            ("https://example.com/nowhere", "notFound"),
            ("other://messages/1", "forbidden"),
            ("legacy://messages/1", "forbidden"),
            ("JavaScript:alert(1)", "forbidden"),
            ("data:text/html,hi", "forbidden"),
            ("file:///etc/passwd", "forbidden"),
            ("vbscript:msgbox", "forbidden"),
            ("https://example.com@evil.com/messages/1", "forbidden"),
            ("https://ads.example.com/messages/1", "forbidden"),
            ("https://evil.com/messages/1", "passThrough"),
            ("https://exаmple.com/messages/1", "invalid"),
            ("https://xn--exmple-4nf.com/messages/1", "passThrough"),
            ("https://blog.example.com/messages/1", "passThrough"),
            ("tel:123", "passThrough"),
            ("myapp://a b", "invalid"),
            ("", "invalid"),
        ]
    )
    func outcomes(text: String, status: String) {
        #expect(resolver.resolve(text).status.rawValue == status)
    }

    @Test("Forbidden links carry a reason people can read")
    func forbiddenReason() {
        guard case .forbidden(let link, let reason) = resolver.resolve("other://messages/1") else {
            Issue.record("expected forbidden")
            return
        }
        #expect(link.string == "other://messages/1")
        #expect(reason == "the scheme 'other' is not one of the app's schemes (myapp)")
        guard case .forbidden(_, let userInfo) = resolver.resolve("https://example.com@evil.com/") else {
            Issue.record("expected forbidden")
            return
        }
        #expect(userInfo == "links with user info (user@host) are refused")
    }

    @Test("Invalid input is reported with the input, not dropped")
    func invalidKeepsInput() {
        guard case .invalid(let error) = resolver.resolve("myapp://a b") else {
            Issue.record("expected invalid")
            return
        }
        #expect(error.input == "myapp://a b")
    }

    @Test("Lenient resolution for text from people, within the policy's limits")
    func lenientAndLimits() throws {
        #expect(resolver.resolve(text: " myapp://messages/1 ").status == .matched)
        let strict = LinkResolver(
            router: resolver.router,
            policy: LinkPolicy(schemes: ["myapp"], limits: LinkLimits(maxLength: 10))
        )
        guard case .invalid(let error) = strict.resolve("myapp://messages/1") else {
            Issue.record("expected invalid")
            return
        }
        #expect(error.code == .tooLong)
    }

    @Test("Wildcard domains match subdomains only; look-alikes never match")
    func domainPatterns() {
        let wildcard = DomainPattern("*.example.com")
        #expect(wildcard.matches("a.b.example.com"))
        #expect(!wildcard.matches("example.com"))
        #expect(!wildcard.matches("badexample.com"))
        #expect(DomainPattern("Example.com.").matches("EXAMPLE.COM"))
        #expect(!DomainPattern("example.com").matches("exаmple.com"))
    }

    @Test("A domain the app claims is no whole top-level domain; a host it denies may be")
    func claimedDomains() throws {
        do {
            try LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com", "*.com"]).check()
            Issue.record("'*.com' was accepted as an associated domain")
        } catch {
            #expect(error.code == .invalidHost)
            #expect(
                error.message
                    == "The policy's associatedDomains: '*.com' claims every site under '.com'; list the domains the "
                    + "app serves, such as '*.example.com'."
            )
        }
        try LinkPolicy(schemes: ["myapp"], deniedHosts: ["*.tk"], passThroughHosts: ["*.gov"]).check()
        #expect(DomainPattern.problem("*.co.uk") == nil)
        #expect(DomainPattern.shapeProblem("*.com") == nil)
    }

    @Test("Only ASCII letters fold: the Kelvin sign is no 'k'")
    func kelvinSign() {
        let kelvin = DomainPattern("ex\u{212A}.com")
        #expect(kelvin.domain != "exk.com")
        #expect(!kelvin.matches("exk.com"))
        #expect(DomainPattern.problem(kelvin.description) != nil)
        #expect(throws: WaypointError.self) { try LinkPolicy(associatedDomains: [kelvin]).check() }
        #expect(DomainPattern("EXAMPLE.com").domain == "example.com")
    }

    @Test("Two domain patterns overlap exactly when some host matches both: one host matcher decides")
    func domainOverlapAgreesWithMatching() {
        let patterns = [
            "example.com", "*.example.com", "www.example.com", "*.www.example.com", "a.b.example.com",
            "badexample.com", "*.badexample.com", "example.org", "*.org", "EXAMPLE.com.", "",
        ].map { DomainPattern($0) }
        // Every host any pattern could be asked about, and a subdomain of each.
        let hosts = patterns.flatMap { [$0.domain, "x." + $0.domain, "x.y." + $0.domain] }
        for first in patterns {
            for second in patterns {
                let shared = hosts.contains { first.matches($0) && second.matches($0) }
                #expect(first.overlaps(second) == shared, "\(first) and \(second)")
            }
        }
    }

    @Test("A redirect target's segments are decoded by the link's own percent-decoder")
    func redirectSegmentsDecodeAsLinksDo() {
        #expect(percentDecoded("%2F%2Fevil.com") == "//evil.com")
        #expect(percentDecoded("100%") == "100%")
        #expect(percentDecoded("%E4%B8%89") == "三")
        #expect(percentDecoded("%FF") == "\u{FFFD}")
        let policy = LinkPolicy(schemes: ["myapp"])
        #expect(!policy.isOwnDestination("/%2E%2E/evil.com"))  // refused only once decoded
        #expect(!policy.isOwnDestination("/%2e/x"))
        #expect(policy.isOwnDestination("/orders/%E4%B8%89"))
    }
}
