import Foundation

/// A click's campaign, carried to the stores' own campaign reports as Firebase Dynamic Links did:
/// the `utm_*` items of the deep link the click leads to (the link's own, then the visit's, as the
/// app receives them). Google Play reads them in the install referrer (``PlayReferrer``); App Store
/// Connect reads the campaign's name as `ct` beside the team's provider token `pt`
/// (``appStoreURL(id:providerToken:)``).
///
/// ```swift
/// let campaign = StoreCampaign(of: "readapp://books/42?utm_source=news&utm_campaign=spring&id=7")
/// campaign.items  // ["utm_source=news", "utm_campaign=spring"]
/// campaign.appStoreURL(id: "123", providerToken: "456")
/// // "https://apps.apple.com/app/id123?pt=456&ct=spring&mt=8"
/// ```
struct StoreCampaign: Sendable, Hashable {
    /// The `utm_*` items, percent-encoded as the deep link writes them; only items a query may hold
    /// (``QueryPassthrough/isEncoded(_:)``) go into a store URL.
    let items: [String]

    init(of deepLink: String) {
        let query = URLComponents(string: deepLink)?.percentEncodedQuery ?? ""
        items = query.split(separator: "&").filter { $0.hasPrefix("utm_") && QueryPassthrough.isEncoded($0) }
            .map(String.init)
    }

    /// `utm_campaign`'s value, decoded; nil when there is none or it is empty.
    var name: String? {
        let value = items.lazy.compactMap { item -> Substring? in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 && parts[0] == "utm_campaign" ? parts[1] : nil
        }.first
        let decoded = value.map { $0.replacingOccurrences(of: "+", with: " ") }.flatMap { $0.removingPercentEncoding }
        return decoded?.isEmpty == false ? decoded : nil
    }

    /// The longest campaign token App Store Connect's campaign links take, in characters.
    static let maxAppStoreCampaignLength = 30

    /// The characters App Store Connect takes in a campaign token besides ASCII letters and digits
    /// (its help on campaign links lists them, and spaces, though none first or last).
    private static let appStoreCampaignPunctuation = Set(#" []/\-~+=<>:;,._'"*&$%#@?!|{}()"#)

    /// The campaign's name as App Store Connect takes a campaign token: accents dropped
    /// (`Frühling` as `Fruhling`), the characters it allows, one space between words, the first 30
    /// characters, no space at either end; nil when nothing is left.
    var appStoreCampaignToken: String? {
        let folded = (name ?? "").folding(options: .diacriticInsensitive, locale: nil)
        let allowed = folded.filter {
            $0.isASCII && ($0.isLetter || $0.isNumber) || Self.appStoreCampaignPunctuation.contains($0)
        }
        // Spaces run together where a character was left out (`été 春 2026`): one between words.
        let words = allowed.split(separator: " ").joined(separator: " ")
        let token = words.prefix(Self.maxAppStoreCampaignLength).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// The App Store page of app `id`; with the team's provider token and a campaign name, an App
    /// Store Connect campaign link (`?pt=…&ct=…&mt=8`, the shape its campaign generator makes), so
    /// App Analytics counts the campaign's installs.
    func appStoreURL(id: String, providerToken: String?) -> String {
        let page = "https://apps.apple.com/app/id\(id)"
        guard let providerToken,
            let token = appStoreCampaignToken?.addingPercentEncoding(withAllowedCharacters: QueryPassthrough.unreserved)
        else { return page }
        return "\(page)?pt=\(providerToken)&ct=\(token)&mt=8"
    }
}
