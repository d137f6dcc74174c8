extension NotificationProvider {
    /// Iterable: `itbl.defaultAction.data` when its `type` is `openUrl`; a button's action is the
    /// entry of `itbl.actionButtons` whose `identifier` is the action's; a ghost push (in-app
    /// message sync) is Iterable's own.
    public static let iterable = NotificationProvider(
        name: "iterable",
        title: "Iterable",
        links: [
            Location(
                PayloadPath("itbl", "defaultAction", "data"),
                when: (PayloadPath("itbl", "defaultAction", "type"), "openUrl")
            )
        ],
        buttons: .listed(
            PayloadPath("itbl", "actionButtons"),
            identifier: PayloadPath("identifier"),
            link: Location(PayloadPath("action", "data"), when: (PayloadPath("action", "type"), "openUrl"))
        ),
        internalMarkers: [InternalMarker(PayloadPath("itbl", "isGhostPush"), .flag)],
        reference:
            "github.com/Iterable/swift-sdk swift-sdk/Internal/InternalIterableAppIntegration.swift "
            + "(defaultAction, findButtonActionConfig), IterableAction.actionTypeOpenUrl, "
            + "Internal/NotificationHelper.swift (isGhostPush)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Title","body":"Body"},"mutable-content":1},
                 "itbl":{"campaignId":123,"templateId":456,"messageId":"m1","isGhostPush":false,
                 "defaultAction":{"type":"openUrl","data":"{link}"},
                 "actionButtons":[{"identifier":"read","title":"Read","buttonType":"default","openApp":true,
                 "action":{"type":"openUrl","data":"{link}"}}]}}
                """#,
            link: $0
        )
    }
}
