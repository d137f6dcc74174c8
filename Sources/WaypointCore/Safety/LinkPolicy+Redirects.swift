import Foundation

extension LinkPolicy {
    /// Whether a redirect target taken from a link (`next=`, `redirect=`, `return_to=`) stays inside
    /// the app: a path of its own (`/orders/1`), a link with one of its schemes, or an `https` link
    /// on one of its associated domains at the default port (never plain `http`). Everything else is
    /// an open redirect and is refused: other hosts and ports, `//host` and `/\host` (browsers read
    /// both as another host), empty and dot segments (`/.//host`, `/x/..//host`, which resolve to
    /// `//host`), backslashes, user info, control characters and white space (also
    /// percent-encoded, `/%09/evil.com`), `javascript:` and its kind, and anything that is not a link.
    ///
    /// ```swift
    /// policy.isOwnDestination("/orders/1")                        // true
    /// policy.isOwnDestination("https://example.com/orders/1")     // true
    /// policy.isOwnDestination("https://example.com@evil.com/")    // false
    /// policy.isOwnDestination("//evil.com/")                      // false
    /// policy.isOwnDestination("/%09/evil.com")                    // false
    /// policy.isOwnDestination("https://example.com:8443/")        // false
    /// ```
    public func isOwnDestination(_ target: String) -> Bool {
        if target.hasPrefix("/") {
            // A path: it must parse as the app's own (no backslash, control character or bad
            // escape anywhere), and no URL resolver may read another host into it.
            guard (try? DeepLink("waypoint-own-path://" + target.dropFirst(), limits: limits)) != nil else {
                return false
            }
            // Segment by segment as written: the router drops empty segments, but a URL resolver
            // keeps them and removes dot segments, so `//evil.com`, `/.//evil.com` and
            // `/x/..//evil.com` all become `//evil.com`, another host.
            let segments = target.prefix { $0 != "?" && $0 != "#" }.dropFirst()
                .split(separator: "/", omittingEmptySubsequences: false)
            for (index, segment) in segments.enumerated() {
                guard !segment.isEmpty else {
                    if index == segments.count - 1 { continue }  // a trailing slash
                    return false
                }
                let decoded = percentDecoded(segment)
                guard decoded != ".", decoded != ".." else { return false }
                // `%2F%2Fevil.com` decodes to a segment that still must not look like a host, and
                // a decoded tab or line break (`/%09/evil.com`) is dropped by a WHATWG URL parser,
                // which then reads `//evil.com`.
                let plain = decoded.unicodeScalars.allSatisfy { scalar in
                    scalar != "/" && scalar != "\\" && !scalar.properties.isWhitespace
                        && scalar.properties.generalCategory != .control
                }
                guard plain else { return false }
            }
            return true
        }
        guard let link = try? DeepLink(target, limits: limits), evaluate(link) == .allow else { return false }
        // A target is loaded as well as routed: `https` only, never a universal link over plain `http`.
        if link.isWeb {
            return Self.isSecureOrigin(scheme: link.scheme, host: link.host, port: link.port, on: associatedDomains)
        }
        return schemes.contains(link.scheme ?? "")
    }

    /// What a redirect target read from a link is: the one rule that both
    /// ``LinkResolver/resolve(redirect:from:)`` and a handler's `HandlerResult.redirect(to:)`
    /// follow. The target is parsed with the outer link's source and scene.
    package enum RedirectTarget {
        /// One of the app's own destinations: run it.
        case own(DeepLink)
        /// Another site or app: an open redirect, with the reason for people.
        case foreign(DeepLink, reason: String)
        /// Not a link.
        case invalid(WaypointError)
    }

    package func redirectTarget(_ target: String, from outer: DeepLink) -> RedirectTarget {
        var link: DeepLink
        do {
            link = try DeepLink(target, source: outer.source, limits: limits)
        } catch {
            return .invalid(error)
        }
        link.scene = outer.scene
        guard isOwnDestination(target) else {
            return .foreign(
                link,
                reason: "'\(target)' is not one of the app's own destinations; following it would be an open redirect"
            )
        }
        return .own(link)
    }
}
