extension NotificationProvider {
    /// Mixpanel (the push SDKs up to mixpanel-iphone 3.9.2 and mixpanel-swift 2.10.4; later ones
    /// handle no taps): the tap's link at `mp_ontap.uri` when `mp_ontap.type` is `deeplink` or
    /// `browser` (`homescreen` opens nothing); buttons in `mp_buttons`, by position: the action
    /// `MP_ACTION_0` is the first, its link at `ontap.uri` by the same rule.
    public static let mixpanel = NotificationProvider(
        name: "mixpanel",
        title: "Mixpanel",
        links: mixpanelTaps(PayloadPath("mp_ontap")),
        buttons: .numbered(
            PayloadPath("mp_buttons"),
            prefix: "MP_ACTION_",
            first: 0,
            links: mixpanelTaps(PayloadPath("ontap"))
        ),
        reference:
            "github.com/mixpanel/mixpanel-iphone v3.9.2 Mixpanel/Mixpanel.m (mp_ontap, MPPushTapActionType*, MP_ACTION_), "
            + "Mixpanel/MPNotificationServiceExtension.m (mp_buttons); github.com/mixpanel/mixpanel-swift v2.10.4 "
            + "Sources/PushNotifications.swift"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Hi","body":"New for you"},"mutable-content":1},
                 "mp":{"m":98765,"c":56789,"distinct_id":"user-1","token":"PROJECT_TOKEN"},
                 "mp_ontap":{"type":"deeplink","uri":"{link}"},
                 "mp_buttons":[{"id":"b0","lbl":"Open","ontap":{"type":"deeplink","uri":"{link}"}},
                 {"id":"b1","lbl":"Later","ontap":{"type":"homescreen"}}]}
                """#,
            link: $0
        )
    }

    /// `uri` under `tap` when its `type` opens a link.
    private static func mixpanelTaps(_ tap: PayloadPath) -> [Location] {
        ["deeplink", "browser"].map { Location(tap.appending("uri"), when: (tap.appending("type"), $0)) }
    }
}
