import Foundation
@_spi(WaypointLinks) import WaypointLinksClient

/// A long Firebase Dynamic Link, as a team leaving Firebase exported them: its parameters read into
/// the link Waypoint Links stores.
///
/// | parameter | becomes |
/// | --- | --- |
/// | `link` | `deepLink` (it must resolve to a route, as always), and `fallbacks.web` when it is `https`, since a Dynamic Link sent desktops there |
/// | `isi`, `apn` | `fallbacks.appStoreID`, `fallbacks.playPackage` |
/// | `ifl`, `afl`, `ofl` | `fallbacks.ios`, `fallbacks.android`, `fallbacks.desktop` |
/// | `st`, `sd`, `si` | the preview's title, description and image (the import leaves out an image off the manifest's domains, and counts it) |
/// | `utm_*` | added to the link's query, so the app and the web page receive them as before |
/// | `ct` | `utm_campaign`, when the link has none: the App Store link carries it as `ct` again (with the service's `--app-store-provider-token`), and Google Play's referrer as `utm_campaign`; else counted as passed over |
///
/// Any other parameter (`ibi`, `efr`, `ius`, `pt`…) has nothing to map to: it is counted in the
/// import's report, not dropped unseen. (`pt` is the team's, one for every link: the service takes
/// it once, as `--app-store-provider-token`.)
///
/// ```swift
/// let link = try DynamicLink(
///     "https://x.page.link/?link=https%3A%2F%2Fread.example.com%2Fb%2F42&isi=123&utm_source=news")
/// link.input.deepLink           // "https://read.example.com/b/42?utm_source=news"
/// link.input.fallbacks?.appStoreID  // "123"
/// ```
struct DynamicLink {
    let input: LinkInput
    /// Parameters with nothing to map to, in the order they came.
    let ignored: [String]

    /// Parameters read into the link or its deep link, so never reported as passed over
    /// (``LongDynamicLink`` reads `link`, `utm_*` and `ct` into the deep link).
    static let mapped: Set<String> = ["isi", "apn", "ifl", "afl", "ofl", "st", "sd", "si", "ct"]

    /// - Throws: ``LinkServiceError`` `invalidRequest` for text that is no URL or has no `link`.
    init(_ text: String, code: String? = nil, domain: String? = nil) throws(LinkServiceError) {
        // The app reads a long link that opened it with the same type, so both give one deep link.
        let read: LongDynamicLink
        do {
            read = try LongDynamicLink(text)
        } catch {
            throw LinkServiceError(.invalidRequest, error.message)
        }
        func value(_ name: String) -> String? { read.parameters[name].flatMap { $0.isEmpty ? nil : $0 } }
        let deepLink = read.deepLink
        let isWeb = URLComponents(string: deepLink)?.scheme?.lowercased() == "https"
        var input = LinkInput(code: code, domain: domain, deepLink: deepLink)
        let fallbacks = ShortLink.Fallbacks(
            appStoreID: value("isi"),
            playPackage: value("apn"),
            web: isWeb ? deepLink : nil,
            ios: value("ifl"),
            android: value("afl"),
            desktop: value("ofl")
        )
        if fallbacks != ShortLink.Fallbacks() { input.fallbacks = fallbacks }
        let preview = ShortLink.Preview(title: value("st"), description: value("sd"), imageURL: value("si"))
        if preview != ShortLink.Preview() { input.preview = preview }
        self.input = input
        // Where the link names its `utm_campaign`, `ct` is reported as passed over, not dropped unseen.
        self.ignored =
            read.parameterNames.filter { !Self.mapped.contains($0) }
            + (read.campaignTokenPassedOver ? ["ct (the link names its utm_campaign)"] : [])
    }
}

extension LinkInput {
    /// Leaves out a preview image a link here may not show: one off the manifest's domains and, for
    /// an import, its `shortLinks.imageHosts` (Firebase let a Dynamic Link's image be anywhere). A
    /// long link is anyone's to write, so its image must be on the manifest's own domains: an image
    /// host such as Firebase Storage serves every project's files. The rest of the link is kept.
    /// Returns whether an image was left out.
    mutating func leaveOutForeignImage(_ rules: LinkRules, allowingImageHosts: Bool) -> Bool {
        guard let image = preview?.imageURL, !rules.allowsPreviewImage(image, onImageHosts: allowingImageHosts) else {
            return false
        }
        preview?.imageURL = nil
        if preview == ShortLink.Preview() { preview = nil }
        return true
    }
}
