import WaypointManifest

/// The hosts short links are shared under (the manifest's `shortLinks.domains`): which one a link
/// is on, its URL, and which host a visit must name. One rule for the API, the pages and visits.
///
/// ```swift
/// let domains = LinkDomains(ShortLinkSettings(domains: ["links.example.com", "go.example.com"]))
/// domains.url(of: link)   // "https://links.example.com/spring" for a link that names no domain
/// ```
struct LinkDomains: Sendable, Hashable {
    /// Lowercased, without a trailing dot, in the manifest's order.
    let all: [String]

    init(_ settings: ShortLinkSettings?) {
        all = (settings?.domains ?? []).map(Self.normalized)
    }

    /// A link's domain unless it names another: the first listed.
    var first: String? { all.first }

    /// The listed domain `text` names (`Go.Example.com.` names `go.example.com`), or nil.
    func domain(named text: String) -> String? {
        let wanted = Self.normalized(text)
        return all.first { $0 == wanted }
    }

    /// The domain `link` is on: its own while the manifest still lists it, else the first.
    func domain(of link: ShortLink) -> String {
        link.domain.flatMap(domain(named:)) ?? first ?? ""
    }

    /// `https://<domain>`, the base of the link's URL and of its claim URLs.
    func baseURL(of link: ShortLink) -> String { "https://" + domain(of: link) }

    /// The short link: `https://<domain>/<code>`.
    func url(of link: ShortLink) -> String { baseURL(of: link) + "/" + link.code }

    static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }
}
