import HTTPTypes
import Hummingbird
import Logging
import NIOHTTP1

/// Gives every error the one JSON shape of ``LinkServiceError``, so no client sees Hummingbird's
/// own error body or a bare 500: a failing database is a 503 the client may retry, and anything
/// unforeseen is logged with the request that caused it. A HEAD gets the refusal's status and
/// headers without its body.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Turns the router's 404 for a known path into a 405 (``AllowedMethods``).
    var allowedMethods: AllowedMethods<Context>?

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard request.method == .head else { return try await answer(request, context: context, next: next) }
        // A HEAD is answered as its GET, refusals included: the same status and headers, no body.
        do {
            return try await answer(request, context: context, next: next)
        } catch let error as LinkServiceError {
            return try error.response(from: request, context: context).createHeadResponse()
        }
    }

    private func answer(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as LinkServiceError {
            throw error
        } catch let error as StoreError {
            context.logger.error("store failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            throw LinkServiceError(.unavailable, "The database did not answer; nothing was changed. Try again.")
        } catch let error as any HTTPResponseError {
            // The router found no route: for a path it has under other methods, a 405 says which.
            if error.status == .notFound, let allow = await allowedMethods?.allow(for: request, context: context) {
                throw LinkServiceError(
                    .methodNotAllowed,
                    "\(request.uri.path) does not take \(request.method); it takes \(allow).",
                    allow: allow
                )
            }
            throw LinkServiceError(Self.code(for: error.status), Self.message(for: error.status, request))
        } catch let error as HTTPParserError {
            // The client broke off or garbled its request (a stalled body closed by the idle
            // timeout, a dropped connection): its doing, not the service's, and nobody reads the answer.
            context.logger.info("request broke off", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            throw LinkServiceError(.invalidRequest, "The request could not be read to its end: \(error).")
        } catch is CancellationError {
            context.logger.info("request cancelled", metadata: ["path": "\(request.uri.path)"])
            throw LinkServiceError(.unavailable, "The service is stopping; nothing was changed. Try again.")
        } catch {
            context.logger.error("unexpected error", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            throw LinkServiceError(.unavailable, "The service could not answer this request; nothing was changed.")
        }
    }

    static func code(for status: HTTPResponse.Status) -> LinkServiceError.Code {
        switch status.code {
        case 401: .unauthorized
        case 404: .notFound
        case 405: .methodNotAllowed
        case 413: .tooLarge
        case 429: .rateLimited
        case 500...: .unavailable
        default: .invalidRequest
        }
    }

    static func message(for status: HTTPResponse.Status, _ request: Request) -> String {
        switch status.code {
        case 404: "Nothing is at \(request.method) \(request.uri.path)."
        case 405: "\(request.uri.path) does not take \(request.method)."
        case 413: "The body is over \(JSONBody.maxRequestBytes) bytes."
        default: status.reasonPhrase
        }
    }
}
