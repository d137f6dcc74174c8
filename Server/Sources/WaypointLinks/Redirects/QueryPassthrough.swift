import Foundation

/// A visit's query (`?utm_source=news&utm_campaign=spring`) passed on to where the visitor goes and
/// to the deep link the app receives: each item whose name the target does not set itself, in the
/// visit's order and encoding. The one rule for the redirects, the landing page, claims and
/// `/api/resolve`.
///
/// ```swift
/// QueryPassthrough.merge("utm_source=news&ref=x", into: "https://example.com/spring?ref=site")
/// // "https://example.com/spring?ref=site&utm_source=news"
/// ```
enum QueryPassthrough {
    /// The longest query passed on. A longer one is not passed at all (the visitor still gets where
    /// the link leads): no campaign needs it, and it would swell the claim token that carries it.
    static let maxBytes = 512

    /// The query a visit passes on: its text when the link passes queries and it fits, else nil.
    static func passed(_ query: String?, by link: ShortLink) -> String? {
        guard link.passQuery, let query, !query.isEmpty, query.utf8.count <= maxBytes else { return nil }
        return query
    }

    /// Why a visit's query is not passed on whole, though its link passes queries: the service
    /// reports it (a log line and ``ServiceMetrics``) rather than drop it without a word.
    enum LeftBehind: String, Sendable, CaseIterable {
        /// Over ``maxBytes``: none of it is passed on.
        case tooLong
        /// One or more items not written as a URL's query may hold them (``isEncoded(_:)``): the
        /// others are passed on.
        case notURLText
    }

    /// What of `query` a visit of `link` leaves behind, and why; nil when it passes all of it on,
    /// or when the link passes no query.
    ///
    /// ```swift
    /// QueryPassthrough.leftBehind("a=<b>&utm_source=news", by: link)  // .notURLText
    /// ```
    static func leftBehind(_ query: String?, by link: ShortLink) -> LeftBehind? {
        guard link.passQuery, let query, !query.isEmpty else { return nil }
        if query.utf8.count > maxBytes { return .tooLong }
        return query.split(separator: "&").allSatisfy(isEncoded) ? nil : .notURLText
    }

    /// `target` with the items of `query` whose names it does not have appended; `target` as it is
    /// when there are none, or when it is not a URL (it was checked when the link was saved).
    static func merge(_ query: String?, into target: String) -> String {
        guard let query, !query.isEmpty, var components = URLComponents(string: target), components.scheme != nil
        else { return target }
        let present = Set((components.percentEncodedQueryItems ?? []).map(\.name))
        let added = query.split(separator: "&", omittingEmptySubsequences: true).filter { item in
            let name = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return !name.isEmpty && !present.contains(String(name)) && isEncoded(item)
        }
        guard !added.isEmpty else { return target }
        let existing = components.percentEncodedQuery.map { $0.isEmpty ? [] : [$0] } ?? []
        components.percentEncodedQuery = (existing + added.map(String.init)).joined(separator: "&")
        return components.string ?? target
    }

    /// Whether an item is written as a URL's query may hold it (RFC 3986: unreserved characters,
    /// sub-delimiters, `:`, `@`, `/`, `?` and `%` with two hex digits). Only such text goes into a
    /// `Location` or a deep link; anything else in a request line is left behind.
    static func isEncoded(_ item: Substring) -> Bool {
        let bytes = Array(item.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
                continue
            }
            guard allowed.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    private static let allowed = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*+,;=:@/?".utf8)
    )

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
