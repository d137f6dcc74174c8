// pending-bench: how long a dispatcher takes to restore N links a killed process left pending and
// run each to its outcome, with FilePendingLinkStore (a sealed log: one line per change) against
// the store it replaced, which rewrote the whole file on every change. One run, wall-clock time.
//
//     swift run -c release --package-path Benchmarks pending-bench            # 1,000, 3,000, 10,000
//     swift run -c release --package-path Benchmarks pending-bench --quick    # 1,000 and 3,000

import Foundation
import Waypoint

/// The store before the log: every change rewrote every pending link as one JSON array.
final class RewritingFileStore: PendingLinkStore, @unchecked Sendable {
    let url: URL
    init(url: URL) { self.url = url }

    func load() throws -> [PendingLink] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([PendingLink].self, from: data)
    }

    func save(_ links: [PendingLink]) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(links).write(to: url, options: .atomic)
    }
}

/// Links in memory whose changes cost nothing: what the dispatcher itself takes.
final class FreeStore: PendingLinkStore, @unchecked Sendable {
    private var links: [PendingLink] = []
    func load() throws -> [PendingLink] { links }
    func save(_ links: [PendingLink]) throws { self.links = links }
    func put(_ link: PendingLink) throws {}
    func remove(_ id: UUID) throws {}
}

/// Seconds from `restorePendingLinks()` until every one of `count` links has run.
func restore(_ count: Int, into store: any PendingLinkStore) async throws -> Double {
    let now = Date()
    try store.save(
        (0..<count).map { index in
            PendingLink(
                id: UUID(),
                link: "myapp://open/\(index)",
                source: .urlScheme,
                identity: "url:myapp://open/\(index)",
                receivedAt: now
            )
        }
    )
    let dispatcher = try LinkDispatcher<Int>(
        routes: [LinkRoute("open", "/open/{id:int}") { match in .push(match.parameters.int("id") ?? 0) }],
        policy: LinkPolicy(schemes: ["myapp"]),
        configuration: DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: count + 1)),
        store: store
    )
    await dispatcher.setNavigator { _, _ in }
    let clock = ContinuousClock()
    let start = clock.now
    await dispatcher.restorePendingLinks()
    await dispatcher.appDidBecomeReady()
    await dispatcher.appDidBecomeActive()
    await dispatcher.waitUntilIdle()
    let elapsed = start.duration(to: clock.now)
    if !(store is FreeStore) {
        let left = try store.load().count
        guard left == 0 else { throw BenchError("\(left) links still stored after the run") }
    }
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let quick = CommandLine.arguments.contains("--quick")
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pending-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

print(
    "| pending links | FilePendingLinkStore (sealed log) | whole-file rewrite | ratio | dispatcher alone (no store) |"
)
print("| ---: | ---: | ---: | ---: | ---: |")
for count in quick ? [1_000, 3_000] : [1_000, 3_000, 10_000] {
    let log = try await restore(
        count,
        into: FilePendingLinkStore(url: folder.appendingPathComponent("log-\(count)"), key: .random())
    )
    // The old store at 10,000 would take minutes (it is quadratic): measured up to 3,000.
    var old = "—"
    var ratio = "—"
    if count <= 3_000 {
        let seconds = try await restore(
            count,
            into: RewritingFileStore(url: folder.appendingPathComponent("old-\(count)"))
        )
        old = String(format: "%.2f s", seconds)
        ratio = String(format: "%.0f×", seconds / log)
    }
    let alone = try await restore(count, into: FreeStore())
    print("| \(count) | \(String(format: "%.3f s", log)) | \(old) | \(ratio) | \(String(format: "%.3f s", alone)) |")
}
