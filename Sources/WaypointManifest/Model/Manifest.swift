import Foundation
import Waypoint

/// A route manifest: everything about how links reach an app, in one file the app can ship in
/// its bundle and the `waypoint` tool can check and generate from.
///
/// ```yaml
/// schemes: [myapp]
/// domains: [example.com]
/// routes:
///   - name: messages.detail
///     pattern: /messages/{id:int}
/// ```
///
/// ```swift
/// let manifest = try ManifestLoader.load(file: "waypoint.yaml")
/// let resolver = try manifest.makeResolver()
/// resolver.resolve("myapp://messages/1").match?.route.name // "messages.detail"
/// ```
public struct Manifest: Sendable {
    /// The app's custom URL schemes.
    public var schemes: [String] = []
    /// Associated domains for universal links (`example.com`, `*.example.com`).
    public var domains: [String] = []
    /// App IDs (`TEAMID.bundle.id`) for apple-app-site-association.
    public var appIDs: [String] = []
    /// The Android app, for assetlinks.json.
    public var android: AndroidApp?
    /// The routes, in the order written.
    public var routes: [ManifestRoute] = []
    /// How notification payloads become links: link keys, push providers, rules, categories.
    public var notifications = NotificationSettings()
    /// Home-screen quick actions, in display order.
    public var quickActions: [ManifestQuickAction] = []
    /// How many quick actions the system shows.
    public var quickActionLimit = 4
    /// User activity type → link template (Handoff, Spotlight).
    public var activities: [(type: String, link: LinkTemplate)] = []
    /// Which web pages may send the app links, and the message handlers they may use.
    public var webView = WebViewSettings()
    /// What links are refused or passed to the system, and the size limits.
    public var policy = ManifestPolicy()
    /// Extra apple-app-site-association settings.
    public var universalLinks = UniversalLinkSettings()
    /// How long a link may wait on each barrier's check, in seconds, by barrier name (`barriers:
    /// {login: {wait: 1h}}`): a login the user takes their time over still lands. The app supplies
    /// the barriers themselves; building the dispatcher fails for a name it did not supply.
    public var barrierWaits: [String: BarrierWait] = [:]
    /// Where Waypoint Links serves the app's short links; `nil` when the app has none.
    public var shortLinks: ShortLinkSettings?
    /// The file it was read from, for messages.
    public var file = "waypoint.yaml"

    /// An empty manifest, as `ManifestLoader` starts one: `Manifest().file` is `"waypoint.yaml"`.
    public init() {}
}

/// How long links may wait on one barrier's check, and where the manifest says so.
///
/// ```yaml
/// barriers:
///   login: {wait: 1h}   # manifest.barrierWaits["login"]?.wait is 3600
/// ```
public struct BarrierWait: Sendable, Hashable {
    /// Seconds.
    public var wait: TimeInterval
    /// Where the manifest gives the wait.
    public var location: SourceLocation
}

/// Where something stands in the manifest file.
///
/// ```swift
/// manifest.routes[0].location.description   // "waypoint.yaml:4:5"
/// ```
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's name as given to the loader.
    public var file: String
    /// The line, counted from 1.
    public var line: Int
    /// The column, counted from 1.
    public var column: Int
    public var description: String { "\(file):\(line):\(column)" }
}

/// A route of the manifest.
///
/// ```yaml
/// routes:
///   - name: books.detail
///     pattern: /books/{id:int}
///     destination: book
///     presentation: present
///     barriers: [login]
///     sources: [universalLink, notification]
/// ```
public struct ManifestRoute: Sendable, Hashable {
    /// The route's name: `messages.detail`.
    public var name: String
    /// Parsed when the manifest is read, so an invalid pattern is an error at its line and
    /// nothing downstream (router, linter, generators) parses it again.
    public var pattern: RoutePattern
    /// Settles ambiguity between routes that match the same links at the same precedence: the higher wins.
    public var priority = 0
    /// Barrier names, in order.
    public var barriers: [String] = []
    /// The sources the route accepts links from; every source when `nil`.
    public var sources: Set<LinkSource>?
    /// The app's name for the screen it shows.
    public var destination: String?
    /// A tab to select first.
    public var tab: String?
    /// How the screen is shown; by default pushed over the root of the (selected) tab, so Back
    /// returns home.
    public var presentation: RoutePresentation = .pushOverRoot
    /// Query parameters the route's screen reads, typed, in the order written: typed route code gives
    /// each a field and builds links with them (`/search?q=x&sort=new`).
    public var query: [QueryParameter] = []
    /// For an old path kept working: the link its links become instead of a screen, filled from the
    /// route's parameters (`/books/{id}`); the link's query is carried over.
    public var redirect: LinkTemplate?
    /// The role of the window that shows the route's links when they arrive without one
    /// (``LinkRoute/sceneRole``).
    public var scene: String?
    /// Where the route is written.
    public var location: SourceLocation
}

/// A query parameter a route declares: `q: string`, `page: {type: int, optional: true}`,
/// `sort: {type: string, default: new}`.
///
/// ```yaml
/// routes:
///   - name: search
///     pattern: /search
///     query: {q: string, page: {type: int, optional: true}, sort: {type: string, default: new}}
/// ```
public struct QueryParameter: Sendable, Hashable {
    /// The query item's name.
    public var name: String
    /// The type its value is read as.
    public var type: ParameterType
    /// A link without it (or with a value not of its type) still makes the route's case, with `nil`.
    public var isOptional = false
    /// The value used when a link has none (or one not of its type), as written in a link.
    public var defaultValue: String?
}

extension QueryParameter {
    /// The `ParameterValue` accessor typed route code reads the parameter with (`intValue`…); the
    /// same reading decides whether a default is of the type.
    var accessor: String {
        switch type {
        case .int: "intValue"
        case .double: "doubleValue"
        case .bool: "boolValue"
        case .uuid: "uuidValue"
        case .string: "stringValue"
        }
    }

    /// "a string value", "an int value": what the parameter needs, for messages.
    var valueDescription: String { type == .int ? "an int value" : "a \(type.rawValue) value" }

    /// Whether `text` is a value of the parameter's type, as typed route code reads it.
    func reads(_ text: String) -> Bool {
        let value = ParameterValue.string(text)
        return switch type {
        case .int: value.intValue != nil
        case .double: value.doubleValue != nil
        case .bool: value.boolValue != nil
        case .uuid: value.uuidValue != nil
        case .string: true
        }
    }
}

/// How a manifest route shows its screen: ``NavigationPlan/Presentation``, spelled as in Swift.
///
/// ```yaml
/// routes:
///   - {name: listing.new, pattern: /listings/new, presentation: fullScreenCover}
/// ```
public enum RoutePresentation: String, Sendable, Hashable, CaseIterable {
    /// Pushed onto the current stack.
    case push
    /// Back to the root of the (selected) tab, then pushed: "switch tab, then push".
    case pushOverRoot
    /// A sheet.
    case present
    /// A full-screen cover.
    case fullScreenCover
    /// The stack becomes the screen alone.
    case replaceStack

    /// Names people use for a presentation that are not its Swift spelling, and the one they mean.
    package static let otherNames: [String: String] = [
        "sheet": "present", "modal": "present", "fullScreen": "fullScreenCover", "cover": "fullScreenCover",
        "replace": "replaceStack", "root": "pushOverRoot",
    ]

    /// The plan that shows `destination` this way, after selecting `tab`.
    package func plan<Destination>(_ destination: Destination, tab: String?) -> NavigationPlan<Destination> {
        let presentation: NavigationPlan<Destination>.Presentation =
            switch self {
            case .push: .push
            case .pushOverRoot: .pushOverRoot
            case .present: .present
            case .fullScreenCover: .fullScreenCover
            case .replaceStack: .replaceStack
            }
        return NavigationPlan(destination: destination, presentation: presentation, tab: tab)
    }
}

/// The Android app that handles the manifest's domains, for assetlinks.json.
///
/// ```yaml
/// android:
///   package: com.example.app
///   fingerprints: ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]
/// ```
public struct AndroidApp: Sendable, Hashable {
    /// The app's package name: `com.example.app`.
    public var package: String
    /// The SHA-256 fingerprints of its signing certificates (`AB:CD:…`).
    public var fingerprints: [String]
}

extension AndroidApp {
    /// Why `name` is not an Android application ID, or `nil`: at least two segments separated by
    /// dots, each starting with a letter, of letters, digits and `_` only (Android's
    /// "Configure the app module"). `com.acme.shop-app` never installs, so its links never verify.
    static func packageProblem(_ name: String) -> String? {
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            segments.count >= 2
            && segments.allSatisfy { segment in
                guard let first = segment.first, first.isASCII, first.isLetter else { return false }
                return segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            }
        guard !valid else { return nil }
        return "'\(name)' is not an Android package name: two or more parts separated by dots, each starting with "
            + "a letter, of letters, digits and '_' only (com.example.app)."
    }

    /// Why `fingerprint` is not a SHA-256 certificate fingerprint, or `nil`.
    static func fingerprintProblem(_ fingerprint: String) -> String? {
        let bytes = fingerprint.split(separator: ":", omittingEmptySubsequences: false)
        guard bytes.count != 32 || !bytes.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else {
            return nil
        }
        return "'\(fingerprint)' is not a SHA-256 fingerprint: 32 hex pairs separated by ':', as `keytool -list -v` "
            + "prints it after 'SHA256: ' (leave that out)."
    }
}

/// How notification payloads become links (the manifest's `notifications:`).
///
/// ```yaml
/// notifications:
///   providers: [braze]
///   rules:
///     - present: data.messageId
///       link: /messages/{data.messageId}
///   settings: /settings/notifications
/// ```
public struct NotificationSettings: Sendable {
    /// Payload keys holding a link.
    public var linkKeys = ["deeplink", "url", "link"]
    /// Push providers, read after the keys and before the rules, in the order listed: presets by
    /// name, and the manifest's own (also in ``ownProviders``, with their samples).
    public var providers: [NotificationProvider] = []
    /// The providers the manifest describes itself.
    public var ownProviders: [ManifestProvider] = []
    /// Rules for payloads that carry no link, in order, each with where it is written.
    public var rules: [(rule: NotificationRule, location: SourceLocation)] = []
    /// The notification categories and their actions.
    public var categories: [NotificationCategory] = []
    /// Where "open notification settings" leads.
    public var settingsLink: LinkTemplate?
}

/// A home-screen quick action of the manifest, with the app state it shows for.
///
/// ```yaml
/// quickActions:
///   - {type: com.example.messages, title: Messages, icon: message, link: /messages}
///   - {type: com.example.listing.new, title: New listing, link: /listings/new, when: {profile: host}}
/// ```
public struct ManifestQuickAction: Sendable, Hashable {
    /// What the home screen shows.
    public var item: QuickActionItem
    /// The link it opens.
    public var link: LinkTemplate
    /// State key → the values it is shown for; always shown when empty.
    public var conditions: [String: [String]] = [:]
    /// Where the quick action is written.
    public var location: SourceLocation

    /// Whether the action shows for `state`.
    public func isShown(for state: [String: String]) -> Bool {
        conditions.allSatisfy { key, values in state[key].map(values.contains) ?? false }
    }
}

/// Which web pages may send the app links (the manifest's `webView:`).
///
/// ```yaml
/// webView:
///   origins: [example.com]
///   messages:
///     - name: openBook
///       link: /books/{id}
/// ```
public struct WebViewSettings: Sendable, Hashable {
    /// The domains whose `https` pages may post messages to the app (`example.com`, `*.example.com`).
    public var origins: [String] = []
    /// The message handlers the app accepts, by name.
    public var messages: [WebMessageRoute] = []
}

/// What links are refused or handed to the system, and the size limits (the manifest's `policy:`).
///
/// ```yaml
/// policy:
///   denyHosts: [admin.example.com]
///   passThroughHosts: [blog.example.com]
///   caseSensitive: false
/// ```
public struct ManifestPolicy: Sendable, Hashable {
    /// Schemes whose links are refused.
    public var denySchemes: [String] = []
    /// Hosts whose links are refused (`*.example.com` for every subdomain).
    public var denyHosts: [String] = []
    /// Schemes whose links go to the system (`tel`, `mailto`).
    public var passThroughSchemes: [String] = []
    /// Hosts whose links go to the system.
    public var passThroughHosts: [String] = []
    /// The size limits of a link.
    public var limits = LinkLimits()
    /// Whether literal path segments compare case-sensitively (a custom-scheme link's host never does).
    public var caseSensitive = true
}

/// Extra apple-app-site-association settings.
///
/// ```yaml
/// universalLinks:
///   exclude: [/admin/*]
/// ```
public struct UniversalLinkSettings: Sendable, Hashable {
    /// Path patterns that must never open the app (AASA `exclude` components, listed first).
    public var exclude: [String] = []
    /// Custom substitution variables (`$(name)`).
    public var substitutionVariables: [String: [String]] = [:]
}

/// The hosts of the app's short links (`https://links.example.com/spring`), served by Waypoint Links:
/// a brand domain, a campaign domain, a replacement for a retired `*.page.link`.
///
/// Each one's apple-app-site-association claims every path but the service's own, so a short link
/// opens the app when it is installed; the service answers the rest (store, web fallback, previews).
///
/// ```yaml
/// domains: [example.com, links.example.com, go.example.com]
/// shortLinks:
///   domains: [links.example.com, go.example.com]   # or `domain: links.example.com` for one
///   longLinks: true   # long Dynamic Links (`/?link=…`) open the app too
///   imageHosts: [cdn.example.net, "*.example-images.com"]   # preview images there too
/// ```
public struct ShortLinkSettings: Sendable, Hashable {
    /// Each one of the manifest's `domains`, not a wildcard; a link is on the first unless it
    /// names another.
    public var domains: [String]

    /// Whether long Firebase Dynamic Links on these domains (`https://links.example.com/?link=…`)
    /// open the app: their association files claim `/` with a `link` query item, and the service
    /// answers them for visitors without the app. Off by default: an app version that cannot read
    /// them (without `WaypointLinksClient`'s `ShortLinkResolvingDispatcher`) would open for them
    /// and show nothing.
    public var longLinks = false

    /// Hosts a link's preview image may be on besides the manifest's `domains` (a CDN, Firebase
    /// Storage's `firebasestorage.googleapis.com` for images Dynamic Links had there), written as
    /// `domains` are (`*.` for every subdomain). Chat apps and crawlers fetch the image from there;
    /// the app is not associated with these hosts.
    public var imageHosts: [String] = []

    /// The first short-link domain: a link's unless it names another.
    public var domain: String {
        get { domains.first ?? "" }
        set { domains = [newValue] + domains.dropFirst() }
    }

    /// One short-link domain: `ShortLinkSettings(domain: "links.example.com").domains` is `["links.example.com"]`.
    public init(domain: String) { self.domains = [domain] }

    /// Several short-link domains, the first a link's unless it names another.
    public init(domains: [String]) { self.domains = domains }

    /// The first path segments the service answers itself: never a short link's code, and excluded
    /// from the short-link domains' association files so they never open the app.
    public static let servicePaths = [
        "api", "health", "metrics", "c", "admin", ".well-known", "favicon.ico", "robots.txt",
    ]

    /// Whether `other` is a short-link host (compared as host names are: case and a trailing dot aside).
    public func isShortLinkDomain(_ other: String) -> Bool {
        domains.contains { DomainPattern($0).matches(other) }
    }
}

extension ManifestRoute {
    /// The router's route for this manifest entry, which it carries as its value.
    var routerRoute: Route<ManifestRoute> {
        Route(name: name, pattern: pattern, priority: priority, sources: sources, value: self)
    }
}

extension ManifestRoute {
    /// The first query item the route needs (neither optional nor defaulted) that `link` does not
    /// carry with a value of its type: typed route code makes no route case from such a link, so
    /// `resolve`, `payload` and `lint` hold a link to the same rule.
    ///
    /// ```swift
    /// search.missingQueryItem(in: try DeepLink("shop://search"))?.name  // "q"
    /// ```
    package func missingQueryItem(in link: DeepLink) -> QueryParameter? {
        query.first { parameter in
            !parameter.isOptional && parameter.defaultValue == nil
                && link.queryValue(parameter.name).map(parameter.reads) != true
        }
    }

    /// Why a match of this route opens nothing though it matched: it lacks a query item the route
    /// needs, or, for a redirect route, the link it becomes lacks one its own route needs. `nil`
    /// when it opens a screen.
    package func queryItemProblem(in match: RouteMatch<ManifestRoute>, resolver: LinkResolver<ManifestRoute>) -> String?
    {
        if let missing = missingQueryItem(in: match.link) { return needs(missing) }
        guard let redirect, let target = try? redirect.redirectTarget(parameters: match.parameters, link: match.link),
            case .matched(let next) = resolver.resolve(redirect: target, from: match.link),
            let missing = next.route.value.missingQueryItem(in: next.link)
        else { return nil }
        return "it redirects to '\(target)', where \(next.route.value.needs(missing))"
    }

    /// The sentence for ``missingQueryItem(in:)``'s answer: "the route 'search' needs a string value
    /// for the query item 'q'".
    package func needs(_ parameter: QueryParameter) -> String {
        "the route '\(name)' needs \(parameter.valueDescription) for the query item '\(parameter.name)'"
    }
}
