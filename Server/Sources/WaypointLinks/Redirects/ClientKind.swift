/// Who followed a short link, told from the `User-Agent` header: it decides where the visitor goes.
///
/// ```swift
/// ClientKind(userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) …")  // .iOS
/// ClientKind(userAgent: "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)")  // .previewCrawler
/// ClientKind(userAgent: nil)                                                         // .desktop
/// ```
public enum ClientKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// iPhone, iPad or iPod touch: the landing page, which opens the app or offers the App Store.
    case iOS
    /// The Play Store, with the link's code in the install referrer.
    case android
    /// A chat app or social network fetching a preview: a page of Open Graph and Twitter card tags.
    case previewCrawler
    /// Anything else: the web fallback.
    case desktop

    /// Substrings of the user agents that fetch link previews. iMessage fetches as
    /// `facebookexternalhit/1.1 Facebot Twitterbot/1.0`, so it is caught by those.
    static let crawlerMarks = [
        "slackbot", "slack-imgproxy", "facebookexternalhit", "facebot", "twitterbot", "linkedinbot",
        "discordbot", "whatsapp", "telegrambot", "skypeuripreview", "pinterest", "redditbot",
        "embedly", "applebot", "googlebot", "bingbot",
    ]

    public init(userAgent: String?) {
        guard let userAgent, !userAgent.isEmpty else {
            self = .desktop
            return
        }
        let text = userAgent.lowercased()
        // Crawlers first: several of them claim to be a phone as well.
        if Self.crawlerMarks.contains(where: text.contains) {
            self = .previewCrawler
        } else if text.contains("iphone") || text.contains("ipad") || text.contains("ipod")
            || text.contains("cfnetwork")
        {
            // CFNetwork: the app's own URLSession asking for a code's deep link.
            // iPadOS Safari asks for desktop pages as a Mac by default: it gets the web fallback,
            // from which the app's own universal links still open it.
            self = .iOS
        } else if text.contains("android") || text.contains("dalvik") || text.contains("okhttp") {
            self = .android
        } else {
            self = .desktop
        }
    }
}
