extension NotificationProvider {
    /// Firebase Cloud Messaging: no standard link key. An app sends its own keys, which arrive at
    /// the top level of the payload, where the app's ``LinkIntake/linkKeys`` read them; the SDK
    /// itself opens only `gcm.app_link`.
    public static let firebase = NotificationProvider(
        name: "firebase",
        title: "Firebase Cloud Messaging",
        links: [Location(PayloadPath("gcm.app_link"))],
        reference:
            "github.com/firebase/firebase-ios-sdk FirebaseMessaging/Sources/FIRMessagingConstants.m "
            + "(kFIRMessagingMessageLinkKey: gcm.app_link); firebase.google.com/docs/cloud-messaging "
            + "(ApnsFcmOptions carries only image and analytics_label)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Title","body":"Body"},"mutable-content":1},"gcm.message_id":"1234",
                 "google.c.sender.id":"5678","fcm_options":{"image":"https://example.com/image.png"},"gcm.app_link":"{link}"}
                """#,
            link: $0
        )
    }
}
