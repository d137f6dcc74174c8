import Foundation

/// A visit's query (`?utm_source=news&utm_campaign=spring`) passed on to where the visitor goes and
/// to the deep link the app receives: each item whose name the target does not set itself, in the
/// visit's order and encoding. The rule for which items pass, for the redirects, the landing page,
/// claims and `/api/resolve`; ``LinkRules/passing(_:to:)`` adds the one for the deep link (it must
/// still lead to the link's route).
///
/// ```swift
/// QueryPassthrough.merge("utm_source=news&ref=x", into: "https://example.com/spring?ref=site")
/// // "https://example.com/spring?ref=site&utm_source=news"
/// ```
enum QueryPassthrough {
    /// The longest query passed on. A longer one is not passed at all (the visitor still gets where
    /// the link leads): no campaign needs it, and it would swell the claim token that carries it.
    static let maxBytes = 512

    /// Why a visit's query is not passed on whole, though its link passes queries. The service
    /// counts it (``ServiceMetrics``) rather than drop it without a word: one reason a visit, the
    /// first that applies in this order.
    enum LeftBehind: String, Sendable, CaseIterable {
        /// Over ``maxBytes``: none of it is passed on.
        case tooLong
        /// An item without a name (`=v`) or not written as a URL's query may hold it (`a=<b>`): the
        /// other items are passed on.
        case notURLText
        /// The deep link with the query would lead elsewhere than the link's route, or be refused
        /// there (``LinkRules/passing(_:to:)``): the web targets get it, the app gets the link as saved.
        case changesRoute
    }

    /// The items of a visit's `query` that `link` passes on, joined as they came (nil for none),
    /// and why any were left behind.
    ///
    /// ```swift
    /// QueryPassthrough.split("utm_source=news&a=<b>", by: link)  // ("utm_source=news", .notURLText)
    /// ```
    static func split(_ query: String?, by link: ShortLink) -> (passed: String?, leftBehind: LeftBehind?) {
        guard link.passQuery, let query, !query.isEmpty else { return (nil, nil) }
        guard query.utf8.count <= maxBytes else { return (nil, .tooLong) }
        let items = query.split(separator: "&")
        let kept = items.filter(isPassable)
        return (kept.isEmpty ? nil : kept.joined(separator: "&"), kept.count == items.count ? nil : .notURLText)
    }

    /// `target` with the items of a passed query (``split(_:by:)``) whose names it does not have
    /// appended; `target` as it is when there are none, or when it is not a URL (it was checked
    /// when the link was saved). Items that ``isPassable(_:)`` refuses are left out here too:
    /// setting a query with characters a URL cannot hold stops the process.
    static func merge(_ passed: String?, into target: String) -> String {
        guard let passed, !passed.isEmpty, var components = URLComponents(string: target), components.scheme != nil
        else { return target }
        let present = Set((components.percentEncodedQueryItems ?? []).map(\.name))
        let added = passed.split(separator: "&").filter { item in
            let name = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return isPassable(item) && !present.contains(String(name))
        }
        guard !added.isEmpty else { return target }
        let existing = components.percentEncodedQuery.map { $0.isEmpty ? [] : [$0] } ?? []
        components.percentEncodedQuery = (existing + added.map(String.init)).joined(separator: "&")
        return components.string ?? target
    }

    /// Whether a query item may be passed on: it has a name, and is written as a URL's query may
    /// hold it (``isEncoded(_:)``).
    static func isPassable(_ item: Substring) -> Bool { item.first != "=" && isEncoded(item) }

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

    /// RFC 3986's unreserved characters: what a query value holds without escapes. Escaping all
    /// else, as `addingPercentEncoding` does with these, makes any text a value.
    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )

    private static let allowed = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*+,;=:@/?".utf8)
    )

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
