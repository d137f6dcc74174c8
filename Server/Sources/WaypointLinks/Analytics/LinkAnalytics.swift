import Foundation

/// A link's clicks, where they came from, and installs, per UTC day and in total: what `GET /api/links/{code}/analytics`
/// answers and the admin page charts.
///
/// The claim rate is installs over the clicks that could lead to one: iPhone and iPad landing
/// pages (where "Get the app" copies a claim URL) and Android visits sent to the Play Store. A
/// person who opens the landing page and already has the app is in the clicks but can never
/// claim, so the rate is a lower bound.
///
/// ```swift
/// let analytics = LinkAnalytics(code: "spring", clicks: try await store.clicks(code: "spring"),
///                               sources: try await store.clickSources(code: "spring"),
///                               installs: try await store.installs(code: "spring"))
/// analytics.total.clicks      // 12
/// analytics.total.claimRate   // 0.25
/// analytics.total.byReferrer  // ["news.example.com": 9, "(direct)": 3]
/// ```
public struct LinkAnalytics: Sendable, Hashable, Encodable {
    /// Counts over some span: one day, or all of them.
    public struct Counts: Sendable, Hashable, Encodable {
        /// Every counted visit (codes that name no link are not counted).
        public var clicks = 0
        public var clicksByClient: [String: Int] = [:]
        public var clicksByOutcome: [String: Int] = [:]
        /// Clicks by platform: `ios`, `android`, `desktop`, and `bot` for link-preview crawlers.
        public var byPlatform: [String: Int] = [:]
        /// Clicks by the host of the page that linked (``ClickSource/referrer(_:)``): `(direct)` for
        /// none, `(app)` when the app asked after iOS or Android opened it directly, `(unknown)`,
        /// and `(other)` past a day's 100 hosts.
        public var byReferrer: [String: Int] = [:]
        /// Clicks by the country the CDN named (`serve --country-header`); empty without it.
        public var byCountry: [String: Int] = [:]
        /// Landing pages on iOS and Play Store redirects: the clicks a claim can follow.
        public var claimableClicks = 0
        /// Claims of the link's deferred link (``ClaimRecord``).
        public var installs = 0
        public var installsByPlatform: [String: Int] = [:]
        /// `installs / claimableClicks`, or nil when no click could be claimed.
        public var claimRate: Double? {
            claimableClicks == 0 ? nil : Double(installs) / Double(claimableClicks)
        }

        mutating func add(_ count: ClickCount) {
            clicks += count.count
            clicksByClient[count.key.client.rawValue, default: 0] += count.count
            clicksByOutcome[count.key.outcome.rawValue, default: 0] += count.count
            byPlatform[Self.platform(count.key.client), default: 0] += count.count
            if Self.isClaimable(count.key) { claimableClicks += count.count }
        }

        mutating func add(_ count: ClickSourceCount) {
            switch count.key.source.dimension {
            case .referrer: byReferrer[count.key.source.value, default: 0] += count.count
            case .country: byCountry[count.key.source.value, default: 0] += count.count
            }
        }

        mutating func add(_ count: InstallCount) {
            installs += count.count
            installsByPlatform[count.platform.rawValue, default: 0] += count.count
        }

        /// The platform a marketer reads a click by.
        static func platform(_ client: ClientKind) -> String {
            switch client {
            case .iOS: "ios"
            case .android: "android"
            case .desktop: "desktop"
            case .previewCrawler: "bot"
            }
        }

        static func isClaimable(_ key: ClickKey) -> Bool {
            (key.client == .iOS && key.outcome == .landingPage) || (key.client == .android && key.outcome == .store)
        }

        enum CodingKeys: String, CodingKey {
            case clicks, clicksByClient, clicksByOutcome, byPlatform, byReferrer, byCountry, claimableClicks, installs,
                installsByPlatform, claimRate
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(clicks, forKey: .clicks)
            try container.encode(clicksByClient, forKey: .clicksByClient)
            try container.encode(clicksByOutcome, forKey: .clicksByOutcome)
            try container.encode(byPlatform, forKey: .byPlatform)
            try container.encode(byReferrer, forKey: .byReferrer)
            try container.encode(byCountry, forKey: .byCountry)
            try container.encode(claimableClicks, forKey: .claimableClicks)
            try container.encode(installs, forKey: .installs)
            try container.encode(installsByPlatform, forKey: .installsByPlatform)
            // null, not absent, when there is nothing to divide by: a client reads one shape.
            try container.encode(claimRate, forKey: .claimRate)
        }
    }

    /// One UTC day's counts.
    public struct Day: Sendable, Hashable, Encodable {
        /// `2026-11-24`.
        public var day: String
        public var counts: Counts

        enum CodingKeys: String, CodingKey { case day }

        public func encode(to encoder: any Encoder) throws {
            try counts.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(day, forKey: .day)
        }
    }

    public var code: String
    public var total: Counts
    /// Days with a click or an install, oldest first.
    public var days: [Day]

    public init(code: String, clicks: [ClickCount], sources: [ClickSourceCount] = [], installs: [InstallCount]) {
        var total = Counts()
        var byDay: [Int: Counts] = [:]
        for count in clicks {
            total.add(count)
            byDay[count.key.day, default: Counts()].add(count)
        }
        for count in sources {
            total.add(count)
            byDay[count.key.day, default: Counts()].add(count)
        }
        for count in installs {
            total.add(count)
            byDay[count.day, default: Counts()].add(count)
        }
        self.code = code
        self.total = total
        self.days = byDay.keys.sorted().compactMap { day in
            byDay[day].map { Day(day: ClickKey.dayText(day), counts: $0) }
        }
    }
}
