import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import WaypointLinks

/// Issue 40: an edited preview shows on the landing and preview pages at once, on the instance
/// that took the edit (its cache included) and on every other within the scale-out window.
@Suite("Editable previews")
struct PreviewEditTests {
    /// The title the iPhone landing page and a crawler's preview page show on `service`.
    static func titles(_ service: LinkService) async throws -> (landing: Bool, preview: Bool) {
        try await Application(router: service.router()).test(.router) { client in
            let landing = try await client.execute(uri: "/spring", method: .get, headers: [.userAgent: Fixtures.iPhone])
            {
                String(buffer: $0.body)
            }
            let preview = try await client.execute(uri: "/spring", method: .get, headers: [.userAgent: Fixtures.slack])
            {
                String(buffer: $0.body)
            }
            return (landing.contains("Spring, last day"), preview.contains("Spring, last day"))
        }
    }

    @Test("On the instance that took the edit: at once, with the link cached for ten minutes")
    func sameInstance() async throws {
        let fixture = try await ServiceFixture.make { $0.linkCacheSeconds = 600 }
        #expect(try await fixture.store.insert(VisitTests.link))
        #expect(try await Self.titles(fixture.service).preview == false)  // cached now
        try await Application(router: fixture.service.router()).test(.router) { client in
            let status = try await client.execute(
                uri: "/api/links/spring",
                method: .patch,
                headers: [.authorization: "Bearer \(fixture.token)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"preview": {"title": "Spring, last day"}}"#)
            ) { $0.status }
            #expect(status == .ok)
        }
        let after = try await Self.titles(fixture.service)
        #expect(after.landing && after.preview)
        await fixture.store.close()
    }

    @Test(
        "On another instance: within 2 seconds, through LISTEN/NOTIFY, whatever its cache",
        .enabled(if: Engine.postgresURL != nil, "needs WAYPOINT_LINKS_POSTGRES_URL")
    )
    func otherInstance() async throws {
        let database = try await Engine.postgres.newDatabase()
        let (_, firstStore) = try await ScaleOutTests.instance(database) { $0.linkCacheSeconds = 600 }
        let (second, secondStore) = try await ScaleOutTests.instance(database) { $0.linkCacheSeconds = 600 }
        let listener = try #require(secondStore as? PostgresLinkStore)
        for _ in 0..<250 where !listener.isListening { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try await firstStore.insert(VisitTests.link))
        #expect(try await Self.titles(second).preview == false)  // cached there
        var edited = VisitTests.link
        edited.preview?.title = "Spring, last day"
        #expect(try await firstStore.replace(edited, ifStill: VisitTests.link) == .replaced)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(2))
        var seen = false
        while clock.now < deadline, !seen {
            let titles = try await Self.titles(second)
            seen = titles.landing && titles.preview
            if !seen { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(seen)
        await firstStore.close()
        await secondStore.close()
    }
}
