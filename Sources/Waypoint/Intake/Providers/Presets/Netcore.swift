extension NotificationProvider {
    /// Netcore Cloud (Smartech): the tap's link at `smtPayload.deeplink` (`payload.deeplink` in
    /// the older format); buttons sent with the push in `smtPayload.actionButton`, the action
    /// identifier being the button's position from 0, its link at `actionDeeplink` (the older
    /// format's buttons are not read). The SDK is closed source: the keys are the constants in its
    /// binary.
    public static let netcore = NotificationProvider(
        name: "netcore",
        title: "Netcore Cloud",
        links: [Location(PayloadPath("smtPayload", "deeplink")), Location(PayloadPath("payload", "deeplink"))],
        buttons: .numbered(
            PayloadPath("smtPayload", "actionButton"),
            prefix: "",
            first: 0,
            links: [Location(PayloadPath("actionDeeplink"))]
        ),
        reference:
            "github.com/NetcoreSolutions/SmartPush-iOS-SDK SmartPush.framework (kPNPayload smtPayload, "
            + "kPNOldPayload payload, kPNDeeplink deeplink, kPNActionButton actionButton, actionDeeplink, "
            + "kPNApnSource smtSrc; SMTNotificationResponseHandler: actionIdentifier is the button's index)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Sale","body":"50% off"},"mutable-content":1,"category":"SmartechSimpleNotification"},
                 "smtSrc":"Smartech","smtPayload":{"trid":"175567-591-13872-0-20250101-T","type":"Simple","status":"sent",
                 "deeplink":"{link}","mediaUrl":"","carousel":[],"attrParams":{},
                 "actionButton":[{"actionName":"Shop","actionDeeplink":"{link}","aTyp":0,"config":{}},
                 {"actionName":"Later","actionDeeplink":"","aTyp":0,"config":{}}]},"smtCustomPayload":{"k":"v"}}
                """#,
            link: $0
        )
    }
}
