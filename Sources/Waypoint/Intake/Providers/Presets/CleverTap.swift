extension NotificationProvider {
    /// CleverTap: the deep link at `wzrk_dl`; test and preview pushes of in-app messages, the inbox
    /// and display units are CleverTap's own. (Its iOS SDK reads no button links.)
    public static let cleverTap = NotificationProvider(
        name: "cleverTap",
        title: "CleverTap",
        links: [Location(PayloadPath("wzrk_dl"))],
        internalMarkers: ["wzrk_inapp", "wzrk_inbox", "wzrk_adunit", "wzrk_inapp_s3_url", "wzrk_inapp_type"].map {
            InternalMarker(PayloadPath($0), .value)
        },
        reference:
            "github.com/CleverTap/clevertap-ios-sdk CleverTapSDK/CleverTap.m (urlForNotification: wzrk_dl; "
            + "_checkAndHandleTestPushPayload), CTConstants.h"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Title","body":"Body"}},"wzrk_id":"1700000000_20240101",
                 "wzrk_pivot":"wzrk_default","wzrk_dl":"{link}"}
                """#,
            link: $0
        )
    }
}
