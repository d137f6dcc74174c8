import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WaypointLinks

/// Links created and visited at the same time, on a live server: what used to meet "database is
/// locked" on SQLite (an insert on one connection while a click batch wrote on another).
@Suite("Creation and visits at once")
struct MixedLoadTests {
    @Test(
        "Concurrent creation and visits: every answer a 201 or a 302, every link and click stored",
        arguments: Engine.available
    )
    func createWhileVisiting(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let token = APIToken.makeSecret()
        #expect(try await store.addToken(name: "load", secretHash: APIToken.hash(token), createdAt: Date()))
        // Batches every 20 ms, so many are written while links are being created.
        let service = try LinkService(
            manifest: try Fixtures.manifest(),
            store: store,
            configuration: LinkService.Configuration(adminLimit: .off, clickWindow: .milliseconds(20))
        )
        #expect(try await store.insert(VisitTests.link))
        let app = Application(
            router: service.router(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            services: service.services
        )
        let creators = 4
        let linksEach = 40
        let visitors = 4
        let visitsEach = 100
        let answers = try await app.test(.live) { client in
            try await withThrowingTaskGroup(of: [HTTPResponse.Status].self) { group in
                for worker in 0..<creators {
                    group.addTask {
                        var statuses: [HTTPResponse.Status] = []
                        for index in 0..<linksEach {
                            let body = #"{"code": "m\#(worker)-\#(index)", "deepLink": "readapp://books/\#(index)"}"#
                            statuses.append(
                                try await client.execute(
                                    uri: "/api/links",
                                    method: .post,
                                    headers: AdminAPITests.headers(token),
                                    body: ByteBuffer(string: body)
                                ).status
                            )
                        }
                        return statuses
                    }
                }
                for _ in 0..<visitors {
                    group.addTask {
                        var statuses: [HTTPResponse.Status] = []
                        for _ in 0..<visitsEach {
                            statuses.append(
                                try await client.execute(
                                    uri: "/spring",
                                    method: .get,
                                    headers: [.userAgent: Fixtures.desktop]
                                ).status
                            )
                        }
                        return statuses
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
        }
        #expect(answers.filter { $0 == .created }.count == creators * linksEach)
        #expect(answers.filter { $0 == .found }.count == visitors * visitsEach)
        #expect(answers.allSatisfy { $0 == .created || $0 == .found })
        // The application has stopped gracefully: the counter wrote on its way out.
        #expect(try await store.clicks(code: "spring").reduce(0) { $0 + $1.count } == visitors * visitsEach)
        var stored = 0
        var after: String?
        while true {
            let page = try await store.links(after: after, limit: 200, containing: nil)
            stored += page.count
            guard let last = page.last, page.count == 200 else { break }
            after = last.code
        }
        #expect(stored == creators * linksEach + 1)
        await store.close()
    }

    @Test("With a click window of 0 a visit is answered only once its click is stored", arguments: Engine.available)
    func windowZero(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let service = try LinkService(
            manifest: try Fixtures.manifest(),
            store: store,
            configuration: LinkService.Configuration(clickWindow: .zero)
        )
        #expect(try await store.insert(VisitTests.link))
        let app = Application(router: service.router(), services: service.services)
        try await app.test(.live) { client in
            for visit in 1...5 {
                let response = try await client.execute(
                    uri: "/spring",
                    method: .get,
                    headers: [.userAgent: Fixtures.desktop]
                )
                #expect(response.status == .found)
                // Read straight after the answer, with no flush: already stored.
                #expect(try await store.clicks(code: "spring").reduce(0) { $0 + $1.count } == visit)
            }
        }
        await store.close()
    }
}
