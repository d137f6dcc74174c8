extension LinkPolicy {
    /// Whether a redirect target taken from a link (`next=`, `redirect=`, `return_to=`) stays inside
    /// the app: a path of its own (`/orders/1`), a link with one of its schemes, or an `https` link
    /// on one of its associated domains (never plain `http`). Everything else is an open redirect and is refused:
    /// other hosts, `//host` and `/\host` (browsers read both as another host), backslashes,
    /// user info, control characters, `javascript:` and its kind, and anything that is not a link.
    ///
    /// ```swift
    /// policy.isOwnDestination("/orders/1")                        // true
    /// policy.isOwnDestination("https://example.com/orders/1")     // true
    /// policy.isOwnDestination("https://example.com@evil.com/")    // false
    /// policy.isOwnDestination("//evil.com/")                      // false
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
            // `%2F%2Fevil.com` decodes to a first segment that still must not look like a host.
            return link.pathSegments.allSatisfy { !$0.contains("/") && !$0.contains("\\") }
        }
        guard let link = try? DeepLink(target, limits: limits), evaluate(link) == .allow else { return false }
        if link.isWeb { return isUniversalLink(link) }
        return schemes.contains(link.scheme ?? "")
    }
}
