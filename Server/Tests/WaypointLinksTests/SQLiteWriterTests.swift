import Foundation
import SQLiteNIO
import Testing

@testable import WaypointLinks

@Suite("SQLite's one writer")
struct SQLiteWriterTests {
    @Test("A write whose caller is cancelled runs to its end, and leaves no transaction open for the next")
    func cancelledWrite() async throws {
        let store = try await SQLiteLinkStore.open(path: Fixtures.databasePath())
        // Many rows, so the transaction is still under way when its caller is cancelled.
        var counts: [ClickKey: Int] = [:]
        for index in 0..<5_000 { counts[ClickKey(code: "c\(index)", day: 1, client: .iOS, outcome: .app)] = 1 }
        let batch = ClickBatch(counts: counts)
        let writing = Task { try await store.addClicks(batch) }
        writing.cancel()
        try await writing.value
        // The next write (a transaction too) begins and commits: the first was not left open.
        try await store.addClicks(ClickBatch(counts: [ClickKey(code: "c0", day: 1, client: .iOS, outcome: .app): 2]))
        #expect(try await store.clicks(code: "c0").map(\.count) == [3])
        #expect(try await store.clicks(code: "c4999").map(\.count) == [1])
        #expect(try await store.insert(ShortLink(code: "after", deepLink: "readapp://books/1", route: "book")))
        await store.close()
    }

    @Test("Statements that arrive together commit together, and one that fails spoils none of the others")
    func groupCommit() async throws {
        let store = try await SQLiteLinkStore.open(path: Fixtures.databasePath())
        let writer = store.writer
        let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<40 {
                group.addTask {
                    // Every tenth statement breaks a NOT NULL constraint.
                    let sql =
                        index % 10 == 3
                        ? "INSERT INTO links (code) VALUES (?)"
                        : "INSERT INTO links (code, deep_link, route, created_at, updated_at) VALUES (?, 'x', 'book', 0, 0)"
                    do {
                        _ = try await writer.execute(sql, [.text("g\(index)")])
                        return (index, true)
                    } catch {
                        return (index, false)
                    }
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(await writer.largestGroup > 1)
        for index in 0..<40 {
            #expect(outcomes[index] == (index % 10 != 3), "statement \(index)")
            #expect((try await store.link(code: "g\(index)") != nil) == (index % 10 != 3), "link \(index)")
        }
        await store.close()
    }
}
