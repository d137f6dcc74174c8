extension NotificationProvider {
    /// Braze: the tap's link at the top-level `ab_uri`; uninstall-tracking and test-trigger pushes
    /// are Braze's own. (Where a button's own URI sits in the device payload is not documented:
    /// Braze's buttons come from categories its SDK registers.)
    public static let braze = NotificationProvider(
        name: "braze",
        title: "Braze",
        links: [Location(PayloadPath("ab_uri"))],
        internalMarkers: [
            InternalMarker(PayloadPath("appboy_uninstall_tracking"), .flag),
            InternalMarker(PayloadPath("ab_push_fetch_test_triggers_key"), .flag),
        ],
        reference:
            "braze.com/docs developer_guide/sdk_integration/reading_verbose_logs (ab_uri); "
            + "github.com/braze-inc/braze-swift-sdk Sources/BrazeKitCompat/AppboyKit/ABKPushUtils.m "
            + "(ABKUninstallTrackingPushPayloadKey, ABKFetchTestTriggerPushPayloadKey)"
    ) {
        sample(
            json: #"{"aps":{"alert":{"title":"Title","body":"Body"}},"ab":{"c":"campaign"},"ab_uri":"{link}"}"#,
            link: $0
        )
    }
}
