extension LinkPolicy {
    /// Whether a redirect target taken from a link (`next=`, `redirect=`, `return_to=`) stays inside
    /// the app: a path of its own (`/orders/1`), a link with one of its schemes, or an `https` link
    /// on one of its associated domains at the default port (never plain `http`). Everything else is
    /// an open redirect and is refused: other hosts and ports, `//host` and `/\host` (browsers read
    /// both as another host), backslashes, user info, control characters and white space (also
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
            // A path: the second character must not turn it into a host, and the path must parse
            // as the app's own (no backslash, control character or bad escape anywhere).
            let second = target.utf8.dropFirst().first
            guard second != UInt8(ascii: "/"), second != UInt8(ascii: "\\") else { return false }
            guard let link = try? DeepLink("waypoint-own-path://" + target.dropFirst(), limits: limits) else {
                return false
            }
            // `%2F%2Fevil.com` decodes to a segment that still must not look like a host, and a
            // decoded tab or line break (`/%09/evil.com`) is dropped by a WHATWG URL parser,
            // which then reads `//evil.com`.
            return link.pathSegments.allSatisfy { segment in
                segment.unicodeScalars.allSatisfy { scalar in
                    scalar != "/" && scalar != "\\" && !scalar.properties.isWhitespace
                        && scalar.properties.generalCategory != .control
                }
            }
        }
        guard let link = try? DeepLink(target, limits: limits), evaluate(link) == .allow else { return false }
        if link.isWeb { return isUniversalLink(link) }
        return schemes.contains(link.scheme ?? "")
    }

    /// Why a redirect target is not followed, for people.
    static func notOwnDestination(_ target: String) -> String {
        "'\(target)' is not one of the app's own destinations; following it would be an open redirect"
    }
}
