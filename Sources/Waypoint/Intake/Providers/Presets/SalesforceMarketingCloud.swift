extension NotificationProvider {
    /// Salesforce Marketing Cloud MobilePush: the OpenDirect link at the top-level `_od`, else the
    /// CloudPage link at `_x` (`_sid` is `SFMC`). Buttons come from categories the app registers.
    /// The SDK treats any push with `aps.content-available` as silent; that key also rides on
    /// visible pushes of other senders, so it is no marker here. The SDK is closed source: the keys
    /// are from Salesforce's Cordova plugin.
    public static let salesforceMarketingCloud = NotificationProvider(
        name: "salesforceMarketingCloud",
        title: "Salesforce Marketing Cloud",
        links: [Location(PayloadPath("_od")), Location(PayloadPath("_x"))],
        reference:
            "github.com/salesforce-marketingcloud/MC-Cordova-Plugin src/ios/MCCordovaPlugin.m (_od openDirect, "
            + "_x cloudPage) and tests/ios/MCCordovaPluginLib/Tests/Tests.m; salesforce-marketingcloud.github.io/"
            + "MarketingCloudSDK-iOS (URL handling, OpenDirect)"
    ) {
        sample(
            json: #"""
                {"_sid":"SFMC","_m":"messageId","_od":"{link}",
                 "aps":{"alert":{"body":"Alert Body","title":"Alert Title","subtitle":"Alert Subtitle"}}}
                """#,
            link: $0
        )
    }
}
