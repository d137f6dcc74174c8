import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import WaypointLinks

@Suite("The visits' link cache")
struct LinkCacheTests {
    @Test("A kept link is fresh for its lifetime, forgotten on request, and the cache stays bounded")
    func entries() {
        let cache = LinkCache(lifetime: 5, capacity: 3)
        let now = Fixtures.now
        cache.keep(VisitTests.link, at: now, ticket: cache.ticket())
        #expect(cache.link(code: "spring", at: now.addingTimeInterval(4.9)) == VisitTests.link)
        #expect(cache.link(code: "spring", at: now.addingTimeInterval(5)) == nil)
        #expect(cache.count == 0)
        cache.keep(VisitTests.link, at: now, ticket: cache.ticket())
        cache.forget(.link(code: "spring"))
        #expect(cache.link(code: "spring", at: now) == nil)
        func link(_ code: String) -> ShortLink {
            var link = VisitTests.link
            link.code = code
            return link
        }
        // Full of fresh links: it starts over rather than growing.
        for index in 0..<10 { cache.keep(link("l\(index)"), at: now, ticket: cache.ticket()) }
        #expect(cache.count <= 3)
        #expect(cache.link(code: "l9", at: now) != nil)
        // Full with expired links among them: only those go.
        let later = now.addingTimeInterval(10)
        cache.keep(link("fresh"), at: later, ticket: cache.ticket())
        #expect(cache.link(code: "fresh", at: later) != nil)
        #expect(cache.link(code: "l9", at: later) == nil)
        // A read that began before an edit or delete is not kept: it may hold the old link.
        let ticket = cache.ticket()
        cache.forget(.link(code: "other"))
        cache.keep(VisitTests.link, at: later, ticket: ticket)
        #expect(cache.link(code: "spring", at: later) == nil)
        // A lifetime of 0 keeps nothing.
        let off = LinkCache(lifetime: 0)
        off.keep(VisitTests.link, at: now, ticket: off.ticket())
        #expect(off.link(code: "spring", at: now) == nil)
    }

    @Test("Edits through this instance's store redirect at once; edits it is not told of, within the lifetime")
    func freshness() async throws {
        let clock = TestClock()
        let fixture = try await ServiceFixture.make { $0.now = { clock.now } }
        #expect(try await fixture.store.insert(VisitTests.link))
        let desktop: HTTPFields = [.userAgent: Fixtures.desktop]
        try await Application(router: fixture.service.router()).test(.router) { client in
            func location() async throws -> String? {
                try await client.execute(uri: "/spring", method: .get, headers: desktop) { response in
                    response.status == .found ? response.headers[.location] : "\(response.status.code)"
                }
            }
            #expect(try await location() == "https://read.example.com/b/42")
            // Another process edits the link in the file (SQLite tells no other process): this one
            // redirects as before for a while.
            let elsewhere = try await SQLiteLinkStore.open(path: fixture.path)
            var edited = VisitTests.link
            edited.fallbacks.web = "https://read.example.com/b/43"
            #expect(try await elsewhere.replace(edited, ifStill: VisitTests.link) == .replaced)
            await elsewhere.close()
            #expect(try await location() == "https://read.example.com/b/42")
            clock.advance(5)
            #expect(try await location() == "https://read.example.com/b/43")
            // An edit through this instance's admin API: at once.
            try await client.execute(
                uri: "/api/links/spring",
                method: .patch,
                headers: AdminAPITests.headers(fixture.token),
                body: ByteBuffer(string: #"{"fallbacks": {"web": "https://read.example.com/b/44"}}"#)
            ) { #expect($0.status == .ok) }
            #expect(try await location() == "https://read.example.com/b/44")
            // And a delete.
            try await client.execute(
                uri: "/api/links/spring",
                method: .delete,
                headers: AdminAPITests.headers(fixture.token)
            ) { #expect($0.status == .noContent) }
            #expect(try await location() == "404")
        }
        await fixture.store.close()
    }
}
