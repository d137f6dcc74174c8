import Foundation
import NIOCore
import Testing
import WaypointLinks

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
