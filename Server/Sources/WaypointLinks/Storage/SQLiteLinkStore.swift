import Foundation
import Logging
import SQLiteNIO

/// Links in one SQLite file: nothing to install (SQLite is compiled into the service), WAL mode so
/// redirects read while links are written, and `synchronous=FULL` so a link the API acknowledged
/// survives the process being killed and the machine losing power.
///
/// ```swift
/// let store = try await SQLiteLinkStore.open(path: "waypoint-links.sqlite")
/// ```
public final class SQLiteLinkStore: LinkStore {
    let connection: SQLiteConnection

    private init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Opens (creating when absent) the database at `path` and applies the migrations it lacks.
    public static func open(
        path: String,
        logger: Logger = Logger(label: "waypoint-links.sqlite")
    ) async throws(StoreError)
        -> SQLiteLinkStore
    {
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        } catch {
            throw StoreError("Could not open the SQLite database at '\(path)': \(error)")
        }
        let store = SQLiteLinkStore(connection: connection)
        do throws(StoreError) {
            for pragma in ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA busy_timeout=5000"] {
                _ = try await store.query(pragma)
            }
            try await store.migrate()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Applies each migration the database has not recorded, one transaction each. `BEGIN
    /// IMMEDIATE` takes the write lock first, so two processes starting at once apply a step once.
    func migrate() async throws(StoreError) {
        _ = try await query(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, summary TEXT NOT NULL, applied_at INTEGER NOT NULL)"
        )
        for migration in Migration.sqlite {
            _ = try await query("BEGIN IMMEDIATE")
            do throws(StoreError) {
                let applied = try await query(
                    "SELECT 1 FROM schema_migrations WHERE version = ?",
                    [.integer(migration.version)]
                )
                if applied.isEmpty {
                    for statement in migration.statements { _ = try await query(statement) }
                    _ = try await query(
                        "INSERT INTO schema_migrations (version, summary, applied_at) VALUES (?, ?, ?)",
                        [.integer(migration.version), .text(migration.summary), .integer(Self.seconds(Date()))]
                    )
                }
                _ = try await query("COMMIT")
            } catch {
                _ = try? await query("ROLLBACK")
                throw StoreError("Migration \(migration.version) (\(migration.summary)) failed: \(error.message)")
            }
        }
    }

    /// The schema versions the database has, in order.
    public func appliedMigrations() async throws(StoreError) -> [Int] {
        try await query("SELECT version FROM schema_migrations ORDER BY version").compactMap {
            $0.column("version")?.integer
        }
    }

    public func insert(_ link: ShortLink) async throws(StoreError) -> Bool {
        // One statement: the code's uniqueness is the primary key's, never a read before a write.
        let rows = try await query(
            """
            INSERT INTO links (code, deep_link, route, app_store_id, play_package, web_url, preview_title,
                preview_description, preview_image_url, expires_at, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (code) DO NOTHING
            RETURNING code
            """,
            Self.binds(link)
        )
        return !rows.isEmpty
    }

    public func link(code: String) async throws(StoreError) -> ShortLink? {
        try await query("SELECT * FROM links WHERE code = ?", [.text(code)]).first.map(Self.link)
    }

    public func links(after code: String?, limit: Int) async throws(StoreError) -> [ShortLink] {
        try await query(
            "SELECT * FROM links WHERE code > ? ORDER BY code LIMIT ?",
            [.text(code ?? ""), .integer(limit)]
        ).map(Self.link)
    }

    public func replace(_ link: ShortLink) async throws(StoreError) -> Bool {
        var binds = Array(Self.binds(link).dropFirst())
        binds.append(.text(link.code))
        let rows = try await query(
            """
            UPDATE links SET deep_link = ?, route = ?, app_store_id = ?, play_package = ?, web_url = ?,
                preview_title = ?, preview_description = ?, preview_image_url = ?, expires_at = ?,
                created_at = ?, updated_at = ?
            WHERE code = ?
            RETURNING code
            """,
            binds
        )
        return !rows.isEmpty
    }

    public func delete(code: String) async throws(StoreError) -> Bool {
        !(try await query("DELETE FROM links WHERE code = ? RETURNING code", [.text(code)])).isEmpty
    }

    public func addToken(name: String, secretHash: [UInt8], createdAt: Date) async throws(StoreError) {
        _ = try await query(
            "INSERT INTO api_tokens (secret_hash, name, created_at) VALUES (?, ?, ?)",
            [.text(Self.hex(secretHash)), .text(name), .integer(Self.seconds(createdAt))]
        )
    }

    public func tokenHashes() async throws(StoreError) -> [[UInt8]] {
        try await query("SELECT secret_hash FROM api_tokens").compactMap { row in
            row.column("secret_hash")?.string.flatMap(Self.bytes(hex:))
        }
    }

    public func close() async {
        try? await connection.close()
    }

    // MARK: Rows

    private func query(_ sql: String, _ binds: [SQLiteData] = []) async throws(StoreError) -> [SQLiteRow] {
        do {
            return try await connection.query(sql, binds)
        } catch {
            throw StoreError("SQLite: \(error)")
        }
    }

    private static func binds(_ link: ShortLink) -> [SQLiteData] {
        [
            .text(link.code), .text(link.deepLink), .text(link.route),
            optional(link.fallbacks.appStoreID), optional(link.fallbacks.playPackage), optional(link.fallbacks.web),
            optional(link.preview?.title), optional(link.preview?.description), optional(link.preview?.imageURL),
            link.expiresAt.map { .integer(seconds($0)) } ?? .null,
            .integer(seconds(link.createdAt)), .integer(seconds(link.updatedAt)),
        ]
    }

    private static func optional(_ text: String?) -> SQLiteData { text.map { .text($0) } ?? .null }

    private static func link(_ row: SQLiteRow) -> ShortLink {
        func text(_ name: String) -> String? { row.column(name)?.string }
        func date(_ name: String) -> Date? { row.column(name)?.integer.map { Date(timeIntervalSince1970: Double($0)) } }
        let preview = ShortLink.Preview(
            title: text("preview_title"),
            description: text("preview_description"),
            imageURL: text("preview_image_url")
        )
        return ShortLink(
            code: text("code") ?? "",
            deepLink: text("deep_link") ?? "",
            route: text("route") ?? "",
            fallbacks: ShortLink.Fallbacks(
                appStoreID: text("app_store_id"),
                playPackage: text("play_package"),
                web: text("web_url")
            ),
            preview: preview == ShortLink.Preview() ? nil : preview,
            expiresAt: date("expires_at"),
            createdAt: date("created_at") ?? Date(timeIntervalSince1970: 0),
            updatedAt: date("updated_at")
        )
    }

    static func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined() }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        return stride(from: 0, to: digits.count, by: 2).compactMap {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)
        }
    }
}
