import Foundation

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

    /// Parameters read into the link; `utm_*` are read too.
    static let mapped: Set<String> = ["link", "isi", "apn", "ifl", "afl", "ofl", "st", "sd", "si", "ct"]

    /// - Throws: ``LinkServiceError`` `invalidRequest` for text that is no URL or has no `link`.
    init(_ text: String, code: String? = nil, domain: String? = nil) throws(LinkServiceError) {
        guard let url = URLComponents(string: Self.escaped(text)), url.scheme != nil else {
            throw LinkServiceError(.invalidRequest, "'\(Self.shortened(text))' is not a URL.")
        }
        var values: [String: String] = [:]
        // Kept encoded as they came: they are added to the link's query as they are.
        var utm: [String] = []
        var ignored: [String] = []
        for pair in (url.percentEncodedQuery ?? "").split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.formDecoded(parts[0])
            if name.hasPrefix("utm_") {
                utm.append(String(pair))
            } else if Self.mapped.contains(name) {
                // The first of a repeated parameter counts, as Firebase read it.
                if values[name] == nil { values[name] = parts.count > 1 ? Self.formDecoded(parts[1]) : "" }
            } else {
                ignored.append(name)
            }
        }
        func value(_ name: String) -> String? { values[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let link = values["link"], !link.isEmpty else {
            throw LinkServiceError(
                .invalidRequest,
                "'\(Self.shortened(text))' has no 'link' parameter: a long Dynamic Link names its deep link there."
            )
        }
        // App Store Connect's campaign token names the campaign where no `utm_campaign` does; where
        // one does, `ct` is reported as passed over, not dropped unseen.
        if let campaign = value("ct") {
            let named = utm.map(Self.name(of:)) + (URLComponents(string: link)?.queryItems ?? []).map(\.name)
            if named.contains("utm_campaign") {
                ignored.append("ct (the link names its utm_campaign)")
            } else if let encoded = campaign.addingPercentEncoding(withAllowedCharacters: QueryPassthrough.unreserved) {
                utm.append("utm_campaign=" + encoded)
            }
        }
        let deepLink = Self.adding(utm, to: link)
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
        self.ignored = ignored
    }

    /// What a long link's text may hold unescaped, from its scheme to the end of its query, and `%`
    /// of what is escaped. Not `#`: a Dynamic Link's own fragment meant nothing to Firebase, and one
    /// left unescaped in `link=…/b/42#ch2&isi=…` belongs to the deep link, not the end of the query.
    static let urlCharacters = CharacterSet.urlQueryAllowed.union(CharacterSet(charactersIn: "%"))

    /// `text` with what a URL cannot hold escaped, leaving each `%XX` as it is: the `|`, `{`, `^`,
    /// `\`, `#`, spaces and accents that browsers and hand-written files leave unescaped, and a `%`
    /// that starts no `%XX` (`50%off`). Each then reads as the character it is; else Foundation
    /// escapes the whole text, `%XX` too, and no value decodes.
    static func escaped(_ text: String) -> String {
        let bytes = Array(text.utf8)
        func isHex(_ index: Int) -> Bool {
            index < bytes.count && (bytes[index] < 0x80 && Character(Unicode.Scalar(bytes[index])).isHexDigit)
        }
        var fixed: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            let stray = byte == UInt8(ascii: "%") && !(isHex(index + 1) && isHex(index + 2))
            fixed += stray ? Array("%25".utf8) : [byte]
        }
        let text = String(decoding: fixed, as: UTF8.self)
        return text.addingPercentEncoding(withAllowedCharacters: urlCharacters) ?? text
    }

    /// A query's name or value as a form encodes it: `+` for a space (Firebase's own examples write
    /// `st=Spring+sale`), `%XX` for a byte.
    static func formDecoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// `link` with the campaign parameters (`name=value`, encoded) whose names it does not set
    /// itself, appended to its query as they are: the rest of the link is left byte for byte.
    static func adding(_ utm: [String], to link: String) -> String {
        guard !utm.isEmpty, let components = URLComponents(string: link) else { return link }
        let present = Set((components.queryItems ?? []).map(\.name))
        let added = utm.filter { !present.contains(name(of: $0)) }
        guard !added.isEmpty else { return link }
        let fragment = link.firstIndex(of: "#")
        let head = fragment.map { String(link[..<$0]) } ?? link
        let tail = fragment.map { String(link[$0...]) } ?? ""
        let separator = head.contains("?") ? (head.hasSuffix("?") || head.hasSuffix("&") ? "" : "&") : "?"
        return head + separator + added.joined(separator: "&") + tail
    }

    /// The name of a query item as written (`utm_source=news`, `utm%5Fsource`), decoded.
    static func name(of item: String) -> String {
        formDecoded(item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0])
    }

    /// A long line cut for a message.
    static func shortened(_ text: String) -> String { text.count > 120 ? text.prefix(117) + "…" : text }
}

extension LinkInput {
    /// Leaves out a preview image a link here may not show, one off the manifest's domains: Firebase
    /// let a Dynamic Link's image be anywhere (Firebase Storage, a CDN). The rest of the link is
    /// kept. Returns whether an image was left out.
    mutating func leaveOutForeignImage(_ rules: LinkRules) -> Bool {
        guard let image = preview?.imageURL, !rules.allowsPreviewImage(image) else { return false }
        preview?.imageURL = nil
        if preview == ShortLink.Preview() { preview = nil }
        return true
    }
}
