import Foundation
import Waypoint

/// Builds the apple-app-site-association a domain must serve for the manifest's universal-link
/// routes, in the iOS 13+ `components` form.
///
/// Each route expansion becomes a path component: literals as they are (percent-encoded), each
/// parameter and `*` as `?*` (one or more characters), `**` as `*` (with the path before it as a
/// component of its own, since `**` may capture nothing). `universalLinks.exclude` patterns come
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
        var seen: Set<String> = []
        for route in manifest.routes {
            guard Self.isUniversal(route, domain: domain) else { continue }
            for expansion in route.pattern.expansions {
                for path in Self.paths(for: expansion) where seen.insert(path).inserted {
                    components.append(AASADocument.Component(path: path, comment: route.name))
                }
            }
        }
        if let shortLinks = manifest.shortLinks, shortLinks.isShortLinkDomain(domain) {
            if shortLinks.longLinks { components.append(Self.longLinkComponent) }
            components += Self.shortLinkComponents
        }
        var document = AASADocument(details: [AASADocument.Details(appIDs: manifest.appIDs, components: components)])
        if !manifest.policy.caseSensitive { document.defaults.caseSensitive = false }
        document.substitutionVariables = manifest.universalLinks.substitutionVariables
        return document
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

    static func paths(for expansion: [PatternSegment]) -> [String] {
        var pieces: [String] = []
        var paths: [String] = []
        for segment in expansion {
            switch segment {
            case .literal(let text):
                pieces.append(text.addingPercentEncoding(withAllowedCharacters: literalAllowed) ?? text)
            case .parameter, .wildcard:
                pieces.append("?*")
            case .catchAll:
                paths.append("/" + pieces.joined(separator: "/"))
                pieces.append("*")
            }
        }
        paths.append("/" + pieces.joined(separator: "/"))
        return paths
    }
}
