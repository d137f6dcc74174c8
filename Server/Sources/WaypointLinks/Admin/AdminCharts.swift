import Foundation

/// A link's clicks and installs per day as SVG bars: numbers only, drawn by the template.
struct AdminChart {
    let values: [String: Any]

    static let height = 120.0
    static let barWidth = 14.0

    init(analytics: LinkAnalytics) {
        let days = analytics.days.suffix(30)
        let peak = Double(max(1, days.map { max($0.counts.clicks, $0.counts.installs) }.max() ?? 1))
        var bars: [[String: Any]] = []
        for (index, day) in days.enumerated() {
            let x = Double(index) * (Self.barWidth * 2 + 6)
            let clicks = Double(day.counts.clicks) / peak * Self.height
            let installs = Double(day.counts.installs) / peak * Self.height
            bars.append([
                "day": day.day, "clicks": day.counts.clicks, "installs": day.counts.installs,
                "x": Int(x), "installsX": Int(x + Self.barWidth),
                "clicksY": Int(Self.height - clicks), "clicksHeight": Int(clicks.rounded(.up)),
                "installsY": Int(Self.height - installs), "installsHeight": Int(installs.rounded(.up)),
            ])
        }
        values = ["bars": bars, "width": max(200, bars.count * Int(Self.barWidth * 2 + 6)), "empty": bars.isEmpty]
    }
}

/// Clicks by one dimension (platform, referrer, country) as bars, busiest first: what the editor
/// shows under a link's totals. Numbers and names only; the template escapes the names.
struct AdminBreakdown {
    let values: [String: Any]

    /// Rows shown: the rest of a long tail is summed into one "… more" row.
    static let rowsShown = 10
    /// The longest bar, in pixels.
    static let barWidth = 240.0

    /// The breakdowns that have clicks, in the order a marketer reads them.
    static func all(_ counts: LinkAnalytics.Counts) -> [AdminBreakdown] {
        [
            ("platform", "By platform", counts.byPlatform), ("referrer", "By referrer", counts.byReferrer),
            ("country", "By country", counts.byCountry),
        ].compactMap { id, title, clicks in
            clicks.isEmpty ? nil : AdminBreakdown(id: id, title: title, clicks: clicks)
        }
    }

    init(id: String, title: String, clicks: [String: Int]) {
        let sorted = clicks.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        var shown = sorted.prefix(Self.rowsShown).map { (name: $0.key, clicks: $0.value) }
        let rest = sorted.dropFirst(Self.rowsShown)
        if !rest.isEmpty {
            shown.append((name: "… \(rest.count) more", clicks: rest.reduce(0) { $0 + $1.value }))
        }
        let peak = Double(max(1, shown.map(\.clicks).max() ?? 1))
        values = [
            "id": id, "title": title,
            "rows": shown.map { row in
                [
                    "name": row.name, "clicks": row.clicks,
                    "width": max(1, Int(Double(row.clicks) / peak * Self.barWidth)),
                ]
            },
        ]
    }
}
