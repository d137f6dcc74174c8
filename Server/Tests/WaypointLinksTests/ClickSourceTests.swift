import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import WaypointLinks

/// Issue 40: where clicks come from, the referrer's host and the CDN's country, with nothing
/// stored that tells one visitor from another, and a bound a spammed `Referer` cannot push.
@Suite("Where clicks come from")
struct ClickSourceTests {
    @Test(
        "A Referer is kept as its host only; none is (direct); anything else is (unknown)",
        arguments: [
            ("https://News.Example.com./spring?id=7#top", "news.example.com"),
            ("http://blog.example.org:8080/a", "blog.example.org"),
            ("android-app://com.google.android.gm/", "com.google.android.gm"),
            ("https://user:secret@mail.example.net/inbox", "mail.example.net"),
            (nil, "(direct)"),
            ("", "(direct)"),
            ("javascript:alert(1)", "(unknown)"),
            ("ftp://files.example.com/x", "(unknown)"),
            ("not a url", "(unknown)"),
            ("https://exa mple.com/", "(unknown)"),
            ("https://" + String(repeating: "a", count: 254) + "/", "(unknown)"),
        ] as [(String?, String)]
    )
    func referrer(header: String?, host: String) {
        #expect(ClickSource.referrer(header) == ClickSource(.referrer, host))
    }

    @Test(
        "A country header is a two-character code, uppercased; anything else is (unknown)",
        arguments: [
            ("DE", "DE"), ("de", "DE"), (" fr ", "FR"), ("T1", "T1"), ("XX", "XX"),
            (nil, "(unknown)"), ("", "(unknown)"), ("DEU", "(unknown)"), ("D", "(unknown)"), ("Ü1", "(unknown)"),
            ("<s", "(unknown)"),
        ] as [(String?, String)]
    )
    func country(header: String?, code: String) {
        #expect(ClickSource.country(header) == ClickSource(.country, code))
    }

    @Test("A day keeps 100 referrer hosts; more become (other), in memory and in the batch written")
    func bound() {
        let day = ClickKey.day(of: Fixtures.now)
        func key(_ value: String, code: String = "spring", day: Int = day) -> ClickSourceKey {
            ClickSourceKey(code: code, day: day, source: ClickSource(.referrer, value))
        }
        var tally = ClickSourceTally()
        for index in 0..<150 { tally.add(key("h\(index).example")) }
        tally.add(key("h3.example"))  // counted before: still its own
        tally.add(key(ClickSource.other))
        tally.add(key("h0.example", code: "autumn"))  // another link, another day: room of their own
        tally.add(key("h0.example", day: day + 1))
        let counts = tally.counts
        #expect(counts.count == 103)
        #expect(counts[key("h3.example")] == 2)
        #expect(counts[key("h120.example")] == nil)
        #expect(counts[key(ClickSource.other)] == 51)
        #expect(counts[key("h0.example", code: "autumn")] == 1)
        #expect(counts[key("h0.example", day: day + 1)] == 1)

        // A database that already counts 99 hosts takes one more new one, the busiest.
        let counted = (0..<99).map { key("old\($0).example") }
        let batch = ClickBatch(
            counts: [:],
            sources: [key("a.example"): 1, key("b.example"): 5, key("old7.example"): 2]
        )
        let rows = batch.sourceRows(after: counted)
        #expect(rows.map(\.key.source.value) == ["(other)", "b.example", "old7.example"])
        #expect(rows.map(\.count) == [1, 5, 2])
    }

    @Test(
        "Both engines store sources with the batch, once, and fold hosts past a day's limit",
        arguments: Engine.available
    )
    func stores(engine: Engine) async throws {
        let store = try await engine.makeStore()
        let day = ClickKey.day(of: Fixtures.now)
        func key(_ value: String, _ dimension: ClickSource.Dimension = .referrer) -> ClickSourceKey {
            ClickSourceKey(code: "spring", day: day, source: ClickSource(dimension, value))
        }
        let click = ClickKey(code: "spring", day: day, client: .iOS, outcome: .landingPage)
        var first: [ClickSourceKey: Int] = [key("DE", .country): 3]
        for index in 0..<98 { first[key("h\(index).example")] = 1 }
        first[key("news.example.com")] = 2
        let batch = ClickBatch(counts: [click: 101], sources: first)
        try await store.addClicks(batch)
        try await store.addClicks(batch)  // a retry of the same batch adds nothing
        try await store.addClicks(
            ClickBatch(
                counts: [click: 4],
                sources: [
                    key("news.example.com"): 1, key("late.example"): 1, key("later.example"): 2, key("FR", .country): 4,
                ]
            )
        )
        let stored = try await store.clickSources(code: "spring")
        let byValue = Dictionary(uniqueKeysWithValues: stored.map { ($0.key.source.value, $0.count) })
        #expect(byValue["news.example.com"] == 3)
        #expect(byValue["later.example"] == 2)  // the 100th host, the busier of the two new ones
        #expect(byValue["late.example"] == nil)
        #expect(byValue[ClickSource.other] == 1)
        #expect(byValue["DE"] == 3)
        #expect(byValue["FR"] == 4)
        #expect(stored.filter { $0.key.source.dimension == .referrer }.count == 101)
        #expect(try await store.clicks(code: "spring").map(\.count) == [105])

        // A batch of many links: the full day of the last one (past a statement's 500 groups) is
        // still read first, so its new host is folded too.
        func host(_ code: String, _ value: String) -> ClickSourceKey {
            ClickSourceKey(code: code, day: day, source: ClickSource(.referrer, value))
        }
        try await store.addClicks(
            ClickBatch(
                counts: [:],
                sources: Dictionary(uniqueKeysWithValues: (0..<100).map { (host("zz", "h\($0)"), 1) })
            )
        )
        var many = Dictionary(uniqueKeysWithValues: (0..<500).map { (host("m\($0)", "one.example"), 1) })
        many[host("zz", "new.example")] = 1
        try await store.addClicks(ClickBatch(counts: [:], sources: many))
        let last = try await store.clickSources(code: "zz")
        #expect(last.count == 101)
        #expect(last.contains { $0.key.source.value == ClickSource.other && $0.count == 1 })
        #expect(try await store.clickSources(code: "m499").map(\.key.source.value) == ["one.example"])
        await store.close()
    }

    @Test("Visits count the Referer's host and the CDN's country; the app's resolve counts (app); HEAD counts none")
    func endpoint() async throws {
        let fixture = try await ServiceFixture.make { $0.countryHeader = "CF-IPCountry" }
        #expect(try await fixture.store.insert(ClaimTests.link))
        let country = try #require(HTTPField.Name("CF-IPCountry"))
        try await Application(router: fixture.service.router()).test(.router) { client in
            let visits: [HTTPFields] = [
                [.userAgent: Fixtures.desktop, .referer: "https://news.example.com/a?x=1", country: "de"],
                [.userAgent: Fixtures.desktop, .referer: "https://news.example.com/b", country: "DE"],
                [.userAgent: Fixtures.iPhone, country: "fr"],
                [.userAgent: Fixtures.android, .referer: "android-app://com.google.android.gm/"],
            ]
            for headers in visits {
                try await client.execute(uri: "/spring", method: .get, headers: headers) { _ in }
            }
            try await client.execute(
                uri: "/spring",
                method: .head,
                headers: [.referer: "https://head.example.com/", country: "US"]
            ) { _ in }
            try await client.execute(
                uri: "/api/resolve/spring",
                method: .get,
                headers: [country: "GB"]
            ) { #expect($0.status == .ok) }
            try await fixture.service.clicks.flush()
            let auth: HTTPFields = [.authorization: "Bearer \(fixture.token)"]
            try await client.execute(uri: "/api/links/spring/analytics", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                let body =
                    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
                let total = try #require(body?["total"] as? [String: Any])
                #expect(total["clicks"] as? Int == 5)
                #expect(
                    total["byReferrer"] as? [String: Int]
                        == ["news.example.com": 2, "(direct)": 1, "com.google.android.gm": 1, "(app)": 1]
                )
                #expect(total["byCountry"] as? [String: Int] == ["DE": 2, "FR": 1, "(unknown)": 1, "GB": 1])
                let days = try #require(body?["days"] as? [[String: Any]])
                #expect(days.first?["byCountry"] as? [String: Int] == ["DE": 2, "FR": 1, "(unknown)": 1, "GB": 1])
            }
        }
        await fixture.store.close()
    }

    @Test("Without --country-header no country is counted, and the answer still has an empty byCountry")
    func noCountryHeader() async throws {
        let fixture = try await ServiceFixture.make()
        #expect(try await fixture.store.insert(ClaimTests.link))
        let country = try #require(HTTPField.Name("CF-IPCountry"))
        try await Application(router: fixture.service.router()).test(.router) { client in
            try await client.execute(
                uri: "/spring",
                method: .get,
                headers: [.userAgent: Fixtures.desktop, country: "DE"]
            ) { _ in }
            try await fixture.service.clicks.flush()
            #expect(try await fixture.store.clickSources(code: "spring").map(\.key.source.dimension) == [.referrer])
            try await client.execute(
                uri: "/api/links/spring/analytics",
                method: .get,
                headers: [.authorization: "Bearer \(fixture.token)"]
            ) { response in
                #expect(
                    String(buffer: response.body).contains(
                        #""byCountry":{},"byPlatform":{"desktop":1},"byReferrer":{"(direct)":1}"#
                    )
                )
            }
        }
        await fixture.store.close()
    }

    @Test("The editor shows bars by platform and referrer, busiest first, names escaped, a long tail summed")
    func adminBreakdowns() async throws {
        let fixture = try await ServiceFixture.make()
        var counts = LinkAnalytics.Counts()
        counts.byPlatform = ["desktop": 3, "ios": 5]
        counts.byReferrer = Dictionary(uniqueKeysWithValues: (0..<12).map { ("h\($0).example", $0 + 1) })
        counts.byReferrer["<b>x</b>"] = 100
        var values = fixture.service.adminPage.formValues(nil, cookie: "c")
        values["total"] = AdminPage.numbers(counts)
        let html = fixture.service.adminPage.templates.render("editor", values)
        #expect(html.contains(#"<table class="breakdown" id="by-platform">"#))
        #expect(!html.contains(#"id="by-country""#))  // no country counted: no empty table
        let ios = try #require(html.range(of: "<th>ios</th><td>5</td>"))
        let desktop = try #require(html.range(of: "<th>desktop</th><td>3</td>"))
        #expect(ios.lowerBound < desktop.lowerBound)
        #expect(html.contains(#"<th>&lt;b&gt;x&lt;/b&gt;</th><td>100</td><td><span class="bar" style="width:240px">"#))
        #expect(!html.contains("<b>x</b>"))
        #expect(html.contains("<th>h3.example</th><td>4</td>"))
        #expect(!html.contains("<th>h2.example</th>"))
        #expect(html.contains("<th>… 3 more</th><td>6</td>"))  // h0, h1 and h2: 1 + 2 + 3
        await fixture.store.close()
    }
}
