import Foundation

/// Why the service refused a request: a code for programs, an HTTP status, and a message that
/// says what to change. Every refusal the admin API gives is one of these, as JSON:
///
/// ```json
/// {"error": {"code": "deepLinkUnresolved", "message": "…no route of the manifest matches…"}}
/// ```
public struct LinkServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, Codable {
        /// The body is not JSON of the expected shape, or a field has the wrong type.
        case invalidRequest
        /// A custom code breaks the code rules.
        case invalidCode
        /// The code is taken.
        case codeTaken
        /// The deep link is not a link of the app, or no route of the manifest takes it.
        case deepLinkUnresolved
        /// A fallback or preview URL is not on the manifest's domains or the stores.
        case urlNotAllowed
        /// No link has that code, or no endpoint that path.
        case notFound
        /// The link has expired, or a claim token is past its lifetime.
        case expired
        /// A claim token the service did not issue, or one damaged on the way.
        case claimInvalid
        /// The claim token was claimed before: each click's token gives its link once.
        case alreadyClaimed
        /// The path exists but not for this method.
        case methodNotAllowed
        /// No `Authorization: Bearer` token, or one the service did not issue.
        case unauthorized
        /// The body is larger than the service takes.
        case tooLarge
        /// Too many requests from one client in a short time.
        case rateLimited
        /// The database did not answer; the request did nothing and may be retried.
        case unavailable
    }

    public let code: Code
    public let message: String
    /// For `rateLimited`: the seconds to wait, sent as `Retry-After`.
    public let retryAfter: Int?
    /// For `methodNotAllowed`: the methods the path takes, sent as `Allow` (`GET, HEAD`).
    public let allow: String?

    public init(_ code: Code, _ message: String, retryAfter: Int? = nil, allow: String? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.allow = allow
    }

    /// The HTTP status the admin API answers with.
    public var statusCode: Int {
        switch code {
        case .invalidRequest, .invalidCode: 400
        case .unauthorized: 401
        case .notFound, .claimInvalid: 404
        case .methodNotAllowed: 405
        case .expired: 410
        case .codeTaken, .alreadyClaimed: 409
        case .tooLarge: 413
        case .rateLimited: 429
        case .deepLinkUnresolved, .urlNotAllowed: 422
        case .unavailable: 503
        }
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
