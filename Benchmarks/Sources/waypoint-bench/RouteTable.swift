/// A deterministic app-style route table and its queries.
///
/// Up to 50 top-level sections, each with nested groups; routes are 3 to 5 segments deep (about 4 on
/// average) and end in a parameter that is an integer id (60 %), a slug (25 %) or a UUID (15 %).
/// Queries: 90 % hits spread over every route (some values percent-encoded), 10 % misses of four
/// kinds (unknown section, one segment too many, a typo, a truncated path).
struct RouteTable {
    enum Kind: CaseIterable { case integer, slug, uuid }

    struct Route {
        let index: Int
        /// The route's name and its pattern in each router's syntax, made once with the table: an
        /// app holds them as literals, so building a router should not be charged for making them.
        let name: String
        let waypointPattern: String
        /// `:id` form, shared by routing-kit, Hummingbird and the linear scanner (they have no types).
        let colonPattern: String
        /// Literal segments before the parameter.
        let prefix: [String]
        let kind: Kind
        /// A literal after the parameter, if any.
        let suffix: String?

        init(index: Int, prefix: [String], kind: Kind, suffix: String?) {
            self.index = index
            self.prefix = prefix
            self.kind = kind
            self.suffix = suffix
            let parameter =
                switch kind {
                case .integer: "{id:int}"
                case .slug: "{id}"
                case .uuid: "{id:uuid}"
                }
            let rest = suffix.map { [$0] } ?? []
            name = "r\(index)"
            waypointPattern = "/" + (prefix + [parameter] + rest).joined(separator: "/")
            colonPattern = "/" + (prefix + [":id"] + rest).joined(separator: "/")
        }
    }

    struct Query {
        let url: String
        /// The route a correct router must find, with the decoded `id`; `nil` for a miss.
        let expected: (route: Int, id: String)?
    }

    let routes: [Route]
    let hits: [Query]
    let misses: [Query]

    static let host = "https://example.com"

    init(size: Int, queries: Int = 10_000) {
        var random = SplitMix(seed: UInt64(size))
        let sections = min(50, max(1, size / 4))
        var routes: [Route] = []
        for index in 0..<size {
            let section = index % sections
            let within = index / sections
            let kind: Kind =
                switch index % 20 {
                case 0..<12: .integer
                case 12..<17: .slug
                default: .uuid
                }
            var prefix = ["s\(section)"]
            if within % 3 != 0 { prefix.append("g\(within % 7)") }
            prefix.append("r\(within)")
            routes.append(Route(index: index, prefix: prefix, kind: kind, suffix: within % 2 == 0 ? "detail" : nil))
        }
        self.routes = routes

        func value(for kind: Kind) -> (raw: String, decoded: String) {
            switch kind {
            case .integer:
                let number = String(Int.random(in: 1...9_999_999, using: &random))
                return (number, number)
            case .slug:
                let number = Int.random(in: 1...99_999, using: &random)
                // One slug in four arrives percent-encoded.
                return number % 4 == 0
                    ? ("caf%C3%A9-\(number)", "café-\(number)") : ("item-\(number)", "item-\(number)")
            case .uuid:
                let hex = (0..<32).map { _ in String(Int.random(in: 0..<16, using: &random), radix: 16, uppercase: true)
                }.joined()
                let parts = [
                    hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
                    hex.dropFirst(20),
                ]
                let uuid = parts.joined(separator: "-")
                return (uuid, uuid)
            }
        }
        func path(_ route: Route, _ raw: String) -> String {
            "/" + (route.prefix + [raw] + (route.suffix.map { [$0] } ?? [])).joined(separator: "/")
        }

        let hitCount = queries * 9 / 10
        var hits: [Query] = []
        for number in 0..<hitCount {
            let route = routes[(number * 7919 + Int.random(in: 0..<size, using: &random)) % size]
            let (raw, decoded) = value(for: route.kind)
            hits.append(
                Query(
                    url: Self.host + path(route, raw) + (number % 5 == 0 ? "?ref=push&utm=x" : ""),
                    expected: (route.index, decoded)
                )
            )
        }
        var misses: [Query] = []
        for number in 0..<(queries - hitCount) {
            let route = routes[Int.random(in: 0..<size, using: &random)]
            let (raw, _) = value(for: route.kind)
            let url: String
            switch number % 4 {
            case 0: url = Self.host + "/unknown\(number)/" + raw
            case 1: url = Self.host + path(route, raw) + "/extra"
            case 2:
                var typo = route.prefix
                typo[typo.count - 1] = "x" + typo[typo.count - 1]
                url = Self.host + "/" + (typo + [raw]).joined(separator: "/")
            default: url = Self.host + "/" + route.prefix.joined(separator: "/")
            }
            misses.append(Query(url: url, expected: nil))
        }
        self.hits = hits
        self.misses = misses
    }
}

/// A small deterministic generator, so every run measures the same tables and queries.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
