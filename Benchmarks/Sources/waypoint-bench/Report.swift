import Foundation

/// The table for people, the JSON for tools, and the bar from the issue, checked.
struct Report {
    let results: [Result]
    let budget: Budget

    var machine: [String: String] {
        var info: [String: String] = ["cores": String(ProcessInfo.processInfo.activeProcessorCount)]
        if let cpu = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = cpu.split(separator: "\n").first(where: { $0.hasPrefix("model name") })
        {
            info["cpu"] = line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        info["os"] = ProcessInfo.processInfo.operatingSystemVersionString
        info["memoryGiB"] = String(ProcessInfo.processInfo.physicalMemory / (1 << 30))
        info["runs"] = "median of \(budget.runs) runs of at least \(budget.seconds) s after a warm-up"
        return info
    }

    func result(_ router: String, _ n: Int, _ mode: String = "endToEnd") -> Result? {
        results.first { $0.router == router && $0.n == n && $0.mode == mode }
    }

    /// The bar at 10,000 routes, as `(claim, measured, holds)`.
    var bar: [(String, String, Bool)] {
        guard let waypoint = result("Waypoint", 10_000), let routingKit = result("routing-kit", 10_000),
            let foundation = result("URLComponents (parse only)", 10_000), let small = result("Waypoint", 10)
        else { return [] }
        func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.3f", b == 0 ? 0 : a / b) }
        var rows: [(String, String, Bool)] = [
            (
                "end to end ≤ 1/10 of routing-kit", ratio(waypoint.nsPerLookup, routingKit.nsPerLookup),
                waypoint.nsPerLookup <= routingKit.nsPerLookup / 10
            ),
            (
                "end to end ≤ 1/4 of URLComponents parsing", ratio(waypoint.nsPerLookup, foundation.nsPerLookup),
                waypoint.nsPerLookup <= foundation.nsPerLookup / 4
            ),
            ("misses ≤ 2 × hits", ratio(waypoint.missNs, waypoint.hitNs), waypoint.missNs <= 2 * waypoint.hitNs),
            (
                "10,000 routes within 1.5 × 10 routes", ratio(waypoint.nsPerLookup, small.nsPerLookup),
                waypoint.nsPerLookup <= 1.5 * small.nsPerLookup
            ),
        ]
        if let build = waypoint.buildMs, let peerBuild = routingKit.buildMs {
            rows.append(("build ≤ 1/4 of routing-kit", ratio(build, peerBuild), build <= peerBuild / 4))
        }
        if let hit = waypoint.mallocsPerHit, let miss = waypoint.mallocsPerMiss {
            rows.append(("≤ 1 allocation per hit", String(format: "%.2f", hit), hit <= 1))
            rows.append(("0 allocations per miss", String(format: "%.2f", miss), miss == 0))
        }
        if let bytes = waypoint.bytesPerRoute, let peerBytes = routingKit.bytesPerRoute {
            rows.append(("heap per route ≤ routing-kit's", ratio(bytes, peerBytes), bytes <= peerBytes))
        }
        return rows
    }

    func print(json: Bool) {
        if json {
            var object: [String: Any] = ["machine": machine]
            object["results"] = results.map { result -> [String: Any] in
                var entry: [String: Any] = [
                    "router": result.router, "n": result.n, "mode": result.mode,
                    "nsPerLookup": round1(result.nsPerLookup),
                    "hitNs": round1(result.hitNs), "missNs": round1(result.missNs),
                ]
                entry["mallocsPerHit"] = result.mallocsPerHit.map(round2) ?? NSNull()
                entry["mallocsPerMiss"] = result.mallocsPerMiss.map(round2) ?? NSNull()
                entry["buildMs"] = result.buildMs.map(round2) ?? NSNull()
                entry["bytesPerRoute"] = result.bytesPerRoute.map(round1) ?? NSNull()
                return entry
            }
            object["bar"] = bar.map { ["claim": $0.0, "ratio": $0.1, "holds": $0.2] }
            if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]) {
                Swift.print(String(decoding: data, as: UTF8.self))
            }
            return
        }
        Swift.print(
            "machine: " + machine.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        )
        Swift.print("")
        let header = [
            "router", "n", "mode", "ns/lookup", "hit ns", "miss ns", "allocs/hit", "allocs/miss", "build ms",
            "bytes/route",
        ]
        var rows = [header]
        for result in results {
            rows.append([
                result.router, String(result.n), result.mode, String(format: "%.0f", result.nsPerLookup),
                String(format: "%.0f", result.hitNs),
                String(format: "%.0f", result.missNs), result.mallocsPerHit.map { String(format: "%.2f", $0) } ?? "–",
                result.mallocsPerMiss.map { String(format: "%.2f", $0) } ?? "–",
                result.buildMs.map { String(format: "%.2f", $0) } ?? "–",
                result.bytesPerRoute.map { String(format: "%.0f", $0) } ?? "–",
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for (index, row) in rows.enumerated() {
            Swift.print(
                "| "
                    + row.enumerated().map {
                        $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0)
                    }.joined(separator: " | ") + " |"
            )
            if index == 0 {
                Swift.print("| " + widths.map { String(repeating: "-", count: $0) }.joined(separator: " | ") + " |")
            }
        }
        Swift.print("")
        Swift.print("The bar, at 10,000 routes (ratio: Waypoint ÷ the other):")
        for (claim, measured, holds) in bar { Swift.print("  \(holds ? "✓" : "✗") \(claim): \(measured)") }
    }

    private func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    private func round2(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
