import Foundation
import Waypoint
import WaypointManifest

/// What a short link may hold, decided from the manifest in one place: the code rules, the deep
/// link that must resolve to a route, the fallbacks (any `https` URL an admin chose: the service
/// redirects only where a link's author said, so it is never an open redirect), and the hosts a
/// preview image may be on (the manifest's domains).
///
/// ```swift
/// let rules = try LinkRules(manifest: manifest)
/// try rules.route(for: "https://read.example.com/b/42")  // "web.book"
/// try rules.route(for: "https://evil.example/x")         // throws deepLinkUnresolved
/// ```
public struct LinkRules: Sendable {
    public let manifest: Manifest
    let resolver: LinkResolver<ManifestRoute>
    let domains: [DomainPattern]
    /// Where a preview image may be: the manifest's domains and `shortLinks.imageHosts`.
    let imageHosts: [DomainPattern]
    /// The short-link domains a link may be on.
    let linkDomains: LinkDomains

    /// The most bytes a code may have.
    public static let maxCodeLength = 64
    /// Paths of the service itself, which no code may take.
    public static let reservedCodes = Set(ShortLinkSettings.servicePaths)
    /// Codes a new link may not take because the admin API answers them itself: `GET
    /// /api/links/export` is the export. A link made before keeps working (its visits, the admin
    /// page, `PATCH` and `DELETE`); only the API's `GET` of it is the export's.
    public static let apiWords: Set = ["export"]
    static let maxTitleLength = 200
    /// The longest fallback URL: a browser takes far more, but a redirect to a longer one is a
    /// mistake or an attack, and the row and the `Location` header stay small.
    static let maxURLLength = 2048
    static let maxDescriptionLength = 500

    public init(manifest: Manifest) throws(ManifestError) {
        self.manifest = manifest
        self.resolver = try manifest.makeResolver()
        self.domains = manifest.domains.map { DomainPattern($0) }
        self.imageHosts = domains + (manifest.shortLinks?.imageHosts ?? []).map { DomainPattern($0) }
        self.linkDomains = LinkDomains(manifest.shortLinks)
    }

    /// The short-link domain a request names, as stored (lowercased).
    ///
    /// - Throws: `invalidRequest` for a host that is not one of the manifest's short-link domains.
    func linkDomain(_ text: String) throws(LinkServiceError) -> String {
        guard let domain = linkDomains.domain(named: text) else {
            let listed =
                linkDomains.all.isEmpty
                ? "none (the manifest has no 'shortLinks')" : linkDomains.all.joined(separator: ", ")
            throw LinkServiceError(
                .invalidRequest,
                "'domain' is one of the manifest's short-link domains: \(listed); '\(text)' is not."
            )
        }
        return domain
    }

    /// A code as stored and looked up: lowercased, so `Sale` and `sale` are one code.
    ///
    /// - Throws: `invalidCode` unless it is 1 to 64 ASCII letters, digits, `-` or `_` and not a
    ///   path of the service. Anything else (`/`, `..`, `%`, a Cyrillic `а` that looks like `a`)
    ///   could reach another code or pass for one.
    public static func normalizedCode(_ text: String) throws(LinkServiceError) -> String {
        // ASCII letters alone are lowered: Unicode lowers the Kelvin sign (U+212A) to `k`, which
        // would then pass the check below as a code character.
        let code = String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        guard !code.isEmpty, code.utf8.count <= maxCodeLength else {
            throw LinkServiceError(
                .invalidCode,
                "A code has 1 to \(maxCodeLength) characters; '\(text)' has \(text.count)."
            )
        }
        if let bad = code.unicodeScalars.first(where: { !isCodeCharacter($0) }) {
            throw LinkServiceError(
                .invalidCode,
                "A code holds only ASCII letters, digits, '-' and '_'; '\(text)' has \(describe(bad))."
            )
        }
        guard !reservedCodes.contains(code) else {
            throw LinkServiceError(.invalidCode, "'\(code)' is a path of the service itself; choose another code.")
        }
        return code
    }

    static func isCodeCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "0"..."9", "-", "_": true
        default: false
        }
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        return scalar.isASCII && scalar.value >= 0x21 && scalar.value < 0x7F ? "'\(scalar)'" : hex
    }

    /// The name of the manifest route the deep link resolves to, as the app will receive it: an
    /// `https` link on a manifest domain as a universal link, any other scheme as a custom-scheme URL.
    ///
    /// - Throws: `deepLinkUnresolved` with the resolver's reason.
    public func route(for deepLink: String) throws(LinkServiceError) -> String {
        let link: DeepLink
        do {
            link = try DeepLink(deepLink, limits: resolver.policy.limits)
        } catch {
            throw LinkServiceError(.deepLinkUnresolved, "The deep link is not a link: \(error.description)")
        }
        guard link.scheme != nil else {
            throw LinkServiceError(
                .deepLinkUnresolved,
                "The deep link '\(deepLink)' has no scheme; write it as the app receives it, such as "
                    + examples() + "."
            )
        }
        let source: LinkSource = link.isWeb ? .universalLink : .urlScheme
        switch resolver.resolve(deepLink, source: source) {
        case .matched(let match):
            return match.route.name
        case .notFound:
            throw LinkServiceError(.deepLinkUnresolved, "No route of the manifest matches '\(deepLink)'.")
        case .forbidden(_, let reason):
            throw LinkServiceError(.deepLinkUnresolved, "The app would refuse '\(deepLink)': \(reason)")
        case .passThrough:
            throw LinkServiceError(
                .deepLinkUnresolved,
                "'\(deepLink)' is not a link of this app; use " + examples() + "."
            )
        case .invalid(let error):
            throw LinkServiceError(.deepLinkUnresolved, "The deep link is not a link: \(error.description)")
        }
    }

    private func examples() -> String {
        let forms =
            manifest.domains.prefix(1).map { "https://\($0.replacingOccurrences(of: "*.", with: "www."))/…" }
            + manifest.schemes.prefix(1).map { "\($0)://…" }
        return forms.isEmpty ? "a link of one of the manifest's routes" : forms.joined(separator: " or ")
    }

    /// The deep link the app receives for `link` with a visit's `query` passed on
    /// (``QueryPassthrough``): merged while the merged link still resolves to the link's route,
    /// else the link as saved. A visitor's query never changes where the app goes, nor makes a link
    /// the app would refuse (too long, a parameter of the wrong type).
    ///
    /// ```swift
    /// rules.deepLink(of: link, passing: "utm_source=news")   // "readapp://books/42?utm_source=news"
    /// ```
    func deepLink(of link: ShortLink, passing query: String?) -> String { passing(query, to: link).deepLink }

    /// What a visit's `query` does for `link`: the items passed on to its web targets, the deep
    /// link the app receives, and why any of the query was left behind.
    func passing(_ query: String?, to link: ShortLink) -> PassedQuery {
        let (passed, leftBehind) = QueryPassthrough.split(query, by: link)
        let merged = QueryPassthrough.merge(passed, into: link.deepLink)
        let keepsRoute = merged == link.deepLink || (try? route(for: merged)) == link.route
        return PassedQuery(
            passed: passed,
            deepLink: keepsRoute ? merged : link.deepLink,
            leftBehind: leftBehind,
            changesRoute: !keepsRoute
        )
    }

    /// A visit's query, as ``passing(_:to:)`` passes it on.
    struct PassedQuery: Sendable, Hashable {
        /// The items passed on to the link's web targets and carried by its claim token, or nil.
        var passed: String?
        /// The deep link the app receives.
        var deepLink: String
        /// Why some items went nowhere (``QueryPassthrough/split(_:by:)``), or nil.
        var leftBehind: QueryPassthrough.LeftBehind?
        /// Whether the passed items would have changed the deep link's route, so the app gets the
        /// link as saved.
        var changesRoute: Bool

        /// What of the query an answer that reaches the app (a page, a store) leaves behind: the
        /// items ``QueryPassthrough/split(_:by:)`` refused, else the deep link's loss.
        var appLeftBehind: QueryPassthrough.LeftBehind? { leftBehind ?? (changesRoute ? .changesRoute : nil) }
    }

    /// Checks every URL and text of the fallbacks and the preview.
    public func check(_ fallbacks: ShortLink.Fallbacks, _ preview: ShortLink.Preview?) throws(LinkServiceError) {
        if let id = fallbacks.appStoreID, !Self.isAppStoreNumber(id) {
            throw LinkServiceError(
                .invalidRequest,
                "fallbacks.appStoreID is the app's numeric App Store id; '\(id)' is not."
            )
        }
        if let package = fallbacks.playPackage, !Self.isPackageName(package) {
            throw LinkServiceError(
                .invalidRequest,
                "fallbacks.playPackage is an Android package name such as com.example.app; '\(package)' is not."
            )
        }
        for (field, url) in fallbacks.urls { try Self.checkFallbackURL(url, field: field) }
        guard let preview else { return }
        if let image = preview.imageURL { try checkImageURL(image) }
        try checkText(preview.title, field: "preview.title", limit: Self.maxTitleLength)
        try checkText(preview.description, field: "preview.description", limit: Self.maxDescriptionLength)
    }

    /// A fallback: an `https` URL anywhere, without user info (`https://bank.example@evil.example/`
    /// reads as the bank), raw control, invisible or direction-changing characters (percent-encoded
    /// ones are the target site's business), at most ``maxURLLength`` bytes.
    static func checkFallbackURL(_ text: String, field: String) throws(LinkServiceError) {
        guard text.utf8.count <= maxURLLength else {
            throw LinkServiceError(
                .urlNotAllowed,
                "\(field) has \(text.utf8.count) bytes; a fallback URL has at most \(maxURLLength)."
            )
        }
        let link: DeepLink
        do {
            link = try DeepLink(text)
        } catch {
            throw LinkServiceError(.urlNotAllowed, "\(field) is not a URL: \(error.description)")
        }
        guard link.scheme == "https", let host = link.host, !host.isEmpty else {
            throw LinkServiceError(
                .urlNotAllowed,
                "\(field) must be an https URL, such as https://www.example.com/spring; '\(text)' is not."
            )
        }
        guard !link.hasUserInfo else {
            throw LinkServiceError(
                .urlNotAllowed,
                "\(field) holds a user name before '@', which makes the URL read as another site; remove it."
            )
        }
    }

    /// Whether a preview image is one a link may have (`https`, default port, on the manifest's
    /// domains): the import drops one that is not, instead of refusing its whole link.
    /// Whether a link may show `url` as its preview image; with `onImageHosts` false, only on the
    /// manifest's own domains (a long link, which anyone can write).
    func allowsPreviewImage(_ url: String, onImageHosts: Bool = true) -> Bool {
        let hosts = onImageHosts ? imageHosts : domains
        return (try? checkURL(url, field: "preview.imageURL", hosts: hosts)) != nil
    }

    /// A preview image: `https` on the manifest's domains or `shortLinks.imageHosts`. Every chat app
    /// that shows the link fetches it, so it is on hosts the team named, not wherever a link says.
    func checkImageURL(_ text: String) throws(LinkServiceError) {
        try checkURL(
            text,
            field: "preview.imageURL",
            hosts: imageHosts,
            why: "the manifest's domains and shortLinks.imageHosts, where a CDN of the team's is listed"
        )
    }

    /// An `https` URL at the default port, without user info, on one of `hosts`, `why` saying why
    /// only those.
    func checkURL(
        _ text: String,
        field: String,
        hosts: [DomainPattern],
        why: String = "so the service never sends visitors elsewhere"
    ) throws(LinkServiceError) {
        let allowed = hosts.map(\.description).joined(separator: ", ")
        guard let link = try? DeepLink(text), link.scheme == "https", let host = link.host,
            !link.hasUserInfo, link.port == nil || link.port == 443
        else {
            throw LinkServiceError(.urlNotAllowed, "\(field) must be an https URL on \(allowed); '\(text)' is not.")
        }
        guard hosts.contains(where: { $0.matches(host) }) else {
            throw LinkServiceError(
                .urlNotAllowed,
                "\(field) may only lead to \(allowed) (\(why)); '\(host)' is not one."
            )
        }
    }

    /// Text shown in pages and previews: bounded, no control characters (a line break in a title
    /// could end a header or a meta tag early where one is written carelessly), and no invisible or
    /// direction-changing ones (bidi overrides, zero-width spaces and joiners, soft hyphens).
    private func checkText(_ text: String?, field: String, limit: Int) throws(LinkServiceError) {
        guard let text else { return }
        guard text.count <= limit else {
            throw LinkServiceError(.invalidRequest, "\(field) has \(text.count) characters; at most \(limit).")
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw LinkServiceError(.invalidRequest, "\(field) holds a control character (a line break, a tab…).")
        }
        // Invisible and direction-changing characters (U+202E turns "gnp.exe" into "exe.png" on
        // screen; a zero-width space hides in a brand name): a preview must read as it is.
        if let hidden = text.unicodeScalars.first(where: { $0.properties.generalCategory == .format }) {
            let code = String(hidden.value, radix: 16, uppercase: true)
            throw LinkServiceError(
                .invalidRequest,
                "\(field) holds an invisible or direction-changing character (U+"
                    + String(repeating: "0", count: max(0, 4 - code.count)) + code
                    + "); remove it, so the text reads on screen as it is written."
            )
        }
    }

    /// Whether `text` is a number as App Store ids and App Store Connect provider tokens are: 1 to
    /// 20 ASCII digits, the first not `0` (both count from 1, and neither is written with a leading zero).
    static func isAppStoreNumber(_ text: String) -> Bool {
        !text.isEmpty && text.first != "0" && text.utf8.count <= 20 && text.allSatisfy(\.isASCIIDigit)
    }

    static func isPackageName(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, text.utf8.count <= 255 else { return false }
        return parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first)
            else {
                return false
            }
            return part.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
            }
        }
    }

    /// The latest date the service stores: the last second of the year 9999. Past it, a date no
    /// longer has four digits of year in RFC 3339, and the engines' date functions stop agreeing.
    public static let latestDate = Date(timeIntervalSince1970: 253_402_300_799)

    /// An expiry a request may set: after `now` (a link that expires at once is a mistake, never a
    /// way to disable it: delete it instead) and no later than ``latestDate``.
    static func checkExpiry(_ date: Date, now: Date, mayBePast: Bool = false) throws(LinkServiceError) {
        guard date <= latestDate else {
            throw LinkServiceError(
                .invalidRequest,
                "'expiresAt' is after 9999-12-31T23:59:59Z; give a date in the years 1970 to 9999, "
                    + "or leave it out for a link that does not expire."
            )
        }
        guard date > now || mayBePast else {
            throw LinkServiceError(
                .invalidRequest,
                "'expiresAt' (\(date.formatted(.iso8601))) is not in the future; give a later date, "
                    + "or delete the link to end it now."
            )
        }
    }

    /// Refuses a code whose short link the app's own routes take on `domain`. The association file
    /// sends `https://DOMAIN/CODE` to the app for such a route, and the app opens the route without
    /// asking the service (`WaypointLinksClient` resolves only what no route matches, by this same
    /// rule: anything the resolver does not call not found), while a visitor without the app gets
    /// this link: one link, two destinations. Checked where a link is stored, not for a long link's
    /// answer, which has no code.
    ///
    /// - Parameter chosen: whether someone chose the code; a generated one taken means a route takes
    ///   every code there.
    /// - Throws: `invalidCode` naming the route.
    func checkNotTakenByApp(_ code: String, on domain: String?, chosen: Bool) throws(LinkServiceError) {
        guard let domain else { return }
        let url = "https://\(domain)/\(code)"
        let resolution = resolver.resolve(url, source: .universalLink)
        if case .notFound = resolution { return }
        let route = resolution.match.map { "the route '\($0.route.name)'" } ?? "one of its routes"
        let advice =
            chosen
            ? "choose another code, or put the link on another short-link domain"
            : "a route that takes every one-segment path there takes every short link too; pin it to the web host "
                + "(https://www.example.com/{slug}), or put the link on another short-link domain"
        throw LinkServiceError(
            .invalidCode,
            "The app opens \(url) with \(route) and never asks the service, so a visitor with the app would "
                + "not get this link; \(advice)."
        )
    }

    /// A new link from a create request; `code` is the custom code or a generated one.
    /// With `acceptingPastExpiry` (an import), an expiry in the past is taken as it is: the link
    /// comes in expired.
    public func newLink(
        from input: LinkInput,
        code: String,
        now: Date,
        acceptingPastExpiry: Bool = false
    ) throws(LinkServiceError) -> ShortLink {
        guard let deepLink = input.deepLink else {
            throw LinkServiceError(.invalidRequest, "A link needs 'deepLink': the link the app receives.")
        }
        guard !Self.apiWords.contains(code) else {
            throw LinkServiceError(
                .invalidCode,
                "'\(code)' is a path of the admin API (GET /api/links/\(code)); choose another code."
            )
        }
        let fallbacks = input.fallbacks ?? ShortLink.Fallbacks()
        try check(fallbacks, input.preview)
        if let expiresAt = input.expiresAt {
            try Self.checkExpiry(expiresAt, now: now, mayBePast: acceptingPastExpiry)
        }
        // Stored, not implied: a later change of the manifest's first domain moves no link.
        let domain = try input.domain.map { text throws(LinkServiceError) in try linkDomain(text) } ?? linkDomains.first
        return ShortLink(
            code: code,
            domain: domain,
            deepLink: deepLink,
            route: try route(for: deepLink),
            fallbacks: fallbacks,
            preview: input.preview,
            passQuery: input.passQuery ?? true,
            expiresAt: input.expiresAt,
            createdAt: now
        )
    }

    /// `link` with an update request applied: absent fields kept, `null` ones cleared.
    public func updated(_ link: ShortLink, with input: LinkInput, now: Date) throws(LinkServiceError) -> ShortLink {
        if let code = input.code, (try? Self.normalizedCode(code)) != link.code {
            throw LinkServiceError(.invalidRequest, "A link's code cannot change; create a new link instead.")
        }
        var result = link
        if let domain = input.domain {
            result.domain = try linkDomain(domain)
            if result.domain != link.domain { try checkNotTakenByApp(link.code, on: result.domain, chosen: true) }
        }
        if let deepLink = input.deepLink {
            result.route = try route(for: deepLink)
            result.deepLink = deepLink
        }
        if input.cleared.contains(.fallbacks) { result.fallbacks = ShortLink.Fallbacks() }
        if let fallbacks = input.fallbacks { result.fallbacks = fallbacks }
        if input.cleared.contains(.preview) { result.preview = nil }
        if let preview = input.preview { result.preview = preview }
        if let passQuery = input.passQuery { result.passQuery = passQuery }
        if input.cleared.contains(.expiresAt) { result.expiresAt = nil }
        if let expiresAt = input.expiresAt {
            try Self.checkExpiry(expiresAt, now: now)
            result.expiresAt = expiresAt
        }
        try check(result.fallbacks, result.preview)
        result.updatedAt = now
        return result
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
