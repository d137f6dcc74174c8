extension NotificationProvider {
    /// MoEngage: the tap's deep link at `app_extra.moe_deeplink` (`app_extra.screenName` names a
    /// screen, not a link: map it with a rule if the app uses it); its uninstall-tracking silent
    /// push (`moengage.silentPush`) is MoEngage's own. Buttons come from categories the app
    /// registers. The SDK is closed source: the keys are from its documentation and the names in
    /// its binary.
    public static let moEngage = NotificationProvider(
        name: "moEngage",
        title: "MoEngage",
        links: [Location(PayloadPath("app_extra", "moe_deeplink"))],
        internalMarkers: [InternalMarker(PayloadPath("moengage", "silentPush"), .flag)],
        reference:
            "developers.moengage.com iOS \"Custom Notification Handling\" (moengage.silentPush, uninstall "
            + "tracking); github.com/moengage/MoEngage-iOS-SDK MoEngageMessaging.xcframework "
            + "(MoEngageMessagingConstants.PushPayloadKeys: app_extra, moe_deeplink, screenName)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Hi","body":"New arrivals"},"mutable-content":1},
                 "app_extra":{"moe_deeplink":"{link}","screenName":"","screenData":{"source":"push"}},
                 "moengage":{"cid":"64ca642685373efd30dced83_F_T_IA_AB_1_P_0_L_0","app_id":"APPID"}}
                """#,
            link: $0
        )
    }
}
