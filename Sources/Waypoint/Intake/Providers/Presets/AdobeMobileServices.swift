extension NotificationProvider {
    /// Adobe Mobile Services (the legacy ADBMobile 4.x SDK): the tap's link at the top-level
    /// `adb_deeplink`, beside the message id `adb_m_id`. No buttons and no pushes of its own are
    /// documented.
    public static let adobeMobileServices = NotificationProvider(
        name: "adobeMobileServices",
        title: "Adobe Mobile Services",
        links: [Location(PayloadPath("adb_deeplink"))],
        reference:
            "github.com/Adobe-Marketing-Cloud/mobile-services docs/ios/messaging-main/push-messaging/"
            + "t-mob-imp-push-deeplinking-ios-4x.md (adb_deeplink); github.com/adobe/aepsdk-core-ios "
            + "AEPCore/Sources/core/DataMarshaller.swift (LEGACY_DEEPLINK_URL, LEGACY_PUSH_MESSAGE_ID)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":"Check out our new deals","sound":"default","mutable-content":1},
                 "adb_m_id":"97f8db20-bb28-4c1a-8cda-78c6ba98f87d","adb_deeplink":"{link}"}
                """#,
            link: $0
        )
    }
}
