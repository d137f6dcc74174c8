import Foundation
import Logging
import SQLiteNIO

/// Links in one SQLite file: nothing to install (SQLite is compiled into the service), WAL mode so
/// redirects read while links are written, and `synchronous=FULL` so a link the API acknowledged
/// survives the process being killed and the machine losing power.
///
/// Two connections: one for single statements (every request), and one for transactions, one at a
/// time. A transaction on the shared connection would take in the statements other requests run
/// meanwhile, and a rollback would undo them.
///
/// ```swift
/// let store = try await SQLiteLinkStore.open(path: "waypoint-links.sqlite")
/// ```
public final class SQLiteLinkStore: LinkStore {
    let connection: SQLiteConnection
    let transactionConnection: SQLiteConnection
    let transactionTurn = OneAtATime()
    private let secret = SharedSecret()

    private init(connection: SQLiteConnection, transactionConnection: SQLiteConnection) {
        self.connection = connection
        self.transactionConnection = transactionConnection
    }

    /// Opens (creating when absent) the database at `path` and applies the migrations it lacks.
    public static func open(
        path: String,
        logger: Logger = Logger(label: "waypoint-links.sqlite")
    ) async throws(StoreError)
        -> SQLiteLinkStore
    {
        var connections: [SQLiteConnection] = []
        do {
            for _ in 0..<2 {
                connections.append(try await SQLiteConnection.open(storage: .file(path: path), logger: logger))
            }
        } catch {
            for connection in connections { await close(connection) }
            throw StoreError("Could not open the SQLite database at '\(path)': \(error)")
        }
        let store = SQLiteLinkStore(connection: connections[0], transactionConnection: connections[1])
        do throws(StoreError) {
            try await retryingWhileLocked { () async throws(StoreError) in
                for connection in connections {
                    for pragma in ["PRAGMA busy_timeout=5000", "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL"] {
                        _ = try await Self.query(pragma, on: connection)
                    }
                }
                try await store.migrate()
            }
            try await store.loadSharedSecret()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Switching a new file to WAL needs it to itself: SQLite answers "database is locked" at
    /// once, without waiting, when another process opens the same file at that moment. Such a
    /// start is tried again for up to 5 seconds.
    private static func retryingWhileLocked(_ body: () async throws(StoreError) -> Void) async throws(StoreError) {
        var attempt = 0
        while true {
            do {
                try await body()
                return
            } catch  where error.message.contains("database is locked") && attempt < 50 {
                attempt += 1
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Applies each migration the database has not recorded, one transaction each. `BEGIN
    /// IMMEDIATE` takes the write lock first, so two processes starting at once apply a step once.
    func migrate() async throws(StoreError) {
        _ = try await query(SQLDialect.sqlite.schemaMigrationsTable)
        for migration in Migration.all(for: .sqlite) {
            do throws(StoreError) {
                try await transaction { query throws(StoreError) in
                    guard
                        try await query(
                            "SELECT 1 FROM schema_migrations WHERE version = ?",
                            [.integer(migration.version)]
                        ).isEmpty
                    else { return }
                    for statement in migration.statements { _ = try await query(statement, []) }
                    _ = try await query(
                        "INSERT INTO schema_migrations (version, summary, applied_at) VALUES (?, ?, ?)",
                        [.integer(migration.version), .text(migration.summary), .integer(LinkRow.seconds(Date()))]
                    )
                }
            } catch {
                throw StoreError("Migration \(migration.version) (\(migration.summary)) failed: \(error.message)")
            }
        }
    }

    private func loadSharedSecret() async throws(StoreError) {
        _ = try await query(
            "INSERT INTO service_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
            [.text(SharedSecret.name), .text(SharedSecret.proposal())]
        )
        let rows = try await query("SELECT value FROM service_secrets WHERE name = ?", [.text(SharedSecret.name)])
        try secret.load(rows.first?.column("value")?.string)
    }

    public var sharedSecret: [UInt8] { secret.value }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction on the transaction connection, committed
    /// when it returns and rolled back when it throws; one transaction at a time.
    private func transaction(
        _ body: (_ query: (String, [SQLiteData]) async throws(StoreError) -> [SQLiteRow]) async throws(StoreError) ->
            Void
    ) async throws(StoreError) {
        await transactionTurn.acquire()
        let connection = transactionConnection
        let query: (String, [SQLiteData]) async throws(StoreError) -> [SQLiteRow] = { sql, binds throws(StoreError) in
            try await Self.query(sql, binds, on: connection)
        }
        var failure: StoreError?
        do throws(StoreError) {
            _ = try await query("BEGIN IMMEDIATE", [])
            do throws(StoreError) {
                try await body(query)
                _ = try await query("COMMIT", [])
            } catch {
                _ = try? await query("ROLLBACK", [])
                throw error
            }
        } catch {
            failure = error
        }
        await transactionTurn.release()
        if let failure { throw failure }
    }

    /// The schema versions the database has, in order.
    public func appliedMigrations() async throws(StoreError) -> [Int] {
        try await query("SELECT version FROM schema_migrations ORDER BY version").compactMap {
            $0.column("version")?.integer
        }
    }

    public func insert(_ link: ShortLink) async throws(StoreError) -> Bool {
        // One statement: the code's uniqueness is the primary key's, never a read before a write.
        let columns = LinkRow.columns.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: LinkRow.columns.count).joined(separator: ", ")
        let rows = try await query(
            "INSERT INTO links (\(columns)) VALUES (\(placeholders)) ON CONFLICT (code) DO NOTHING RETURNING code",
            Self.binds(LinkRow(link).values)
        )
        return !rows.isEmpty
    }

    public func link(code: String) async throws(StoreError) -> ShortLink? {
        try await query("SELECT * FROM links WHERE code = ?", [.text(code)]).first.map(Self.link)
    }

    public func links(after code: String?, limit: Int, containing: String?) async throws(StoreError) -> [ShortLink] {
        guard let containing else {
            return try await query(
                "SELECT * FROM links WHERE code > ? ORDER BY code LIMIT ?",
                [.text(code ?? ""), .integer(limit)]
            ).map(Self.link)
        }
        let pattern = LinkRow.likePattern(containing: containing)
        return try await query(
            """
            SELECT * FROM links WHERE code > ? AND (code LIKE ? ESCAPE '\\' OR lower(deep_link) LIKE ? ESCAPE '\\')
            ORDER BY code LIMIT ?
            """,
            [.text(code ?? ""), .text(pattern), .text(pattern), .integer(limit)]
        ).map(Self.link)
    }

    public func replace(_ link: ShortLink) async throws(StoreError) -> Bool {
        let assignments = LinkRow.columns.dropFirst().map { "\($0) = ?" }.joined(separator: ", ")
        let values = LinkRow(link).values
        let rows = try await query(
            "UPDATE links SET \(assignments) WHERE code = ? RETURNING code",
            Self.binds(Array(values.dropFirst()) + [values[0]])
        )
        return !rows.isEmpty
    }

    public func delete(code: String) async throws(StoreError) -> Bool {
        !(try await query("DELETE FROM links WHERE code = ? RETURNING code", [.text(code)])).isEmpty
    }

    public func addToken(name: String, secretHash: [UInt8], createdAt: Date) async throws(StoreError) {
        _ = try await query(
            "INSERT INTO api_tokens (secret_hash, name, created_at) VALUES (?, ?, ?)",
            [.text(Hexadecimal.encode(secretHash)), .text(name), .integer(LinkRow.seconds(createdAt))]
        )
    }

    public func tokenHashes() async throws(StoreError) -> [[UInt8]] {
        try await query("SELECT secret_hash FROM api_tokens").compactMap { row in
            row.column("secret_hash")?.string.flatMap(Hexadecimal.decode)
        }
    }

    public func addClicks(_ batch: ClickBatch) async throws(StoreError) {
        guard !batch.counts.isEmpty else { return }
        try await transaction { query throws(StoreError) in
            let new = try await query(
                "INSERT INTO click_batches (id, applied_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING RETURNING id",
                [.text(batch.id.uuidString), .integer(LinkRow.seconds(Date()))]
            )
            guard !new.isEmpty else { return }  // applied before: the answer was lost, not the write
            for (key, count) in batch.counts {
                _ = try await query(
                    """
                    INSERT INTO clicks (code, day, client, outcome, count) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (code, day, client, outcome) DO UPDATE SET count = count + excluded.count
                    """,
                    [
                        .text(key.code), .integer(key.day), .text(key.client.rawValue), .text(key.outcome.rawValue),
                        .integer(count),
                    ]
                )
            }
        }
    }

    public func clicks(code: String) async throws(StoreError) -> [ClickCount] {
        try await query(
            "SELECT day, client, outcome, count FROM clicks WHERE code = ? ORDER BY day, client, outcome",
            [.text(code)]
        ).compactMap { row in
            guard let day = row.column("day")?.integer, let count = row.column("count")?.integer,
                let client = row.column("client")?.string.flatMap(ClientKind.init(rawValue:)),
                let outcome = row.column("outcome")?.string.flatMap(VisitOutcome.init(rawValue:))
            else { return nil }
            return ClickCount(key: ClickKey(code: code, day: day, client: client, outcome: outcome), count: count)
        }
    }

    public func addClaim(_ claim: ClaimRecord) async throws(StoreError) -> Bool {
        let rows = try await query(
            """
            INSERT INTO claims (id, code, day, platform, claimed_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (id) DO NOTHING RETURNING id
            """,
            [
                .text(claim.id), .text(claim.code), .integer(ClickKey.day(of: claim.claimedAt)),
                .text(claim.platform.rawValue), .integer(LinkRow.seconds(claim.claimedAt)),
            ]
        )
        return !rows.isEmpty
    }

    public func installs(code: String) async throws(StoreError) -> [InstallCount] {
        try await query(
            """
            SELECT day, platform, count(*) AS count FROM claims WHERE code = ?
            GROUP BY day, platform ORDER BY day, platform
            """,
            [.text(code)]
        ).compactMap { row in
            guard let day = row.column("day")?.integer, let count = row.column("count")?.integer,
                let platform = row.column("platform")?.string.flatMap(ClaimPlatform.init(rawValue:))
            else { return nil }
            return InstallCount(day: day, platform: platform, count: count)
        }
    }

    public func close() async {
        await Self.close(connection)
        await Self.close(transactionConnection)
    }

    /// In a task of its own: sqlite-nio skips the close in a cancelled task, and a connection that
    /// is not closed traps when it is freed.
    private static func close(_ connection: SQLiteConnection) async {
        await Task { try? await connection.close() }.value
    }

    // MARK: Rows

    private func query(_ sql: String, _ binds: [SQLiteData] = []) async throws(StoreError) -> [SQLiteRow] {
        try await Self.query(sql, binds, on: connection)
    }

    private static func query(
        _ sql: String,
        _ binds: [SQLiteData] = [],
        on connection: SQLiteConnection
    ) async throws(StoreError) -> [SQLiteRow] {
        do {
            return try await connection.query(sql, binds)
        } catch {
            throw StoreError("SQLite: \(error)")
        }
    }

    private static func binds(_ values: [LinkRow.Value]) -> [SQLiteData] {
        values.map { value in
            switch value {
            case .text(let text): text.map { .text($0) } ?? .null
            case .seconds(let seconds): seconds.map { .integer($0) } ?? .null
            }
        }
    }

    private static func link(_ row: SQLiteRow) -> ShortLink {
        LinkRow(text: { row.column($0)?.string }, seconds: { row.column($0)?.integer }).link
    }
}
