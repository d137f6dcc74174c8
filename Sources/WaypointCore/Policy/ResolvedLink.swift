/// What policy and routing made of one link, worked out once when the link arrives: the
/// resolution (policy's verdict or the best route, with its typed parameters), every route that
/// takes the link in precedence order (the next is tried when a handler declines), and the route
/// that matched but refuses the link's source, when that is why it is forbidden. The dispatcher, its
/// events and `waypoint resolve` all read this one value; nothing resolves a link twice.
package struct ResolvedLink<Value: Sendable>: Sendable {
    package let resolution: Resolution<Value>
    /// The routes that match and accept the link's source, in precedence order (only the first when
    /// resolved with `every: false`); empty unless `resolution` is `.matched`, whose match is the first.
    package let candidates: [RouteMatch<Value>]
    /// A route that matched but takes links only from other sources: the link is forbidden for it.
    package let refusedRoute: Route<Value>?

    init(resolution: Resolution<Value>, candidates: [RouteMatch<Value>] = [], refusedRoute: Route<Value>? = nil) {
        self.resolution = resolution
        self.candidates = candidates
        self.refusedRoute = refusedRoute
    }

    /// The same resolution of `link`, which has the same text but another scene: a link whose
    /// window closed keeps what it resolved to.
    package func over(_ link: DeepLink) -> Self {
        let resolution: Resolution<Value> =
            switch self.resolution {
            case .matched(let match): .matched(match.over(link))
            case .notFound: .notFound(link)
            case .forbidden(_, let reason): .forbidden(link, reason: reason)
            case .passThrough: .passThrough(link)
            case .invalid(let error): .invalid(error)
            }
        return Self(resolution: resolution, candidates: candidates.map { $0.over(link) }, refusedRoute: refusedRoute)
    }

    /// The link itself was refused (the policy's scheme, host or user-info rules, or a web message
    /// the policy would leave to the system, which a script may not open), not by a route's sources.
    package var isDeniedByPolicy: Bool {
        if case .forbidden = resolution { return refusedRoute == nil }
        return false
    }
}

/// Counts how often a resolver applies policy and walks the trie: the test that pins one
/// resolution per link (and one per redirect target) reads it.
package final class ResolutionProbe: Sendable {
    private let resolutions = Locked(0)

    func count() { resolutions.withLock { $0 += 1 } }

    var total: Int { resolutions.withLock { $0 } }
}
