import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension LinkServiceClient {
    /// The longest code the service makes or accepts.
    static let maxCodeLength = 64

    /// How long one request for a short link waits for data: someone tapped the link and waits
    /// for the screen, so it fails soon rather than after URLSession's minute.
    public static let resolveTimeout: TimeInterval = 5

    /// The code of a short link of this service (`https://<domain>/<code>`, with any query), as the
    /// service stores it (lowercased), or nil for any other link: another host, user info, a port
    /// other than the scheme's, a path of more than one segment (an empty one is none, as the
    /// service routes the path: `/spring/` is `spring`), a code with a character the service never
    /// writes (`%`, `.`). `http` is taken too, as the system takes it for a universal
    /// link; the service is asked over ``serviceURL`` all the same.
    ///
    /// ```swift
    /// let service = LinkServiceClient(domain: "links.example.com")
    /// service.code(inShortLink: "https://links.example.com/Spring?utm_source=news")   // "spring"
    /// service.code(inShortLink: "https://links.example.com/books/42")                 // nil
    /// service.code(inShortLink: "https://example.com/spring")                         // nil
    /// ```
    public func code(inShortLink text: String) -> String? {
        guard case .short(let code, _) = serviceLink(in: text) else { return nil }
        return code
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
    /// - Throws: ``ShortLinkError/notFound(_:)`` when the service says no link has the code on this
    ///   domain (or the text is no short link of it), ``ShortLinkError/expired(_:)`` when the link
    ///   expired, ``ShortLinkError/unavailable(_:)`` when the service could not be asked or failed
    ///   (offline, 5xx, 429, a 404 that is not the service's own answer): worth asking again.
    public func resolve(shortLink text: String) async throws(ShortLinkError) -> ResolvedShortLink {
        guard case .short(let code, let query) = serviceLink(in: text),
            var url = URLComponents(url: serviceURL, resolvingAgainstBaseURL: false)
        else {
            throw .notFound("'\(text.prefix(200))' is not a short link of \(domain).")
        }
        // The code and the query as the link has them: the code is letters, digits, `-` and `_`
        // only, so the request reaches `/api/resolve/` and nothing else of the service.
        let base =
            url.percentEncodedPath.hasSuffix("/") ? String(url.percentEncodedPath.dropLast()) : url.percentEncodedPath
        url.percentEncodedPath = base + "/api/resolve/" + code
        url.percentEncodedQuery = query
        url.fragment = nil
        guard let address = url.url else {
            throw .notFound("'\(text.prefix(200))' is not a short link of \(domain).")
        }
        var request = URLRequest(url: address)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.timeoutInterval = Self.resolveTimeout
        switch await ask(request, for: ResolvedShortLink.self) {
        case .answered(let resolved): return resolved
        case .unreachable(let message): throw .unavailable(message)
        case .unreadable: throw .unavailable("The link service answered 200 with a body that is not a link.")
        // Only the service's own answer: a 404 from a proxy that does not pass `/api/resolve` on,
        // or a wrong `serviceURL`, would otherwise turn every short link into "not found".
        case .failed(404, "notFound", let message), .failed(400, "invalidCode", let message): throw .notFound(message)
        case .failed(410, "expired", let message): throw .expired(message)
        case .failed(let status, _, let message): throw .unavailable("The link service answered \(status): \(message)")
        }
    }

    /// What a link of this service's domain is to the service, from one read of the text.
    enum ServiceLink: Sendable, Equatable {
        /// A short link: its code, lowercased as the service stores it, and its query, still
        /// percent-encoded (nil when empty).
        case short(code: String, query: String?)
        /// A long link at the domain's root: its deep link, or why its `link` cannot be read.
        case long(Result<String, LongDynamicLinkError>)
    }

    /// `text` as a short or long link of this service; nil for any other link (another host, a
    /// path of more than one segment, a code with a character the service never writes, the root
    /// without a `link` item).
    func serviceLink(in text: String) -> ServiceLink? {
        guard let link = onDomain(text), let segments = Self.pathSegments(of: link) else { return nil }
        // Long links are served at the domain's root only, as the service answers them.
        guard let code = segments.first else { return longLink(in: text, query: link.percentEncodedQuery) }
        guard segments.count == 1, code.utf8.count <= Self.maxCodeLength, code.utf8.allSatisfy(Self.isCodeByte) else {
            return nil
        }
        return .short(code: code.lowercased(), query: link.percentEncodedQuery.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The path's segments as the service routes them: an empty one (`//spring`, `/spring/`) is
    /// skipped, so the link a browser opens is the link the app opens. Nil for a path that does
    /// not start at the root.
    static func pathSegments(of link: URLComponents) -> [Substring]? {
        let path = link.percentEncodedPath
        guard path.isEmpty || path.hasPrefix("/") else { return nil }
        return path.split(separator: "/")
    }

    /// `text` read as a URL when it is a web link on this service's domain, as the system opens a
    /// universal link: `https` or `http`, the scheme's own port if any, no user info, the host in any
    /// case and with or without its trailing dot. Only its path and query are read: a browser never
    /// sends the fragment, so the service never reads it.
    private func onDomain(_ text: String) -> URLComponents? {
        guard let link = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let scheme = link.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let written = link.percentEncodedHost, written.utf8.allSatisfy({ $0 < 0x80 }),
            link.port == nil || link.port == (scheme == "https" ? 443 : 80),
            link.user == nil, link.password == nil
        else { return nil }
        // Foundation reads a host as a browser does (IDNA): where it leaves one in Unicode, that is
        // no host of the service's, so it is lowered as ASCII and a look-alike letter stays itself.
        var host = String(decoding: Self.asciiLowercased(written.utf8), as: UTF8.self)
        // `links.example.com.` is the same name, fully qualified.
        if host.hasSuffix(".") { host.removeLast() }
        return host == domain ? link : nil
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
