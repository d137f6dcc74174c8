extension NotificationProvider {
    /// Kumulos and Optimove Mobile (one SDK): the tap's link at `custom.u`, on a push that
    /// carries `custom.a."k.message"`. Its buttons, sent with the push in `custom.a."k.buttons"`,
    /// have no link of their own: the SDK opens `custom.u` whichever is tapped, and so does this
    /// preset. (`custom.a."k.deepLink"` opens an in-app message, not a link.)
    public static let kumulos = NotificationProvider(
        name: "kumulos",
        title: "Kumulos (Optimove Mobile)",
        links: [Location(PayloadPath("custom", "u"))],
        buttons: .tapLink(pushes: [PayloadPath("custom", "a", "k.message")]),
        reference:
            "github.com/Kumulos/KumulosSdkSwift Sources/SDK/Kumulos+Push.swift (KSPushNotification: custom.u, "
            + "custom.a.k.message), Sources/Extension/KumulosNotificationService.swift (k.buttons); "
            + "github.com/optimove-tech/Optimove-SDK-iOS OptimoveSDK/Sources/Classes/Optimobile/Optimobile+Push.swift"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"title","body":"body"},"mutable-content":1},
                 "custom":{"u":"{link}","a":{"k.message":{"type":1,"data":{"id":1}},
                 "k.buttons":[{"id":"1","text":"action_1"}]}}}
                """#,
            link: $0
        )
    }
}
