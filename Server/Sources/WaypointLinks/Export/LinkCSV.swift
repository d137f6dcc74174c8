import CSV
import Foundation

/// Links as CSV: what `GET /api/links/export?format=csv` writes and an import with `format=csv`
/// reads. One header row naming the columns, then a row a link; an empty cell is an absent value.
///
/// ```
/// code,domain,deepLink,web,ios,android,desktop,appStoreID,playPackage,title,description,imageURL,passQuery,expiresAt,url,route,createdAt,updatedAt
/// spring,links.example.com,readapp://books/42,,,,,1234567890,,Spring sale,,,true,,https://links.example.com/spring,book,2026-11-24T12:00:00Z,2026-11-24T12:00:00Z
/// ```
enum LinkCSV {
    /// The columns a create reads, in the order an export writes them.
    static let inputColumns = [
        "code", "domain", "deepLink", "web", "ios", "android", "desktop", "appStoreID", "playPackage", "title",
        "description", "imageURL", "passQuery", "expiresAt",
    ]
    /// Every column an export writes: those a create reads, then what only the service sets.
    static let columns = inputColumns + LinkInput.answerOnlyKeys

    /// A spreadsheet runs a cell that starts with one of these as a formula; a title such as
    /// `=HYPERLINK(…)` must open as text. `'` is the guard itself, so text starting with one is
    /// guarded too, and comes back whole.
    private static let guardedStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r", "'"]

    /// The cells of `link`'s row, in ``columns`` order.
    static func row(_ link: ShortLink, url: String, domain: String) -> [String] {
        let dates = ISO8601DateFormatter()
        return [
            guarded(link.code), domain, link.deepLink, link.fallbacks.web ?? "", link.fallbacks.ios ?? "",
            link.fallbacks.android ?? "", link.fallbacks.desktop ?? "", link.fallbacks.appStoreID ?? "",
            link.fallbacks.playPackage ?? "", guarded(link.preview?.title), guarded(link.preview?.description),
            link.preview?.imageURL ?? "", link.passQuery ? "true" : "false",
            link.expiresAt.map(dates.string(from:)) ?? "", url, link.route, dates.string(from: link.createdAt),
            dates.string(from: link.updatedAt),
        ]
    }

    /// Text a spreadsheet would take for a formula (codes may start with `-`), with a leading `'` so
    /// it stays text; an import takes the `'` off again (``unguarded(_:)``).
    static func guarded(_ text: String?) -> String {
        guard let text, let first = text.first else { return "" }
        return guardedStarts.contains(first) ? "'" + text : text
    }

    static func unguarded(_ text: String) -> String {
        let rest = text.dropFirst()
        return text.first == "'" && rest.first.map(guardedStarts.contains) == true ? String(rest) : text
    }

    /// The header row checked: every column known, and `deepLink` among them.
    ///
    /// - Throws: ``LinkServiceError`` `invalidRequest` naming the columns to change.
    static func checkHeader(_ header: [String]) throws(LinkServiceError) {
        let unknown = header.filter { !columns.contains($0) }
        guard unknown.isEmpty else {
            throw LinkServiceError(
                .invalidRequest,
                "Unknown column \(unknown.map { "'\($0)'" }.joined(separator: ", ")) in the CSV header; "
                    + "the columns are \(columns.joined(separator: ", "))."
            )
        }
        guard header.contains("deepLink") else {
            throw LinkServiceError(.invalidRequest, "The CSV header has no 'deepLink' column; each link needs one.")
        }
    }

    /// The link a row asks for, its cells named by the header.
    static func input(_ cells: [String: String]) throws(LinkServiceError) -> LinkInput {
        func cell(_ name: String) -> String? { cells[name].flatMap { $0.isEmpty ? nil : $0 } }
        var input = LinkInput(code: cell("code").map(unguarded), domain: cell("domain"), deepLink: cell("deepLink"))
        let fallbacks = ShortLink.Fallbacks(
            appStoreID: cell("appStoreID"),
            playPackage: cell("playPackage"),
            web: cell("web"),
            ios: cell("ios"),
            android: cell("android"),
            desktop: cell("desktop")
        )
        if fallbacks != ShortLink.Fallbacks() { input.fallbacks = fallbacks }
        let preview = ShortLink.Preview(
            title: cell("title").map(unguarded),
            description: cell("description").map(unguarded),
            imageURL: cell("imageURL")
        )
        if preview != ShortLink.Preview() { input.preview = preview }
        if let text = cell("passQuery") {
            guard let value = Bool(text.lowercased()) else {
                throw LinkServiceError(.invalidRequest, "'passQuery' is true or false, not '\(text)'.")
            }
            input.passQuery = value
        }
        if let text = cell("expiresAt") {
            guard let date = JSONBody.internetDate(text) else {
                throw LinkServiceError(
                    .invalidRequest,
                    "'expiresAt' should be a date and time such as 2027-01-01T00:00:00Z, not '\(text)'."
                )
            }
            input.expiresAt = date
        }
        return input
    }

    /// Rows written as CSV text, each ending in a line break.
    static func text(_ rows: [[String]]) throws(LinkServiceError) -> String {
        let stream = OutputStream(toMemory: ())
        stream.open()
        do {
            let writer = try CSVWriter(stream: stream)
            for row in rows { try writer.write(row: row) }
        } catch {
            throw LinkServiceError(.unavailable, "The CSV could not be written: \(error)")
        }
        stream.close()
        let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        return String(decoding: data, as: UTF8.self) + (rows.isEmpty ? "" : "\n")
    }
}
