import Foundation
@_spi(Internal) import Hummingbird
import RoutingKit
import Waypoint

/// What every router under test can do: be built from a table, look up a URL end to end, and
/// (where it allows) look up a path that is already split.
protocol BenchRouter {
    var name: String { get }
    /// Looks up a URL, returning the route index or -1; the natural lookup, nothing extra.
    func probe(_ url: String) -> Int
    /// Looks up pre-split input prepared by `prepare`, returning the route index or -1.
    func probePrepared(_ index: Int) -> Int
    /// Prepares the queries for `probePrepared` (outside the timing); `false` when unsupported.
    mutating func prepare(_ urls: [String]) -> Bool
    /// The route and the decoded `id`, for the agreement check.
    func resolve(_ url: String) -> (route: Int, id: String)?
}

/// The path of a URL (between the host and `?`/`#`), without allocating.
func pathOf(_ url: String) -> Substring {
    guard let scheme = url.range(of: "://") else { return Substring(url) }
    let afterHost = url[scheme.upperBound...]
    guard let slash = afterHost.firstIndex(of: "/") else { return "/" }
    let path = afterHost[slash...]
    let end = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
    return path[..<end]
}

struct WaypointBench: BenchRouter {
    let name = "Waypoint"
    let router: Waypoint.Router<Int>
    var prepared: [DeepLink] = []

    init(_ table: RouteTable) throws {
        var builder = RouterBuilder<Int>()
        for route in table.routes { try builder.add(route.name, route.waypointPattern, value: route.index) }
        router = try builder.build()
    }

    func probe(_ url: String) -> Int {
        guard let link = try? DeepLink(url) else { return -1 }
        return router.match(link)?.value ?? -1
    }

    func probePrepared(_ index: Int) -> Int { router.match(prepared[index])?.value ?? -1 }

    mutating func prepare(_ urls: [String]) -> Bool {
        prepared = urls.compactMap { try? DeepLink($0) }
        return prepared.count == urls.count
    }

    func resolve(_ url: String) -> (route: Int, id: String)? {
        guard let link = try? DeepLink(url), let match = router.match(link) else { return nil }
        return (match.value, match.parameters["id"]?.stringValue ?? "")
    }
}

/// Vapor's routing-kit: `TrieRouter`, fed the way Vapor feeds it (the path split on `/`; parameter
/// values percent-decoded when read).
struct RoutingKitBench: BenchRouter {
    let name = "routing-kit"
    let router: TrieRouter<Int>
    var prepared: [[String]] = []

    init(_ table: RouteTable) {
        router = TrieRouter(Int.self)
        for route in table.routes { router.register(route.index, at: route.colonPattern.pathComponents) }
    }

    static func split(_ url: String) -> [String] { pathOf(url).split(separator: "/").map(String.init) }

    func probe(_ url: String) -> Int {
        var parameters = RoutingKit.Parameters()
        return router.route(path: Self.split(url), parameters: &parameters) ?? -1
    }

    func probePrepared(_ index: Int) -> Int {
        var parameters = RoutingKit.Parameters()
        return router.route(path: prepared[index], parameters: &parameters) ?? -1
    }

    mutating func prepare(_ urls: [String]) -> Bool {
        prepared = urls.map(Self.split)
        return true
    }

    func resolve(_ url: String) -> (route: Int, id: String)? {
        var parameters = RoutingKit.Parameters()
        guard let route = router.route(path: Self.split(url), parameters: &parameters) else { return nil }
        let raw = parameters.get("id") ?? ""
        return (route, raw.removingPercentEncoding ?? raw)
    }
}

/// Hummingbird's router trie (internal API, `@_spi(Internal)`: not stable), given the URL's path.
struct HummingbirdBench: BenchRouter {
    let name = "Hummingbird trie"
    let trie: RouterTrie<Int>

    init(_ table: RouteTable) {
        let builder = RouterPathTrieBuilder<Int>()
        for route in table.routes { builder.addEntry(RouterPath(route.colonPattern), value: route.index) }
        trie = builder.build()
    }

    func probe(_ url: String) -> Int { trie.resolve(String(pathOf(url)))?.value ?? -1 }
    func probePrepared(_ index: Int) -> Int { -1 }
    mutating func prepare(_ urls: [String]) -> Bool { false }

    func resolve(_ url: String) -> (route: Int, id: String)? {
        guard let (route, parameters) = trie.resolve(String(pathOf(url))) else { return nil }
        let raw = parameters.get("id").map { String($0) } ?? ""
        return (route, raw.removingPercentEncoding ?? raw)
    }
}

/// How JLRoutes and URLNavigator route: patterns pre-split, the path split and each segment
/// percent-decoded, then the first route in registration order whose segments fit.
struct LinearBench: BenchRouter {
    enum Component {
        case literal(String)
        case parameter
    }
    let name = "linear scan"
    let routes: [(index: Int, components: [Component])]
    var prepared: [[String]] = []

    init(_ table: RouteTable) {
        routes = table.routes.map { route in
            (
                route.index,
                route.colonPattern.split(separator: "/").map { $0.hasPrefix(":") ? .parameter : .literal(String($0)) }
            )
        }
    }

    static func split(_ url: String) -> [String] {
        pathOf(url).split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
    }

    func find(_ segments: [String]) -> (route: Int, id: String)? {
        for route in routes where route.components.count == segments.count {
            var id = ""
            var fits = true
            for (component, segment) in zip(route.components, segments) {
                switch component {
                case .literal(let text) where text != segment: fits = false
                case .parameter: id = segment
                default: break
                }
                if !fits { break }
            }
            if fits { return (route.index, id) }
        }
        return nil
    }

    func probe(_ url: String) -> Int { find(Self.split(url))?.route ?? -1 }
    func probePrepared(_ index: Int) -> Int { find(prepared[index])?.route ?? -1 }

    mutating func prepare(_ urls: [String]) -> Bool {
        prepared = urls.map(Self.split)
        return true
    }

    func resolve(_ url: String) -> (route: Int, id: String)? { find(Self.split(url)) }
}
