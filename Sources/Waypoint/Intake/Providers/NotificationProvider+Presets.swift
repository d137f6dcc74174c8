// Each preset, in Presets/, keeps only what the provider's own documentation or SDK source
// confirms; the reference beside it says where. Places a provider has that could not be confirmed
// are left out and named in the comment, so a team knows to add a rule or a preset of its own.
extension NotificationProvider {
    /// Every preset. Its ``name`` is its Swift spelling (`.oneSignal` is `oneSignal`), the one
    /// spelling the manifest, the `waypoint` tool and the documentation use too.
    public static let presets: [NotificationProvider] = [
        .braze, .oneSignal, .airship, .cleverTap, .iterable, .customerIO, .moEngage, .batch, .firebase, .pinpoint,
        .klaviyo, .leanplum, .intercom, .adobeJourneyOptimizer, .adobeCampaign, .adobeMobileServices, .expo,
        .pushwoosh, .netcore, .kumulos, .salesforceMarketingCloud, .insider, .mixpanel, .countly, .sendbird,
    ]

    /// The preset named `name` (`braze`, `oneSignal`…), in any case.
    ///
    /// ```swift
    /// NotificationProvider.preset(named: "onesignal")?.name   // "oneSignal"
    /// ```
    public static func preset(named name: String) -> NotificationProvider? {
        let wanted = name.lowercased()
        return presets.first { $0.name.lowercased() == wanted }
    }

    /// A preset's sample: its JSON with the link wherever `{link}` stands. Kept as text, parsed
    /// when a sample is asked for, so presets add data, not code, to an app that links the core.
    static func sample(json: String, link: String) -> PayloadValue {
        ((try? PayloadValue(json: json)) ?? .object([:])).replacingText("{link}", with: link)
    }
}
