import Foundation
import Logging
import PostgresNIO
import Testing
import WaypointLinks

/// The storage engines the conformance suite runs against: SQLite always; PostgreSQL when
/// `WAYPOINT_LINKS_POSTGRES_URL` names a server (`.ci/run` starts one with
/// `Server/Scripts/start-postgres.sh`).
enum Engine: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    static let postgresURL = ProcessInfo.processInfo.environment["WAYPOINT_LINKS_POSTGRES_URL"]

    static var available: [Engine] { postgresURL == nil ? [.sqlite] : allCases }

    var testDescription: String { rawValue }

    /// A new, empty store of this engine.
    func makeStore() async throws -> any LinkStore {
        try await LinkStores.open(try await newDatabase())
    }

    /// A new, empty database: a file, or a database of its own on the PostgreSQL server.
    func newDatabase() async throws -> String {
        switch self {
        case .sqlite:
            return Fixtures.databasePath()
        case .postgres:
            let base = try #require(Self.postgresURL)
            let name = "waypoint_links_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
            try await PostgresAdmin.createDatabase(name, server: base)
            var url = try #require(URLComponents(string: base))
            url.path = "/" + name
            return try #require(url.string)
        }
    }
}

/// Creates the databases the PostgreSQL tests use, through the server's default database.
enum PostgresAdmin {
    static func createDatabase(_ name: String, server: String) async throws {
        try await run(["CREATE DATABASE \(name)"], on: server)
    }

    /// Runs SQL on the database `url` names, outside any store.
    static func run(_ statements: [String], on url: String) async throws {
        let url = try #require(URLComponents(string: url))
        let configuration = PostgresClient.Configuration(
            host: url.host ?? "127.0.0.1",
            port: url.port ?? 5432,
            username: url.user ?? "postgres",
            password: url.password,
            database: String(url.path.dropFirst()),
            tls: .disable
        )
        let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "tests.postgres"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            for statement in statements { try await client.query(PostgresQuery(unsafeSQL: statement)) }
            group.cancelAll()
        }
    }
}

@Suite("Every storage engine keeps links and tokens the same way")
struct StoreConformanceTests {
    static func link(_ code: String, deepLink: String = "readapp://books/1") -> ShortLink {
        ShortLink(
            code: code,
            domain: "links.example.com",
            deepLink: deepLink,
            route: "book",
            fallbacks: ShortLink.Fallbacks(
                appStoreID: "1234567890",
                playPackage: nil,
                web: "https://read.example.com/b/1",
                ios: "https://www.marketing.example/ios?c=1",
                android: nil,
                desktop: "https://www.marketing.example/desktop"
            ),
            preview: ShortLink.Preview(title: "A <b>book</b>", description: "ü — 書", imageURL: nil),
            passQuery: false,
            expiresAt: Date(timeIntervalSince1970: 1_900_000_000),
            createdAt: Fixtures.now
        )
    }

    @Test(
        "Links that name no domain are put on the one given, once; the others keep theirs",
        arguments: Engine.available
    )
    func assignDomain(engine: Engine) async throws {
        let store = try await engine.makeStore()
        #expect(try await store.insert(ShortLink(code: "old", deepLink: "readapp://books/1", route: "book")))
        #expect(try await store.insert(Self.link("named")))
        #expect(try await store.assignDomain("links.example.com") == 1)
        #expect(try await store.link(code: "old")?.domain == "links.example.com")
        #expect(try await store.assignDomain("go.example.org") == 0)
        #expect(try await store.link(code: "old")?.domain == "links.example.com")
        await store.close()
    }

    @Test("A link reads back as it was written, every field", arguments: Engine.available)
    func roundTrip(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let written = Self.link("spring")
        #expect(try await store.insert(written))
        #expect(try await store.link(code: "spring") == written)
        #expect(try await store.link(code: "autumn") == nil)
        let bare = ShortLink(code: "bare", deepLink: "readapp://books/2", route: "book", createdAt: Fixtures.now)
        #expect(try await store.insert(bare))
        #expect(try await store.link(code: "bare") == bare)
        await store.close()
    }

    @Test("A taken code is refused and the first link is kept", arguments: Engine.available)
    func takenCode(engine: Engine) async throws {
        let store = try await engine.makeStore()
        #expect(try await store.insert(Self.link("same", deepLink: "readapp://books/1")))
        #expect(try await !store.insert(Self.link("same", deepLink: "readapp://books/2")))
        #expect(try await store.link(code: "same")?.deepLink == "readapp://books/1")
        await store.close()
    }

    @Test("Pages follow code order and lose nothing while links come and go", arguments: Engine.available)
    func pagination(engine: Engine) async throws {
        let store = try await engine.makeStore()
        for code in ["d", "a", "c", "e", "b"] { #expect(try await store.insert(Self.link(code))) }
        #expect(try await store.links(after: nil, limit: 2, containing: nil).map(\.code) == ["a", "b"])
        // "a" deleted and "bb" added between two pages: the next page starts after "b" all the same.
        #expect(try await store.delete(code: "a"))
        #expect(try await store.insert(Self.link("bb")))
        #expect(try await store.links(after: "b", limit: 2, containing: nil).map(\.code) == ["bb", "c"])
        #expect(try await store.links(after: "e", limit: 2, containing: nil).isEmpty)
        await store.close()
    }

    @Test(
        "Replace writes only over the link as it was read, and says whether it was there; delete too",
        arguments: Engine.available
    )
    func replaceAndDelete(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let original = Self.link("x")
        var link = original
        #expect(try await store.replace(link, ifStill: original) == .notFound)
        #expect(try await store.insert(link))
        link.deepLink = "readapp://books/9"
        link.preview = nil
        link.expiresAt = nil
        link.updatedAt = Fixtures.now.addingTimeInterval(60)
        #expect(try await store.replace(link, ifStill: original) == .replaced)
        #expect(try await store.link(code: "x") == link)
        // An edit made from the link before that change writes nothing, whichever field differs:
        // a value, a value now NULL, or only the date.
        var stale = original
        stale.fallbacks.web = "https://read.example.com/b/1"
        #expect(try await store.replace(stale, ifStill: original) == .changedMeanwhile)
        var dateOnly = link
        dateOnly.updatedAt = Fixtures.now
        #expect(try await store.replace(stale, ifStill: dateOnly) == .changedMeanwhile)
        #expect(try await store.link(code: "x") == link)
        #expect(try await store.delete(code: "x"))
        #expect(try await !store.delete(code: "x"))
        #expect(try await store.link(code: "x") == nil)
        await store.close()
    }

    @Test(
        "A search finds links by code or deep link, ignoring case, with LIKE's wildcards literal",
        arguments: Engine.available
    )
    func search(engine: Engine) async throws {
        let store = try await engine.makeStore()
        for (code, deepLink) in [
            ("spring-sale", "readapp://books/1"), ("autumn", "https://read.example.com/b/SPRING"),
            ("fifty_off", "readapp://books/2?d=50%25"), ("plain", "readapp://books/3"),
        ] {
            #expect(try await store.insert(Self.link(code, deepLink: deepLink)))
        }
        #expect(
            try await store.links(after: nil, limit: 10, containing: "Spring").map(\.code) == ["autumn", "spring-sale"]
        )
        #expect(try await store.links(after: "autumn", limit: 10, containing: "spring").map(\.code) == ["spring-sale"])
        // `_` and `%` match themselves, not any character.
        #expect(try await store.links(after: nil, limit: 10, containing: "y_o").map(\.code) == ["fifty_off"])
        #expect(try await store.links(after: nil, limit: 10, containing: "50%").map(\.code) == ["fifty_off"])
        #expect(try await store.links(after: nil, limit: 10, containing: "a_n").isEmpty)
        // Text no link holds, a NUL among it (which PostgreSQL refuses in a text value), finds none.
        #expect(try await store.links(after: nil, limit: 5, containing: "ing\u{0}zz").isEmpty)
        // ASCII letters alone are told apart by case: a Kelvin sign is no `k`.
        #expect(try await store.links(after: nil, limit: 5, containing: "\u{212A}").isEmpty)
        #expect(try await store.links(after: nil, limit: 5, containing: "\u{1F600}").isEmpty)
        await store.close()
    }

    @Test("A claim is recorded once per token and counted as an install", arguments: Engine.available)
    func claims(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let day = ClickKey.day(of: Fixtures.now)
        let claim = ClaimRecord(id: "0a0b", code: "spring", platform: .iOS, claimedAt: Fixtures.now)
        #expect(try await store.addClaim(claim))
        #expect(try await !store.addClaim(claim))
        #expect(
            try await store.addClaim(ClaimRecord(id: "0c", code: "spring", platform: .android, claimedAt: Fixtures.now))
        )
        let tomorrow = Fixtures.now.addingTimeInterval(86_400)
        #expect(try await store.addClaim(ClaimRecord(id: "0d", code: "spring", platform: .iOS, claimedAt: tomorrow)))
        #expect(try await store.addClaim(ClaimRecord(id: "0e", code: "other", platform: .iOS, claimedAt: tomorrow)))
        #expect(
            try await store.installs(code: "spring")
                == [
                    InstallCount(day: day, platform: .iOS, count: 1),
                    InstallCount(day: day, platform: .android, count: 1),
                    InstallCount(day: day + 1, platform: .iOS, count: 1),
                ].sorted { ($0.day, $0.platform.rawValue) < ($1.day, $1.platform.rawValue) }
        )
        await store.close()
    }

    @Test("Tokens are kept as hashes, one per name, listed, marked when used and revoked", arguments: Engine.available)
    func tokens(engine: Engine) async throws {
        let store = try await engine.makeStore()
        #expect(try await store.tokens().isEmpty)
        let secret = APIToken.makeSecret()
        #expect(try await store.addToken(name: "ci", secretHash: APIToken.hash(secret), createdAt: Fixtures.now))
        // A second token of the same name is refused, changing nothing.
        let other = APIToken.makeSecret()
        #expect(!(try await store.addToken(name: "ci", secretHash: APIToken.hash(other), createdAt: Fixtures.now)))
        #expect(try await store.addToken(name: "admin", secretHash: APIToken.hash(other), createdAt: Fixtures.now))
        // Several commands adding one name at once: one token.
        let added = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await store.addToken(
                        name: "race",
                        secretHash: APIToken.hash(APIToken.makeSecret()),
                        createdAt: Fixtures.now
                    )
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(added.filter { $0 }.count == 1)
        #expect(try await store.removeTokens(named: "race") == 1)
        let tokens = try await store.tokens()
        #expect(tokens.map(\.name) == ["admin", "ci"])
        #expect(tokens.map(\.createdAt) == [Fixtures.now, Fixtures.now])
        #expect(tokens.allSatisfy { $0.lastUsedAt == nil })
        let hashes = tokens.map(\.secretHash)
        #expect(hashes.contains(APIToken.hash(secret)))
        #expect(APIToken.matches(secret, anyOf: hashes))
        #expect(!APIToken.matches(secret + "x", anyOf: hashes))
        #expect(APIToken.matching(secret, among: tokens)?.name == "ci")
        #expect(APIToken.matching(secret + "x", among: tokens) == nil)

        let used = Fixtures.now.addingTimeInterval(90)
        try await store.markTokenUsed(secretHash: APIToken.hash(secret), at: used)
        #expect(try await store.tokens().first { $0.name == "ci" }?.lastUsedAt == used)

        #expect(try await store.removeTokens(named: "ci") == 1)
        #expect(try await store.removeTokens(named: "ci") == 0)
        #expect(try await store.tokens().map(\.name) == ["admin"])
        #expect(!APIToken.matches(secret, anyOf: try await store.tokens().map(\.secretHash)))
        await store.close()
    }
}

@Suite("Databases across restarts and instances")
struct DatabaseTests {
    @Test("Reopening applies no migration twice and keeps every link", arguments: Engine.available)
    func reopen(engine: Engine) async throws {
        let database = try await engine.newDatabase()
        let first = try await LinkStores.open(database)
        #expect(try await first.insert(StoreConformanceTests.link("kept")))
        #expect(try await first.appliedMigrations() == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        await first.close()
        let second = try await LinkStores.open(database)
        #expect(try await second.appliedMigrations() == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(try await second.link(code: "kept")?.code == "kept")
        await second.close()
    }

    @Test("Instances that start together on one database migrate it once", arguments: Engine.available)
    func concurrentStart(engine: Engine) async throws {
        let database = try await engine.newDatabase()
        let stores = try await withThrowingTaskGroup(of: (any LinkStore).self) { group in
            for _ in 0..<4 { group.addTask { try await LinkStores.open(database) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // The first to start made the shared secret; every other read it back.
        #expect(Set(stores.map(\.sharedSecret)).count == 1)
        #expect(stores.first?.sharedSecret.count == 32)
        for store in stores {
            #expect(try await store.appliedMigrations() == [1, 2, 3, 4, 5, 6, 7, 8, 9])
            await store.close()
        }
    }

    @Test("A path that cannot be a database is a StoreError naming it")
    func badPath() async throws {
        do {
            _ = try await SQLiteLinkStore.open(path: "/nonexistent-folder-\(UUID().uuidString)/links.sqlite")
            Issue.record("opened a database in a folder that does not exist")
        } catch {
            #expect(error.message.contains("nonexistent-folder"))
        }
    }

    @Test("A PostgreSQL URL that cannot be read, or a server that does not answer, is a StoreError")
    func badPostgresURL() async throws {
        for (url, message) in [
            ("postgres://127.0.0.1/links", "is not a PostgreSQL URL"),
            ("postgres://u:secret@127.0.0.1:5432/links?sslmode=maybe", "sslmode 'maybe'"),
        ] {
            do {
                _ = try await LinkStores.open(url)
                Issue.record("opened \(url)")
            } catch {
                #expect(error.message.contains(message), "\(error.message)")
                #expect(!error.message.contains("secret"))
            }
        }
    }
}
