/// One step of the schema, applied once, in order, when the service starts; the database records
/// each version it has. A released migration never changes: a new step is a new version.
///
/// Each engine writes its own SQL for a step (types differ) under the same version number.
public struct Migration: Sendable {
    public let version: Int
    public let summary: String
    public let statements: [String]
}

extension Migration {
    /// The schema for SQLite. Dates are whole seconds since 1970 (UTC).
    static let sqlite: [Migration] = [
        Migration(
            version: 1,
            summary: "links and API tokens",
            statements: [
                """
                CREATE TABLE links (
                    code TEXT PRIMARY KEY NOT NULL,
                    deep_link TEXT NOT NULL,
                    route TEXT NOT NULL,
                    app_store_id TEXT,
                    play_package TEXT,
                    web_url TEXT,
                    preview_title TEXT,
                    preview_description TEXT,
                    preview_image_url TEXT,
                    expires_at INTEGER,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                )
                """,
                """
                CREATE TABLE api_tokens (
                    secret_hash TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    created_at INTEGER NOT NULL
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
                    code TEXT NOT NULL,
                    day INTEGER NOT NULL,
                    client TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (code, day, client, outcome)
                )
                """,
                """
                CREATE TABLE click_batches (
                    id TEXT PRIMARY KEY NOT NULL,
                    applied_at INTEGER NOT NULL
                )
                """,
            ]
        ),
    ]
}

extension Migration {
    /// The schema for PostgreSQL: the same tables and columns as SQLite's. Codes compare byte by
    /// byte (`COLLATE "C"`), so pages come in the same order on both engines whatever the
    /// database's locale.
    static let postgres: [Migration] = [
        Migration(
            version: 1,
            summary: "links and API tokens",
            statements: [
                """
                CREATE TABLE links (
                    code TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                    deep_link TEXT NOT NULL,
                    route TEXT NOT NULL,
                    app_store_id TEXT,
                    play_package TEXT,
                    web_url TEXT,
                    preview_title TEXT,
                    preview_description TEXT,
                    preview_image_url TEXT,
                    expires_at BIGINT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE api_tokens (
                    secret_hash TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    created_at BIGINT NOT NULL
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
                    code TEXT COLLATE "C" NOT NULL,
                    day INTEGER NOT NULL,
                    client TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    count BIGINT NOT NULL,
                    PRIMARY KEY (code, day, client, outcome)
                )
                """,
                """
                CREATE TABLE click_batches (
                    id TEXT PRIMARY KEY NOT NULL,
                    applied_at BIGINT NOT NULL
                )
                """,
            ]
        ),
    ]
}
