import Foundation
import Waypoint

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to a Waypoint Links service: claims the deferred link a click's token stands for, and
/// asks for the deep link behind a short link that opened the app.
///
/// ```swift
/// let service = LinkServiceClient(domain: "links.example.com")
/// service.token(inClaimURL: "https://links.example.com/c/AQE…")   // "AQE…"
/// let claimed = try await service.claim(token: "AQE…")            // .deepLink "readapp://books/42"
/// let opened = try await service.resolve(shortLink: "https://links.example.com/spring")
/// opened.deepLink                                                  // "readapp://books/42"
/// ```
public struct LinkServiceClient: Sendable {
    /// The short-link domain: claim URLs on any other host are not the service's.
    public let domain: String
    /// Where requests go: `https://<domain>` unless given (a test server, a staging host).
    public let serviceURL: URL
    let session: URLSession

    /// A client of the service on `domain`, reached at `serviceURL` when given. The domain may be
    /// written as its URL (a scheme, a trailing `/`) and in any case:
    /// `LinkServiceClient(domain: "https://Links.Example.com/").domain` is `"links.example.com"`.
    public init(domain: String, serviceURL: URL? = nil, session: URLSession = .shared) {
        let domain = Self.host(of: domain)
        self.domain = domain
        self.serviceURL = serviceURL ?? URL(string: "https://" + domain) ?? URL(fileURLWithPath: "/")
        self.session = session
    }

    /// The host alone, lowercased: claim URLs are compared with `https://<domain>/c/` exactly, so a
    /// domain pasted as a URL (`https://links.example.com/`) would otherwise match no claim URL,
    /// and every first launch would report the pasteboard's claim URL as someone else's.
    static func host(of domain: String) -> String {
        var host = domain.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        for scheme in ["https://", "http://"] where host.hasPrefix(scheme) { host.removeFirst(scheme.count) }
        while host.hasSuffix("/") { host.removeLast() }
        // `links.example.com.` is the same name, fully qualified; links are compared without the dot.
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }

    /// The longest claim token read from a claim URL: the longest the service issues (a long
    /// link's, carrying a deep link of up to 2,048 bytes, is about 2,780 characters), with room to
    /// spare, and still a bound on what the pasteboard may hand over.
    static let maxTokenLength = 4_096

    /// The token in a claim URL of this service (`https://<domain>/c/<token>`), or nil for any
    /// other text: the pasteboard may hold anything.
    ///
    /// The URL must be written exactly as the service writes it — scheme and host in any case, and
    /// nothing else: no port, no user info, no percent-escape (`links%2Eexample.com`, `/c%2F…`), no
    /// query or fragment. A URL parser reads those as the same host or path; this one refuses them,
    /// so a look-alike never passes for the service's own URL.
    public func token(inClaimURL text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines).utf8
        let origin = Array(("https://" + domain).utf8)
        let rest = trimmed.dropFirst(origin.count)
        // Compared byte for byte, ASCII letters in any case: Unicode lowercasing reads the Kelvin
        // sign (U+212A) as `k`, so `lin\u{212A}s.example.com` would pass for the service's host.
        guard Self.asciiLowercased(trimmed.prefix(origin.count)) == origin, rest.starts(with: "/c/".utf8) else {
            return nil
        }
        let token = rest.dropFirst(3)
        guard !token.isEmpty, token.count <= Self.maxTokenLength, token.allSatisfy(Self.isCodeByte) else { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    /// `bytes` with ASCII capitals lowered, every other byte as it is.
    static func asciiLowercased(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        bytes.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }
    }

    /// Why `domain` (as ``domain`` holds it) cannot be a service's domain, or nil: it must be one
    /// host name, written alone; a wildcard (`*.example.com`) names no host a link could be on.
    /// One rule for every type that takes a client, checked when that type is made.
    static func domainProblem(_ domain: String) -> String? {
        guard domain.hasPrefix("*.") || DomainPattern.problem(domain) != nil else { return nil }
        return "The link service's domain '\(domain)' is not a host name; write the short-link domain alone, "
            + "as links.example.com."
    }

    /// The clients a type that takes several (`what`, one a short-link domain) is made with: at
    /// least one, each on a host name.
    static func check(_ services: [LinkServiceClient], for what: String) throws(WaypointError) {
        guard !services.isEmpty else {
            throw WaypointError(
                .invalidConfiguration,
                message: "\(what) needs at least one service: give the LinkServiceClient of each short-link domain."
            )
        }
        for service in services {
            if let problem = domainProblem(service.domain) {
                throw WaypointError(.invalidConfiguration, input: service.domain, message: problem)
            }
        }
    }

    /// Whether `byte` may stand in a code or a token: ASCII letters, digits, `-` and `_`, which the
    /// service writes unescaped. Anything else (`%`, `/`, `.`, a look-alike letter) could reach
    /// another path or pass for one.
    static func isCodeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// How long a claim waits for data: on the first launch, with time for a slow network.
    static let claimTimeout: TimeInterval = 15

    /// Claims `token` (`POST /api/claims`): the link it stands for, once.
    ///
    /// - Throws: ``ClaimError/refused(_:message:)`` for a definite "no" (already claimed, expired,
    ///   not issued by this service, link deleted), ``ClaimError/unavailable(_:)`` when the
    ///   service could not be asked or failed (offline, 5xx, 429): worth asking again.
    public func claim(token: String) async throws(ClaimError) -> ClaimedLink {
        var request = URLRequest(url: serviceURL.appendingPathComponent("api/claims"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.timeoutInterval = Self.claimTimeout
        request.httpBody = try? JSONEncoder().encode(["token": token])
        switch await ask(request, for: ClaimedLink.self) {
        case .answered(let claimed): return claimed
        case .unreachable(let message): throw .unavailable(message)
        case .unreadable: throw .unavailable("The link service answered 200 with a body that is not a claim.")
        // A definite "no" only in the service's own words: a proxy's or a CDN's 400 or 410 page
        // would otherwise lose the deferred link for good, where asking on the next launch works.
        case .failed(409, "alreadyClaimed", let message): throw .refused(.alreadyClaimed, message: message)
        case .failed(410, "expired", let message): throw .refused(.expired, message: message)
        case .failed(404, "claimInvalid", let message): throw .refused(.notIssued, message: message)
        case .failed(404, "notFound", let message): throw .refused(.linkDeleted, message: message)
        case .failed(400, "invalidRequest", let message), .failed(413, "tooLarge", let message):
            throw .refused(.badRequest, message: message)
        case .failed(let status, _, let message): throw .unavailable("The link service answered \(status): \(message)")
        }
    }

    /// What the service answered a request.
    enum Answer<Value> {
        /// A 200 with the value.
        case answered(Value)
        /// No answer: offline, a timeout, a name that does not resolve.
        case unreachable(String)
        /// A 200 whose body is not the value (a captive portal's page).
        case unreadable
        /// Any other status, with the service's error code and message when the body is its JSON
        /// error (`{"error": {"code": "notFound", "message": "…"}}`), else `HTTP <status>`.
        case failed(status: Int, code: String?, message: String)
    }

    /// Sends `request` and reads the answer: one way for every call the client makes.
    func ask<Value: Decodable>(_ request: URLRequest, for _: Value.Type) async -> Answer<Value> {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            return .unreachable("The link service could not be reached: \(error.localizedDescription)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if status == 200 {
            guard let value = try? JSONDecoder().decode(Value.self, from: data) else { return .unreadable }
            return .answered(value)
        }
        let failure = try? JSONDecoder().decode(ServiceFailure.self, from: data)
        return .failed(status: status, code: failure?.error.code, message: failure?.error.message ?? "HTTP \(status)")
    }

    /// The service's JSON error body: `{"error": {"code": "notFound", "message": "…"}}`.
    private struct ServiceFailure: Decodable {
        struct Detail: Decodable {
            let code: String
            let message: String
        }

        let error: Detail
    }
}

/// What a claim gives: the deep link to hand the dispatcher, with where it came from.
///
/// ```swift
/// let claimed = try await service.claim(token: token)
/// claimed.deepLink   // "readapp://books/42"
/// claimed.route      // "books.detail"
/// ```
public struct ClaimedLink: Sendable, Hashable, Codable {
    /// The short link's code (`abc` in `https://links.example.com/abc`).
    public var code: String
    /// The deep link to hand the dispatcher: `"readapp://books/42"`.
    public var deepLink: String
    /// The name of the route the link was made for.
    public var route: String
    /// `iOS` or `android`: where the click that issued the token came from.
    public var platform: String

    /// A claimed link, as the service answers it.
    public init(code: String, deepLink: String, route: String, platform: String) {
        self.code = code
        self.deepLink = deepLink
        self.route = route
        self.platform = platform
    }
}

/// Why a claim gave no link.
///
/// ```swift
/// do {
///     _ = try await service.claim(token: token)
/// } catch .refused(.alreadyClaimed, _) {
///     // this install, or another device, claimed it before
/// } catch {
///     // .unavailable: ask again on the next launch
/// }
/// ```
public enum ClaimError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A definite answer: asking again gives the same.
    case refused(Refusal, message: String)
    /// The service could not be asked, or failed: asking later may work.
    case unavailable(String)

    /// Why the service refused a claim: each a definite answer, so the token is not claimed again.
    public enum Refusal: String, Sendable, Hashable {
        /// The token was claimed before (this install claimed it, or another device did).
        case alreadyClaimed
        /// The token is past its lifetime (a day by default), or the link expired.
        case expired
        /// The service did not issue the token: another service's, or damaged.
        case notIssued
        /// The link was deleted after the click.
        case linkDeleted
        /// The request itself was refused (a client bug).
        case badRequest
    }

    public var description: String {
        switch self {
        case .refused(let refusal, let message): "\(refusal.rawValue): \(message)"
        case .unavailable(let message): message
        }
    }

    /// Whether asking again may give another answer: only when the service could not answer.
    var isWorthAskingAgain: Bool {
        if case .unavailable = self { return true }
        return false
    }
}
