import Foundation
import SQLiteNIO
import Testing

@testable import WaypointLinks

/// A database made by an older release, with rows in it, brought up to date by opening it: no row
/// is lost, and each column a later step added reads as the release that added it documents.
@Suite("Migrating a database from an older release")
struct MigrationTests {
    /// What a version-5 release (before per-platform fallbacks, several domains and click sources)
    /// wrote: a link, a token, click counts, a claim and an admin session.
    static let version5Rows = [
        """
        INSERT INTO links (code, deep_link, route, app_store_id, play_package, web_url, preview_title,
            preview_description, preview_image_url, expires_at, created_at, updated_at)
        VALUES ('spring', 'readapp://books/42', 'book', '1234567890', NULL, 'https://read.example.com/b/42',
            'Spring sale', NULL, NULL, NULL, 1795521600, 1795521600)
        """,
        "INSERT INTO api_tokens (secret_hash, name, created_at, last_used_at) VALUES ('00ff', 'ci', 1795521600, NULL)",
        "INSERT INTO clicks (code, day, client, outcome, count) VALUES ('spring', 20781, 'iOS', 'landingPage', 7)",
        "INSERT INTO claims (id, code, day, platform, claimed_at) VALUES ('t1', 'spring', 20781, 'iOS', 1795521600)",
        """
        INSERT INTO admin_sessions (id, token_hash, created_at, last_seen_at, ended_at)
        VALUES ('s1', '00ff', 1795521600, 1795521600, NULL)
        """,
    ]

    @Test("A version-5 database with rows opens at the newest version, every row kept", arguments: Engine.available)
    func fromVersion5(engine: Engine) async throws {
        let database = try await engine.newDatabase()
        let dialect: SQLDialect = engine == .sqlite ? .sqlite : .postgres
        var statements = [dialect.schemaMigrationsTable]
        for migration in Migration.all(for: dialect).prefix(5) {
            statements += migration.statements
            statements.append(
                "INSERT INTO schema_migrations (version, summary, applied_at) VALUES (\(migration.version), 'v5', 0)"
            )
        }
        try await Self.run(statements + Self.version5Rows, on: database, engine: engine)

        let store = try await LinkStores.open(database)
        #expect(try await store.appliedMigrations() == Array(1...Migration.all(for: dialect).count))
        let link = try #require(try await store.link(code: "spring"))
        #expect(link.deepLink == "readapp://books/42")
        #expect(link.fallbacks.web == "https://read.example.com/b/42")
        #expect(link.fallbacks.appStoreID == "1234567890")
        #expect(link.fallbacks.ios == nil && link.fallbacks.android == nil && link.fallbacks.desktop == nil)
        #expect(link.passQuery)  // migration 6's default: a link from before passes a query on, as a new one does
        #expect(link.domain == nil)
        #expect(link.preview?.title == "Spring sale")
        #expect(try await store.assignDomain("links.example.com") == 1)
        #expect(try await store.link(code: "spring")?.domain == "links.example.com")
        #expect(try await store.tokens().map(\.name) == ["ci"])
        #expect(try await store.clicks(code: "spring").map(\.count) == [7])
        #expect(try await store.installs(code: "spring").map(\.count) == [1])
        #expect(try await store.adminSession(id: "s1")?.tokenHash == [0x00, 0xFF])
        #expect(try await store.clickSources(code: "spring").isEmpty)
        // The new table takes writes at once.
        let day = 20781
        try await store.addClicks(
            ClickBatch(
                counts: [ClickKey(code: "spring", day: day, client: .iOS, outcome: .landingPage): 1],
                sources: [
                    ClickSourceKey(code: "spring", day: day, source: ClickSource(.referrer, "news.example.com")): 1
                ]
            )
        )
        #expect(try await store.clicks(code: "spring").map(\.count) == [8])
        #expect(try await store.clickSources(code: "spring").map(\.count) == [1])
        await store.close()
    }

    /// Runs SQL on the database directly, as an older release would have.
    static func run(_ statements: [String], on database: String, engine: Engine) async throws {
        switch engine {
        case .sqlite:
            let connection = try await SQLiteConnection.open(storage: .file(path: database))
            for statement in statements { _ = try await connection.query(statement) }
            try await connection.close()
        case .postgres:
            try await PostgresAdmin.run(statements, on: database)
        }
    }
}
