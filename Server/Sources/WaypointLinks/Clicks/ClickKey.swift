import Foundation

/// What one click is counted by: the link, the day (UTC), who followed it and where it ended.
/// No address, no user agent: nothing that tells one visitor from another is kept.
public struct ClickKey: Sendable, Hashable, Codable {
    public var code: String
    /// Days since 1970-01-01 (UTC).
    public var day: Int
    public var client: ClientKind
    public var outcome: VisitOutcome

    public init(code: String, day: Int, client: ClientKind, outcome: VisitOutcome) {
        self.code = code
        self.day = day
        self.client = client
        self.outcome = outcome
    }

    public init(code: String, at date: Date, client: ClientKind, outcome: VisitOutcome) {
        self.init(code: code, day: Self.day(of: date), client: client, outcome: outcome)
    }

    /// Who followed a link and where it ended, without the link and the day: what the visit
    /// metrics count by.
    struct Kind: Hashable {
        let client: ClientKind
        let outcome: VisitOutcome
    }

    /// The UTC day a date falls on, as days since 1970.
    public static func day(of date: Date) -> Int { Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) }

    /// `2026-11-24` for the day.
    public static func dayText(_ day: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date(timeIntervalSince1970: Double(day) * 86_400))
    }
}

/// Counts written together, once: a batch whose write is retried after an unclear failure (the
/// commit went through, the answer was lost) is recognised by its id and not counted again.
public struct ClickBatch: Sendable, Hashable {
    public var id: UUID
    public var counts: [ClickKey: Int]
    /// Where the clicks came from (``ClickSource``), written with them.
    public var sources: [ClickSourceKey: Int]

    public init(id: UUID = UUID(), counts: [ClickKey: Int], sources: [ClickSourceKey: Int] = [:]) {
        self.id = id
        self.counts = counts
        self.sources = sources
    }

    public var isEmpty: Bool { counts.isEmpty && sources.isEmpty }

    /// The counts in one order every instance shares (code, day, client, outcome): two instances
    /// adding to the same rows at once then lock them in the same order and never deadlock.
    var rows: [(key: ClickKey, count: Int)] {
        counts.map { (key: $0.key, count: $0.value) }.sorted { a, b in
            (a.key.code, a.key.day, a.key.client.rawValue, a.key.outcome.rawValue)
                < (b.key.code, b.key.day, b.key.client.rawValue, b.key.outcome.rawValue)
        }
    }

    /// The links, days and dimensions the sources are counted in: a store reads the values it
    /// already counts there before ``sourceRows(after:)``.
    var sourceGroups: [ClickSourceKey.Group] {
        Set(sources.keys.map(\.group)).sorted {
            ($0.code, $0.day, $0.dimension.rawValue) < ($1.code, $1.day, $1.dimension.rawValue)
        }
    }

    /// The sources as a database that already counts `counted` stores them, each day's values kept
    /// within its limit (``ClickSource/Dimension/valuesPerDay``), in one order (code, day, dimension,
    /// value) for the same reason as ``rows``.
    func sourceRows(after counted: [ClickSourceKey]) -> [(key: ClickSourceKey, count: Int)] {
        var tally = ClickSourceTally(counted: counted)
        let order: (ClickSourceKey, ClickSourceKey) -> Bool = { a, b in
            (a.code, a.day, a.source.dimension.rawValue, a.source.value)
                < (b.code, b.day, b.source.dimension.rawValue, b.source.value)
        }
        // The busiest sources first, so a day that fills up keeps the values that matter most.
        for (key, count) in sources.sorted(by: { $0.value != $1.value ? $0.value > $1.value : order($0.key, $1.key) }) {
            tally.add(key, count)
        }
        return tally.counts.map { (key: $0.key, count: $0.value) }.sorted { order($0.key, $1.key) }
    }

    /// Seconds a batch id is kept: a retry after an unclear failure comes within seconds, and ids
    /// older than this are deleted as new batches are written, so the table stays small.
    static let idLifetime = 86_400
}

/// A stored count.
public struct ClickCount: Sendable, Hashable {
    public var key: ClickKey
    public var count: Int

    public init(key: ClickKey, count: Int) {
        self.key = key
        self.count = count
    }
}
