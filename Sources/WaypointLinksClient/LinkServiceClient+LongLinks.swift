import Foundation

extension LinkServiceClient {
    /// The deep link of a long Firebase Dynamic Link on this service's domain
    /// (`https://links.example.com/?link=…`), read here as the service reads it
    /// (``LongDynamicLink``), with no request: nil for any other link, and for one at the domain's
    /// root without a readable `link`.
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
        guard case .long(.success(let deepLink)) = serviceLink(in: text) else { return nil }
        return deepLink
    }

    /// The long link in `text`, at this service's root with `query`: nil without a `link` item,
    /// else its deep link or why its `link` cannot be read (`?link=&link=…`, whose first `link` is
    /// empty). The second is a long link all the same, to report: handed to the app's routes, a
    /// route at the root would take it and drop its `link`.
    func longLink(in text: String, query: String?) -> ServiceLink? {
        guard let query, query.split(separator: "&").contains(where: { LongDynamicLink.name(of: String($0)) == "link" })
        else { return nil }
        // Up to the fragment, as a browser sends it: the service never reads one.
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let sent = trimmed.firstIndex(of: "#").map { String(trimmed[..<$0]) } ?? trimmed
        do {
            return .long(.success(try LongDynamicLink(sent).deepLink))
        } catch {
            return .long(.failure(error))
        }
    }
}
