extension NotificationProvider {
    /// Pushwoosh: the tap's link at the top-level `l`. Its buttons come from categories its SDK
    /// registers from the Control Panel, with no link of their own: the SDK opens `l` whichever is
    /// tapped on a Pushwoosh push (`pw_msg`), and so does this preset. A system push
    /// (`pw_system_push`, carrying `pw_command`) is Pushwoosh's own.
    public static let pushwoosh = NotificationProvider(
        name: "pushwoosh",
        title: "Pushwoosh",
        links: [Location(PayloadPath("l"))],
        buttons: .tapLink(pushes: [PayloadPath("pw_msg")]),
        internalMarkers: [InternalMarker(PayloadPath("pw_system_push"), .flag)],
        reference:
            "github.com/Pushwoosh/pushwoosh-ios-sdk PushwooshCore/Notifications/PWPushNotificationsManager/"
            + "PWPushNotificationsManager.common.m (processActionUserInfo: l), PushwooshCore/Public/PWMessage.m "
            + "(isPushwooshMessage: pw_msg), PushwooshCore/Commands/PWSystemCommandDispatcher.m (pw_system_push); "
            + "help.pushwoosh.com \"Push Notification payload keys\""
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Title","body":"hello world"},"mutable-content":1,"category":"1"},
                 "pw_msg":"1","p":"3!f","l":"{link}","u":"{\"key\":\"value\"}"}
                """#,
            link: $0
        )
    }
}
