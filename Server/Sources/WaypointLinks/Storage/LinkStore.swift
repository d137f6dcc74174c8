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
    /// while links are added and removed); with `containing`, only links whose code or deep link
    /// contains that text, ignoring ASCII case (none for text no link holds, such as a NUL).
    func links(after code: String?, limit: Int, containing: String?) async throws(StoreError) -> [ShortLink]
    /// Replaces the link with `link.code` if it is still `expected`, column for column: an edit
    /// reads a link, changes it and writes it back, and two edits at once must not undo each other
    /// (``AdminAPI`` reads again and retries on ``ReplaceOutcome/changedMeanwhile``).
    func replace(_ link: ShortLink, ifStill expected: ShortLink) async throws(StoreError) -> ReplaceOutcome
    /// `false` when there was no such link.
    func delete(code: String) async throws(StoreError) -> Bool
    /// Puts every link that names no short-link domain (one made before there were several) on
    /// `domain`, so that reordering the manifest's list later moves none; the number moved.
    func assignDomain(_ domain: String) async throws(StoreError) -> Int

    /// Tells `observer` of every edit and delete once it is committed: this instance's own at once,
    /// and on an engine several instances share, the others' too.
    func observeChanges(_ observer: @escaping @Sendable (LinkChange) -> Void)

    /// Records an API token by the SHA-256 of its secret; the secret itself is never stored.
    /// `false`, changing nothing, when a token has that name.
    func addToken(name: String, secretHash: [UInt8], createdAt: Date) async throws(StoreError) -> Bool
    /// Every stored token, in name order (their hashes for a constant-time comparison in memory).
    func tokens() async throws(StoreError) -> [APITokenRecord]
    /// Removes the token with this name; how many were removed (0 or 1; more only in a database
    /// from before names were unique).
    func removeTokens(named name: String) async throws(StoreError) -> Int
    /// Records that a request presented the token with this hash.
    func markTokenUsed(secretHash: [UInt8], at date: Date) async throws(StoreError)

    /// Records a new admin page session (``AdminSessions``).
    func addAdminSession(_ session: AdminSessionRecord) async throws(StoreError)
    func adminSession(id: String) async throws(StoreError) -> AdminSessionRecord?
    /// Records a request of the session, for its idle timeout.
    func touchAdminSession(id: String, at date: Date) async throws(StoreError)
    /// Ends the session (signing out); it opens nothing after.
    func endAdminSession(id: String, at date: Date) async throws(StoreError)

    /// Adds the batch's counts to the stored ones, all or none, once: a batch whose id the
    /// database has already applied changes nothing.
    func addClicks(_ batch: ClickBatch) async throws(StoreError)
    /// A link's counts, by day, client and outcome, in that order.
    func clicks(code: String) async throws(StoreError) -> [ClickCount]
    /// Where a link's clicks came from, by day, dimension and value, in that order.
    func clickSources(code: String) async throws(StoreError) -> [ClickSourceCount]

    /// Records a claim of a deferred link; `false`, changing nothing, when its token was claimed
    /// before. The one statement that makes a claim token single use.
    func addClaim(_ claim: ClaimRecord) async throws(StoreError) -> Bool
    /// A link's claims (installs), by day and platform, in that order.
    func installs(code: String) async throws(StoreError) -> [InstallCount]

    /// A random secret every instance on this database shares, made by the first to open it:
    /// it signs claim tokens and admin sessions, so any instance checks what another issued.
    var sharedSecret: [UInt8] { get }

    /// The schema versions the database has, in order (``Migration``).
    func appliedMigrations() async throws(StoreError) -> [Int]

    /// Closes connections; nothing may be called after.
    func close() async
}

/// A claimed token, as stored.
public struct ClaimRecord: Sendable, Hashable {
    /// The token's id (``ClaimToken``).
    public var id: String
    public var code: String
    public var platform: ClaimPlatform
    public var claimedAt: Date

    public init(id: String, code: String, platform: ClaimPlatform, claimedAt: Date) {
        self.id = id
        self.code = code
        self.platform = platform
        self.claimedAt = claimedAt
    }
}

/// Claims of one link on one UTC day from one platform.
public struct InstallCount: Sendable, Hashable {
    /// Days since 1970-01-01 (UTC), as ``ClickKey/day``.
    public var day: Int
    public var platform: ClaimPlatform
    public var count: Int

    public init(day: Int, platform: ClaimPlatform, count: Int) {
        self.day = day
        self.platform = platform
        self.count = count
    }
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

/// What a conditional replace did (``LinkStore/replace(_:ifStill:)``).
public enum ReplaceOutcome: Sendable, Hashable {
    case replaced
    /// The link was changed since it was read; nothing was written.
    case changedMeanwhile
    /// There is no link with the code.
    case notFound
}
