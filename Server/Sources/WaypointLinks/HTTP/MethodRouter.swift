import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// Registers routes on a Hummingbird router and notes the methods each path takes, so that a path
/// the service serves, asked with a method it does not take (any method: `POST`, `TRACE`, `QUERY`…),
/// answers `405 Method Not Allowed` with `Allow` rather than the router's 404 (``AllowedMethods``).
///
/// ```swift
/// let allowed = AllowedMethods<LinkRequestContext>()
/// let routes = MethodRouter(Router(context: LinkRequestContext.self), allowed: allowed)
/// routes.get("/health") { _, _ in "ok" }
/// let router = routes.finish()  // POST /health → 405, Allow: GET, HEAD
/// ```
final class MethodRouter<Context: RequestContext>: RouterMethods {
    let router: Router<Context>
    let allowed: AllowedMethods<Context>
    /// Each path's methods, in the order the paths were first registered.
    private var paths: [(path: RouterPath, methods: Set<HTTPRequest.Method>)] = []

    init(_ router: Router<Context>, allowed: AllowedMethods<Context>) {
        self.router = router
        self.allowed = allowed
    }

    @discardableResult
    func on<Responder: HTTPResponder>(
        _ path: RouterPath,
        method: HTTPRequest.Method,
        responder: Responder
    ) -> Self where Responder.Context == Context {
        router.on(path, method: method, responder: responder)
        if let index = paths.firstIndex(where: { $0.path.description == path.description }) {
            paths[index].methods.insert(method)
        } else {
            paths.append((path, [method]))
        }
        return self
    }

    @discardableResult
    func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        router.add(middleware: middleware)
        return self
    }

    /// Hands the paths to ``AllowedMethods`` and returns the router.
    func finish() -> Router<Context> {
        allowed.learn(paths)
        return router
    }
}

/// The methods each of the service's paths takes, asked when the router finds no route for a
/// request. It keeps a second router with one route per path, whatever its methods, so a request is
/// matched to a path by Hummingbird's own rules (a literal segment before a parameter), never by a
/// second matcher that could disagree with the first.
final class AllowedMethods<Context: RequestContext>: Sendable {
    private let probe = NIOLockedValueBox<RouterResponder<Context>?>(nil)

    /// What a probe route answers: the methods of its path.
    private struct Allow: HTTPResponseError {
        let methods: String
        var status: HTTPResponse.Status { .methodNotAllowed }
        var headers: HTTPFields { [.allow: methods] }
        func response(from request: Request, context: some RequestContext) throws -> Response {
            Response(status: status, headers: headers)
        }
    }

    func learn(_ paths: [(path: RouterPath, methods: Set<HTTPRequest.Method>)]) {
        let router = Router(context: Context.self)
        for (path, methods) in paths {
            var allowed = methods
            if allowed.contains(.get) { allowed.insert(.head) }  // the router answers HEAD from GET
            let order: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete]
            let list =
                (order.filter(allowed.contains)
                + allowed.filter { !order.contains($0) }.sorted {
                    $0.rawValue < $1.rawValue
                }).map(\.rawValue).joined(separator: ", ")
            router.get(path) { _, _ -> Response in throw Allow(methods: list) }
        }
        probe.withLockedValue { $0 = router.buildResponder() }
    }

    /// The `Allow` value of the path `request` asks for, or nil when the service has no such path.
    func allow(for request: Request, context: Context) async -> String? {
        guard let probe = probe.withLockedValue({ $0 }) else { return nil }
        var head = request.head
        head.method = .get
        let asked = Request(head: head, body: RequestBody(buffer: .init()))
        guard let response = try? await probe.respond(to: asked, context: context),
            response.status == .methodNotAllowed
        else { return nil }
        return response.headers[.allow]
    }
}
