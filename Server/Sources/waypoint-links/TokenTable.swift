import Foundation
import WaypointLinks

/// `waypoint-links token list`'s output: one token a line, in name order, dates in UTC.
///
/// ```
/// NAME     CREATED               LAST USED
/// ci       2026-11-25T10:02:11Z  2026-11-25T17:40:00Z
/// laptop   2026-11-20T08:00:00Z  never
/// ```
struct TokenTable {
    let tokens: [APITokenRecord]

    init(_ tokens: [APITokenRecord]) { self.tokens = tokens }

    var text: String {
        guard !tokens.isEmpty else { return "No tokens; create one with 'waypoint-links token create --name NAME'.\n" }
        let rows =
            [["NAME", "CREATED", "LAST USED"]]
            + tokens.map { [$0.name, Self.format($0.createdAt), $0.lastUsedAt.map(Self.format) ?? "never"] }
        let widths = (0..<2).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0) + "  "
                + row[1].padding(toLength: widths[1], withPad: " ", startingAt: 0) + "  " + row[2]
        }.joined(separator: "\n") + "\n"
    }

    static func format(_ date: Date) -> String { date.formatted(.iso8601) }
}
