import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import WaypointLinks

/// Several stateless instances behind a load balancer, on one database.
@Suite("Two instances on one database")
struct ScaleOutTests {
    static func instance(
        _ database: String,
        configure: (inout LinkService.Configuration) -> Void = { _ in }
    ) async throws -> (LinkService, any LinkStore) {
        let store = try await LinkStores.open(database)
        var configuration = LinkService.Configuration(now: { Fixtures.now })
        configure(&configuration)
        let service = try LinkService(manifest: try Fixtures.manifest(), store: store, configuration: configuration)
        return (service, store)
    }

    /// `GET /spring` from a desktop browser on `service`: the redirect's target, or the status.
    static func location(_ service: LinkService) async throws -> String? {
        try await Application(router: service.router()).test(.router) { client in
            try await client.execute(uri: "/spring", method: .get, headers: [.userAgent: Fixtures.desktop]) {
                $0.status == .found ? $0.headers[.location] : "\($0.status.code)"
            }
        }
    }

    /// Asks `service` again every 50 ms, for at most `seconds`, until it redirects to `expected`.
    static func waitForLocation(_ expected: String, on service: LinkService, seconds: Double) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        while clock.now < deadline {
            if try await location(service) == expected { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await location(service) == expected
    }

    @Test(
        "An edit or delete on one reaches the other's cached redirects within 2 seconds (LISTEN/NOTIFY)",
        .enabled(if: Engine.postgresURL != nil, "needs WAYPOINT_LINKS_POSTGRES_URL")
    )
    func editsReachOtherInstances() async throws {
        let database = try await Engine.postgres.newDatabase()
        // A cache far longer than the promise: only the notification can make the second see the edit.
        let (first, firstStore) = try await Self.instance(database) { $0.linkCacheSeconds = 600 }
        let (second, secondStore) = try await Self.instance(database) { $0.linkCacheSeconds = 600 }
        // The second instance hears changes once its listening connection is up.
        let listener = try #require(secondStore as? PostgresLinkStore)
        for _ in 0..<250 where !listener.isListening { try await Task.sleep(for: .milliseconds(20)) }
        #expect(listener.isListening)
        #expect(try await firstStore.insert(VisitTests.link))
        #expect(try await Self.location(second) == "https://read.example.com/b/42")  // now cached there
        var edited = VisitTests.link
        edited.fallbacks.web = "https://read.example.com/b/43"
        #expect(try await firstStore.replace(edited, ifStill: VisitTests.link) == .replaced)
        #expect(try await Self.waitForLocation("https://read.example.com/b/43", on: second, seconds: 2))
        #expect(try await firstStore.delete(code: "spring"))
        #expect(try await Self.waitForLocation("404", on: second, seconds: 2))
        _ = first
        await firstStore.close()
        await secondStore.close()
    }

    @Test(
        "Clicks counted on both instances add up, and a token revoked on one is refused by the other at once",
        arguments: Engine.available
    )
    func clicksAndTokensAcrossInstances(engine: Engine) async throws {
        let database = try await engine.newDatabase()
        let (first, firstStore) = try await Self.instance(database)
        let (second, secondStore) = try await Self.instance(database)
        #expect(try await firstStore.insert(VisitTests.link))
        for service in [first, second, second] { _ = try await Self.location(service) }
        try await first.clicks.flush()
        try await second.clicks.flush()
        #expect(try await firstStore.clicks(code: "spring").reduce(0) { $0 + $1.count } == 3)

        let token = APIToken.makeSecret()
        #expect(
            try await firstStore.addToken(name: "leaked", secretHash: APIToken.hash(token), createdAt: Fixtures.now)
        )
        func status() async throws -> HTTPResponse.Status {
            try await Application(router: second.router()).test(.router) { client in
                try await client.execute(uri: "/api/links", method: .get, headers: [.authorization: "Bearer \(token)"])
                    .status
            }
        }
        #expect(try await status() == .ok)
        #expect(try await firstStore.removeTokens(named: "leaked") == 1)  // what `token revoke leaked` does
        #expect(try await status() == .unauthorized)
        await firstStore.close()
        await secondStore.close()
    }

    @Test("A link created on one redirects on the other at once", arguments: Engine.available)
    func createdHereFollowedThere(engine: Engine) async throws {
        let database = try await engine.newDatabase()
        let (first, firstStore) = try await Self.instance(database)
        let (second, secondStore) = try await Self.instance(database)
        let token = APIToken.makeSecret()
        #expect(try await firstStore.addToken(name: "tests", secretHash: APIToken.hash(token), createdAt: Fixtures.now))
        try await Application(router: first.router()).test(.router) { client in
            let body =
                #"{"code": "shared", "deepLink": "readapp://books/1", "fallbacks": {"web": "https://read.example.com/b/1"}}"#
            try await client.execute(
                uri: "/api/links",
                method: .post,
                headers: [.authorization: "Bearer \(token)"],
                body: ByteBuffer(string: body)
            ) { #expect($0.status == .created) }
        }
        try await Application(router: second.router()).test(.router) { client in
            try await client.execute(uri: "/shared", method: .get, headers: [.userAgent: Fixtures.desktop]) {
                #expect($0.status == .found)
                #expect($0.headers[.location] == "https://read.example.com/b/1")
            }
            // The token created through the first instance works on the second.
            try await client.execute(
                uri: "/api/links/shared",
                method: .get,
                headers: [.authorization: "Bearer \(token)"]
            ) {
                #expect($0.status == .ok)
            }
        }
        await firstStore.close()
        await secondStore.close()
    }

    @Test("The same custom code created on both at once gives one link and one conflict", arguments: Engine.available)
    func sameCodeRace(engine: Engine) async throws {
        let database = try await engine.newDatabase()
        let (first, firstStore) = try await Self.instance(database)
        let (second, secondStore) = try await Self.instance(database)
        let token = APIToken.makeSecret()
        #expect(try await firstStore.addToken(name: "tests", secretHash: APIToken.hash(token), createdAt: Fixtures.now))
        for round in 0..<10 {
            let code = "race-\(round)"
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (index, service) in [first, second].enumerated() {
                    group.addTask {
                        try await Application(router: service.router()).test(.router) { client in
                            let body = #"{"code": "\#(code)", "deepLink": "readapp://books/\#(index + 1)"}"#
                            return try await client.execute(
                                uri: "/api/links",
                                method: .post,
                                headers: [.authorization: "Bearer \(token)"],
                                body: ByteBuffer(string: body)
                            ).status
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.sorted { $0.code < $1.code } == [.created, .conflict], "round \(round)")
            #expect(try await secondStore.link(code: code) != nil)
        }
        await firstStore.close()
        await secondStore.close()
    }
}
