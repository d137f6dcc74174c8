import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Links in PostgreSQL, for several stateless instances behind a load balancer: every instance
/// reads and writes the same tables through its own pool of connections (`PostgresClient`), and
/// hears the others' edits and deletes (`LISTEN`/`NOTIFY`), so no instance's cache keeps a link
/// another has changed for longer than a notification takes.
///
/// ```swift
/// let store = try await PostgresLinkStore.connect(url: "postgres://links:secret@127.0.0.1:5432/links")
/// ```
public final class PostgresLinkStore: LinkStore {
    let client: PostgresClient
    let runner: Task<Void, Never>
    let logger: Logger
    private let secret = SharedSecret()
    private let observers = LinkChangeObservers()
    /// Listens for other instances' changes once something observes them; ended by `close()`.
    private let listener = NIOLockedValueBox<Task<Void, Never>?>(nil)
    /// Whether the listening connection is up (the tests wait for it).
    private let listening = NIOLockedValueBox(false)
    var isListening: Bool { listening.withLockedValue { $0 } }

    /// The notification channel edits and deletes are announced on; the payload is the code.
    static let changeChannel = "waypoint_links_changed"

    private init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
        // The pool works only while `run()` runs; `close()` ends it.
        self.runner = Task { await client.run() }
    }

    /// Connects to `url` (`postgres://USER:PASSWORD@HOST:PORT/DATABASE`, TLS off; add
    /// `?sslmode=require` for TLS) and applies the migrations the database lacks.
    public static func connect(
        url: String,
        logger: Logger = Logger(label: "waypoint-links.postgres")
    ) async throws(StoreError) -> PostgresLinkStore {
        let configuration = try configuration(url: url)
        let store = PostgresLinkStore(
            client: PostgresClient(configuration: configuration, backgroundLogger: logger),
            logger: logger
        )
        // Lets the pool's run() start before the first lease, which it would otherwise log a warning about.
        await Task.yield()
        do throws(StoreError) {
            try await store.migrate()
            try await store.loadSharedSecret()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// The client configuration a `postgres://` URL names.
    static func configuration(url text: String) throws(StoreError) -> PostgresClient.Configuration {
        guard let url = URLComponents(string: text), ["postgres", "postgresql"].contains(url.scheme ?? ""),
            let host = url.host, !host.isEmpty, let user = url.user, !user.isEmpty
        else {
            throw StoreError(
                "'\(redacted(text))' is not a PostgreSQL URL; write postgres://USER:PASSWORD@HOST:PORT/DATABASE."
            )
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        let sslMode = url.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        let tls: PostgresClient.Configuration.TLS
        switch sslMode {
        case "disable": tls = .disable
        case "require": tls = .require(.makeClientConfiguration())
        case "prefer": tls = .prefer(.makeClientConfiguration())
        default: throw StoreError("sslmode '\(sslMode)' is not one of disable, prefer, require.")
        }
        return PostgresClient.Configuration(
            host: host,
            port: url.port ?? 5432,
            username: user,
            password: url.password,
            database: database.isEmpty ? user : database,
            tls: tls
        )
    }

    /// The URL without its password, for messages and logs.
    static func redacted(_ text: String) -> String {
        guard var url = URLComponents(string: text), url.password != nil else { return text }
        url.password = "•••"
        return url.string ?? text
    }

    /// Applies each migration the database has not recorded, one transaction each. Each transaction
    /// first takes one advisory lock, so instances that start together apply a step once (even
    /// `CREATE TABLE IF NOT EXISTS` is not safe to run at once from two sessions).
    func migrate() async throws(StoreError) {
        for migration in Migration.all(for: .postgres) {
            try await run("apply migration \(migration.version) (\(migration.summary))") { client, logger in
                try await client.withTransaction(logger: logger) { connection in
                    // Any fixed number works: it names this lock among the database's advisory locks.
                    try await connection.query("SELECT pg_advisory_xact_lock(742031)", logger: logger)
                    try await connection.query(
                        PostgresQuery(unsafeSQL: SQLDialect.postgres.schemaMigrationsTable),
                        logger: logger
                    )
                    let rows = try await connection.query(
                        "SELECT version FROM schema_migrations WHERE version = \(migration.version)",
                        logger: logger
                    )
                    var applied = false
                    for try await _ in rows { applied = true }
                    guard !applied else { return }
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query(
                        "INSERT INTO schema_migrations (version, summary, applied_at) VALUES (\(migration.version), \(migration.summary), \(LinkRow.seconds(Date())))",
                        logger: logger
                    )
                }
            }
        }
    }

    private func loadSharedSecret() async throws(StoreError) {
        let name = SharedSecret.name
        let proposal = SharedSecret.proposal()
        _ = try await rows(
            "propose the shared secret",
            "INSERT INTO service_secrets (name, value) VALUES (\(name), \(proposal)) ON CONFLICT (name) DO NOTHING"
        ) { _ in () }
        let stored = try await rows(
            "read the shared secret",
            "SELECT value FROM service_secrets WHERE name = \(name)"
        ) { try $0.decode(String.self) }
        try secret.load(stored.first)
    }

    public var sharedSecret: [UInt8] { secret.value }

    public func observeChanges(_ observer: @escaping @Sendable (LinkChange) -> Void) {
        observers.add(observer)
        listener.withLockedValue { listener in
            guard listener == nil else { return }
            listener = Task { await self.listenForChanges() }
        }
    }

    /// Hears the changes every instance announces (its own too) until `close()`. Whenever it was
    /// not listening — at the start, after a lost connection — changes may have gone unheard, so it
    /// tells observers to forget everything (`.unknown`) once listening again.
    private func listenForChanges() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.changeChannel) { notifications in
                        self.listening.withLockedValue { $0 = true }
                        defer { self.listening.withLockedValue { $0 = false } }
                        self.observers.tell(.unknown)
                        for try await notification in notifications {
                            self.observers.tell(.link(code: notification.payload))
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning(
                    "not hearing other instances' link changes; listening again",
                    metadata: ["error": "\(Self.describe(error))"]
                )
            }
            observers.tell(.unknown)
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// The schema versions the database has, in order.
    public func appliedMigrations() async throws(StoreError) -> [Int] {
        try await rows("read schema_migrations", "SELECT version FROM schema_migrations ORDER BY version") {
            try $0.decode(Int.self)
        }
    }

    public func insert(_ link: ShortLink) async throws(StoreError) -> Bool {
        // One statement: the code's uniqueness is the primary key's, so two instances inserting the
        // same code at once give one link and one `false`.
        var query = PostgresQuery(
            unsafeSQL: "INSERT INTO links (\(LinkRow.columns.joined(separator: ", "))) VALUES ("
                + (1...LinkRow.columns.count).map { "$\($0)" }.joined(separator: ", ")
                + ") ON CONFLICT (code) DO NOTHING RETURNING code"
        )
        query.binds = Self.binds(LinkRow(link).values)
        return try await !rows("insert a link", query) { try $0.decode(String.self) }.isEmpty
    }

    public func link(code: String) async throws(StoreError) -> ShortLink? {
        try await links("read a link", "SELECT * FROM links WHERE code = \(code)").first
    }

    public func links(after code: String?, limit: Int, containing: String?) async throws(StoreError) -> [ShortLink] {
        let after = code ?? ""
        guard let containing else {
            return try await links(
                "list links",
                "SELECT * FROM links WHERE code > \(after) ORDER BY code LIMIT \(limit)"
            )
        }
        guard let pattern = LinkRow.likePattern(containing: containing) else { return [] }
        return try await links(
            "search links",
            """
            SELECT * FROM links WHERE code > \(after) AND (code LIKE \(pattern) ESCAPE '\\' OR lower(deep_link) LIKE \(pattern) ESCAPE '\\')
            ORDER BY code LIMIT \(limit)
            """
        )
    }

    public func replace(_ link: ShortLink, ifStill expected: ShortLink) async throws(StoreError) -> ReplaceOutcome {
        // $1 is the code, $2… the new values, and after them the values the link must still have.
        let columns = LinkRow.columns.dropFirst()
        let assignments = columns.enumerated().map { "\($1) = $\($0 + 2)" }.joined(separator: ", ")
        let unchanged = columns.enumerated().map { "\($1) IS NOT DISTINCT FROM $\($0 + LinkRow.columns.count + 1)" }
        var query = PostgresQuery(
            unsafeSQL: "UPDATE links SET \(assignments) WHERE code = $1 AND \(unchanged.joined(separator: " AND ")) "
                + "RETURNING code"
        )
        query.binds = Self.binds(LinkRow(link).values + LinkRow(expected).values.dropFirst())
        if try await changing(link.code, "replace a link", query) { return .replaced }
        return try await self.link(code: link.code) == nil ? .notFound : .changedMeanwhile
    }

    public func delete(code: String) async throws(StoreError) -> Bool {
        try await changing(code, "delete a link", "DELETE FROM links WHERE code = \(code) RETURNING code")
    }

    /// Runs an update or delete of one link and, in the same transaction, announces it to every
    /// instance (PostgreSQL delivers the notification when the change commits, never before).
    private func changing(_ code: String, _ what: String, _ change: PostgresQuery) async throws(StoreError) -> Bool {
        var changed = false
        try await run(what) { client, logger in
            changed = try await client.withTransaction(logger: logger) { connection in
                var found = false
                for try await _ in try await connection.query(change, logger: logger) { found = true }
                guard found else { return false }
                try await connection.query("SELECT pg_notify(\(Self.changeChannel), \(code))", logger: logger)
                return true
            }
        }
        if changed { observers.tell(.link(code: code)) }
        return changed
    }

    public func addToken(name: String, secretHash: [UInt8], createdAt: Date) async throws(StoreError) -> Bool {
        let hash = Hexadecimal.encode(secretHash)
        let seconds = LinkRow.seconds(createdAt)
        var added = false
        try await run("add a token") { client, logger in
            added = try await client.withTransaction(logger: logger) { connection in
                // Read committed lets two sessions both see no such name; one lock makes them take turns.
                try await connection.query("SELECT pg_advisory_xact_lock(742032)", logger: logger)
                let rows = try await connection.query(
                    """
                    INSERT INTO api_tokens (secret_hash, name, created_at)
                    SELECT \(hash), \(name), \(seconds) WHERE NOT EXISTS (SELECT 1 FROM api_tokens WHERE name = \(name))
                    RETURNING name
                    """,
                    logger: logger
                )
                var inserted = false
                for try await _ in rows { inserted = true }
                return inserted
            }
        }
        return added
    }

    public func tokens() async throws(StoreError) -> [APITokenRecord] {
        try await rows(
            "read tokens",
            "SELECT secret_hash, name, created_at, last_used_at FROM api_tokens ORDER BY name"
        ) { row in try row.decode((String, String, Int, Int?).self) }.compactMap { hash, name, created, used in
            Hexadecimal.decode(hash).map {
                APITokenRecord(
                    name: name,
                    secretHash: $0,
                    createdAt: LinkRow.date(created),
                    lastUsedAt: used.map(LinkRow.date)
                )
            }
        }
    }

    public func assignDomain(_ domain: String) async throws(StoreError) -> Int {
        try await rows(
            "assign links their domain",
            "UPDATE links SET domain = \(domain) WHERE domain IS NULL RETURNING code"
        ) {
            try $0.decode(String.self)
        }.count
    }

    public func removeTokens(named name: String) async throws(StoreError) -> Int {
        try await rows("remove a token", "DELETE FROM api_tokens WHERE name = \(name) RETURNING name") {
            try $0.decode(String.self)
        }.count
    }

    public func markTokenUsed(secretHash: [UInt8], at date: Date) async throws(StoreError) {
        let hash = Hexadecimal.encode(secretHash)
        let seconds = LinkRow.seconds(date)
        _ = try await rows(
            "record a token's use",
            "UPDATE api_tokens SET last_used_at = \(seconds) WHERE secret_hash = \(hash)"
        ) { _ in () }
    }

    public func addAdminSession(_ session: AdminSessionRecord) async throws(StoreError) {
        let hash = Hexadecimal.encode(session.tokenHash)
        let created = LinkRow.seconds(session.createdAt)
        let seen = LinkRow.seconds(session.lastSeenAt)
        // Sessions past their lifetime are of no use: each sign-in clears them away.
        let expired = created - Int(AdminSessions.lifetime)
        _ = try await rows("clear old admin sessions", "DELETE FROM admin_sessions WHERE created_at < \(expired)") {
            _ in ()
        }
        _ = try await rows(
            "add an admin session",
            "INSERT INTO admin_sessions (id, token_hash, created_at, last_seen_at) VALUES (\(session.id), \(hash), \(created), \(seen))"
        ) { _ in () }
    }

    public func adminSession(id: String) async throws(StoreError) -> AdminSessionRecord? {
        try await rows(
            "read an admin session",
            "SELECT token_hash, created_at, last_seen_at, ended_at FROM admin_sessions WHERE id = \(id)"
        ) { row in try row.decode((String, Int, Int, Int?).self) }.first.flatMap { hash, created, seen, ended in
            Hexadecimal.decode(hash).map {
                AdminSessionRecord(
                    id: id,
                    tokenHash: $0,
                    createdAt: LinkRow.date(created),
                    lastSeenAt: LinkRow.date(seen),
                    endedAt: ended.map(LinkRow.date)
                )
            }
        }
    }

    public func touchAdminSession(id: String, at date: Date) async throws(StoreError) {
        let seconds = LinkRow.seconds(date)
        _ = try await rows(
            "record an admin session's request",
            "UPDATE admin_sessions SET last_seen_at = \(seconds) WHERE id = \(id)"
        ) { _ in () }
    }

    public func endAdminSession(id: String, at date: Date) async throws(StoreError) {
        let seconds = LinkRow.seconds(date)
        _ = try await rows(
            "end an admin session",
            "UPDATE admin_sessions SET ended_at = \(seconds) WHERE id = \(id) AND ended_at IS NULL"
        ) { _ in () }
    }

    public func addClicks(_ batch: ClickBatch) async throws(StoreError) {
        guard !batch.isEmpty else { return }
        let id = batch.id.uuidString
        let now = LinkRow.seconds(Date())
        let rows = batch.rows
        let codes = rows.map(\.key.code)
        let days = rows.map(\.key.day)
        let clients = rows.map(\.key.client.rawValue)
        let outcomes = rows.map(\.key.outcome.rawValue)
        let counts = rows.map(\.count)
        let expired = now - ClickBatch.idLifetime
        let groups = batch.sourceGroups
        try await run("add click counts") { client, logger in
            try await client.withTransaction(logger: logger) { connection in
                // The values each day already counts first: a new one past the day's limit is `(other)`.
                // Instances writing the same day at once may each add up to the limit's worth.
                var counted: [ClickSourceKey] = []
                if !groups.isEmpty {
                    let rows = try await connection.query(
                        """
                        SELECT code, day, dimension, value FROM click_sources
                        WHERE (code, day, dimension) IN (
                            SELECT * FROM unnest(\(groups.map(\.code))::text[], \(groups.map(\.day))::bigint[], \(groups.map(\.dimension.rawValue))::text[])
                        )
                        """,
                        logger: logger
                    )
                    for try await (code, day, dimension, value) in rows.decode((String, Int, String, String).self) {
                        guard let dimension = ClickSource.Dimension(rawValue: dimension) else { continue }
                        counted.append(ClickSourceKey(code: code, day: day, source: ClickSource(dimension, value)))
                    }
                }
                let sources = batch.sourceRows(after: counted)
                let sourceCodes = sources.map(\.key.code)
                let sourceDays = sources.map(\.key.day)
                let dimensions = sources.map(\.key.source.dimension.rawValue)
                let values = sources.map(\.key.source.value)
                let sourceCounts = sources.map(\.count)
                // One statement adds the batch: its id is recorded and every row added, or none. A batch
                // applied before (the answer was lost, not the write) adds nothing. Rows go in one order
                // (ClickBatch.rows, sourceRows), so instances adding to the same rows never deadlock.
                try await connection.query(
                    """
                    WITH batch AS (
                        INSERT INTO click_batches (id, applied_at) VALUES (\(id), \(now)) ON CONFLICT (id) DO NOTHING RETURNING id
                    ), expired AS (
                        DELETE FROM click_batches WHERE applied_at < \(expired) AND EXISTS (SELECT 1 FROM batch)
                    ), sources AS (
                        INSERT INTO click_sources (code, day, dimension, value, count)
                        SELECT * FROM unnest(\(sourceCodes)::text[], \(sourceDays)::bigint[], \(dimensions)::text[], \(values)::text[], \(sourceCounts)::bigint[])
                        WHERE EXISTS (SELECT 1 FROM batch)
                        ORDER BY 1, 2, 3, 4
                        ON CONFLICT (code, day, dimension, value) DO UPDATE SET count = click_sources.count + excluded.count
                    )
                    INSERT INTO clicks (code, day, client, outcome, count)
                    SELECT * FROM unnest(\(codes)::text[], \(days)::bigint[], \(clients)::text[], \(outcomes)::text[], \(counts)::bigint[])
                    WHERE EXISTS (SELECT 1 FROM batch)
                    ORDER BY 1, 2, 3, 4
                    ON CONFLICT (code, day, client, outcome) DO UPDATE SET count = clicks.count + excluded.count
                    """,
                    logger: logger
                )
            }
        }
    }

    public func clicks(code: String) async throws(StoreError) -> [ClickCount] {
        try await rows(
            "read click counts",
            "SELECT day, client, outcome, count FROM clicks WHERE code = \(code) ORDER BY day, client, outcome"
        ) { row in
            let (day, client, outcome, count) = try row.decode((Int, String, String, Int).self)
            return (day, ClientKind(rawValue: client), VisitOutcome(rawValue: outcome), count)
        }.compactMap { day, client, outcome, count in
            guard let client, let outcome else { return nil }
            return ClickCount(key: ClickKey(code: code, day: day, client: client, outcome: outcome), count: count)
        }
    }

    public func clickSources(code: String) async throws(StoreError) -> [ClickSourceCount] {
        try await rows(
            "read click sources",
            "SELECT day, dimension, value, count FROM click_sources WHERE code = \(code) ORDER BY day, dimension, value"
        ) { row in
            let (day, dimension, value, count) = try row.decode((Int, String, String, Int).self)
            return (day, ClickSource.Dimension(rawValue: dimension), value, count)
        }.compactMap { day, dimension, value, count in
            guard let dimension else { return nil }
            return ClickSourceCount(
                key: ClickSourceKey(code: code, day: day, source: ClickSource(dimension, value)),
                count: count
            )
        }
    }

    public func addClaim(_ claim: ClaimRecord) async throws(StoreError) -> Bool {
        let day = ClickKey.day(of: claim.claimedAt)
        let platform = claim.platform.rawValue
        let seconds = LinkRow.seconds(claim.claimedAt)
        return try await !rows(
            "record a claim",
            """
            INSERT INTO claims (id, code, day, platform, claimed_at) VALUES (\(claim.id), \(claim.code), \(day), \(platform), \(seconds))
            ON CONFLICT (id) DO NOTHING RETURNING id
            """
        ) { try $0.decode(String.self) }.isEmpty
    }

    public func installs(code: String) async throws(StoreError) -> [InstallCount] {
        try await rows(
            "read install counts",
            """
            SELECT day, platform, count(*) FROM claims WHERE code = \(code)
            GROUP BY day, platform ORDER BY day, platform
            """
        ) { row in try row.decode((Int, String, Int).self) }.compactMap { day, platform, count in
            ClaimPlatform(rawValue: platform).map { InstallCount(day: day, platform: $0, count: count) }
        }
    }

    public func close() async {
        if let listening = listener.withLockedValue({ $0 }) {
            listening.cancel()
            await listening.value
        }
        runner.cancel()
        _ = await runner.value
    }

    // MARK: Rows

    func run(_ what: String, _ body: (PostgresClient, Logger) async throws -> Void) async throws(StoreError) {
        do {
            try await body(client, logger)
        } catch {
            throw StoreError("PostgreSQL could not \(what): \(Self.describe(error))")
        }
    }

    func rows<Value>(
        _ what: String,
        _ query: PostgresQuery,
        _ read: (PostgresRow) throws -> Value
    )
        async throws(StoreError) -> [Value]
    {
        do {
            var values: [Value] = []
            for try await row in try await client.query(query, logger: logger) { values.append(try read(row)) }
            return values
        } catch {
            throw StoreError("PostgreSQL could not \(what): \(Self.describe(error))")
        }
    }

    private func links(_ what: String, _ query: PostgresQuery) async throws(StoreError) -> [ShortLink] {
        try await rows(what, query) { row in
            let columns = row.makeRandomAccess()
            return LinkRow(
                text: { try? columns[$0].decode(String?.self) },
                integer: { try? columns[$0].decode(Int?.self) }
            ).link
        }
    }

    private static func binds(_ values: [LinkRow.Value]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .text(let text): bindings.append(text)
            case .integer(let number): bindings.append(number)
            }
        }
        return bindings
    }

    /// PSQLError's description hides the server's message by default; this keeps it.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PostgresTransactionError {
            return (error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError).map(describe)
                ?? "the transaction failed"
        }
        if let error = error as? PSQLError {
            let message = error.serverInfo?[.message] ?? "\(error.code)"
            return error.serverInfo?[.sqlState].map { "\(message) (SQLSTATE \($0))" } ?? message
        }
        return "\(error)"
    }
}
