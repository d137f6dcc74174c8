/// Policy, then routing: turns text or a link into a ``Resolution``.
///
/// ```swift
/// let resolver = LinkResolver(router: router, policy: LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"]))
/// resolver.resolve("myapp://messages/1")              // .matched(…)
/// resolver.resolve("myapp://nowhere")                 // .notFound(…)
/// resolver.resolve("evil://messages/1")               // .forbidden(…, reason: "the scheme 'evil' is not …")
/// resolver.resolve("https://elsewhere.org/")          // .passThrough(…)
/// resolver.resolve("myapp://a b")                     // .invalid(WaypointError)
/// resolver.resolve(text: "myapp://search?q=三体")      // .matched(…): lenient intake
/// ```
public struct LinkResolver<Value: Sendable>: Sendable {
    /// The route table.
    public let router: Router<Value>
    /// What is allowed, and the parsing limits.
    public let policy: LinkPolicy

    /// Counts resolutions, for the test that pins one per link; `nil` outside it.
    let probe: ResolutionProbe?
    /// What makes the router and the policy unusable together, found when the resolver is made: a
    /// policy listing what is no scheme or no domain, or a router building links with a scheme the
    /// policy refuses. Every link resolves as this mistake, never as a misleading refusal.
    package let setupProblem: WaypointError?

    /// A resolver over a router and a policy.
    ///
    /// A policy that fails ``LinkPolicy/check()``, or a router whose
    /// ``RouterConfiguration/linkScheme`` is not one of the policy's schemes, resolves every link
    /// as `.invalid`, with that mistake's error; a `LinkDispatcher` is not built with either.
    public init(router: Router<Value>, policy: LinkPolicy) {
        self.init(router: router, policy: policy, probe: nil)
    }

    package init(router: Router<Value>, policy: LinkPolicy, probe: ResolutionProbe?) {
        self.router = router
        self.policy = policy
        self.probe = probe
        self.setupProblem = Self.setupProblem(router: router, policy: policy)
    }

    private static func setupProblem(router: Router<Value>, policy: LinkPolicy) -> WaypointError? {
        do {
            try policy.check()
        } catch {
            return error
        }
        guard let scheme = router.configuration.linkScheme?.lowercased(), !policy.schemes.contains(scheme) else {
            return nil
        }
        let listed = policy.schemes.isEmpty ? "none" : Array(policy.schemes).stablySorted().joined(separator: ", ")
        return WaypointError(
            .invalidScheme,
            input: scheme,
            message: "The router's linkScheme '\(scheme)' is not one of the policy's schemes (\(listed)): every link "
                + "built for a route without a scheme would be refused."
        )
    }

    /// Applies policy to a parsed link, then routes it. A route restricted to other sources
    /// (``Route/sources``) is skipped for the next candidate; when none is left the link is
    /// forbidden, naming the route, not reported as not found. A web message's link the policy
    /// leaves to the system is forbidden too: a page's script may not send the app outside.
    ///
    /// ```swift
    /// resolver.resolve(try DeepLink("https://elsewhere.org/", source: .webMessage))  // .forbidden(…)
    /// ```
    public func resolve(_ link: DeepLink) -> Resolution<Value> {
        resolvedLink(link, every: false).resolution
    }

    /// Every route that takes `link` from its source once the policy allows it, in precedence order
    /// (the first is what ``resolve(_:)`` matches); empty when the policy refuses the link or leaves
    /// it to the system.
    ///
    /// ```swift
    /// resolver.candidates(for: try DeepLink("myapp://messages/1"))  // the routes that take it, best first
    /// resolver.candidates(for: try DeepLink("evil://messages/1"))   // []: the policy refuses the scheme
    /// ```
    public func candidates(for link: DeepLink) -> [RouteMatch<Value>] {
        resolvedLink(link).candidates
    }

    /// Policy, then routing, once: the one rule every resolution follows. Deny and pass-through end
    /// it before the trie is walked; otherwise one walk finds the routes that take the link's source
    /// (all of them when `every`, else the first) and the first that matched but refuses it.
    package func resolvedLink(_ link: DeepLink, every: Bool = true) -> ResolvedLink<Value> {
        probe?.count()
        if let setupProblem { return ResolvedLink(resolution: .invalid(setupProblem)) }
        switch policy.evaluate(link) {
        case .deny(let reason):
            return ResolvedLink(resolution: .forbidden(link, reason: reason))
        case .passThrough where link.source == .webMessage:
            // A script's message is never a tap, and a web view's script may not send the app
            // outside it (`webNavigationDecision` lets only a tap leave): what the policy leaves to
            // the system is refused, not opened.
            return ResolvedLink(
                resolution: .forbidden(
                    link,
                    reason: "a web page's script may not open \(link) outside the app: the policy leaves it to the "
                        + "system, and only a tap on a link in the page leaves the web view"
                )
            )
        case .passThrough:
            return ResolvedLink(resolution: .passThrough(link))
        case .allow:
            break
        }
        let (matches, refused) = router.sourceAcceptedMatches(for: link, every: every)
        if let first = matches.first { return ResolvedLink(resolution: .matched(first), candidates: matches) }
        guard let refused else { return ResolvedLink(resolution: .notFound(link)) }
        return ResolvedLink(
            resolution: .forbidden(link, reason: Self.refusal(by: refused, of: link.source)),
            refusedRoute: refused
        )
    }

    /// Why `route` refuses a link from `source`: "the route 'pay' accepts links only from
    /// universalLink, not from urlScheme".
    package static func refusal(by route: Route<Value>, of source: LinkSource) -> String {
        let allowed = (route.sources ?? []).map(\.rawValue).stablySorted().joined(separator: ", ")
        return "the route '\(route.name)' accepts links only from \(allowed), not from \(source)"
    }

    /// Parses link text strictly within the policy's limits, then resolves it. The source is the
    /// way the text arrived, `.text` unless given: a route limited to universal links never
    /// matches a string that only looks like one.
    public func resolve(_ string: String, source: LinkSource = .text) -> Resolution<Value> {
        do {
            return resolve(try DeepLink(string, source: source, limits: policy.limits))
        } catch {
            return .invalid(error)
        }
    }

    /// Follows a redirect target read from a link (`next=`, `redirect=`, `return_to=`): the target
    /// must be one of the app's own destinations (``LinkPolicy/isOwnDestination(_:)``) and runs
    /// with the outer link's source, so following it never gains what the outer link could not
    /// reach. Anything else is forbidden, naming the target.
    ///
    /// ```swift
    /// // outer: myapp://login?next=… (source .urlScheme)
    /// resolver.resolve(redirect: "/orders/1", from: outer)            // .matched(…), source .urlScheme
    /// resolver.resolve(redirect: "https://evil.com/", from: outer)    // .forbidden(…)
    /// ```
    public func resolve(redirect target: String, from outer: DeepLink) -> Resolution<Value> {
        if let setupProblem { return .invalid(setupProblem) }
        return switch policy.redirectTarget(target, from: outer) {
        case .own(let link): resolve(link)
        case .foreign(let link, let reason): .forbidden(link, reason: reason)
        case .invalid(let error): .invalid(error)
        }
    }

    /// Parses text from people leniently (see ``DeepLink/init(text:source:limits:)``), then resolves it.
    public func resolve(text: String, source: LinkSource = .text) -> Resolution<Value> {
        do {
            return resolve(try DeepLink(text: text, source: source, limits: policy.limits))
        } catch {
            return .invalid(error)
        }
    }
}
