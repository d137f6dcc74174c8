import ArgumentParser
import Foundation
import Hummingbird
import Logging
import WaypointLinks
import WaypointManifest

@main
struct WaypointLinksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waypoint-links",
        abstract: "Waypoint Links: association files, short links and their redirects, from the app's manifest.",
        version: WaypointRelease.version,
        subcommands: [Serve.self, Token.self]
    )
}

/// The options every subcommand that opens the database shares.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "The database: a SQLite file (created when absent) or postgres://USER:PASSWORD@HOST:PORT/DATABASE.")
    var database = "waypoint-links.sqlite"

    func open() async throws -> any LinkStore {
        do {
            return try await LinkStores.open(database)
        } catch {
            throw CommandFailure(error.message)
        }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the service until SIGINT or SIGTERM.")

    @Option(help: "The app's manifest (routes, domains, appIDs, android).")
    var manifest = "waypoint.yaml"

    @Option(help: "The address to listen on; 0.0.0.0 for every interface.")
    var hostname = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @OptionGroup var database: DatabaseOptions

    @Option(name: .customLong("app-store-id"), help: "The app's App Store id, offered when a link names none.")
    var appStoreID: String?

    @Option(help: "Admin API requests one client may make a minute (a quarter of them at once); 0 for no limit.")
    var adminLimit = LinkService.Configuration.defaultAdminLimit.perMinute

    @Option(help: "Codes naming no link one client may ask for a minute before it gets 429s; 0 for no limit.")
    var unknownCodeLimit = LinkService.Configuration.defaultUnknownCodeLimit.perMinute

    @Option(help: "Claims of deferred links one client may make a minute; 0 for no limit.")
    var claimLimit = LinkService.Configuration.defaultClaimLimit.perMinute

    @Option(help: "Hours after a click its deferred link can be claimed by the app it installed.")
    var claimHours: Double = LinkService.Configuration.defaultClaimLifetime / 3600

    @Option(
        help: ArgumentHelp(
            "Seconds a link read for a visit is kept in memory; 0 reads the database for every visit.",
            discussion:
                "With several instances, an edit or delete made on one reaches the others' redirects within this time."
        )
    )
    var linkCacheSeconds: Double = 5

    @Option(
        help: ArgumentHelp(
            "Behind a proxy: the header it puts the client's address in, such as X-Forwarded-For.",
            discussion: "Its last entry counts. Without it, clients are told apart by the connection's address."
        )
    )
    var clientAddressHeader: String?

    func validate() throws {
        guard claimHours > 0, claimHours.isFinite else {
            throw ValidationError("--claim-hours is more than 0.")
        }
        guard adminLimit >= 0, unknownCodeLimit >= 0, claimLimit >= 0 else {
            throw ValidationError("A limit is a number of requests a minute, 0 or more (0 turns it off).")
        }
        guard linkCacheSeconds >= 0, linkCacheSeconds.isFinite else {
            throw ValidationError("--link-cache-seconds is 0 or more.")
        }
    }

    func run() async throws {
        let loaded: Manifest
        do {
            loaded = try ManifestLoader.load(file: manifest)
        } catch {
            throw CommandFailure(error.description)
        }
        let store = try await database.open()
        let service: LinkService
        do {
            service = try LinkService(
                manifest: loaded,
                store: store,
                configuration: LinkService.Configuration(
                    appStoreID: appStoreID,
                    adminLimit: RateLimit(perMinute: adminLimit),
                    unknownCodeLimit: RateLimit(perMinute: unknownCodeLimit),
                    clientAddressHeader: clientAddressHeader,
                    linkCacheSeconds: linkCacheSeconds,
                    claimLifetime: claimHours * 3600,
                    claimLimit: RateLimit(perMinute: claimLimit),
                    metrics: ServiceMetrics.bootstrapPrometheus()
                )
            )
        } catch {
            await store.close()
            throw CommandFailure(error.message)
        }
        var logger = Logger(label: "waypoint-links")
        logger.logLevel = .info
        let app = Application(
            router: service.router(),
            configuration: ApplicationConfiguration(
                address: .hostname(hostname, port: port),
                serverName: "waypoint-links"
            ),
            // The click counter writes beside the server and once more after its last request.
            services: service.services,
            logger: logger
        )
        // runService stops on SIGINT or SIGTERM once the requests under way have been answered.
        do {
            try await app.runService()
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}

struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage the admin API's tokens.",
        subcommands: [Create.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token and print its secret (shown once; only its hash is stored)."
        )

        @Option(help: "A name that says who or what uses the token.")
        var name: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await database.open()
            let secret = APIToken.makeSecret()
            do {
                try await store.addToken(name: name, secretHash: APIToken.hash(secret), createdAt: Date())
            } catch {
                await store.close()
                throw error
            }
            await store.close()
            print(secret)
        }
    }
}

/// A failure while running, not a misuse of the command line: printed as `Error: …` without the
/// usage text, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
