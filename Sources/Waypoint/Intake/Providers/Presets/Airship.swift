extension NotificationProvider {
    /// Airship: the payload is a map of actions; `^d` (`deep_link_action`) opens a deep link and
    /// `^u` (`open_external_url_action`) a URL. A button's actions are under
    /// `com.urbanairship.interactive_actions.<action>`; a remote-data refresh is Airship's own.
    public static let airship = NotificationProvider(
        name: "airship",
        title: "Airship",
        links: airshipActions,
        buttons: .keyed(PayloadPath("com.urbanairship.interactive_actions"), links: airshipActions),
        internalMarkers: [InternalMarker(PayloadPath("com.urbanairship.remote-data.update"), .flag)],
        reference:
            "github.com/urbanairship/ios-library Airship/AirshipCore/Source (DeepLinkAction ^d, "
            + "OpenExternalURLAction ^u, interactive_actions in the app integration), "
            + "RemoteDataManager.swift (refreshRemoteDataPushPayloadKey)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":"Body","category":"read_category"},"_":"send-id","^d":"{link}",
                 "com.urbanairship.interactive_actions":{"read":{"^d":"{link}"}}}
                """#,
            link: $0
        )
    }

    private static let airshipActions = [
        Location(PayloadPath("^d")), Location(PayloadPath("deep_link_action")), Location(PayloadPath("^u")),
        Location(PayloadPath("open_external_url_action")),
    ]
}
