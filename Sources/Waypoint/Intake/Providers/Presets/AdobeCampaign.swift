extension NotificationProvider {
    /// Adobe Campaign: Campaign Standard puts the tap's link at the top-level `uri`, and the local
    /// notifications its in-app rules schedule at `adb_deeplink`. Campaign Classic has no fixed
    /// key: its links are "application variables" the app's service defines, so list that
    /// variable's name in the app's ``LinkIntake/linkKeys`` (`keys:` in the manifest). Buttons come
    /// from categories the app registers; `_acsDeliveryTracking`, `_mId` and `_dId` are tracking.
    public static let adobeCampaign = NotificationProvider(
        name: "adobeCampaign",
        title: "Adobe Campaign",
        links: [Location(PayloadPath("uri")), Location(PayloadPath("adb_deeplink"))],
        reference:
            "experienceleague.adobe.com Campaign Standard \"Understanding push notifications payload structure\" "
            + "(uri); github.com/adobe/aepsdk-campaign-ios AEPCampaign/Sources/CampaignConstants.swift "
            + "(RulesEngine.Detail.DEEPLINK adb_deeplink); Campaign Classic \"Create a notification for iOS\" "
            + "(application variables)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"body":"This is the content of my push notification","title":"Push Notification Title"},
                 "category":"NEW_MESSAGE_CATEGORY","badge":2,"mutable-content":1,"sound":"default"},
                 "custom_field1":"custom_value1","media-attachment-url":"https://example.com/image.jpeg","uri":"{link}",
                 "_dId":"56c4","_mId":"h138a","_acsDeliveryTracking":"on"}
                """#,
            link: $0
        )
    }
}
