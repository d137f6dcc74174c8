import Foundation

/// A long Firebase Dynamic Link, as a team leaving Firebase exported them: its parameters read into
/// the link Waypoint Links stores.
///
/// | parameter | becomes |
/// | --- | --- |
/// | `link` | `deepLink` (it must resolve to a route, as always), and `fallbacks.web` when it is `https`, since a Dynamic Link sent desktops there |
/// | `isi`, `apn` | `fallbacks.appStoreID`, `fallbacks.playPackage` |
/// | `ifl`, `afl`, `ofl` | `fallbacks.ios`, `fallbacks.android`, `fallbacks.desktop` |
/// | `st`, `sd`, `si` | the preview's title, description and image |
/// | `utm_*` | added to the link's query, so the app and the web page receive them as before |
///
/// Any other parameter (`ibi`, `efr`, `ius`…) has nothing to map to: it is counted in the import's
/// report, not dropped unseen.
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
    static let mapped: Set<String> = ["link", "isi", "apn", "ifl", "afl", "ofl", "st", "sd", "si"]

    /// - Throws: ``LinkServiceError`` `invalidRequest` for text that is no URL or has no `link`.
    init(_ text: String, code: String? = nil, domain: String? = nil) throws(LinkServiceError) {
        guard let url = URLComponents(string: text), url.scheme != nil else {
            throw LinkServiceError(.invalidRequest, "'\(Self.shortened(text))' is not a URL.")
        }
        var values: [String: String] = [:]
        var utm: [URLQueryItem] = []
        var ignored: [String] = []
        for item in url.queryItems ?? [] {
            if item.name.hasPrefix("utm_") {
                utm.append(item)
            } else if Self.mapped.contains(item.name) {
                // The first of a repeated parameter counts, as Firebase read it.
                if values[item.name] == nil { values[item.name] = item.value ?? "" }
            } else {
                ignored.append(item.name)
            }
        }
        guard let link = values["link"], !link.isEmpty else {
            throw LinkServiceError(
                .invalidRequest,
                "'\(Self.shortened(text))' has no 'link' parameter: a long Dynamic Link names its deep link there."
            )
        }
        let deepLink = Self.adding(utm, to: link)
        func value(_ name: String) -> String? { values[name].flatMap { $0.isEmpty ? nil : $0 } }
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

    /// `link` with the campaign parameters it does not set itself.
    static func adding(_ utm: [URLQueryItem], to link: String) -> String {
        guard !utm.isEmpty, var components = URLComponents(string: link) else { return link }
        let present = Set((components.queryItems ?? []).map(\.name))
        let added = utm.filter { !present.contains($0.name) }
        guard !added.isEmpty else { return link }
        components.queryItems = (components.queryItems ?? []) + added
        return components.string ?? link
    }

    /// A long line cut for a message.
    static func shortened(_ text: String) -> String { text.count > 120 ? text.prefix(117) + "…" : text }
}
