extension NotificationProvider {
    /// Klaviyo: the tap's link at the top-level `url`, else at `body.url` (the SDK's action-button
    /// specification puts it there); buttons sent with the push in `body.action_buttons`, the tapped
    /// one by `id`, its link at `url`. The specification's buttons carry no `action`, the SDK's
    /// `deep_link` ones do, and an `open_app` button has no `url`: so any `url` is the button's
    /// link. Klaviyo has no pushes of its own to mark.
    public static let klaviyo = NotificationProvider(
        name: "klaviyo",
        title: "Klaviyo",
        links: [Location(PayloadPath("url")), Location(PayloadPath("body", "url"))],
        buttons: .listed(
            PayloadPath("body", "action_buttons"),
            identifier: PayloadPath("id"),
            link: Location(PayloadPath("url"))
        ),
        reference:
            "github.com/klaviyo/klaviyo-swift-sdk Sources/KlaviyoSwift/Utilities/UNNotificationResponse+Klaviyo.swift "
            + "(klaviyoDeepLinkURL: url; matchingActionButton: id), Sources/KlaviyoSwiftExtension/"
            + "KlaviyoActionButtonParser.swift (body.action_buttons), Sources/KlaviyoCore/Models/ActionType.swift "
            + "(deep_link, open_app); PUSH_ACTION_BUTTONS_PAYLOAD_SPEC.md (body.url, buttons without action); README "
            + "\"Push Action Buttons\", \"Silent Push Notifications\""
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"New Arrivals","body":"Check out our latest collection"},"mutable-content":1},
                 "body":{"_k":{},"action_buttons":[{"id":"shop","label":"Shop","action":"deep_link","url":"{link}"},
                 {"id":"later","label":"Open App","action":"open_app"}]},"url":"{link}"}
                """#,
            link: $0
        )
    }
}
