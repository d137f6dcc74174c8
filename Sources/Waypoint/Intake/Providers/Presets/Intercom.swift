extension NotificationProvider {
    /// Intercom: a marketer's push (`intercom_push_type` `push_only`) carries its link at the
    /// top-level `uri`; a conversation push (`intercom_push_type` `notification`) is Intercom's own,
    /// opened by its SDK in the Messenger (`Intercom.handlePushNotification`), and not routed. The
    /// SDK is closed source: the keys are from Intercom's documentation and issues.
    public static let intercom = NotificationProvider(
        name: "intercom",
        title: "Intercom",
        links: [Location(PayloadPath("uri"))],
        internalMarkers: [InternalMarker(PayloadPath("intercom_push_type"), equals: "notification")],
        reference:
            "developers.intercom.com/installing-intercom/ios/deep-linking (\"the URI for your push messages\"); "
            + "github.com/intercom/intercom-ios Intercom.h (isIntercomPushNotification, handleIntercomPushNotification), "
            + "issues #320 (intercom_push_type notification) and #343 (the push URI)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Intercom Push","body":"Deep Link test"},"sound":"default"},"instance_id":"1",
                 "intercom_push_type":"push_only","uri":"{link}"}
                """#,
            link: $0
        )
    }
}
