import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WaypointLinks

/// Several stateless instances behind a load balancer, on one database.
@Suite("Two instances on one database")
struct ScaleOutTests {
    static func instance(_ database: String) async throws -> (LinkService, any LinkStore) {
        let store = try await LinkStores.open(database)
        let service = try LinkService(
            manifest: try Fixtures.manifest(),
            store: store,
            configuration: LinkService.Configuration(now: { Fixtures.now })
        )
        return (service, store)
    }

    @Test("A link created on one redirects on the other at once", arguments: Engine.available)
    func createdHereFollowedThere(engine: Engine) async throws {
        let database = try await engine.newDatabase()
        let (first, firstStore) = try await Self.instance(database)
        let (second, secondStore) = try await Self.instance(database)
        let token = APIToken.makeSecret()
        try await firstStore.addToken(name: "tests", secretHash: APIToken.hash(token), createdAt: Fixtures.now)
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
        try await firstStore.addToken(name: "tests", secretHash: APIToken.hash(token), createdAt: Fixtures.now)
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
