import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WaypointLinks

@Suite("Click counts")
struct ClickTests {
    static let day = ClickKey.day(of: Fixtures.now)

    static func key(_ code: String, _ client: ClientKind = .iOS, _ outcome: VisitOutcome = .landingPage) -> ClickKey {
        ClickKey(code: code, day: day, client: client, outcome: outcome)
    }

    @Test("Batches add up, and a batch written twice counts once", arguments: Engine.available)
    func batches(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let first = ClickBatch(counts: [Self.key("a"): 2, Self.key("a", .android, .store): 1, Self.key("b"): 5])
        try await store.addClicks(first)
        try await store.addClicks(first)  // a retry after a lost answer
        try await store.addClicks(ClickBatch(counts: [Self.key("a"): 3]))
        let counts = try await store.clicks(code: "a")
        #expect(
            counts == [
                ClickCount(key: Self.key("a", .android, .store), count: 1),
                ClickCount(key: Self.key("a"), count: 5),
            ]
        )
        #expect(try await store.clicks(code: "b").map(\.count) == [5])
        #expect(try await store.clicks(code: "c").isEmpty)
        await store.close()
    }

    @Test("A failed write keeps every count for the next one, under the same batch id")
    func failedWrite() async throws {
        let store = FlakyStore(failures: 2)
        let counter = ClickCounter(store: store)
        for _ in 0..<3 { try await counter.count(Self.key("a")) }
        await #expect(throws: StoreError.self) { try await counter.flush() }
        try await counter.count(Self.key("a"))
        await #expect(throws: StoreError.self) { try await counter.flush() }
        #expect(await counter.unwritten == 4)
        try await counter.flush()  // the first batch (3), then nothing new is lost
        try await counter.flush()  // the click recorded meanwhile (1)
        #expect(await counter.unwritten == 0)
        #expect(await store.written == [3, 1])
        #expect(Set(await store.batchIDs).count == 2)
    }

    @Test("With a window of 0 a visit waits for its write: a failed one refuses it, a stopped counter refuses at once")
    func windowZeroRefusals() async throws {
        let store = FlakyStore(failures: 1)
        let counter = ClickCounter(store: store, window: .zero)
        let first = Task { try await counter.count(Self.key("a")) }
        try await Task.sleep(for: .milliseconds(50))
        await #expect(throws: StoreError.self) { try await counter.flush() }
        await #expect(throws: LinkServiceError.self) { try await first.value }
        // The next try writes the failed batch, then the next visit's: that visit is answered.
        let second = Task { try await counter.count(Self.key("a")) }
        try await Task.sleep(for: .milliseconds(50))
        await counter.writeTheRest()
        try await second.value
        #expect(await store.written == [1, 1])
        // Once the counter has written for the last time, a visit waits for nothing.
        await #expect(throws: LinkServiceError.self) { try await counter.count(Self.key("a")) }
    }

    @Test("Every kind of visit is counted by client and outcome; unknown codes are not", arguments: Engine.available)
    func visitsCounted(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let service = try LinkService(
            manifest: try Fixtures.manifest(),
            store: store,
            configuration: LinkService.Configuration(now: { Fixtures.now })
        )
        let link = ShortLink(
            code: "spring",
            deepLink: "readapp://books/1",
            route: "book",
            fallbacks: ShortLink.Fallbacks(web: "https://read.example.com/b/1"),
            createdAt: Fixtures.now
        )
        #expect(try await store.insert(link))
        try await Application(router: service.router()).test(.router) { client in
            for agent in [Fixtures.iPhone, Fixtures.iPhone, Fixtures.android, Fixtures.desktop, Fixtures.slack] {
                _ = try await client.execute(uri: "/spring", method: .get, headers: [.userAgent: agent])
            }
            _ = try await client.execute(
                uri: "/api/resolve/spring",
                method: .get,
                headers: [.userAgent: "Reader/3 CFNetwork/1568 Darwin/24.6.0"]
            )
            _ = try await client.execute(uri: "/unknown-code", method: .get, headers: [.userAgent: Fixtures.iPhone])
        }
        try await service.clicks.flush()
        let counts = Dictionary(uniqueKeysWithValues: try await store.clicks(code: "spring").map { ($0.key, $0.count) })
        #expect(
            counts == [
                Self.key("spring", .iOS, .landingPage): 2,
                Self.key("spring", .android, .store): 1,
                Self.key("spring", .desktop, .webFallback): 1,
                Self.key("spring", .previewCrawler, .preview): 1,
                Self.key("spring", .iOS, .app): 1,
            ]
        )
        #expect(try await store.clicks(code: "unknown-code").isEmpty)
        await store.close()
    }

    /// Visits under way when the service is told to stop are answered, counted and written.
    @Test("A graceful stop under redirect load loses no acknowledged click", arguments: Engine.available)
    func gracefulStop(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let service = try LinkService(manifest: try Fixtures.manifest(), store: store)
        #expect(try await store.insert(ShortLink(code: "load", deepLink: "readapp://books/1", route: "book")))
        let app = Application(
            router: service.router(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            services: service.services
        )
        let acknowledged = try await app.test(.live) { client in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var answered = 0
                        for request in 0..<50 {
                            let agent = [Fixtures.iPhone, Fixtures.android, Fixtures.desktop][(worker + request) % 3]
                            let response = try await client.execute(
                                uri: "/load",
                                method: .get,
                                headers: [.userAgent: agent]
                            )
                            if response.status == .ok || response.status == .found { answered += 1 }
                        }
                        return answered
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        // The test client has stopped the application gracefully: the counter wrote on its way out.
        let stored = try await store.clicks(code: "load").reduce(0) { $0 + $1.count }
        #expect(acknowledged == 400)
        #expect(stored == acknowledged)
        #expect(await service.clicks.unwritten == 0)
        await store.close()
    }
}

/// A store whose click writes fail a given number of times, recording what it was given.
actor FlakyStore: LinkStore {
    var failures: Int
    var written: [Int] = []
    var batchIDs: [UUID] = []

    init(failures: Int) { self.failures = failures }

    func addClicks(_ batch: ClickBatch) async throws(StoreError) {
        batchIDs.append(batch.id)
        if failures > 0 {
            failures -= 1
            throw StoreError("the database is away")
        }
        written.append(batch.counts.values.reduce(0, +))
    }

    func clicks(code: String) async throws(StoreError) -> [ClickCount] { [] }
    func clickSources(code: String) async throws(StoreError) -> [ClickSourceCount] { [] }
    func insert(_ link: ShortLink) async throws(StoreError) -> Bool { true }
    func link(code: String) async throws(StoreError) -> ShortLink? { nil }
    func links(after code: String?, limit: Int, containing: String?) async throws(StoreError) -> [ShortLink] { [] }
    func replace(_ link: ShortLink, ifStill expected: ShortLink) async throws(StoreError) -> ReplaceOutcome {
        .notFound
    }
    func delete(code: String) async throws(StoreError) -> Bool { false }
    func assignDomain(_ domain: String) async throws(StoreError) -> Int { 0 }
    nonisolated func observeChanges(_ observer: @escaping @Sendable (LinkChange) -> Void) {}
    func addToken(name: String, secretHash: [UInt8], createdAt: Date) async throws(StoreError) -> Bool { true }
    func tokens() async throws(StoreError) -> [APITokenRecord] { [] }
    func removeTokens(named name: String) async throws(StoreError) -> Int { 0 }
    func markTokenUsed(secretHash: [UInt8], at date: Date) async throws(StoreError) {}
    func addAdminSession(_ session: AdminSessionRecord) async throws(StoreError) {}
    func adminSession(id: String) async throws(StoreError) -> AdminSessionRecord? { nil }
    func touchAdminSession(id: String, at date: Date) async throws(StoreError) {}
    func endAdminSession(id: String, at date: Date) async throws(StoreError) {}
    func addClaim(_ claim: ClaimRecord) async throws(StoreError) -> Bool { true }
    func installs(code: String) async throws(StoreError) -> [InstallCount] { [] }
    nonisolated var sharedSecret: [UInt8] { Array(repeating: 7, count: 32) }
    func appliedMigrations() async throws(StoreError) -> [Int] { [] }
    func close() async {}
}
