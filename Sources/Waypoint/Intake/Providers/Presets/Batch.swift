extension NotificationProvider {
    /// Batch: the deep link at `com.batch.l`. A push with a mobile landing (`com.batch.ld`, or
    /// `com.batch.ld2`) is Batch's own: its SDK shows the landing instead of opening the link.
    /// Buttons come from categories the app registers.
    public static let batch = NotificationProvider(
        name: "batch",
        title: "Batch",
        links: [Location(PayloadPath("com.batch", "l"))],
        internalMarkers: [
            InternalMarker(PayloadPath("com.batch", "ld"), .value),
            InternalMarker(PayloadPath("com.batch", "ld2"), .value),
        ],
        reference:
            "github.com/BatchLabs/Batch-iOS-SDK Sources/Batch/Supporting Files/Defined.h (kWebserviceKeyPushBatchData, "
            + "kWebserviceKeyPushDeeplink), BAPushCenter.m (deeplinkFromUserInfo), BAMessagingCenter.m "
            + "(pushOpenedNotification: a landing replaces the link), BatchMessaging.m (ld, ld2)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Hi","body":"Hello"}},"hip":"hop",
                 "com.batch":{"t":"t","od":{"n":"925a4e70-e13c-11e9-bbd4-cf7d44429d5e"},"i":"Testtransac4-1569598588","l":"{link}"}}
                """#,
            link: $0
        )
    }
}
