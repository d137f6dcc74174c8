import Foundation

/// The install referrer the Play Store redirect carries: a query string with the click's claim
/// token first and the campaign (``StoreCampaign``) after it,
/// `waypoint_claim=AwI…&utm_source=news&utm_campaign=spring`. The app reads `waypoint_claim`
/// through the Install Referrer API and claims the link with it; Google Play reads the `utm_*`
/// items for its campaign reports.
///
/// ```swift
/// PlayReferrer.text(StoreCampaign(of: "readapp://books/42?utm_source=news"), claim: "AwI")
/// // "waypoint_claim=AwI&utm_source=news"
/// PlayReferrer.token(in: "waypoint_claim=AwI&utm_source=news")  // "AwI"
/// ```
///
/// The token comes first because the referrer was `waypoint_claim=<token>` alone before it had a
/// campaign, and an app written then may check that it starts so (an install from the store's own
/// search has the referrer `utm_source=google-play&utm_medium=organic`). Such an app keeps
/// claiming: what it sends, the whole referrer or what follows its first `=`, holds the token
/// where ``ClaimAPI/tokenText(_:)`` finds it. An app that took what follows the last `=` gets the
/// campaign instead, for links that have one: the one way of reading it this change breaks.
enum PlayReferrer {
    /// The name of the claim token's item.
    static let claimName = "waypoint_claim"

    /// The most bytes of campaign items a referrer carries: the token carries the visit's query to
    /// the app whole, and a store URL stays well within what a proxy passes in a `Location` header.
    static let maxCampaignBytes = 512

    /// The referrer for a claim token and a campaign; nil when there is neither, so the store URL
    /// has no referrer. Campaign items go in while they fit ``maxCampaignBytes``; one that names the
    /// claim item is left out, so only the token the service issued is ever read as one.
    static func text(_ campaign: StoreCampaign, claim token: String?) -> String? {
        var items = token.map { ["\(claimName)=\($0)"] } ?? []
        var bytes = 0
        for item in campaign.items where !item.contains(claimName) {
            bytes += item.utf8.count + 1
            guard bytes <= maxCampaignBytes else { break }
            items.append(item)
        }
        return items.isEmpty ? nil : items.joined(separator: "&")
    }

    /// The claim token in a whole referrer: the value of its `waypoint_claim` item; nil when the
    /// text has none (a bare token, or a claim URL).
    static func token(in text: String) -> Substring? {
        guard let range = text.range(of: claimName + "=") else { return nil }
        return text[range.upperBound...].prefix { $0 != "&" }
    }
}
