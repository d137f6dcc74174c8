import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOPosix
import SQLiteNIO

/// Links in one SQLite file: nothing to install (SQLite is compiled into the service), WAL mode so
/// redirects read while links are written, and `synchronous=FULL` so a link the API acknowledged
/// survives the process being killed and the machine losing power.
///
/// One writer, several readers, as SQLite works best: every write of the process goes through one
/// connection in turn (``SQLiteWriter``, a thread of its own), and reads go to reader connections on
/// threads of their own, so a read never waits for a write, a write never meets "database is locked"
/// from its own process, and another process (a `waypoint-links token` command) waits for its turn
/// (the busy timeout) rather than failing. A search of the links (`LIKE '%…%'`, every row read) has a
/// reader of its own, so however many admins search at once, a redirect's lookup never waits
/// behind one.
///
/// ```swift
/// let store = try await SQLiteLinkStore.open(path: "waypoint-links.sqlite")
/// ```
public final class SQLiteLinkStore: LinkStore {
    let writer: SQLiteWriter
    let readers: [SQLiteConnection]
    /// The searches' reader, on ``searchPool``: a thread of its own, so however many searches wait
    /// for it, a lookup never waits for a thread.
    let searchReader: SQLiteConnection
    private let readerPool: NIOThreadPool
    private let searchPool: NIOThreadPool
    private let nextReader = NIOLockedValueBox(0)
    private let secret = SharedSecret()
    private let observers = LinkChangeObservers()

    /// Reader connections for lookups (and their threads): two keep both cores busy with reads.
    /// One more, with a thread of its own, takes the searches.
    static let readerCount = 2
    /// Set on every connection. `busy_timeout` makes another process's write lock a wait, not an error.
    static let readerPragmas = ["PRAGMA busy_timeout=5000"]
    static let writerPragmas = ["PRAGMA busy_timeout=5000", "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL"]

    private init(
        writer: SQLiteWriter,
        readers: [SQLiteConnection],
        readerPool: NIOThreadPool,
        searchReader: SQLiteConnection,
        searchPool: NIOThreadPool
    ) {
        self.writer = writer
        self.readers = readers
        self.readerPool = readerPool
        self.searchReader = searchReader
        self.searchPool = searchPool
    }

    /// Opens (creating when absent) the database at `path` and applies the migrations it lacks.
    public static func open(
        path: String,
        logger: Logger = Logger(label: "waypoint-links.sqlite")
    ) async throws(StoreError)
        -> SQLiteLinkStore
    {
        // The writer first: it creates the file and switches it to WAL, which readers then share.
        let writer = try await retryingWhileLocked { () async throws(StoreError) in
            try await SQLiteWriter.open(path: path, logger: logger)
        }
        let readerPool = NIOThreadPool(numberOfThreads: readerCount)
        let searchPool = NIOThreadPool(numberOfThreads: 1)
        readerPool.start()
        searchPool.start()
        var readers: [SQLiteConnection] = []
        do {
            // The lookups' readers, then the search's on its own pool.
            for pool in Array(repeating: readerPool, count: readerCount) + [searchPool] {
                let reader = try await SQLiteConnection.open(
                    storage: .file(path: path),
                    threadPool: pool,
                    logger: logger,
                    on: MultiThreadedEventLoopGroup.singleton.any()
                )
                readers.append(reader)
                for pragma in readerPragmas { _ = try await reader.query(pragma) }
            }
        } catch {
            for reader in readers { await close(reader) }
            await writer.close()
            try? await readerPool.shutdownGracefully()
            try? await searchPool.shutdownGracefully()
            throw StoreError("Could not open the SQLite database at '\(path)': \(error)")
        }
        let store = SQLiteLinkStore(
            writer: writer,
            readers: Array(readers.dropLast()),
            readerPool: readerPool,
            searchReader: readers[readerCount],
            searchPool: searchPool
        )
        do throws(StoreError) {
            try await store.migrate()
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
    private static func retryingWhileLocked<Value>(
        _ body: () async throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        var attempt = 0
        while true {
            do {
                return try await body()
            } catch  where error.message.contains("database is locked") && attempt < 50 {
                attempt += 1
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Applies each migration the database has not recorded, one transaction each. `BEGIN
    /// IMMEDIATE` takes the write lock first, so two processes starting at once apply a step once.
    func migrate() async throws(StoreError) {
        _ = try await writer.execute(SQLDialect.sqlite.schemaMigrationsTable)
        for migration in Migration.all(for: .sqlite) {
            do throws(StoreError) {
                try await writer.transaction { run throws(StoreError) in
                    guard
                        try await run(
                            "SELECT 1 FROM schema_migrations WHERE version = ?",
                            [.integer(migration.version)]
                        ).isEmpty
                    else { return }
                    for statement in migration.statements { _ = try await run(statement, []) }
                    _ = try await run(
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
        _ = try await writer.execute(
            "INSERT INTO service_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
            [.text(SharedSecret.name), .text(SharedSecret.proposal())]
        )
        let rows = try await read("SELECT value FROM service_secrets WHERE name = ?", [.text(SharedSecret.name)])
        try secret.load(rows.first?.column("value")?.string)
    }

    public var sharedSecret: [UInt8] { secret.value }

    /// Only this process writes the file: its own changes are all there are to tell.
    public func observeChanges(_ observer: @escaping @Sendable (LinkChange) -> Void) {
        observers.add(observer)
    }

    /// The schema versions the database has, in order.
    public func appliedMigrations() async throws(StoreError) -> [Int] {
        try await read("SELECT version FROM schema_migrations ORDER BY version").compactMap {
            $0.column("version")?.integer
        }
    }

    public func insert(_ link: ShortLink) async throws(StoreError) -> Bool {
        // One statement: the code's uniqueness is the primary key's, never a read before a write.
        let columns = LinkRow.columns.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: LinkRow.columns.count).joined(separator: ", ")
        let rows = try await writer.execute(
            "INSERT INTO links (\(columns)) VALUES (\(placeholders)) ON CONFLICT (code) DO NOTHING RETURNING code",
            Self.binds(LinkRow(link).values)
        )
        return !rows.isEmpty
    }

    public func link(code: String) async throws(StoreError) -> ShortLink? {
        try await read("SELECT * FROM links WHERE code = ?", [.text(code)]).first.map(Self.link)
    }

    public func links(after code: String?, limit: Int, containing: String?) async throws(StoreError) -> [ShortLink] {
        guard let containing else {
            return try await read(
                "SELECT * FROM links WHERE code > ? ORDER BY code LIMIT ?",
                [.text(code ?? ""), .integer(limit)]
            ).map(Self.link)
        }
        guard let pattern = LinkRow.likePattern(containing: containing) else { return [] }
        return try await Self.query(
            """
            SELECT * FROM links WHERE code > ? AND (code LIKE ? ESCAPE '\\' OR lower(deep_link) LIKE ? ESCAPE '\\')
            ORDER BY code LIMIT ?
            """,
            [.text(code ?? ""), .text(pattern), .text(pattern), .integer(limit)],
            on: searchReader
        ).map(Self.link)
    }

    public func replace(_ link: ShortLink, ifStill expected: ShortLink) async throws(StoreError) -> ReplaceOutcome {
        let columns = LinkRow.columns.dropFirst()
        let assignments = columns.map { "\($0) = ?" }.joined(separator: ", ")
        // `IS` is equality that also matches NULL with NULL.
        let unchanged = columns.map { "\($0) IS ?" }.joined(separator: " AND ")
        let values = LinkRow(link).values
        let rows = try await writer.execute(
            "UPDATE links SET \(assignments) WHERE code = ? AND \(unchanged) RETURNING code",
            Self.binds(Array(values.dropFirst()) + [values[0]] + Array(LinkRow(expected).values.dropFirst()))
        )
        guard rows.isEmpty else {
            observers.tell(.link(code: link.code))
            return .replaced
        }
        return try await self.link(code: link.code) == nil ? .notFound : .changedMeanwhile
    }

    public func delete(code: String) async throws(StoreError) -> Bool {
        let rows = try await writer.execute("DELETE FROM links WHERE code = ? RETURNING code", [.text(code)])
        if rows.isEmpty { return false }
        observers.tell(.link(code: code))
        return true
    }

    public func assignDomain(_ domain: String) async throws(StoreError) -> Int {
        try await writer.execute("UPDATE links SET domain = ? WHERE domain IS NULL RETURNING code", [.text(domain)])
            .count
    }

    public func addToken(name: String, secretHash: [UInt8], createdAt: Date) async throws(StoreError) -> Bool {
        // One statement, so two commands adding the same name at once give one token.
        !(try await writer.execute(
            """
            INSERT INTO api_tokens (secret_hash, name, created_at)
            SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM api_tokens WHERE name = ?) RETURNING name
            """,
            [.text(Hexadecimal.encode(secretHash)), .text(name), .integer(LinkRow.seconds(createdAt)), .text(name)]
        )).isEmpty
    }

    public func tokens() async throws(StoreError) -> [APITokenRecord] {
        try await read("SELECT secret_hash, name, created_at, last_used_at FROM api_tokens ORDER BY name").compactMap {
            row in
            guard let hash = row.column("secret_hash")?.string.flatMap(Hexadecimal.decode),
                let name = row.column("name")?.string, let created = row.column("created_at")?.integer
            else { return nil }
            return APITokenRecord(
                name: name,
                secretHash: hash,
                createdAt: LinkRow.date(created),
                lastUsedAt: row.column("last_used_at")?.integer.map(LinkRow.date)
            )
        }
    }

    public func removeTokens(named name: String) async throws(StoreError) -> Int {
        try await writer.execute("DELETE FROM api_tokens WHERE name = ? RETURNING name", [.text(name)]).count
    }

    public func markTokenUsed(secretHash: [UInt8], at date: Date) async throws(StoreError) {
        _ = try await writer.execute(
            "UPDATE api_tokens SET last_used_at = ? WHERE secret_hash = ?",
            [.integer(LinkRow.seconds(date)), .text(Hexadecimal.encode(secretHash))]
        )
    }

    public func addAdminSession(_ session: AdminSessionRecord) async throws(StoreError) {
        // Sessions past their lifetime are of no use: each sign-in clears them away.
        _ = try await writer.execute(
            "DELETE FROM admin_sessions WHERE created_at < ?",
            [.integer(LinkRow.seconds(session.createdAt) - Int(AdminSessions.lifetime))]
        )
        _ = try await writer.execute(
            "INSERT INTO admin_sessions (id, token_hash, created_at, last_seen_at) VALUES (?, ?, ?, ?)",
            [
                .text(session.id), .text(Hexadecimal.encode(session.tokenHash)),
                .integer(LinkRow.seconds(session.createdAt)), .integer(LinkRow.seconds(session.lastSeenAt)),
            ]
        )
    }

    public func adminSession(id: String) async throws(StoreError) -> AdminSessionRecord? {
        try await read(
            "SELECT token_hash, created_at, last_seen_at, ended_at FROM admin_sessions WHERE id = ?",
            [.text(id)]
        ).first.flatMap { row in
            guard let hash = row.column("token_hash")?.string.flatMap(Hexadecimal.decode),
                let created = row.column("created_at")?.integer, let seen = row.column("last_seen_at")?.integer
            else { return nil }
            return AdminSessionRecord(
                id: id,
                tokenHash: hash,
                createdAt: LinkRow.date(created),
                lastSeenAt: LinkRow.date(seen),
                endedAt: row.column("ended_at")?.integer.map(LinkRow.date)
            )
        }
    }

    public func touchAdminSession(id: String, at date: Date) async throws(StoreError) {
        _ = try await writer.execute(
            "UPDATE admin_sessions SET last_seen_at = ? WHERE id = ?",
            [.integer(LinkRow.seconds(date)), .text(id)]
        )
    }

    public func endAdminSession(id: String, at date: Date) async throws(StoreError) {
        _ = try await writer.execute(
            "UPDATE admin_sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
            [.integer(LinkRow.seconds(date)), .text(id)]
        )
    }

    /// Rows a click batch writes in one statement: SQLite takes up to 32,766 bound values, 5 a row.
    static let clickRowsPerStatement = 500

    public func addClicks(_ batch: ClickBatch) async throws(StoreError) {
        guard !batch.isEmpty else { return }
        let id = batch.id.uuidString
        let rows = batch.rows
        let now = LinkRow.seconds(Date())
        try await writer.transaction { run throws(StoreError) in
            let new = try await run(
                "INSERT INTO click_batches (id, applied_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING RETURNING id",
                [.text(id), .integer(now)]
            )
            guard !new.isEmpty else { return }  // applied before: the answer was lost, not the write
            _ = try await run(
                "DELETE FROM click_batches WHERE applied_at < ?",
                [.integer(now - ClickBatch.idLifetime)]
            )
            try await Self.addCounts(
                to: "clicks (code, day, client, outcome, count)",
                key: "code, day, client, outcome",
                rows.map { key, count in
                    [
                        .text(key.code), .integer(key.day), .text(key.client.rawValue), .text(key.outcome.rawValue),
                        .integer(count),
                    ]
                },
                run
            )
            // The values each day already counts first: a new one past the day's limit is `(other)`.
            // Many groups a statement: one statement a group held the only writer, and every link
            // created or claimed meanwhile, for most of a second with 3,000 links visited in a window.
            var counted: [ClickSourceKey] = []
            let groups = batch.sourceGroups
            for start in stride(from: 0, to: groups.count, by: Self.clickRowsPerStatement) {
                let chunk = groups[start..<min(start + Self.clickRowsPerStatement, groups.count)]
                let tuples = Array(repeating: "(?, ?, ?)", count: chunk.count).joined(separator: ", ")
                for row in try await run(
                    "SELECT code, day, dimension, value FROM click_sources WHERE (code, day, dimension) IN (VALUES \(tuples))",
                    chunk.flatMap { group -> [SQLiteData] in
                        [.text(group.code), .integer(group.day), .text(group.dimension.rawValue)]
                    }
                ) {
                    guard let code = row.column("code")?.string, let day = row.column("day")?.integer,
                        let dimension = row.column("dimension")?.string.flatMap(ClickSource.Dimension.init(rawValue:)),
                        let value = row.column("value")?.string
                    else { continue }
                    counted.append(ClickSourceKey(code: code, day: day, source: ClickSource(dimension, value)))
                }
            }
            try await Self.addCounts(
                to: "click_sources (code, day, dimension, value, count)",
                key: "code, day, dimension, value",
                batch.sourceRows(after: counted).map { key, count in
                    [
                        .text(key.code), .integer(key.day), .text(key.source.dimension.rawValue),
                        .text(key.source.value), .integer(count),
                    ]
                },
                run
            )
        }
    }

    /// Adds each row's last value, its count, to the row with the same key (`key`, the table's
    /// primary key), a statement per `clickRowsPerStatement` rows.
    private static func addCounts(
        to table: String,
        key: String,
        _ rows: [[SQLiteData]],
        _ run: SQLiteWriter.Statement
    ) async throws(StoreError) {
        for start in stride(from: 0, to: rows.count, by: clickRowsPerStatement) {
            let chunk = rows[start..<min(start + clickRowsPerStatement, rows.count)]
            let placeholders = "(" + Array(repeating: "?", count: chunk[start].count).joined(separator: ", ") + ")"
            _ = try await run(
                """
                INSERT INTO \(table) VALUES \(Array(repeating: placeholders, count: chunk.count).joined(separator: ", "))
                ON CONFLICT (\(key)) DO UPDATE SET count = count + excluded.count
                """,
                chunk.flatMap { $0 }
            )
        }
    }

    public func clickSources(code: String) async throws(StoreError) -> [ClickSourceCount] {
        try await read(
            "SELECT day, dimension, value, count FROM click_sources WHERE code = ? ORDER BY day, dimension, value",
            [.text(code)]
        ).compactMap { row in
            guard let day = row.column("day")?.integer, let count = row.column("count")?.integer,
                let dimension = row.column("dimension")?.string.flatMap(ClickSource.Dimension.init(rawValue:)),
                let value = row.column("value")?.string
            else { return nil }
            return ClickSourceCount(
                key: ClickSourceKey(code: code, day: day, source: ClickSource(dimension, value)),
                count: count
            )
        }
    }

    public func clicks(code: String) async throws(StoreError) -> [ClickCount] {
        try await read(
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
        let rows = try await writer.execute(
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
        try await read(
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
        await writer.close()
        for reader in readers + [searchReader] { await Self.close(reader) }
        try? await readerPool.shutdownGracefully()
        try? await searchPool.shutdownGracefully()
    }

    /// In a task of its own: sqlite-nio skips the close in a cancelled task, and a connection that
    /// is not closed traps when it is freed.
    static func close(_ connection: SQLiteConnection) async {
        await Task { try? await connection.close() }.value
    }

    // MARK: Rows

    /// A lookup on the next reader connection (not the search's): in WAL mode it sees the last
    /// commit and waits for no write.
    func read(_ sql: String, _ binds: [SQLiteData] = []) async throws(StoreError) -> [SQLiteRow] {
        let index = nextReader.withLockedValue { next in
            defer { next = (next + 1) % readers.count }
            return next
        }
        return try await Self.query(sql, binds, on: readers[index])
    }

    static func query(
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
            case .integer(let number): number.map { .integer($0) } ?? .null
            }
        }
    }

    private static func link(_ row: SQLiteRow) -> ShortLink {
        LinkRow(text: { row.column($0)?.string }, integer: { row.column($0)?.integer }).link
    }
}
