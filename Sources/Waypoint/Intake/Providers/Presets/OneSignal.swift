extension NotificationProvider {
    /// OneSignal: the launch URL at `custom.u` (`os_data.u` in the newer format). Its buttons,
    /// sent with the push (`buttons`, `os_data.buttons`), carry no URL on iOS (button URLs are
    /// web only): the SDK opens the launch URL whichever is tapped, and so does this preset. An
    /// in-app message preview is OneSignal's own.
    public static let oneSignal = NotificationProvider(
        name: "oneSignal",
        title: "OneSignal",
        links: [Location(PayloadPath("custom", "u")), Location(PayloadPath("os_data", "u"))],
        buttons: .tapLink(pushes: [PayloadPath("custom", "i"), PayloadPath("os_data", "i")]),
        internalMarkers: [InternalMarker(PayloadPath("custom", "a", "os_in_app_message_preview_id"), .value)],
        reference:
            "github.com/OneSignal/OneSignal-iOS-SDK iOS_SDK/OneSignalSDK/OneSignalCore/Source/OSNotification.m "
            + "(custom.u, os_data.u, parseActionButtons: buttons i/n), OneSignalNotifications/OSNotificationsManager.m "
            + "(handleNotificationOpened: launchURL for every action), OneSignalCommonDefines.h (ONESIGNAL_IAM_PREVIEW); "
            + "documentation.onesignal.com/docs/action-buttons (button URLs: web only)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Title","body":"Body"},"mutable-content":1},
                 "custom":{"i":"9f1c2d3e-0000-4000-8000-000000000001","u":"{link}","a":{"k":"v"}},
                 "buttons":[{"i":"read","n":"Read"}]}
                """#,
            link: $0
        )
    }
}
