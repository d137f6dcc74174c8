import Foundation
import MallocCounter

/// How long to measure: the median of `runs` runs of at least `seconds` each, after a warm-up.
struct Budget {
    var runs: Int
    var seconds: Double
    var builds: Int

    static let full = Budget(runs: 5, seconds: 0.3, builds: 5)
    static let quick = Budget(runs: 3, seconds: 0.04, builds: 1)
}

/// Keeps results alive so the optimizer cannot drop the work.
nonisolated(unsafe) var sink = 0

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// Nanoseconds per call of `body` over `count` inputs.
func nanoseconds(_ count: Int, _ budget: Budget, _ body: (Int) -> Int) -> Double {
    guard count > 0 else { return 0 }
    for index in 0..<count { sink &+= body(index) }
    let clock = ContinuousClock()
    var samples: [Double] = []
    for _ in 0..<budget.runs {
        var calls = 0
        let start = clock.now
        var elapsed = Duration.zero
        repeat {
            for index in 0..<count { sink &+= body(index) }
            calls += count
            elapsed = clock.now - start
        } while elapsed < .seconds(budget.seconds)
        let (seconds, attoseconds) = elapsed.components
        samples.append((Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(calls))
    }
    return median(samples)
}

/// Heap allocations per call of `body`, over one pass.
func mallocs(_ count: Int, _ body: (Int) -> Int) -> Double? {
    guard waypoint_malloc_counter_available() != 0, count > 0 else { return nil }
    for index in 0..<count { sink &+= body(index) }
    let before = waypoint_malloc_count()
    for index in 0..<count { sink &+= body(index) }
    return Double(waypoint_malloc_count() - before) / Double(count)
}

/// Milliseconds to build (median), and heap bytes the built value keeps per route.
func buildCost<Built>(
    routes: Int,
    _ budget: Budget,
    _ build: () throws -> Built
) rethrows -> (ms: Double, bytesPerRoute: Double?) {
    let clock = ContinuousClock()
    var samples: [Double] = []
    for _ in 0..<budget.builds {
        let start = clock.now
        let built = try build()
        let elapsed = clock.now - start
        withExtendedLifetime(built) {}
        let (seconds, attoseconds) = elapsed.components
        samples.append(Double(seconds) * 1e3 + Double(attoseconds) / 1e15)
    }
    var bytes: Double?
    if waypoint_malloc_counter_available() != 0 {
        let before = waypoint_malloc_live_bytes()
        let built = try build()
        let after = waypoint_malloc_live_bytes()
        withExtendedLifetime(built) {}
        bytes = Double(after - before) / Double(max(1, routes))
    }
    return (median(samples), bytes)
}
