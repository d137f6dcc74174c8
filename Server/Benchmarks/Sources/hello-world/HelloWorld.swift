import Hummingbird
import Logging

/// `hello-world PORT`: one route answering "Hello, world!", configured as waypoint-links serves.
@main
struct HelloWorld {
    static func main() async throws {
        let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 8081
        let router = Router()
        router.get("/") { _, _ in "Hello, world!" }
        var logger = Logger(label: "hello-world")
        logger.logLevel = .info
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(
                address: .hostname("127.0.0.1", port: port),
                serverName: "hello-world"
            ),
            logger: logger
        )
        try await app.runService()
    }
}
