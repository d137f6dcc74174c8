import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals
import WaypointLinks
import WaypointManifest

extension Logger.Level: @retroactive ExpressibleByArgument {}

@main
struct WaypointLinksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waypoint-links",
        abstract: "Waypoint Links: association files, short links and their redirects, from the app's manifest.",
        version: WaypointRelease.version,
        subcommands: [Serve.self, Token.self, Import.self, Export.self]
    )
}

/// The options every subcommand that opens the database shares.
struct DatabaseOptions: ParsableArguments {
    /// Read by every subcommand when `--database` is not given.
    static let environmentVariable = "WAYPOINT_LINKS_DATABASE"
    static let defaultLocation = "waypoint-links.sqlite"

    @Option(
        help: ArgumentHelp(
            "The database: a SQLite file (created when absent) or postgres://USER:PASSWORD@HOST:PORT/DATABASE.",
            discussion: "Without it, \(environmentVariable) names it, and without that, ./\(defaultLocation)."
        )
    )
    var database: String?

    /// The flag, else the environment variable, else the default file.
    var location: String {
        database ?? ProcessInfo.processInfo.environment[Self.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? Self.defaultLocation
    }

    func open() async throws -> any LinkStore {
        do {
            return try await LinkStores.open(location)
        } catch {
            throw CommandFailure(error.message)
        }
    }

    /// Opens the database, runs `body` and closes the database whether or not `body` threw.
    func withStore<Value>(_ body: (any LinkStore) async throws -> Value) async throws -> Value {
        let store = try await open()
        do {
            let value = try await body(store)
            await store.close()
            return value
        } catch {
            await store.close()
            throw error
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

    @Option(
        help: ArgumentHelp(
            "Seconds a connection may send nothing before it is closed: while its request arrives, or between requests.",
            discussion:
                "A client that opens connections and goes silent would otherwise hold them until the process "
                + "stops. A request whose answer is being made is not cut off. Behind a proxy, give more than its "
                + "upstream idle timeout (60 s for an AWS load balancer or nginx's keepalive)."
        )
    )
    var idleTimeout: Double = LinkService.defaultIdleTimeout

    @OptionGroup var database: DatabaseOptions

    @Option(name: .customLong("app-store-id"), help: "The app's App Store id, offered when a link names none.")
    var appStoreID: String?

    @Option(
        name: .customLong("app-store-provider-token"),
        help: ArgumentHelp(
            "Your App Store Connect provider token (the number after pt= in a campaign link it makes).",
            discussion: "App Store links of links with a utm_campaign then carry pt, ct and mt=8, so App "
                + "Store Connect's App Analytics counts the campaign's installs."
        )
    )
    var appStoreProviderToken: String?

    @Option(help: "Admin API requests one client may make a minute (a quarter of them at once); 0 for no limit.")
    var adminLimit = LinkService.Configuration.defaultAdminLimit.perMinute

    @Option(help: "Codes naming no link one client may ask for a minute before it gets 429s; 0 for no limit.")
    var unknownCodeLimit = LinkService.Configuration.defaultUnknownCodeLimit.perMinute

    @Option(help: "Claims of deferred links one client may make a minute; 0 for no limit.")
    var claimLimit = LinkService.Configuration.defaultClaimLimit.perMinute

    @Option(help: "Claim tokens one client may be issued a minute (landing pages, Play redirects); 0 for no limit.")
    var claimTokenLimit = LinkService.Configuration.defaultClaimTokenLimit.perMinute

    @Option(help: "Hours after a click its deferred link can be claimed by the app it installed.")
    var claimHours: Double = LinkService.Configuration.defaultClaimLifetime / 3600

    @Option(
        help: ArgumentHelp(
            "Seconds a link read for a visit is kept in memory; 0 reads the database for every visit.",
            discussion:
                "With several instances on PostgreSQL, an edit or delete made on one reaches the others as its "
                + "notification arrives; this time bounds it if a notification is ever lost."
        )
    )
    var linkCacheSeconds: Double = 5

    @Option(
        help: ArgumentHelp(
            "Seconds a counted visit may wait in memory before it is written; 0 writes it before answering.",
            discussion:
                "kill -9 loses at most the visits of this window; a graceful stop (SIGTERM) loses none. "
                + "0 costs redirect throughput (Server/BENCHMARKS.md)."
        )
    )
    var clickWindow: Double = 1

    @Option(
        help: ArgumentHelp(
            "The least a log line must weigh to be printed.",
            discussion: "At debug, each visit whose query was not passed on whole names its link's code and why, "
                + "and each long link not followed says why (the counters at /metrics count both at any level)."
        )
    )
    var logLevel: Logger.Level = .info

    @Option(
        help: ArgumentHelp(
            "Behind a proxy: the header it puts the client's address in, such as X-Forwarded-For.",
            discussion: "Its last entry counts. Without it, clients are told apart by the connection's address."
        )
    )
    var clientAddressHeader: String?

    @Option(
        help: ArgumentHelp(
            "Behind a CDN: the header it puts the visitor's country in, such as CF-IPCountry.",
            discussion:
                "Clicks are then counted by country too (byCountry in a link's analytics). CloudFront sends "
                + "CloudFront-Viewer-Country. Only the two-letter code is kept."
        )
    )
    var countryHeader: String?

    @Flag(
        help: ArgumentHelp(
            "Allow webhooks to loopback, private and link-local addresses (a receiver on the same machine or network).",
            discussion:
                "Off, a webhook there is refused, so an admin token cannot make the service reach inside its network."
        )
    )
    var webhookAllowPrivate = false

    @Flag(
        help: ArgumentHelp(
            "Answer long Firebase Dynamic Links (https://DOMAIN/?link=…&isi=…&apn=…) as short links with their fields.",
            discussion: "For links made without a short code, in apps, emails and posters, on a domain now pointed "
                + "here. Their deep link must resolve to a route; their web targets must be on the manifest's "
                + "domains, the short-link domains or a --long-link-host. The manifest's shortLinks.longLinks "
                + "turns this on too, and also opens the app for them."
        )
    )
    var longLinks = false

    @Option(
        name: .customLong("long-link-host"),
        help:
            "A host long links' ifl, afl and ofl may lead to besides the app's own (www.example.com, *.example.com); repeatable."
    )
    var longLinkHosts: [String] = []

    func validate() throws {
        guard claimHours > 0, claimHours.isFinite else {
            throw ValidationError("--claim-hours is more than 0.")
        }
        guard adminLimit >= 0, unknownCodeLimit >= 0, claimLimit >= 0, claimTokenLimit >= 0 else {
            throw ValidationError("A limit is a number of requests a minute, 0 or more (0 turns it off).")
        }
        guard linkCacheSeconds >= 0, linkCacheSeconds.isFinite else {
            throw ValidationError("--link-cache-seconds is 0 or more.")
        }
        guard clickWindow >= 0, clickWindow <= 60 else {
            throw ValidationError("--click-window is a number of seconds from 0 to 60.")
        }
        guard idleTimeout >= 1, idleTimeout <= 3600 else {
            throw ValidationError("--idle-timeout is a number of seconds from 1 to 3600.")
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
                    appStoreProviderToken: appStoreProviderToken,
                    adminLimit: RateLimit(perMinute: adminLimit),
                    unknownCodeLimit: RateLimit(perMinute: unknownCodeLimit),
                    clientAddressHeader: clientAddressHeader,
                    countryHeader: countryHeader,
                    linkCacheSeconds: linkCacheSeconds,
                    clickWindow: .milliseconds(Int((clickWindow * 1000).rounded())),
                    claimLifetime: claimHours * 3600,
                    claimLimit: RateLimit(perMinute: claimLimit),
                    claimTokenLimit: RateLimit(perMinute: claimTokenLimit),
                    longLinks: longLinks,
                    longLinkHosts: longLinkHosts,
                    webhookAllowPrivate: webhookAllowPrivate,
                    metrics: ServiceMetrics.bootstrapPrometheus()
                )
            )
        } catch {
            await store.close()
            throw CommandFailure(error.message)
        }
        var logger = Logger(label: "waypoint-links")
        logger.logLevel = logLevel
        // Links from before several short-link domains name none: they are on the first listed,
        // and are written so, once, before any request is answered.
        if let first = loaded.shortLinks?.domain {
            do {
                let moved = try await store.assignDomain(first.lowercased())
                if moved > 0 { logger.info("\(moved) links from before short-link domains are on \(first)") }
            } catch {
                await store.close()
                throw CommandFailure(error.description)
            }
        }
        // What visitors who lack the app are offered, said once: a missing store id or provider
        // token shows here at start-up, not in a store's reports weeks later.
        logger.info(
            "what visitors without the app are offered",
            metadata: [
                "domains": "\(loaded.shortLinks?.domains.joined(separator: ", ") ?? "none")",
                "appStore": "\(appStoreID ?? "only links that name an id")",
                "appStoreCampaigns": .string(
                    appStoreProviderToken.map { "on, provider token \($0)" } ?? "off (no --app-store-provider-token)"
                ),
                "googlePlay": "\(loaded.android?.package ?? "only links that name a package")",
                "longLinks": .string(
                    LinkService.answersLongLinks(longLinks, manifest: loaded)
                        ? "on, web targets also on "
                            + (longLinkHosts.isEmpty ? "no other host" : longLinkHosts.joined(separator: ", "))
                            + (loaded.shortLinks?.longLinks == true ? "; they open the app (shortLinks.longLinks)" : "")
                        : "off"
                ),
            ]
        )
        // A link made before 'export' was reserved still works, but the API's export answers
        // GET /api/links/export in its place: say so once.
        if (try? await store.link(code: "export")) != nil {
            logger.warning(
                "a link has the code 'export': GET /api/links/export is now the export; the link's visits, the admin page, PATCH and DELETE still reach it"
            )
        }
        let app = Application(
            router: service.router(),
            server: LinkService.server(idleTimeout: idleTimeout),
            configuration: ApplicationConfiguration(
                address: .hostname(hostname, port: port),
                serverName: "waypoint-links"
            ),
            // The click counter writes beside the server and once more after its last request.
            services: service.services,
            logger: logger
        )
        // SIGINT or SIGTERM: the server stops accepting, answers the requests under way, then the
        // click counter writes every counted visit. A client that holds the stop up past the
        // deadline is cut off, so the process ends within 10 seconds.
        var group = ServiceGroupConfiguration(
            services: [app],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        group.maximumGracefulShutdownDuration = Self.shutdownDeadline
        var failure: (any Error)?
        do {
            try await ServiceGroup(configuration: group).run()
        } catch {
            failure = error
        }
        // Normally written already, on the counter's way out; this covers a stop cut short.
        let written = await service.clicks.writeTheRest()
        await store.close()
        // What an operator's log shows after `kill -TERM` or a deploy: whether the stop was a clean one.
        if failure == nil, written {
            logger.info("stopped: every counted visit written")
        }
        if let failure {
            if let problem = LinkService.startProblem(failure, hostname: hostname, port: port) {
                throw CommandFailure(problem)
            }
            throw failure
        }
    }

    /// How long a graceful stop may wait for requests under way.
    static let shutdownDeadline: Duration = .seconds(7)
}

struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage the admin API's tokens.",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token and print its secret (shown once; only its hash is stored)."
        )

        @Option(help: "A name that says who or what uses the token.")
        var name: String

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard !name.isEmpty, name.count <= 100, !name.contains(where: { $0.isNewline || $0 == "\t" }) else {
                throw ValidationError("--name is 1 to 100 characters on one line.")
            }
        }

        func run() async throws {
            let secret = APIToken.makeSecret()
            let added = try await database.withStore { store in
                try await store.addToken(name: name, secretHash: APIToken.hash(secret), createdAt: Date())
            }
            guard added else {
                throw CommandFailure(
                    "A token named '\(name)' exists; choose another name, or revoke it first "
                        + "('waypoint-links token revoke \(name)')."
                )
            }
            print(secret)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the tokens: name, when created, when last used (never the secret)."
        )

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let tokens = try await database.withStore { try await $0.tokens() }
            print(TokenTable(tokens).text, terminator: "")
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a token: every running instance refuses it from its next request on."
        )

        @Argument(help: "The token's name, as 'token list' shows it.")
        var name: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let removed = try await database.withStore { try await $0.removeTokens(named: name) }
            guard removed > 0 else {
                throw CommandFailure("No token is named '\(name)'; 'waypoint-links token list' shows their names.")
            }
            print("Revoked '\(name)'.")
        }
    }
}

/// A failure while running, not a misuse of the command line: printed as `Error: …` without the
/// usage text, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
