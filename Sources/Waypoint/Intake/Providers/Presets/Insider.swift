extension NotificationProvider {
    /// Insider: a push (`source` is `Insider`) carries the deep link the marketer chose as a
    /// top-level key: `ins_dl_url_scheme` (the app's scheme), `ins_dl_internal` (a web link the
    /// app opens) or `ins_dl_external` (a web link for the browser). An in-app message test push
    /// (`inapp_test`) is Insider's own. The SDK is closed source; the key names are the ones
    /// Insider's dashboard sends, as apps built on it read them.
    public static let insider = NotificationProvider(
        name: "insider",
        title: "Insider",
        links: ["ins_dl_url_scheme", "ins_dl_internal", "ins_dl_external"].map { Location(PayloadPath($0)) },
        internalMarkers: [InternalMarker(PayloadPath("inapp_test"), .value)],
        reference:
            "academy.insiderone.com \"Send Targeted App Pushes\" (ios.deep_link key/values); github.com/useinsider/"
            + "ReactNativeDemo ios/ReactNativeDemo/AppDelegate.mm (source Insider, inapp_test); "
            + "github.com/useinsider/cordova-plugin-insider src/ios/insider.m (deep links at the top level)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Hi","body":"Deal"},"mutable-content":1},"source":"Insider","ins_dl_url_scheme":"{link}"}
                """#,
            link: $0
        )
    }
}
