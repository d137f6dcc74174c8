import Foundation
import Waypoint

/// Builds the apple-app-site-association a domain must serve for the manifest's universal-link
/// routes, in the iOS 13+ `components` form.
///
/// Each route expansion becomes a path component: literals as they are (percent-encoded), each
/// parameter and `*` as `?*` (one or more characters), `**` as `*` (with the path before it as a
/// component of its own, since `**` may capture nothing). `?*` matches across slashes, so each path
/// comes after excludes that keep its parameters to one segment each, deepest routes first, and a
/// path ending in a literal also opens with a trailing slash. `universalLinks.exclude` patterns come
/// first as `exclude` components. A case-insensitive router sets `caseSensitive: false` in the
/// file's defaults. On each of the manifest's `shortLinks.domains`, every path but the link service's own
/// follows the routes, so a short link opens the app; with `shortLinks.longLinks`, so does the
/// root with a `link` query item, a long Dynamic Link.
///
/// ```swift
/// let json = AASAGenerator(manifest: manifest).document(for: "example.com").json
/// ```
package struct AASAGenerator: Sendable {
    package let manifest: Manifest

    package init(manifest: Manifest) { self.manifest = manifest }

    /// Whether a route takes universal links on `domain`.
    static func isUniversal(_ route: ManifestRoute, domain: String) -> Bool {
        guard route.sources?.contains(.universalLink) ?? true else { return false }
        let pattern = route.pattern
        switch pattern.scheme {
        case nil: return true
        case "https":
            guard let host = pattern.host else { return true }
            let sample = domain.hasPrefix("*.") ? "www." + domain.dropFirst(2) : domain
            return host.matches(String(sample)) || DomainPattern(domain).overlaps(host)
        default: return false
        }
    }

    package func document(for domain: String) -> AASADocument {
        var components: [AASADocument.Component] = manifest.universalLinks.exclude.map {
            AASADocument.Component(path: $0, exclude: true, comment: "excluded")
        }
        components += routeComponents(for: domain)
        if let shortLinks = manifest.shortLinks, shortLinks.isShortLinkDomain(domain) {
            if shortLinks.longLinks { components.append(Self.longLinkComponent) }
            components += Self.shortLinkComponents
        }
        var document = AASADocument(details: [AASADocument.Details(appIDs: manifest.appIDs, components: components)])
        if !manifest.policy.caseSensitive { document.defaults.caseSensitive = false }
        document.substitutionVariables = manifest.universalLinks.substitutionVariables
        return document
    }

    /// The routes' components. In a component `?*` and `*` match across slashes, where a route's
    /// parameter takes one segment: `/products/?*` alone would open the app for
    /// `/products/12/reviews`, which no route handles, and the page would be lost. So each path is
    /// preceded by an exclude for every way one of its `?*` can span a slash (`/products/?*/?*`),
    /// and the paths go deepest first, so a deeper route's path comes before the excludes of a
    /// shallower one. Catch-all routes (`**`) come before all of them: they take any depth. A path
    /// ending in a literal gets its trailing-slash form too (`/orders/`), which the router reads as
    /// `/orders`.
    private func routeComponents(for domain: String) -> [AASADocument.Component] {
        var catchAll: [AASADocument.Component] = []
        var paths: [(pieces: [String], route: String)] = []
        for route in manifest.routes where Self.isUniversal(route, domain: domain) {
            for expansion in route.pattern.expansions {
                if expansion.contains(where: { if case .catchAll = $0 { true } else { false } }) {
                    catchAll += Self.paths(for: expansion).map { AASADocument.Component(path: $0, comment: route.name) }
                } else {
                    paths.append((Self.pieces(of: expansion), route.name))
                }
            }
        }
        var seen: Set<String> = []
        var components = catchAll.filter { seen.insert($0.path ?? "").inserted }
        // Stable: routes of one depth keep the manifest's order.
        let deepestFirst = paths.enumerated().sorted {
            ($0.element.pieces.count, $1.offset) > ($1.element.pieces.count, $0.offset)
        }.map(\.element)
        for (pieces, route) in deepestFirst {
            let path = "/" + pieces.joined(separator: "/")
            guard !seen.contains(path) else { continue }
            for index in pieces.indices where pieces[index] == "?*" {
                var spanning = pieces
                spanning[index] = "?*/?*"
                let excluded = "/" + spanning.joined(separator: "/")
                if seen.insert(excluded).inserted {
                    components.append(
                        AASADocument.Component(
                            path: excluded,
                            exclude: true,
                            comment: "\(route): a parameter is one segment"
                        )
                    )
                }
            }
            seen.insert(path)
            components.append(AASADocument.Component(path: path, comment: route))
            if let last = pieces.last, last != "?*", seen.insert(path + "/").inserted {
                components.append(AASADocument.Component(path: path + "/", comment: route))
            }
        }
        return components
    }

    /// On the short-link domain, after the routes: the service's own paths never open the app, and
    /// every other path (a short link's code) does, for the app to expand it.
    static let shortLinkComponents: [AASADocument.Component] =
        ShortLinkSettings.servicePaths.flatMap { path in
            [
                AASADocument.Component(path: "/\(path)", exclude: true, comment: "Waypoint Links"),
                AASADocument.Component(path: "/\(path)/*", exclude: true, comment: "Waypoint Links"),
            ]
        } + [AASADocument.Component(path: "/?*", comment: "short links")]

    /// On the short-link domain with `shortLinks.longLinks`: a long Dynamic Link, the domain's root
    /// with a non-empty `link` query item, opens the app, which reads it as the service does. Case
    /// sensitive whatever the router is: the app and the service read `link` only, not `LINK`.
    static let longLinkComponent: AASADocument.Component = {
        var component = AASADocument.Component(path: "/", query: .items(["link": "?*"]), comment: "long Dynamic Links")
        component.settings.caseSensitive = true
        return component
    }()

    /// What a literal keeps unescaped in a component: `*`, `?` and `$` are wildcards and variables there.
    private static let literalAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?*$"))

    /// An expansion's pieces, one a segment: literals percent-encoded, parameters and `*` as `?*`,
    /// `**` as `*`.
    static func pieces(of expansion: [PatternSegment]) -> [String] {
        expansion.map { segment in
            switch segment {
            case .literal(let text): text.addingPercentEncoding(withAllowedCharacters: literalAllowed) ?? text
            case .parameter, .wildcard: "?*"
            case .catchAll: "*"
            }
        }
    }

    /// A catch-all expansion's paths: the one up to `**` (which may capture nothing), then with it.
    static func paths(for expansion: [PatternSegment]) -> [String] {
        let pieces = pieces(of: expansion)
        guard let star = expansion.firstIndex(where: { if case .catchAll = $0 { true } else { false } }) else {
            return ["/" + pieces.joined(separator: "/")]
        }
        return ["/" + pieces[..<star].joined(separator: "/"), "/" + pieces[...star].joined(separator: "/")]
    }
}
