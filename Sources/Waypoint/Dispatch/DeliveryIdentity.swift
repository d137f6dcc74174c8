/// What makes two deliveries one tap: the identity intake gives each link it makes
/// (``IntakeResult/link(_:identity:)``), one form for each way in, written here and nowhere else.
/// ``DeliveryLedger`` compares them: a delivery whose identity is still waiting or running is a
/// duplicate, so each way in says what "the same tap" means for it.
///
/// - a URL (`url:` and the link's text): a cold start hands one URL to two callbacks;
/// - a user activity (`activity:`, its type, the link's text): Handoff and Spotlight alike;
/// - a quick action (`shortcut:`, its type, the link's text): two items of one type with other
///   user info (an app's dynamic "recent chat" items) are two taps;
/// - a web page's message or navigation (`web:`, `navigation:`), a deferred link (`deferred:`),
///   text (`text:`), and a link given straight to the dispatcher (`link:`), each by its text;
/// - a notification (`notification:`, its request, the action, a digest of its payload), or
///   without a request identifier (launch options) its whole payload and the action.
///
/// The kinds never meet: the same URL delivered as text and as a universal link is two taps.
enum DeliveryIdentity {
    /// The prefix of the identities ``DeliveryLedger`` remembers after they finish.
    static let notificationRequestPrefix = "notification:"

    static func url(_ link: DeepLink) -> String { "url:" + link.string }
    static func text(_ link: DeepLink) -> String { "text:" + link.string }
    static func link(_ link: DeepLink) -> String { "link:" + link.string }
    static func activity(_ type: String, _ link: DeepLink) -> String { "activity:\(type):\(link.string)" }
    static func shortcut(_ type: String, _ link: DeepLink) -> String { "shortcut:\(type):\(link.string)" }
    static func webMessage(_ text: String) -> String { "web:" + text }
    static func navigation(_ link: DeepLink) -> String { "navigation:" + link.string }
    static func deferred(_ link: DeepLink) -> String { "deferred:" + link.string }
    /// The settings screen the app offers from the notification settings: one, whatever opened it.
    static let notificationSettings = "notification-settings"

    /// A notification response: its request, the action chosen, and a digest of its payload
    /// (`payload` as ``PayloadValue/description`` writes it, keys sorted). Without a request
    /// identifier (launch options), the whole payload and the action.
    static func notification(request: String, action: String, payload: String) -> String {
        request.isEmpty
            ? "notification-payload:" + payload + ":" + action
            : notificationRequestPrefix + request + ":" + action + ":" + digest(payload)
    }

    /// 64-bit FNV-1a in hex: the same on every launch (a link restored after a relaunch must still
    /// match a late delivery of its tap), which Swift's seeded `Hasher` is not.
    static func digest(_ text: String) -> String {
        var hash = FNV1a()
        for byte in text.utf8 { hash.add(byte) }
        return String(hash.value, radix: 16)
    }
}
