extension NotificationProvider {
    /// Sendbird: a chat push carries no link. It names its channel at
    /// `sendbird.channel.channel_url` (an id, not a URL; never open `files[].url` or
    /// `sender.profile_url`): add a rule that maps it, such as
    /// `NotificationRule(.present("sendbird.channel.channel_url"), link: "/chat/{sendbird.channel.channel_url}")`.
    /// A Sendbird Calls push (`sendbird_call`) is Sendbird's own and not routed; that key is known
    /// from apps' push handlers, not from Sendbird's documentation.
    public static let sendbird = NotificationProvider(
        name: "sendbird",
        title: "Sendbird",
        links: [],
        internalMarkers: [InternalMarker(PayloadPath("sendbird_call"), .value)],
        reference:
            "github.com/sendbird/sendbird-uikit-ios Sample/QuickStart/AppDelegate.swift (sendbird.channel.channel_url); "
            + "github.com/sendbird/sendbird-uikit-react-native packages/uikit-utils/src/types.ts (SendbirdDataPayload); "
            + "docs.sendbird.com/docs/calls/v1/ios/guides/notifications (remote notifications); sendbird_call: as "
            + "apps' push handlers read it"
    ) { _ in
        sample(
            json: #"""
                {"aps":{"content-available":1},"sendbird_call":{"command":{"cmd":"CALL","type":"dial"}}}
                """#,
            link: ""
        )
    }
}
