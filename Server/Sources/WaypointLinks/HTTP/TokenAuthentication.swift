import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers

/// Lets through only requests with `Authorization: Bearer <token>` naming a token the service
/// issued (`waypoint-links token create`). Tokens are read from the store on each request, so a
/// token created on one instance works on every other at once, and one revoked
/// (`waypoint-links token revoke`) stops working everywhere at once.
struct TokenAuthentication<Context: RequestContext>: RouterMiddleware {
    let store: any LinkStore
    let use: TokenUse

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            throw LinkServiceError(
                .unauthorized,
                "The admin API needs 'Authorization: Bearer <token>'; create a token with 'waypoint-links token create'."
            )
        }
        let secret = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        guard let token = APIToken.matching(secret, among: try await store.tokens()) else {
            throw LinkServiceError(.unauthorized, "That token is not one this service issued.")
        }
        await use.note(token, logger: context.logger)
        return try await next(request, context)
    }
}

/// Writes down when each token was last used (`waypoint-links token list` shows it), at most once a
/// minute per token and instance, so the admin API does not write on every request.
final class TokenUse: Sendable {
    let store: any LinkStore
    let now: @Sendable () -> Date
    /// When this instance last wrote each token's use, by hash.
    private let written = NIOLockedValueBox<[[UInt8]: Date]>([:])
    static let interval: TimeInterval = 60

    init(store: any LinkStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// Records the use unless this instance did within the interval. A failed write is logged and
    /// does not fail the request: the time is a convenience, the token check is what matters.
    func note(_ token: APITokenRecord, logger: Logger) async {
        let date = now()
        let due = written.withLockedValue { written in
            if let last = written[token.secretHash], date.timeIntervalSince(last) < Self.interval { return false }
            if written.count > 10_000 { written = [:] }
            written[token.secretHash] = date
            return true
        }
        guard due else { return }
        do {
            try await store.markTokenUsed(secretHash: token.secretHash, at: date)
        } catch {
            logger.warning("could not record a token's use", metadata: ["token": "\(token.name)", "error": "\(error)"])
        }
    }
}
