import Foundation

extension LinkServiceClient {
    /// The deep link of a long Firebase Dynamic Link on this service's domain
    /// (`https://links.example.com/?link=…`), read here as the service reads it
    /// (``LongDynamicLink``), with no request: nil for any other link, and for one at the domain's
    /// root without a `link`.
    ///
    /// iOS opens the app for one when the manifest's `shortLinks.longLinks` is on: the short-link
    /// domain's association file then claims `/` with a `link` query item.
    ///
    /// ```swift
    /// let service = LinkServiceClient(domain: "links.example.com")
    /// service.deepLink(inLongLink: "https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F7&utm_source=news")
    /// // "readapp://books/7?utm_source=news"
    /// service.deepLink(inLongLink: "https://links.example.com/spring")   // nil: a short link
    /// service.deepLink(inLongLink: "https://example.com/?link=readapp%3A%2F%2Fbooks%2F7")   // nil: another host
    /// ```
    public func deepLink(inLongLink text: String) -> String? {
        // Long links are served at the domain's root only, as the service answers them.
        guard let link = onDomain(text), link.percentEncodedPath.isEmpty || link.percentEncodedPath == "/",
            link.percentEncodedQuery?.isEmpty == false
        else { return nil }
        return try? LongDynamicLink(text.trimmingCharacters(in: .whitespacesAndNewlines)).deepLink
    }
}
