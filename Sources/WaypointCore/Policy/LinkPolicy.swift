/// Which links the app accepts, refuses, or leaves to the system, and the size limits for parsing.
///
/// Evaluated before routing. Deny wins over allow and pass-through:
/// 1. `javascript:`, `data:`, `file:`, `vbscript:` and the ``deniedSchemes`` are forbidden, as are
///    web links with user info (`https://example.com@evil.com`) and ``deniedHosts``.
/// 2. ``passThroughSchemes`` and ``passThroughHosts`` are left to the system.
/// 3. A bare path (`/messages/1`) is the app's own.
/// 4. A web link is the app's when it is a universal link (``isUniversalLink(_:)``: `http` or
///    `https` on an associated domain); otherwise the system opens it.
/// 5. A custom scheme is the app's when it is one of ``schemes``; otherwise it is forbidden.
///
/// ```swift
/// let policy = LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com", "*.example.com"])
/// policy.evaluate(try DeepLink("myapp://messages/1"))     // .allow
/// policy.evaluate(try DeepLink("https://other.org/x"))    // .passThrough
/// policy.evaluate(try DeepLink("javascript:alert(1)"))    // .deny("the scheme 'javascript' is never opened")
/// ```
public struct LinkPolicy: Sendable, Hashable {
    /// The app's custom schemes, lowercase.
    public var schemes: Set<String>
    /// The app's associated domains (universal links).
    public var associatedDomains: [DomainPattern]
    /// Schemes refused in addition to `javascript`, `data`, `file` and `vbscript`, which are always refused.
    public var deniedSchemes: Set<String>
    /// Hosts refused even when associated.
    public var deniedHosts: [DomainPattern]
    /// Schemes that are not the app's to handle: the system opens them.
    public var passThroughSchemes: Set<String>
    /// Hosts that are not the app's to handle, even on an associated domain (a blog, a help centre).
    public var passThroughHosts: [DomainPattern]
    /// Size limits applied when text is parsed into a link.
    public var limits: LinkLimits

    /// Schemes no app link should ever open: they run code or read local files.
    private static let alwaysDeniedSchemes: Set<String> = ["javascript", "data", "file", "vbscript"]

    /// A policy with every value defaulted; by default nothing but bare paths is the app's.
    public init(
        schemes: Set<String> = [],
        associatedDomains: [DomainPattern] = [],
        deniedSchemes: Set<String> = [],
        deniedHosts: [DomainPattern] = [],
        passThroughSchemes: Set<String> = [],
        passThroughHosts: [DomainPattern] = [],
        limits: LinkLimits = .default
    ) {
        self.schemes = Set(schemes.map { $0.lowercased() })
        self.associatedDomains = associatedDomains
        self.deniedSchemes = Set(deniedSchemes.map { $0.lowercased() })
        self.deniedHosts = deniedHosts
        self.passThroughSchemes = Set(passThroughSchemes.map { $0.lowercased() })
        self.passThroughHosts = passThroughHosts
        self.limits = limits
    }

    /// What is wrong with a scheme as the app lists it, or `nil`: a letter, then letters, digits,
    /// `+`, `-` or `.` (RFC 3986), with no `:` or `//`. A scheme that breaks it matches no link.
    ///
    /// ```swift
    /// LinkPolicy.schemeProblem("myapp")     // nil
    /// LinkPolicy.schemeProblem("myapp://")  // "'myapp://' is not a scheme; write 'myapp' …"
    /// ```
    package static func schemeProblem(_ scheme: String) -> String? {
        // The link scanner's own byte rules, so a listed scheme is valid exactly when links can carry it.
        if let first = scheme.utf8.first, LinkScanner.isSchemeLetter(first),
            scheme.utf8.allSatisfy(LinkScanner.isSchemeByte)
        {
            return nil
        }
        let meant = scheme.split(separator: ":").first.map(String.init) ?? scheme
        let hint = meant != scheme && Self.schemeProblem(meant) == nil ? "write '\(meant)' (no ':' or '//'): " : ""
        return "'\(scheme)' is not a scheme; \(hint)a scheme is a letter, then letters, digits, '+', '-' and '.'."
    }

    /// What is wrong with a scheme as the app's own link scheme (a router's
    /// ``RouterConfiguration/linkScheme``, a built link's ``LinkStyle/scheme(_:)``), or `nil`: a
    /// scheme, and neither the web's (a custom-scheme link's first segment would be read as its
    /// host: `https://evil.com/x`) nor one no policy opens (`javascript`).
    ///
    /// ```swift
    /// LinkPolicy.appSchemeProblem("myapp")  // nil
    /// LinkPolicy.appSchemeProblem("https")  // "'https' is no custom scheme; …"
    /// ```
    package static func appSchemeProblem(_ scheme: String) -> String? {
        if let problem = schemeProblem(scheme) { return problem }
        let lowered = scheme.lowercased()
        guard lowered == "http" || lowered == "https" || alwaysDeniedSchemes.contains(lowered) else { return nil }
        return "'\(scheme)' is no custom scheme; an app's links are its own scheme's (myapp://…), or https on one of "
            + "its domains."
    }

    /// Checks what the app listed: every scheme a scheme and every domain a domain. A policy listing
    /// `myapp://` or `https://example.com` would refuse or pass on every link meant for the app, so
    /// a dispatcher is not built with one, a ``LinkResolver`` resolves every link as that mistake,
    /// and `LinkIntake.check()` reports it.
    ///
    /// ```swift
    /// try LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"]).check()  // passes
    /// try LinkPolicy(schemes: ["myapp://"]).check()
    /// // WaypointError invalidScheme: "The policy's schemes: 'myapp://' is not a scheme; write 'myapp' …"
    /// ```
    ///
    /// - Throws: ``WaypointError`` with code `invalidScheme` or `invalidHost`, naming the entry.
    public func check() throws(WaypointError) {
        func check(
            _ list: String,
            _ entries: [String],
            _ problem: (String) -> String?,
            _ code: WaypointError.Code
        ) throws(WaypointError) {
            for entry in entries {
                if let problem = problem(entry) {
                    throw WaypointError(code, input: entry, message: "The policy's \(list): \(problem)")
                }
            }
        }
        try check("schemes", Array(schemes).stablySorted(), Self.appSchemeProblem, .invalidScheme)
        try check("deniedSchemes", Array(deniedSchemes).stablySorted(), Self.schemeProblem, .invalidScheme)
        try check("passThroughSchemes", Array(passThroughSchemes).stablySorted(), Self.schemeProblem, .invalidScheme)
        try check("associatedDomains", associatedDomains.map(\.description), DomainPattern.problem, .invalidHost)
        try check("deniedHosts", deniedHosts.map(\.description), DomainPattern.shapeProblem, .invalidHost)
        try check("passThroughHosts", passThroughHosts.map(\.description), DomainPattern.shapeProblem, .invalidHost)
    }

    /// Decides what happens to a link before it is routed.
    public func evaluate(_ link: DeepLink) -> PolicyDecision {
        let scheme = link.scheme
        if let scheme, Self.alwaysDeniedSchemes.contains(scheme) {
            return .deny("the scheme '\(scheme)' is never opened")
        }
        if let scheme, deniedSchemes.contains(scheme) { return .deny("the scheme '\(scheme)' is denied") }
        if link.hasUserInfo { return .deny("links with user info (user@host) are refused") }
        let host = link.host
        if let host, deniedHosts.contains(where: { $0.matches(host) }) { return .deny("the host '\(host)' is denied") }
        if let scheme, passThroughSchemes.contains(scheme) { return .passThrough }
        if let host, passThroughHosts.contains(where: { $0.matches(host) }) { return .passThrough }
        guard let scheme else { return .allow }
        if link.isWeb { return isUniversalLink(link) ? .allow : .passThrough }
        guard schemes.contains(scheme) else {
            let known = Array(schemes).stablySorted().joined(separator: ", ")
            return .deny("the scheme '\(scheme)' is not one of the app's schemes (\(known.isEmpty ? "none" : known))")
        }
        return .allow
    }

    /// Whether `host` is one of the associated domains.
    public func isAssociated(_ host: String) -> Bool {
        associatedDomains.contains { $0.matches(host) }
    }

    /// Whether `link` is a universal link: `http` or `https` on an associated domain, at the
    /// scheme's default port. Apple: "because universal links are standard HTTP or HTTPS links, one
    /// URL works for both your website and your app" (Allowing apps and websites to link to your
    /// content); the association file is fetched over `https`, whatever the link's scheme. Where a
    /// page would be loaded or trusted (redirect targets, web-message origins) only `https` counts:
    /// `isSecureOrigin`.
    ///
    /// ```swift
    /// policy.isUniversalLink(try DeepLink("https://example.com/pay"))  // true
    /// policy.isUniversalLink(try DeepLink("http://example.com/pay"))   // true
    /// policy.isUniversalLink(try DeepLink("https://example.com:8443/pay"))  // false
    /// policy.isUniversalLink(try DeepLink("https://other.org/pay"))   // false
    /// ```
    public func isUniversalLink(_ link: DeepLink) -> Bool {
        guard link.isWeb, let host = link.host else { return false }
        let defaultPort = link.scheme == "https" ? 443 : 80
        guard link.port == nil || link.port == defaultPort else { return false }
        return isAssociated(host)
    }

    /// The one rule for "an `https` origin of these domains", used for redirect targets and
    /// web-message origins, where a page is loaded or trusted: scheme `https`, a host the domains match, and the default
    /// port (none, or 443). The system verifies an association on port 443 only, so
    /// `https://example.com:8443` is another server.
    package static func isSecureOrigin(
        scheme: String?,
        host: String?,
        port: Int?,
        on domains: [DomainPattern]
    ) -> Bool {
        guard scheme?.lowercased() == "https", let host, port == nil || port == 443 else { return false }
        return domains.contains { $0.matches(host) }
    }
}

/// What policy decided about a link.
///
/// ```swift
/// let policy = LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"])
/// policy.evaluate(try DeepLink("myapp://pay"))           // .allow
/// policy.evaluate(try DeepLink("https://apple.com/x"))   // .passThrough
/// ```
public enum PolicyDecision: Sendable, Hashable {
    /// The link is the app's: route it.
    case allow
    /// The link is refused, with the reason for people.
    case deny(String)
    /// Not the app's: let the system (Safari, another app) handle it.
    case passThrough
}
