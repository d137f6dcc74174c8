extension NotificationProvider {
    /// Amazon Pinpoint and AWS End User Messaging: the deep link at `data.pinpoint.deeplink`, then
    /// a "go to URL" action at `data.pinpoint.url` (the native SDKs read only the first; Amplify's
    /// React Native SDK reads `url` first, but one push carries one action). Buttons come from
    /// categories the app registers; silent data rides in `data.pinpoint.jsonBody`.
    public static let pinpoint = NotificationProvider(
        name: "pinpoint",
        title: "Amazon Pinpoint",
        links: [
            Location(PayloadPath("data", "pinpoint", "deeplink")), Location(PayloadPath("data", "pinpoint", "url")),
        ],
        reference:
            "github.com/aws-amplify/aws-sdk-ios AWSPinpoint/AWSPinpointNotificationManager.m "
            + "(AWSCampaignDeepLinkKey); github.com/aws-amplify/amplify-swift PushNotificationUserInfo+Pinpoint.swift; "
            + "github.com/aws-amplify/amplify-js packages/rtn-push-notification/src/utils/normalizeNativeMessage.ts (url)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Hello","body":"Tap me"}},
                 "data":{"pinpoint":{"campaign":{"campaign_id":"testCampaignId"},"deeplink":"{link}"},"media-url":"https://example.com/i.png"}}
                """#,
            link: $0
        )
    }
}
