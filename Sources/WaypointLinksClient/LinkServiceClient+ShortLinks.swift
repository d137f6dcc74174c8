import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension LinkServiceClient {
    /// The longest code the service makes or accepts.
    static let maxCodeLength = 64

    /// The code of a short link of this service (`https://<domain>/<code>`, with any query), or nil
    /// for any other link: another host, a port, user info, a path of more than one segment, a
    /// code with a character the service never writes (`%`, `.`).
    ///
    /// ```swift
    /// let service = LinkServiceClient(domain: "links.example.com")
    /// service.code(inShortLink: "https://links.example.com/spring?utm_source=news")   // "spring"
    /// service.code(inShortLink: "https://links.example.com/books/42")                 // nil
    /// service.code(inShortLink: "https://example.com/spring")                         // nil
    /// ```
    public func code(inShortLink text: String) -> String? {
        shortLink(in: text)?.code
    }

    /// The deep link behind a short link that opened the app (`GET /api/resolve/<code>`), with the
    /// query it was opened with passed on as the service passes it to every target
    /// (`?utm_source=news`). The visit is counted as the app's.
    ///
    /// ```swift
    /// let opened = try await service.resolve(shortLink: "https://links.example.com/spring?utm_source=news")
    /// opened.deepLink   // "readapp://books/42?utm_source=news"
    /// opened.route      // "book"
    /// ```
    ///
    /// - Throws: ``ShortLinkError/notFound(_:)`` when no link has the code on this domain (or the
    ///   text is no short link of it), ``ShortLinkError/expired(_:)`` when the link expired,
    ///   ``ShortLinkError/unavailable(_:)`` when the service could not be asked or failed
    ///   (offline, 5xx, 429): worth asking again.
    public func resolve(shortLink text: String) async throws(ShortLinkError) -> ResolvedShortLink {
        guard let (code, query) = shortLink(in: text) else {
            throw .notFound("'\(text.prefix(200))' is not a short link of \(domain).")
        }
        let base =
            serviceURL.absoluteString.hasSuffix("/") ? serviceURL.absoluteString : serviceURL.absoluteString + "/"
        guard let url = URL(string: base + "api/resolve/" + code + (query.map { "?" + $0 } ?? "")) else {
            throw .notFound("'\(text.prefix(200))' is not a short link of \(domain).")
        }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        // Someone tapped the link and waits for the screen: fail soon rather than after a minute.
        request.timeoutInterval = 10
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .unavailable("The link service could not be reached: \(error.localizedDescription)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if status == 200 {
            guard let resolved = try? JSONDecoder().decode(ResolvedShortLink.self, from: data) else {
                throw .unavailable("The link service answered 200 with a body that is not a link.")
            }
            return resolved
        }
        let message = (try? JSONDecoder().decode(ServiceFailure.self, from: data))?.error.message ?? "HTTP \(status)"
        switch status {
        // 400: a code the service would never make (`api`, one too long): no link has it.
        case 400, 404: throw .notFound(message)
        case 410: throw .expired(message)
        default: throw .unavailable("The link service answered \(status): \(message)")
        }
    }

    /// The code and the query, still percent-encoded, of a short link of this service.
    private func shortLink(in text: String) -> (code: String, query: String?)? {
        guard let link = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            link.scheme?.lowercased() == "https", link.percentEncodedHost?.lowercased() == domain,
            link.port == nil, link.user == nil, link.password == nil,
            link.percentEncodedPath.hasPrefix("/")
        else { return nil }
        let code = link.percentEncodedPath.dropFirst()
        guard !code.isEmpty, code.utf8.count <= Self.maxCodeLength, code.utf8.allSatisfy(Self.isCodeByte) else {
            return nil
        }
        return (String(code), link.percentEncodedQuery.flatMap { $0.isEmpty ? nil : $0 })
    }
}

/// The deep link behind a short link, as the service answers it.
///
/// ```swift
/// let opened = try await service.resolve(shortLink: "https://links.example.com/spring")
/// opened.code       // "spring"
/// opened.deepLink   // "readapp://books/42"
/// opened.route      // "book"
/// ```
public struct ResolvedShortLink: Sendable, Hashable, Codable {
    /// The short link's code, as the service stores it (lowercased).
    public var code: String
    /// The deep link to hand the dispatcher, with the query the short link was opened with.
    public var deepLink: String
    /// The name of the manifest route the deep link was made for.
    public var route: String

    /// A resolved short link, as the service answers it.
    public init(code: String, deepLink: String, route: String) {
        self.code = code
        self.deepLink = deepLink
        self.route = route
    }
}

/// Why a short link gave no deep link.
///
/// ```swift
/// do {
///     _ = try await service.resolve(shortLink: "https://links.example.com/old")
/// } catch .expired(let message) {
///     // "The link 'old' has expired."
/// } catch {
///     // .notFound, .unavailable
/// }
/// ```
public enum ShortLinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No link has the code on this domain (never made, or deleted), or the text is no short link
    /// of the service. The same link may still be one of the app's own routes.
    case notFound(String)
    /// The link is past its expiry.
    case expired(String)
    /// The service could not be asked, or failed: asking later may work.
    case unavailable(String)

    public var description: String {
        switch self {
        case .notFound(let message), .expired(let message), .unavailable(let message): message
        }
    }

    /// Whether asking again may give another answer: only when the service could not answer.
    var isWorthAskingAgain: Bool {
        if case .unavailable = self { return true }
        return false
    }
}
