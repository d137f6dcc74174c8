extension NotificationProvider {
    /// Insider: a push (`source` is `Insider`) carries the deep link the marketer chose as a
    /// top-level key: `ins_dl_url_scheme` (the app's scheme), `ins_dl_internal` (a web link the
    /// app opens) or `ins_dl_external` (a web link for the browser). An in-app message test push
    /// (`inapp_test`, handed to the SDK in Insider's own demo app) is Insider's own. Less sure than
    /// the others: the SDK is closed and Insider's public documentation names no payload keys, so
    /// the link keys are the ones apps built on Insider read.
    public static let insider = NotificationProvider(
        name: "insider",
        title: "Insider",
        links: ["ins_dl_url_scheme", "ins_dl_internal", "ins_dl_external"].map { Location(PayloadPath($0)) },
        internalMarkers: [InternalMarker(PayloadPath("inapp_test"), .value)],
        reference:
            "github.com/useinsider/ReactNativeDemo ios/ReactNativeDemo/AppDelegate.mm (source Insider, inapp_test); "
            + "github.com/useinsider/cordova-plugin-insider src/ios/insider.m (deep links at the top level); "
            + "ins_dl_url_scheme, ins_dl_internal, ins_dl_external: as apps built on Insider read them (not in "
            + "Insider's public documentation)"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Hi","body":"Deal"},"mutable-content":1},"source":"Insider","ins_dl_url_scheme":"{link}"}
                """#,
            link: $0
        )
    }
}
