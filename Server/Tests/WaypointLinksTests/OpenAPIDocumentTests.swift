import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WaypointLinks
import Yams

/// The admin API is written by hand against `Server/openapi.yaml`: this keeps the two in step.
@Suite("The OpenAPI document and the service agree")
struct OpenAPIDocumentTests {
    static let documentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("openapi.yaml")

    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Every (method, path) the document lists.
    static func operations() throws -> [(HTTPRequest.Method, String)] {
        let text = try String(contentsOf: documentURL, encoding: .utf8)
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        return paths.flatMap { path, item in
            item.keys.filter(Self.methods.contains).compactMap { key in
                HTTPRequest.Method(key.uppercased()).map { ($0, path) }
            }
        }
    }

    @Test("Every operation of the document is answered by its own route")
    func everyOperationRouted() async throws {
        let operations = try Self.operations()
        #expect(operations.count == 23)
        let fixture = try await ServiceFixture.make { $0.metrics = SharedMetrics.registry }
        let app = Application(router: fixture.service.router())
        try await app.test(.router) { client in
            for (method, path) in operations {
                let uri = path.replacingOccurrences(of: "{code}", with: "no-such-code").replacingOccurrences(
                    of: "{token}",
                    with: "no-such-token"
                ).replacingOccurrences(of: "{id}", with: "no-such-id")
                let body = method == .post || method == .patch ? ByteBuffer(string: "{}") : nil
                try await client.execute(
                    uri: uri,
                    method: method,
                    headers: [.authorization: "Bearer \(fixture.token)", .contentType: "application/json"],
                    body: body
                ) { response in
                    let text = String(buffer: response.body)
                    // A route that is missing answers "Nothing is at …" or 405; a route that is there
                    // answers for the code or the body it was given.
                    #expect(!text.contains("Nothing is at"), "\(method) \(path): \(text)")
                    #expect(response.status != .methodNotAllowed, "\(method) \(path)")
                    // Without its route, /metrics would be taken for a code and answer the 404 page.
                    if path == "/metrics" { #expect(response.status == .ok) }
                }
            }
        }
        await fixture.store.close()
    }

    @Test("Operations the document does not list are not answered")
    func nothingUndocumented() async throws {
        let fixture = try await ServiceFixture.make()
        let app = Application(router: fixture.service.router())
        try await app.test(.router) { client in
            for (method, uri) in [
                (HTTPRequest.Method.put, "/api/links/x"), (.delete, "/api/links"), (.get, "/api/tokens"),
            ] {
                try await client.execute(uri: uri, method: method, headers: [.authorization: "Bearer \(fixture.token)"])
                {
                    #expect([HTTPResponse.Status.notFound, .methodNotAllowed].contains($0.status), "\(method) \(uri)")
                }
            }
        }
        await fixture.store.close()
    }
}
