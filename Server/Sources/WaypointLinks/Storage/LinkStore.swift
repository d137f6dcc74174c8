import Foundation

/// Where links and API tokens live. Two engines implement it: ``SQLiteLinkStore`` (the default,
/// a file, nothing to install) and PostgreSQL (several instances behind a load balancer). Every
/// method is one atomic step: an acknowledged write is in the database.
///
/// ```swift
/// let store = try await SQLiteLinkStore.open(path: "links.sqlite")
/// try await store.insert(link)               // false when the code is taken
/// try await store.link(code: "spring-sale")  // the link, or nil
/// ```
public protocol LinkStore: Sendable {
    /// Adds `link`; `false`, changing nothing, when its code is taken.
    func insert(_ link: ShortLink) async throws(StoreError) -> Bool
    func link(code: String) async throws(StoreError) -> ShortLink?
    /// Up to `limit` links in code order, after `code` when given (keyset pagination: stable
    /// while links are added and removed).
    func links(after code: String?, limit: Int) async throws(StoreError) -> [ShortLink]
    /// Replaces the link with `link.code`; `false` when there is none.
    func replace(_ link: ShortLink) async throws(StoreError) -> Bool
    /// `false` when there was no such link.
    func delete(code: String) async throws(StoreError) -> Bool

    /// Records an API token by the SHA-256 of its secret; the secret itself is never stored.
    func addToken(name: String, secretHash: [UInt8], createdAt: Date) async throws(StoreError)
    /// Every stored token hash, for a constant-time comparison in memory.
    func tokenHashes() async throws(StoreError) -> [[UInt8]]

    /// Adds the batch's counts to the stored ones, all or none, once: a batch whose id the
    /// database has already applied changes nothing.
    func addClicks(_ batch: ClickBatch) async throws(StoreError)
    /// A link's counts, by day, client and outcome, in that order.
    func clicks(code: String) async throws(StoreError) -> [ClickCount]

    /// The schema versions the database has, in order (``Migration``).
    func appliedMigrations() async throws(StoreError) -> [Int]

    /// Closes connections; nothing may be called after.
    func close() async
}

/// The database failed: the request did nothing and may be retried. The message names the
/// operation and the engine's own account.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The engine a `--database` value names.
///
/// ```swift
/// try await LinkStores.open("waypoint-links.sqlite")                        // SQLite, a file
/// try await LinkStores.open("postgres://links:secret@127.0.0.1:5432/links")  // PostgreSQL
/// ```
public enum LinkStores {
    public static func open(_ location: String) async throws(StoreError) -> any LinkStore {
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            return try await PostgresLinkStore.connect(url: location)
        }
        return try await SQLiteLinkStore.open(path: location)
    }
}
