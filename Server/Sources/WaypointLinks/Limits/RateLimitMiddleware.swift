import Foundation
import HTTPTypes
import Hummingbird

/// Refuses a client's requests with 429 and `Retry-After` once it has spent its limit; every
/// request counts, so failed token guesses are limited too.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = LinkRequestContext

    let limiter: RateLimiter
    let clients: ClientIdentification
    let now: @Sendable () -> Date

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard limiter.spend(clients.key(request, context), at: now()) else {
            throw limiter.refusal
        }
        return try await next(request, context)
    }
}

/// How the service tells clients apart: the peer address, or the last entry of a header a trusted
/// proxy sets (`--client-address-header X-Forwarded-For`).
struct ClientIdentification: Sendable {
    let forwardedHeader: HTTPField.Name?

    func key(_ request: Request, _ context: LinkRequestContext) -> String {
        ClientAddress.key(
            peer: context.remoteAddress?.ipAddress,
            forwarded: forwardedHeader.flatMap { request.headers[$0] }
        )
    }
}

extension LinkServiceError {
    /// The 429 a client gets once it has spent its limit on `what`.
    static func rateLimited(_ what: String, retryAfter seconds: Int) -> LinkServiceError {
        LinkServiceError(
            .rateLimited,
            "Too many \(what) from this address; try again in \(seconds) second\(seconds == 1 ? "" : "s").",
            retryAfter: seconds
        )
    }
}
