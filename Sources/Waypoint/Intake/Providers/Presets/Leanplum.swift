extension NotificationProvider {
    /// Leanplum: the tap's action at `_lpx`, a link at its `URL` when its `__name__` is
    /// `Open URL` (a "Web Interstitial" also has a `URL`, shown in the app, not routed); each
    /// button's action in `_lpc`, keyed by the action identifier, in the same shape. A push with
    /// neither is fetched by the SDK from Leanplum's servers: its link is not in the payload. The
    /// keys of Leanplum's daily uninstall-tracking push are not documented.
    public static let leanplum = NotificationProvider(
        name: "leanplum",
        title: "Leanplum",
        links: [Location(PayloadPath("_lpx", "URL"), when: (PayloadPath("_lpx", "__name__"), "Open URL"))],
        buttons: .keyed(
            PayloadPath("_lpc"),
            links: [Location(PayloadPath("URL"), when: (PayloadPath("__name__"), "Open URL"))]
        ),
        reference:
            "github.com/Leanplum/Leanplum-iOS-SDK LeanplumSDK/LeanplumSDK/Classes/Notifications/"
            + "LPNotificationsConstants.h (_lpm, _lpx, _lpc), Classes/MessageTemplates/LPMessageTemplateConstants.h "
            + "(LPMT_OPEN_URL_NAME \"Open URL\", LPMT_ARG_URL \"URL\"), ClassesSwift/Notifications/"
            + "NotificationsManager.swift (notificationOpened: _lpx, _lpc[action])"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Notification 1","body":"Notification Body 1"}},"_lpm":1234567890,
                 "_lpx":{"URL":"{link}","__name__":"Open URL"},"_lpc":{"MyAction":{"URL":"{link}","__name__":"Open URL"}},
                 "lp_sent_time":12345.0,"lp_occurrence_id":"5813dbe3-214d-4031-a3ad-a124b38e0b97"}
                """#,
            link: $0
        )
    }
}
