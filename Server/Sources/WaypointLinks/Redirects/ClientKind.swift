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
        let text = LowercasedASCII(userAgent)
        // Crawlers first: several of them claim to be a phone as well.
        if Self.crawlerMarkBytes.contains(where: text.contains) {
            self = .previewCrawler
        } else if Self.iOSMarks.contains(where: text.contains) {
            // CFNetwork: the app's own URLSession asking for a code's deep link.
            // iPadOS Safari asks for desktop pages as a Mac by default: it gets the web fallback,
            // from which the app's own universal links still open it.
            self = .iOS
        } else if Self.androidMarks.contains(where: text.contains) {
            self = .android
        } else {
            self = .desktop
        }
    }

    private static let crawlerMarkBytes = crawlerMarks.map { Array($0.utf8) }
    private static let iOSMarks = ["iphone", "ipad", "ipod", "cfnetwork"].map { Array($0.utf8) }
    private static let androidMarks = ["android", "dalvik", "okhttp"].map { Array($0.utf8) }
}

/// A user agent's bytes with ASCII letters lowercased, searched byte by byte: `String.contains`
/// compares `Character`s, and on every visit that was most of the redirect's time.
struct LowercasedASCII {
    let bytes: [UInt8]

    init(_ text: String) {
        bytes = text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
    }

    /// Whether `needle` (lowercase ASCII) occurs in the text.
    func contains(_ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= bytes.count else { return needle.isEmpty }
        var start = 0
        let last = bytes.count - needle.count
        while start <= last {
            if bytes[start] == first, bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }
}
