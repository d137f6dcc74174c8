import Foundation
import Waypoint

/// A long Firebase Dynamic Link visited on a short-link domain
/// (`https://links.example.com/?link=https%3A%2F%2Fread.example.com%2Fb%2F42&isi=…&apn=…`), as apps,
/// emails and posters carry them: made without asking Firebase for a short link, so no import can
/// bring them in. With `serve --long-links` or the manifest's `shortLinks.longLinks`, the service
/// answers one as it answers a short link with the same fields (``DynamicLink``'s mapping), made for
/// the visit and never stored.
///
/// Anyone can write a long link, where only an admin writes a short one; so a long link may lead
/// only where the team's own links lead:
/// - its deep link (`link`) resolves to a route of the manifest, as a short link's must;
/// - its web targets (`ifl`, `afl`, `ofl`) are `https` on the manifest's domains, the short-link
///   domains or the hosts `serve --long-link-host` adds: never an open redirect on the team's domain;
/// - its stores (`isi`, `apn`) are the service's App Store id and the manifest's Android package:
///   a long link naming a store the service has no id for of its own is not followed either;
/// - its preview image (`si`) is shown only on the manifest's domains (left out elsewhere, as an import does).
///
/// ```swift
/// let rule = try LongLink(rules: rules, hosts: ["www.example.com"], appStoreID: "1234567890", playPackage: nil)
/// let link = try rule.link(query: "link=readapp%3A%2F%2Fbooks%2F7&ofl=https%3A%2F%2Fwww.example.com", on: "links.example.com", now: .now)
/// link.deepLink           // "readapp://books/7"
/// link.fallbacks.desktop  // "https://www.example.com"
/// link.isLongLink         // true: no code, never stored
/// ```
struct LongLink: Sendable {
    let rules: LinkRules
    /// Where a long link's web targets may lead: the manifest's domains, the short-link domains and
    /// the hosts `--long-link-host` adds.
    let allowedHosts: [DomainPattern]
    /// The service's own App Store id and Android package: a long link naming another (or one
    /// where the service has none) is refused rather than sent there from the team's domain.
    let appStoreID: String?
    let playPackage: String?

    /// - Parameter hosts: more hosts web targets may lead to (`www.example.com`, `*.example.com`).
    /// - Throws: ``LinkServiceStartError`` for a host that is no host name, or a top-level domain
    ///   alone (`com`, `*.com`), which would let a long link lead anywhere.
    init(rules: LinkRules, hosts: [String], appStoreID: String?, playPackage: String?) throws(LinkServiceStartError) {
        let patterns = hosts.map { DomainPattern($0) }
        // A pattern matches its own domain (or, with `*.`, a subdomain) unless it is no host name.
        for (text, pattern) in zip(hosts, patterns)
        where !pattern.domain.contains(".")
            || !pattern.matches(pattern.includesSubdomains ? "x." + pattern.domain : pattern.domain)
        {
            throw LinkServiceStartError(
                "--long-link-host '\(text)' is not a host of a site of yours; write www.example.com or *.example.com."
            )
        }
        self.rules = rules
        self.allowedHosts = rules.domains + rules.linkDomains.all.map { DomainPattern($0) } + patterns
        self.appStoreID = appStoreID
        self.playPackage = playPackage
    }

    /// The link a visit of `query` on `domain` asks for.
    ///
    /// - Throws: ``LinkServiceError``: `invalidRequest` for a query without `link` or naming another
    ///   app, `deepLinkUnresolved` for a deep link that leads to no route, `urlNotAllowed` for a web
    ///   target off the allowed hosts; what a create would throw for anything else.
    func link(query: String, on domain: String, now: Date) throws(LinkServiceError) -> ShortLink {
        var input = try DynamicLink("https://\(domain)/?\(query)", domain: domain).input
        guard (input.deepLink?.utf8.count ?? 0) <= LinkRules.maxURLLength else {
            throw LinkServiceError(
                .invalidRequest,
                "The long link's deep link is over \(LinkRules.maxURLLength) bytes."
            )
        }
        if let fallbacks = input.fallbacks {
            try checkApp(fallbacks.appStoreID, is: appStoreID, parameter: "isi")
            try checkApp(fallbacks.playPackage, is: playPackage, parameter: "apn")
            // `web` is the deep link itself when it is https: a route's, so on the manifest's domains.
            let parameters = ["fallbacks.ios": "ifl", "fallbacks.android": "afl", "fallbacks.desktop": "ofl"]
            for (field, url) in fallbacks.urls {
                try rules.checkURL(
                    url,
                    field: parameters[field].map { "The long link's '\($0)'" } ?? field,
                    hosts: allowedHosts
                )
            }
        }
        _ = input.leaveOutForeignImage(rules, allowingImageHosts: false)
        var link = try rules.newLink(from: input, code: "", now: now)
        // The query is the link itself: none of it is a visit's to pass on.
        link.passQuery = false
        return link
    }

    private func checkApp(_ named: String?, is own: String?, parameter: String) throws(LinkServiceError) {
        guard let named, named != own else { return }
        let whose =
            own.map { "only this app's ('\($0)')" } ?? "the service knows no app's of its own to compare it with"
        throw LinkServiceError(
            .invalidRequest,
            "The long link's '\(parameter)' is '\(named)'; \(whose), so it is not followed from the team's domain."
        )
    }
}

extension ShortLink {
    /// Whether this is a long link's (``LongLink``): made for one visit, never stored, without a
    /// code. Its claim tokens carry its deep link instead of naming a code (``ClaimTokens``).
    var isLongLink: Bool { code.isEmpty }
}
