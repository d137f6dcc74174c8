import Foundation

/// One step of the schema, applied once, in order, when the service starts; the database records
/// each version it has. A released migration never changes: a new step is a new version.
///
/// A step is written once, for both engines: `{code}` and `{int64}` stand for the column types that
/// differ between them (``SQLDialect``).
public struct Migration: Sendable {
    public let version: Int
    public let summary: String
    public let statements: [String]

    init(version: Int, summary: String, statements: [String]) {
        self.version = version
        self.summary = summary
        self.statements = statements
    }

    /// The steps, in order, as `dialect` writes them.
    static func all(for dialect: SQLDialect) -> [Migration] {
        steps.map { step in
            Migration(version: step.version, summary: step.summary, statements: step.statements.map(dialect.write))
        }
    }

    /// Dates are whole seconds since 1970 (UTC).
    private static let steps: [Migration] = [
        Migration(
            version: 1,
            summary: "links and API tokens",
            statements: [
                """
                CREATE TABLE links (
                    code {code} PRIMARY KEY NOT NULL,
                    deep_link TEXT NOT NULL,
                    route TEXT NOT NULL,
                    app_store_id TEXT,
                    play_package TEXT,
                    web_url TEXT,
                    preview_title TEXT,
                    preview_description TEXT,
                    preview_image_url TEXT,
                    expires_at {int64},
                    created_at {int64} NOT NULL,
                    updated_at {int64} NOT NULL
                )
                """,
                """
                CREATE TABLE api_tokens (
                    secret_hash TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    created_at {int64} NOT NULL
                )
                """,
            ]
        ),
        Migration(
            version: 2,
            summary: "click counts",
            statements: [
                """
                CREATE TABLE clicks (
                    code {code} NOT NULL,
                    day INTEGER NOT NULL,
                    client TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    count {int64} NOT NULL,
                    PRIMARY KEY (code, day, client, outcome)
                )
                """,
                """
                CREATE TABLE click_batches (
                    id TEXT PRIMARY KEY NOT NULL,
                    applied_at {int64} NOT NULL
                )
                """,
            ]
        ),
        Migration(
            version: 3,
            summary: "claims of deferred links, and the shared secret",
            statements: [
                // One row per claimed token: its id makes the claim single use, and the rows are
                // the install counts. Tokens never claimed leave nothing.
                """
                CREATE TABLE claims (
                    id TEXT PRIMARY KEY NOT NULL,
                    code {code} NOT NULL,
                    day INTEGER NOT NULL,
                    platform TEXT NOT NULL,
                    claimed_at {int64} NOT NULL
                )
                """,
                "CREATE INDEX claims_by_code ON claims (code, day)",
                // Secrets every instance on the database shares (hexadecimal), made by the first.
                """
                CREATE TABLE service_secrets (
                    name TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                )
                """,
            ]
        ),
        Migration(
            version: 4,
            summary: "when each API token was last used; click batch ids by age",
            statements: [
                "ALTER TABLE api_tokens ADD COLUMN last_used_at {int64}",
                // Old batch ids are deleted as new batches are written (ClickBatch.idLifetime).
                "CREATE INDEX click_batches_by_age ON click_batches (applied_at)",
            ]
        ),
        Migration(
            version: 5,
            summary: "admin page sessions, ended on the server",
            statements: [
                """
                CREATE TABLE admin_sessions (
                    id TEXT PRIMARY KEY NOT NULL,
                    token_hash TEXT NOT NULL,
                    created_at {int64} NOT NULL,
                    last_seen_at {int64} NOT NULL,
                    ended_at {int64}
                )
                """
            ]
        ),
        Migration(
            version: 6,
            summary: "per-platform fallbacks and query passthrough",
            statements: [
                "ALTER TABLE links ADD COLUMN ios_url TEXT",
                "ALTER TABLE links ADD COLUMN android_url TEXT",
                "ALTER TABLE links ADD COLUMN desktop_url TEXT",
                "ALTER TABLE links ADD COLUMN pass_query {int64} NOT NULL DEFAULT 1",
            ]
        ),
        Migration(
            version: 7,
            summary: "several short-link domains: the one each link is on",
            // Null for the links from before: they are on the first domain listed.
            statements: ["ALTER TABLE links ADD COLUMN domain TEXT"]
        ),
        Migration(
            version: 8,
            summary: "where clicks come from: the referrer's host and the country",
            statements: [
                // Beside the clicks, not in their key: a breakdown by referrer times country times
                // client would multiply the rows, and nobody reads it.
                """
                CREATE TABLE click_sources (
                    code {code} NOT NULL,
                    day INTEGER NOT NULL,
                    dimension TEXT NOT NULL,
                    value TEXT NOT NULL,
                    count {int64} NOT NULL,
                    PRIMARY KEY (code, day, dimension, value)
                )
                """
            ]
        ),
        Migration(
            version: 9,
            summary: "webhooks and their delivery queue",
            statements: [
                // `events` is the event names between commas (",link.created,link.clicked,"), so a
                // LIKE finds the webhooks that want one.
                """
                CREATE TABLE webhooks (
                    id TEXT PRIMARY KEY NOT NULL,
                    url TEXT NOT NULL,
                    events TEXT NOT NULL,
                    secret TEXT NOT NULL,
                    created_at {int64} NOT NULL
                )
                """,
                // A row until the receiver answers 2xx; `due_at` is when it may be sent (again).
                """
                CREATE TABLE webhook_deliveries (
                    id TEXT PRIMARY KEY NOT NULL,
                    webhook_id TEXT NOT NULL,
                    event TEXT NOT NULL,
                    body TEXT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    due_at {int64} NOT NULL,
                    created_at {int64} NOT NULL,
                    last_error TEXT
                )
                """,
                "CREATE INDEX webhook_deliveries_by_due ON webhook_deliveries (due_at)",
                "CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id)",
            ]
        ),
    ]
}

/// What the two engines spell differently in the schema.
enum SQLDialect: Sendable {
    case sqlite, postgres

    /// A short link's code. PostgreSQL compares it byte by byte (`COLLATE "C"`), as SQLite does,
    /// so pages come in the same order on both engines whatever the database's locale.
    var codeType: String {
        switch self {
        case .sqlite: "TEXT"
        case .postgres: #"TEXT COLLATE "C""#
        }
    }

    /// A 64-bit integer: SQLite's `INTEGER` is, PostgreSQL's is 32 bits.
    var int64Type: String {
        switch self {
        case .sqlite: "INTEGER"
        case .postgres: "BIGINT"
        }
    }

    /// The table that records the versions applied.
    var schemaMigrationsTable: String {
        write(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, summary TEXT NOT NULL, "
                + "applied_at {int64} NOT NULL)"
        )
    }

    func write(_ statement: String) -> String {
        statement.replacingOccurrences(of: "{code}", with: codeType).replacingOccurrences(
            of: "{int64}",
            with: int64Type
        )
    }
}
