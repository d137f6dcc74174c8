extension NotificationProvider {
    /// Expo: the push's `data` arrives as the top-level `body`, and Expo's documented way to open a
    /// screen is its `url` (often a path, `/orders/456`). Buttons come from a category the app
    /// registers (`aps.category`), and Expo sends no pushes of its own.
    public static let expo = NotificationProvider(
        name: "expo",
        title: "Expo",
        links: [Location(PayloadPath("body", "url"))],
        reference:
            "docs.expo.dev/push-notifications/sending-notifications-custom (iOS payload: data → body); "
            + "docs.expo.dev/versions/latest/sdk/notifications (\"Handle push notifications with navigation\": "
            + "data.url); github.com/expo/expo packages/expo-notifications/ios/EXNotifications/Notifications/"
            + "NotificationRecords.swift (userInfo[\"body\"])"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Order shipped","body":"Tap to track"},"sound":"default"},"body":{"url":"{link}"},
                 "experienceId":"@acme/shop","scopeKey":"@acme/shop"}
                """#,
            link: $0
        )
    }
}
