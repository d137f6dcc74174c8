import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Testing

@testable import WaypointLinks

/// A server that cannot start says what to change, not the socket call that failed.
@Suite("Start-up problems")
struct StartProblemTests {
    @Test("A port in use, an address not this machine's and a privileged port each name the option to change")
    func startProblems() {
        func problem(_ code: Int32) -> String? {
            LinkService.startProblem(IOError(errnoCode: code, reason: "bind"), hostname: "127.0.0.1", port: 80)
        }
        #expect(
            problem(EADDRINUSE) == "127.0.0.1:80 is in use by another process: stop it, or give --port another port."
        )
        #expect(problem(EADDRNOTAVAIL)?.contains("give --hostname one of its addresses") == true)
        #expect(problem(EACCES)?.contains("give --port one above 1023") == true)
        // Anything else keeps its own message.
        #expect(problem(ECONNRESET) == nil)
        #expect(LinkService.startProblem(CancellationError(), hostname: "127.0.0.1", port: 80) == nil)
    }
}

/// A request the client broke off, and one cut short by a stop, are the client's or the stop's
/// doing: a JSON refusal each, not the 503 and error log of the unforeseen.
@Suite("Requests that break off")
struct BrokenOffRequestTests {
    @Test("A broken-off body is a 400, a cancelled request a 503, both with the JSON error shape")
    func brokenOff() async throws {
        let router = Router()
        router.add(middleware: ErrorMiddleware<BasicRequestContext>())
        router.post("/broken") { _, _ -> String in throw HTTPParserError.invalidEOFState }
        router.post("/cancelled") { _, _ -> String in throw CancellationError() }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/broken", method: .post) { response in
                #expect(response.status == .badRequest)
                let body = String(buffer: response.body)
                #expect(body.contains(#""code":"invalidRequest""#), "\(body)")
                #expect(body.contains("could not be read to its end"), "\(body)")
            }
            try await client.execute(uri: "/cancelled", method: .post) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains(#""code":"unavailable""#))
            }
        }
    }
}

/// The idle timeout closes silent connections, never a request whose answer is still being made.
@Suite("Idle timeout")
struct IdleTimeoutTests {
    @Test("An answer that takes longer than the idle timeout is still given whole")
    func slowAnswerIsNotCutOff() async throws {
        let router = Router()
        router.get("/slow") { _, _ -> String in
            try await Task.sleep(for: .seconds(2.5))
            return "done"
        }
        let app = Application(router: router, server: LinkService.server(idleTimeout: 1))
        try await app.test(.live) { client in
            try await client.execute(uri: "/slow", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "done")
            }
        }
    }
}
