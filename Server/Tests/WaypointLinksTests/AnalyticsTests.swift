import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WaypointLinks

@Suite("Analytics")
struct AnalyticsTests {
    @Test("Clicks and installs add up per day and in total; the claim rate divides by claimable clicks only")
    func counts() {
        let day = ClickKey.day(of: Fixtures.now)
        func click(_ day: Int, _ client: ClientKind, _ outcome: VisitOutcome, _ count: Int) -> ClickCount {
            ClickCount(key: ClickKey(code: "spring", day: day, client: client, outcome: outcome), count: count)
        }
        let analytics = LinkAnalytics(
            code: "spring",
            clicks: [
                click(day, .iOS, .landingPage, 6), click(day, .android, .store, 2),
                click(day, .desktop, .webFallback, 5),
                click(day + 1, .previewCrawler, .preview, 3), click(day + 1, .iOS, .app, 4),
            ],
            installs: [
                InstallCount(day: day, platform: .iOS, count: 1),
                InstallCount(day: day + 2, platform: .android, count: 1),
            ]
        )
        #expect(analytics.total.clicks == 20)
        #expect(analytics.total.claimableClicks == 8)
        #expect(analytics.total.installs == 2)
        #expect(analytics.total.claimRate == 0.25)
        #expect(analytics.total.clicksByClient == ["iOS": 10, "android": 2, "desktop": 5, "previewCrawler": 3])
        #expect(analytics.total.clicksByOutcome["landingPage"] == 6)
        #expect(analytics.total.byPlatform == ["ios": 10, "android": 2, "desktop": 5, "bot": 3])
        #expect(analytics.days[1].counts.byPlatform == ["bot": 3, "ios": 4])
        #expect(analytics.days.map(\.day) == ["2026-11-24", "2026-11-25", "2026-11-26"])
        #expect(analytics.days.map(\.counts.installs) == [1, 0, 1])
        // A day with an install and no claimable click has no rate, rather than a division by zero.
        #expect(analytics.days[1].counts.claimRate == nil)
        #expect(analytics.days[2].counts.claimRate == nil)
    }

    @Test("GET /api/links/{code}/analytics answers the counts the store holds, null rate included")
    func endpoint() async throws {
        let fixture = try await ServiceFixture.make()
        #expect(try await fixture.store.insert(ClaimTests.link))
        try await fixture.store.addClicks(
            ClickBatch(counts: [ClickKey(code: "spring", at: Fixtures.now, client: .iOS, outcome: .landingPage): 4])
        )
        #expect(
            try await fixture.store.addClaim(
                ClaimRecord(id: "01", code: "spring", platform: .iOS, claimedAt: Fixtures.now)
            )
        )
        try await Application(router: fixture.service.router()).test(.router) { client in
            let auth: HTTPFields = [.authorization: "Bearer \(fixture.token)"]
            try await client.execute(uri: "/api/links/spring/analytics", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                #expect(
                    body.contains(
                        #""total":{"byCountry":{},"byPlatform":{"ios":4},"byReferrer":{},"claimRate":0.25,"claimableClicks":4"#
                    ),
                    "\(body)"
                )
                #expect(body.contains(#""day":"2026-11-24""#))
            }
            try await client.execute(uri: "/api/links/none/analytics", method: .get, headers: auth) {
                #expect($0.status == .notFound)
            }
        }
        await fixture.store.close()
    }
}
