extension NotificationProvider {
    /// Adobe Journey Optimizer (AEP Messaging): the tap's link at the top-level `adb_uri` (the SDK
    /// does not check the documented `adb_a_type`). Its documented buttons, `adb_act` entries by
    /// `aid`, carry no link on iOS; Android's `adb_act[].uri` is read when a sender includes it, and
    /// a button without one is the app's action. Journey Optimizer marks no pushes of its own
    /// (`adb_iam_id` names an in-app message shown after the tap; `_xdm` is tracking data).
    public static let adobeJourneyOptimizer = NotificationProvider(
        name: "adobeJourneyOptimizer",
        title: "Adobe Journey Optimizer",
        links: [Location(PayloadPath("adb_uri"))],
        buttons: .listed(PayloadPath("adb_act"), identifier: PayloadPath("aid"), link: Location(PayloadPath("uri"))),
        reference:
            "github.com/adobe/aepsdk-messaging-ios AEPMessaging/Sources/MessagingConstants.swift "
            + "(PushNotification.UserInfoKey.ACTION_URL adb_uri, PUSH_TO_INAPP adb_iam_id), Messaging+PublicAPI.swift; "
            + "developer.adobe.com/client-sdks edge/adobe-journey-optimizer/push-notification (push payload: "
            + "adb_uri, adb_a_type, adb_act)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Hello from AJO","body":"Stay a while"},"mutable-content":1,"category":"iosCategory"},
                 "_xdm":{"cjm":{"_experience":{"customerJourneyManagement":{"messageExecution":{"messageExecutionID":"e1"}}}}},
                 "adb_media":"https://example.com/image.png","adb_a_type":"DEEPLINK","adb_uri":"{link}",
                 "adb_act":[{"aid":"open","label":"Open","type":"DEEPLINK","uri":"{link}"},{"aid":"dismiss","label":"Dismiss","type":"DISMISS"}]}
                """#,
            link: $0
        )
    }
}
