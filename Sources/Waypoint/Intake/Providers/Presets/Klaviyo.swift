extension NotificationProvider {
    /// Klaviyo: the tap's link at the top-level `url` (not `body.url`); buttons sent with the push
    /// in `body.action_buttons`, the tapped one by `id`, its link at `url` when its `action` is
    /// `deep_link` (an `open_app` button has none). Klaviyo has no pushes of its own to mark.
    public static let klaviyo = NotificationProvider(
        name: "klaviyo",
        title: "Klaviyo",
        links: [Location(PayloadPath("url"))],
        buttons: .listed(
            PayloadPath("body", "action_buttons"),
            identifier: PayloadPath("id"),
            link: Location(PayloadPath("url"), when: (PayloadPath("action"), "deep_link"))
        ),
        reference:
            "github.com/klaviyo/klaviyo-swift-sdk Sources/KlaviyoSwift/Utilities/UNNotificationResponse+Klaviyo.swift "
            + "(klaviyoDeepLinkURL: url; matchingActionButton: id), Sources/KlaviyoSwiftExtension/"
            + "KlaviyoActionButtonParser.swift (body.action_buttons), Sources/KlaviyoCore/Models/ActionType.swift "
            + "(deep_link, open_app); README \"Push Action Buttons\", \"Silent Push Notifications\""
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
