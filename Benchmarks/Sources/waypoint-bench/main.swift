// waypoint-bench: Waypoint's router side by side with routing-kit, Hummingbird's trie and a linear
// scan, on the same deterministic tables and queries, in one run.
//
//     swift run -c release --package-path Benchmarks waypoint-bench            # the full table
//     swift run -c release --package-path Benchmarks waypoint-bench --quick    # under a minute
//     swift run -c release --package-path Benchmarks waypoint-bench --format json
//     swift run --package-path Benchmarks waypoint-bench --verify              # agreement only (CI)

import Foundation
import MallocCounter

#if canImport(Glibc)
import Glibc
#endif

let arguments = Set(CommandLine.arguments.dropFirst())
let known: Set<String> = ["--quick", "--verify", "--format", "json", "text"]
if let unknown = arguments.subtracting(known).first {
    FileHandle.standardError.write(
        Data("usage: waypoint-bench [--quick] [--verify] [--format text|json]; unknown '\(unknown)'\n".utf8)
    )
    exit(2)
}
let budget = arguments.contains("--quick") ? Budget.quick : Budget.full
let json = arguments.contains("json")
let sizes = [10, 100, 1_000, 10_000]

struct Result {
    var router: String
    var n: Int
    var mode: String
    var hitNs: Double
    var missNs: Double
    var mallocsPerHit: Double?
    var mallocsPerMiss: Double?
    var buildMs: Double?
    var bytesPerRoute: Double?
    var nsPerLookup: Double { 0.9 * hitNs + 0.1 * missNs }
}

func makeRouters(_ table: RouteTable) throws -> [any BenchRouter] {
    [try WaypointBench(table), RoutingKitBench(table), HummingbirdBench(table), LinearBench(table)]
}

/// Every router must agree with the table's expectations on every query before anything is timed.
func verify(_ table: RouteTable, _ routers: [any BenchRouter]) -> [String] {
    var disagreements: [String] = []
    for router in routers {
        for query in table.hits + table.misses {
            let found = router.resolve(query.url)
            let agrees =
                switch (found, query.expected) {
                case (nil, nil): true
                case (let found?, let expected?): found.route == expected.route && found.id == expected.id
                default: false
                }
            if !agrees {
                let expected = query.expected.map { "route \($0.route) id \($0.id)" } ?? "no route"
                let got = found.map { "route \($0.route) id \($0.id)" } ?? "no route"
                disagreements.append(
                    "\(router.name), \(table.routes.count) routes, \(query.url): expected \(expected), got \(got)"
                )
            }
        }
    }
    return disagreements
}

var results: [Result] = []
for size in sizes {
    let table = RouteTable(size: size)
    let routers = try makeRouters(table)
    let disagreements = verify(table, routers)
    if !disagreements.isEmpty {
        for line in disagreements.prefix(20) { print("disagreement: \(line)") }
        print("\(disagreements.count) disagreement(s) at \(size) routes")
        exit(1)
    }
    if arguments.contains("--verify") {
        print(
            "\(size) routes: \(routers.count) routers agree on \(table.hits.count) hits and \(table.misses.count) misses"
        )
        continue
    }
    let hits = table.hits.map(\.url)
    let misses = table.misses.map(\.url)
    // Every timed case for this size. They are measured in rounds, each round timing every case
    // once, and the median is taken across rounds: a noisy period on the machine then affects all
    // routers alike instead of skewing one of them.
    var cases: [(router: String, mode: String, hits: (Int) -> Int, misses: (Int) -> Int)] = []
    var builds: [String: (ms: Double, bytesPerRoute: Double?)] = [:]
    for router in routers {
        builds[router.name] =
            switch router {
            case is WaypointBench: try buildCost(routes: size, budget) { try WaypointBench(table) }
            case is RoutingKitBench: buildCost(routes: size, budget) { RoutingKitBench(table) }
            case is HummingbirdBench: buildCost(routes: size, budget) { HummingbirdBench(table) }
            default: buildCost(routes: size, budget) { LinearBench(table) }
            }
        cases.append((router.name, "endToEnd", { router.probe(hits[$0]) }, { router.probe(misses[$0]) }))
        var hitRouter = router
        var missRouter = router
        if hitRouter.prepare(hits), missRouter.prepare(misses) {
            let preparedHits = hitRouter
            let preparedMisses = missRouter
            cases.append(
                (router.name, "preSplit", { preparedHits.probePrepared($0) }, { preparedMisses.probePrepared($0) })
            )
        }
    }
    // Baseline: what Foundation's URLComponents costs to parse the same strings, nothing routed.
    let parse: (String) -> Int = { url in
        guard let components = URLComponents(string: url) else { return -1 }
        return components.path.utf8.count &+ (components.queryItems?.count ?? 0)
    }
    cases.append(("URLComponents (parse only)", "endToEnd", { parse(hits[$0]) }, { parse(misses[$0]) }))

    var hitSamples = [[Double]](repeating: [], count: cases.count)
    var missSamples = [[Double]](repeating: [], count: cases.count)
    let round = Budget(runs: 1, seconds: budget.seconds, builds: 1)
    for _ in 0..<budget.runs {
        for (index, entry) in cases.enumerated() {
            hitSamples[index].append(nanoseconds(hits.count, round, entry.hits))
            missSamples[index].append(nanoseconds(misses.count, round, entry.misses))
        }
    }
    for (index, entry) in cases.enumerated() {
        let build = entry.mode == "endToEnd" ? builds[entry.router] : nil
        results.append(
            Result(
                router: entry.router,
                n: size,
                mode: entry.mode,
                hitNs: median(hitSamples[index]),
                missNs: median(missSamples[index]),
                mallocsPerHit: mallocs(hits.count, entry.hits),
                mallocsPerMiss: mallocs(misses.count, entry.misses),
                buildMs: build?.ms,
                bytesPerRoute: build?.bytesPerRoute
            )
        )
    }
}

if arguments.contains("--verify") {
    print("every router agrees on every query")
    exit(0)
}

Report(results: results, budget: budget).print(json: json)
