import Foundation
import HTTPTypes
import Hummingbird

/// Lets through only requests with `Authorization: Bearer <token>` naming a token the service
/// issued (`waypoint-links token create`). Tokens are read from the store on each request, so a
/// token created on one instance works on every other at once.
struct TokenAuthentication<Context: RequestContext>: RouterMiddleware {
    let store: any LinkStore

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
        guard APIToken.matches(secret, anyOf: try await store.tokenHashes()) else {
            throw LinkServiceError(.unauthorized, "That token is not one this service issued.")
        }
        return try await next(request, context)
    }
}
