extension NotificationProvider {
    /// Countly: the tap's link at `c.l`; buttons in `c.b` by position, the action
    /// `CountlyActionIdentifier1` being the first, its link at `l`. Countly's silent pushes are
    /// the app's own (`content-available` with `c.i`): they carry no link and are not marked.
    public static let countly = NotificationProvider(
        name: "countly",
        title: "Countly",
        links: [Location(PayloadPath("c", "l"))],
        buttons: .numbered(
            PayloadPath("c", "b"),
            prefix: "CountlyActionIdentifier",
            first: 1,
            links: [Location(PayloadPath("l"))]
        ),
        reference:
            "github.com/Countly/countly-sdk-ios CountlyNotificationService.m (kCountlyPNKey*: c, i, b, l; "
            + "CountlyActionIdentifier), CountlyPushNotifications.m (didReceiveNotificationResponse); "
            + "github.com/Countly/countly-server plugins/push/api/send/platforms/ios.ts (message examples)"
    ) {
        sample(
            json: #"""
                {"aps":{"mutable-content":1,"sound":"default","alert":{"title":"message title","body":"message content"}},
                 "c":{"i":"689607f8899e1ae6f88173cc","l":"{link}","b":[{"t":"button text","l":"{link}"}],"e":{"av":"0:0"}}}
                """#,
            link: $0
        )
    }
}
