import Foundation

/// The install referrer the Play Store redirect carries: a query string with the campaign first and
/// the click's claim token last, `utm_source=news&utm_campaign=spring&waypoint_claim=AwI…`. Google
/// Play reads the `utm_*` items for its own campaign reports, as it did from Firebase Dynamic Links;
/// the app reads `waypoint_claim` through the Install Referrer API and claims the link with it.
///
/// ```swift
/// PlayReferrer.text(campaignOf: "readapp://books/42?utm_source=news&id=7", claim: "AwI")
/// // "utm_source=news&waypoint_claim=AwI"
/// PlayReferrer.token(in: "utm_source=news&waypoint_claim=AwI")  // "AwI"
/// ```
///
/// The token comes last so that an app written when the referrer was `waypoint_claim=<token>` alone
/// still finds it: what it sends, whether the whole referrer, everything after its first `=` or
/// everything after its last, holds the token where ``token(in:)`` looks.
enum PlayReferrer {
    /// The name of the claim token's item.
    static let claimName = "waypoint_claim"

    /// The referrer for a deep link's campaign and a claim token: the deep link's `utm_*` items as
    /// it writes them, then the token; nil when there is neither, so the store URL has no referrer.
    static func text(campaignOf deepLink: String, claim token: String?) -> String? {
        var items = campaign(of: deepLink)
        if let token { items.append("\(claimName)=\(token)") }
        return items.isEmpty ? nil : items.joined(separator: "&")
    }

    /// The `utm_*` items of a URL's query, percent-encoded as it has them; only items a query may
    /// hold (``QueryPassthrough/isEncoded(_:)``) go into a store URL.
    static func campaign(of url: String) -> [String] {
        guard let query = URLComponents(string: url)?.percentEncodedQuery else { return [] }
        return query.split(separator: "&").filter { $0.hasPrefix("utm_") && QueryPassthrough.isEncoded($0) }
            .map(String.init)
    }

    /// The claim token in text an app took from a referrer: the value of its last `waypoint_claim`
    /// item, up to the next `&`; nil when the text names none (a bare token, or a claim URL).
    static func token(in text: String) -> Substring? {
        guard let range = text.range(of: claimName + "=", options: .backwards) else { return nil }
        return text[range.upperBound...].prefix { $0 != "&" }
    }
}
