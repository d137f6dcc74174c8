import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle
import Waypoint
import WaypointManifest

/// Waypoint Links: association files, short links and their redirects for one app, from the
/// app's manifest. Everything is checked when the service is made, so a manifest it cannot serve
/// stops it at start-up, not at the first request.
///
/// ```swift
/// let service = try LinkService(manifest: manifest, store: try await SQLiteLinkStore.open(path: "links.sqlite"))
/// let app = Application(
///     router: service.router(), configuration: .init(address: .hostname("127.0.0.1", port: 8080)),
///     services: service.services)
/// try await app.runService()
/// ```
public struct LinkService: Sendable {
    public struct Configuration: Sendable {
        /// The App Store id the landing page offers when a link names none.
        public var appStoreID: String?
        /// The team's App Store Connect provider token, the number after `pt=` in a link App Store
        /// Connect's Campaign Generator makes. With it, the App Store button of a link whose deep
        /// link has a `utm_campaign` carries `pt`, `ct` (that campaign as App Store Connect takes a
        /// campaign token: its characters, at most 30) and `mt=8`, so App Analytics counts the
        /// campaign's installs; nil leaves App Store links plain.
        public var appStoreProviderToken: String?
        /// Requests one client may make to `/api/links…`, counted before the token is checked, so
        /// guessing tokens is limited too.
        public var adminLimit: RateLimit
        /// Codes naming no link one client may ask for at `/{code}` and `/api/resolve/{code}`. Once
        /// spent, every code from that client gets 429 until the limit refills — answering known
        /// codes would tell a scanner which ones exist.
        public var unknownCodeLimit: RateLimit
        /// The header a trusted proxy puts the client's address in (its last entry counts), such as
        /// `X-Forwarded-For`; nil counts by the connection's peer address. Set it only behind a
        /// proxy that sets the header, or clients could pick their own address.
        public var clientAddressHeader: String?
        /// The header the CDN in front puts the visitor's country in, such as `CF-IPCountry` or
        /// `CloudFront-Viewer-Country`: clicks are then counted by country too (``ClickSource``).
        /// Nil counts no country. Set it only behind a CDN that sets the header.
        public var countryHeader: String?
        /// Seconds a link read for a visit is kept in memory (``LinkCache``); 0 reads the database
        /// for every visit. Edits and deletes reach the cache as the store tells of them (on
        /// PostgreSQL, other instances' too); this bounds how long one whose notice was lost is unseen.
        public var linkCacheSeconds: TimeInterval
        /// How long a counted visit may wait in memory before it is written (``ClickCounter``):
        /// `kill -9` loses at most the visits of this window. Zero writes each visit's click before
        /// answering it.
        public var clickWindow: Duration
        /// Seconds after a click its claim token can be claimed (`POST /api/claims`).
        public var claimLifetime: TimeInterval
        /// Claims one client may make: an app claims once per install, so a client making many
        /// is guessing tokens.
        public var claimLimit: RateLimit
        /// Claim tokens one client may be issued (landing pages and Play Store redirects that carry
        /// one): a person installs once, so a client fetching many is minting tokens to inflate
        /// install counts. Past it, the page and the redirect carry none.
        public var claimTokenLimit: RateLimit
        /// Whether long Firebase Dynamic Links visited at a short-link domain's root
        /// (`/?link=…&isi=…`) are answered as short links with the same fields (``LongLink``);
        /// off, `/` is the 404 page as an unknown code is. The manifest's `shortLinks.longLinks`
        /// turns them on too.
        public var longLinks: Bool
        /// Hosts a long link's web targets (`ifl`, `afl`, `ofl`) may lead to besides the manifest's
        /// and the short-link domains (`www.example.com`, `*.example.com`).
        public var longLinkHosts: [String]
        /// Whether webhooks may point at loopback, private and link-local addresses
        /// (``WebhookReceiver``); off, so an admin token cannot reach inside the service's network.
        public var webhookAllowPrivate: Bool
        /// The registry `GET /metrics` prints (``ServiceMetrics/bootstrapPrometheus()``); nil
        /// serves no `/metrics`.
        public var metrics: PrometheusCollectorRegistry?
        /// The clock; tests set it.
        public var now: @Sendable () -> Date

        public init(
            appStoreID: String? = nil,
            appStoreProviderToken: String? = nil,
            adminLimit: RateLimit = Self.defaultAdminLimit,
            unknownCodeLimit: RateLimit = Self.defaultUnknownCodeLimit,
            clientAddressHeader: String? = nil,
            countryHeader: String? = nil,
            linkCacheSeconds: TimeInterval = 5,
            clickWindow: Duration = .seconds(1),
            claimLifetime: TimeInterval = Self.defaultClaimLifetime,
            claimLimit: RateLimit = Self.defaultClaimLimit,
            claimTokenLimit: RateLimit = Self.defaultClaimTokenLimit,
            longLinks: Bool = false,
            longLinkHosts: [String] = [],
            webhookAllowPrivate: Bool = false,
            metrics: PrometheusCollectorRegistry? = nil,
            now: @escaping @Sendable () -> Date = Date.init
        ) {
            self.appStoreID = appStoreID
            self.appStoreProviderToken = appStoreProviderToken
            self.adminLimit = adminLimit
            self.unknownCodeLimit = unknownCodeLimit
            self.clientAddressHeader = clientAddressHeader
            self.countryHeader = countryHeader
            self.linkCacheSeconds = linkCacheSeconds
            self.clickWindow = clickWindow
            self.claimLifetime = claimLifetime
            self.claimLimit = claimLimit
            self.claimTokenLimit = claimTokenLimit
            self.longLinks = longLinks
            self.longLinkHosts = longLinkHosts
            self.webhookAllowPrivate = webhookAllowPrivate
            self.metrics = metrics
            self.now = now
        }

        /// 600 a minute, 150 at once: a script creating links in bulk, not a token guesser.
        public static let defaultAdminLimit = RateLimit(perMinute: 600)
        /// 60 a minute, 15 at once: far more than a person mistyping, far less than a scan.
        public static let defaultUnknownCodeLimit = RateLimit(perMinute: 60)
        /// A day: long enough to install over a slow connection and open the app the next morning.
        public static let defaultClaimLifetime: TimeInterval = 86_400
        /// 30 a minute: a shared address (a campus, a carrier's NAT) installing at once, not a guesser.
        public static let defaultClaimLimit = RateLimit(perMinute: 30)
        /// 30 a minute, as many as claims: more than a shared address clicking at once, far fewer
        /// than a script minting tokens.
        public static let defaultClaimTokenLimit = RateLimit(perMinute: 30)
    }

    public let manifest: Manifest
    public let store: any LinkStore
    /// Counts each visit; run it among the application's services (``services``) so it writes.
    public let clicks: ClickCounter
    let wellKnown: WellKnownFiles
    let admin: AdminAPI
    let claims: ClaimAPI
    let webhooks: WebhookAPI
    /// Sends the webhooks' queue; nil for a store that keeps no webhooks.
    let deliverer: WebhookDeliverer?
    let adminPage: AdminPage
    let visits: VisitAnswer.Settings
    /// What long links may lead to; nil when they are off.
    let longLinks: LongLink?

    /// Whether the service answers long Dynamic Links: `serve --long-links` (`flag`), or the
    /// manifest's `shortLinks.longLinks`, which claims them for the app, so visitors without the
    /// app are answered too.
    public static func answersLongLinks(_ flag: Bool, manifest: Manifest) -> Bool {
        flag || manifest.shortLinks?.longLinks == true
    }
    let adminLimiter: RateLimiter
    let claimLimiter: RateLimiter
    let claimTokenLimiter: RateLimiter
    /// The hosts `/{code}` answers on: the short-link domain, and loopback names for local use.
    let linkHosts: Set<String>
    /// The short-link domains, and which one each link is on.
    let linkDomains: LinkDomains
    let unknownCodeLimiter: RateLimiter
    let clientIdentification: ClientIdentification
    /// `Configuration.countryHeader`, checked.
    let countryHeader: HTTPField.Name?
    let cache: LinkCache
    let tokenUse: TokenUse
    let metrics: PrometheusCollectorRegistry?
    /// The service's own counters, into ``metrics`` or nowhere.
    let serviceMetrics: ServiceMetrics
    let now: @Sendable () -> Date

    /// - Throws: ``LinkServiceStartError`` naming what in the manifest or the configuration to change.
    public init(
        manifest: Manifest,
        store: any LinkStore,
        configuration: Configuration = Configuration()
    ) throws(LinkServiceStartError) {
        let rules: LinkRules
        do {
            rules = try LinkRules(manifest: manifest)
            wellKnown = try WellKnownFiles(manifest: manifest)
        } catch let error as ManifestError {
            throw LinkServiceStartError("The manifest's routes do not build: \(error.message)")
        } catch let error as AssociationFileError {
            throw LinkServiceStartError(error.message)
        } catch {
            throw LinkServiceStartError("\(error)")
        }
        // The manifest loader has checked that each domain is one of `domains` and not a wildcard.
        let domains = LinkDomains(manifest.shortLinks)
        guard !domains.all.isEmpty else {
            throw LinkServiceStartError(
                "The manifest has no 'shortLinks' section; add 'shortLinks: {domains: [links.example.com]}' with one "
                    + "or more of its domains, so that their association files let short links open the app."
            )
        }
        self.clientIdentification = ClientIdentification(
            forwardedHeader: try Self.headerName(configuration.clientAddressHeader, example: "X-Forwarded-For")
        )
        self.countryHeader = try Self.headerName(configuration.countryHeader, example: "CF-IPCountry")
        let meters = ServiceMetrics(registry: configuration.metrics)
        // Every reason at 0 from the start, as the limiters' refusals are: a series that appears
        // only at its first count hides that count from rate() and increase(), and an alert on it.
        for reason in QueryPassthrough.LeftBehind.allCases { _ = meters.queryLeftBehind(reason) }
        self.serviceMetrics = meters
        self.adminLimiter = RateLimiter(configuration.adminLimit, name: "admin requests", metrics: meters)
        self.unknownCodeLimiter = RateLimiter(configuration.unknownCodeLimit, name: "unknown codes", metrics: meters)
        self.claimLimiter = RateLimiter(configuration.claimLimit, name: "claims", metrics: meters)
        self.claimTokenLimiter = RateLimiter(configuration.claimTokenLimit, name: "claim tokens", metrics: meters)
        self.linkDomains = domains
        self.linkHosts = Set(domains.all + ["localhost", "127.0.0.1", "::1"])
        guard configuration.claimLifetime > 0 else {
            throw LinkServiceStartError(
                "The claim lifetime is \(configuration.claimLifetime) seconds; give a positive number."
            )
        }
        // The id pasted as the App Store URL shows it ("id1234567890") would make every App Store
        // button a dead page; it is said here rather than found by a visitor.
        if let id = configuration.appStoreID, !LinkRules.isAppStoreNumber(id) {
            throw LinkServiceStartError(
                "The App Store id is the number in the app's App Store URL (1234567890 in "
                    + "apps.apple.com/app/id1234567890, without 'id'); '\(id)' is not one."
            )
        }
        if let token = configuration.appStoreProviderToken, !LinkRules.isAppStoreNumber(token) {
            throw LinkServiceStartError(
                "The App Store provider token is the number after 'pt=' in a campaign link App Store Connect's "
                    + "Campaign Generator makes (Apps > App Analytics > Acquisition); '\(token)' is not one."
            )
        }
        let longLinksOn = Self.answersLongLinks(configuration.longLinks, manifest: manifest)
        if !longLinksOn, let host = configuration.longLinkHosts.first {
            throw LinkServiceStartError(
                "--long-link-host \(host) does nothing without --long-links (or the manifest's shortLinks.longLinks), "
                    + "which answers long Dynamic Links; add it."
            )
        }
        self.longLinks =
            try longLinksOn
            ? LongLink(
                rules: rules,
                hosts: configuration.longLinkHosts,
                appStoreID: configuration.appStoreID,
                playPackage: manifest.android?.package
            ) : nil
        let claimTokens = ClaimTokens(secret: store.sharedSecret, lifetime: configuration.claimLifetime)
        let webhookStore = store as? any WebhookStore
        let events = WebhookEvents(
            store: webhookStore,
            now: configuration.now,
            logger: Logger(label: "waypoint-links.webhooks")
        )
        self.webhooks = WebhookAPI(
            store: webhookStore,
            allowPrivate: configuration.webhookAllowPrivate,
            now: configuration.now,
            events: events
        )
        self.deliverer = webhookStore.map {
            WebhookDeliverer(store: $0, allowPrivate: configuration.webhookAllowPrivate, now: configuration.now)
        }
        self.claims = ClaimAPI(
            tokens: claimTokens,
            store: store,
            rules: rules,
            now: configuration.now,
            events: events
        )
        self.metrics = configuration.metrics
        let cache = LinkCache(lifetime: configuration.linkCacheSeconds)
        store.observeChanges { change in cache.forget(change) }
        self.cache = cache
        self.manifest = manifest
        self.store = store
        self.clicks = ClickCounter(
            store: store,
            window: configuration.clickWindow,
            logger: Logger(label: "waypoint-links.clicks"),
            metrics: meters,
            stored: { batch in await events.emit(.linkClicked, WebhookEvents.LinkClicked(batch)) }
        )
        self.now = configuration.now
        self.tokenUse = TokenUse(store: store, now: configuration.now)
        self.admin = AdminAPI(rules: rules, store: store, domains: domains, now: configuration.now, events: events)
        do {
            self.adminPage = AdminPage(
                api: admin,
                rules: rules,
                store: store,
                sessions: AdminSessions(secret: store.sharedSecret, store: store),
                templates: try AdminTemplates(),
                now: configuration.now
            )
            self.visits = VisitAnswer.Settings(
                appStoreID: configuration.appStoreID,
                appStoreProviderToken: configuration.appStoreProviderToken,
                playPackage: manifest.android?.package,
                domains: domains,
                rules: rules,
                pages: try Pages(),
                claims: claimTokens
            )
        } catch {
            throw LinkServiceStartError("The page templates do not parse: \(error)")
        }
    }

    private static func headerName(_ text: String?, example: String) throws(LinkServiceStartError) -> HTTPField.Name? {
        guard let text else { return nil }
        guard let name = HTTPField.Name(text) else {
            throw LinkServiceStartError("'\(text)' is not a header name; give one such as \(example).")
        }
        return name
    }

    /// The HTTP/1.1 server to run the service on: one that closes a connection sending nothing for
    /// `idleTimeout` seconds (clamped to 1 second … 1 day; not a number is the default, 75), while
    /// its request's head or body arrives or between requests, so a client that opens connections
    /// and goes silent cannot hold them until the process stops. A request whose answer is being
    /// made is not cut off. Behind a proxy that keeps connections to the service open, give a time
    /// longer than the proxy's (60 s for an AWS load balancer and nginx's upstream keepalive), or
    /// it may send a request down a connection the service is closing.
    ///
    /// ```swift
    /// Application(router: service.router(), server: LinkService.server(idleTimeout: 75), services: service.services)
    /// ```
    public static func server(idleTimeout seconds: Double) -> HTTPServerBuilder {
        let bounded = seconds.isNaN ? defaultIdleTimeout : min(max(seconds, 1), 86_400)
        return .http1(configuration: .init(idleTimeout: .milliseconds(Int64(bounded * 1000))))
    }

    /// The seconds ``server(idleTimeout:)`` and `serve --idle-timeout` use unless told otherwise:
    /// longer than the 60 s most proxies keep an idle connection to their backend.
    public static let defaultIdleTimeout: Double = 75

    /// What to tell the person who started the service when its server stopped with `error`
    /// before it answered anything, where the error's own text would not say what to do: nil for
    /// any other error.
    ///
    /// ```swift
    /// LinkService.startProblem(IOError(errnoCode: EADDRINUSE, reason: "bind"), hostname: "127.0.0.1", port: 8080)
    /// // "127.0.0.1:8080 is in use by another process: stop it, or give --port another port."
    /// ```
    public static func startProblem(_ error: any Error, hostname: String, port: Int) -> String? {
        guard let error = error as? IOError else { return nil }
        switch error.errnoCode {
        case EADDRINUSE:
            return "\(hostname):\(port) is in use by another process: stop it, or give --port another port."
        case EADDRNOTAVAIL:
            return "\(hostname) is no address of this machine: give --hostname one of its addresses."
        case EACCES:
            return "Port \(port) needs privileges this process lacks: give --port one above 1023."
        default: return nil
        }
    }

    /// What must run beside the HTTP server: the click counter's writer. Hummingbird stops these
    /// after the server has answered its last request, so the last clicks are written too.
    ///
    /// ```swift
    /// Application(router: service.router(), services: service.services)
    /// ```
    public var services: [any Service] { [clicks] + (deliverer.map { [$0] } ?? []) }

    // MARK: Links in and out

    /// Creates the links of a file, as `POST /api/links/import` does: `waypoint-links import`.
    ///
    /// ```swift
    /// let report = try await service.importLinks(text, as: LinkImport(format: .fdl))
    /// print(report.summary)  // "imported 998, refused 2" and a line for each refusal
    /// ```
    public func importLinks(_ text: String, as format: LinkImport) async throws(LinkServiceError) -> ImportReport {
        try await format.run(text, api: admin)
    }

    /// Writes every link a page at a time, as `GET /api/links/export` does: `waypoint-links export`.
    ///
    /// ```swift
    /// try await service.exportLinks(as: .csv) { chunk in FileHandle.standardOutput.write(Data(chunk.utf8)) }
    /// ```
    public func exportLinks(as format: LinkExport.Format, to write: (String) async throws -> Void) async throws {
        try await LinkExport(api: admin, format: format).write(write)
    }

    /// The routes: `/.well-known/…`, `/health`, `/metrics`, `/api/links…` (with a token),
    /// `/api/resolve/{code}`, `/api/claims`, `/c/{token}`, the admin page under `/admin` and `/{code}`.
    /// HEAD is answered wherever GET is, and a method a path does not take gets 405 with `Allow`.
    public func router() -> Hummingbird.Router<LinkRequestContext> {
        let allowedMethods = AllowedMethods<LinkRequestContext>()
        let router = MethodRouter(
            Hummingbird.Router(context: LinkRequestContext.self, options: .autoGenerateHeadEndpoints),
            allowed: allowedMethods
        )
        // Outermost, so that refusals are counted with their status too.
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: ErrorMiddleware(allowedMethods: allowedMethods))
        router.get("/.well-known/apple-app-site-association") { request, _ in try appleAppSiteAssociation(request) }
        router.get("/.well-known/assetlinks.json") { request, _ in try assetLinks(request) }
        router.get("/health") { _, _ in try await health() }
        if let metrics {
            router.get("/metrics") { _, _ in Self.metricsResponse(metrics) }
        }
        router.get("/api/resolve/:code") { request, context in
            try await resolve(request, context, code: context.parameters.get("code") ?? "")
        }
        router.group("/api/claims")
            .add(middleware: RateLimitMiddleware(limiter: claimLimiter, clients: clientIdentification, now: now))
            .post { request, _ in try await claims.claim(request) }
        adminPage.register(
            on: router.group("/admin")
                .add(middleware: RateLimitMiddleware(limiter: adminLimiter, clients: clientIdentification, now: now))
        )
        router.get("/c/:token") { _, context in try claims.open(token: context.parameters.get("token") ?? "") }
        admin.register(
            on: router.group("/api/links")
                .add(middleware: RateLimitMiddleware(limiter: adminLimiter, clients: clientIdentification, now: now))
                .add(middleware: TokenAuthentication(store: store, use: tokenUse))
        )
        webhooks.register(
            on: router.group("/api/webhooks")
                .add(middleware: RateLimitMiddleware(limiter: adminLimiter, clients: clientIdentification, now: now))
                .add(middleware: TokenAuthentication(store: store, use: tokenUse))
        )
        // The bare prefixes of the service's own routes are no code either: the same 404 page, not
        // the router's JSON.
        for prefix in ["/c", "/api"] {
            router.get(RouterPath(prefix)) { request, context in
                try await visit(request, context, code: String(prefix.dropFirst()))
            }
        }
        router.get(":code") { request, context in
            try await visit(request, context, code: context.parameters.get("code") ?? "")
        }
        router.get("/") { request, context in try await visitLongLink(request, context) }
        return router.finish()
    }

    // MARK: Association files

    func appleAppSiteAssociation(_ request: Request) throws -> Response {
        let host = request.head.authority ?? ""
        guard let file = wellKnown.appleAppSiteAssociation(forHost: host) else {
            throw LinkServiceError(
                .notFound,
                "'\(host)' is not one of the app's domains; no association file is served for it."
            )
        }
        return serve(file, request)
    }

    func assetLinks(_ request: Request) throws -> Response {
        let host = request.head.authority ?? ""
        guard wellKnown.serves(host: host) else {
            throw LinkServiceError(
                .notFound,
                "'\(host)' is not one of the app's domains; no association file is served for it."
            )
        }
        guard let file = wellKnown.assetLinks else {
            throw LinkServiceError(.notFound, "The manifest has no 'android' section, so there is no assetlinks.json.")
        }
        return serve(file, request)
    }

    /// Always 200 with the bytes (or 304 for a matching `If-None-Match`), never a redirect: iOS does
    /// not follow one for this file. Apple's CDN caches it about a day, so an hour here is harmless.
    private func serve(_ file: WellKnownFiles.File, _ request: Request) -> Response {
        var headers: HTTPFields = [
            .contentType: "application/json",
            .eTag: file.entityTag,
            .cacheControl: "public, max-age=3600",
        ]
        if let tags = request.headers[.ifNoneMatch],
            tags.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == file.entityTag
            })
        {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.body)))
    }

    // MARK: Health

    struct Health: Encodable {
        let status: String
        let links: String
    }

    func health() async throws -> Response {
        // A read through the store: a service whose database is gone is not healthy.
        _ = try await store.links(after: nil, limit: 1, containing: nil)
        return JSONBody.response(Health(status: "ok", links: "readable"))
    }

    // MARK: Metrics

    static func metricsResponse(_ registry: PrometheusCollectorRegistry) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer()))
        )
    }

    // MARK: Looking up a code a client asked for

    /// The link a code names. A database read costs the client one unknown-code token, given back
    /// when the code names a link; so a scanner's concurrent requests cannot outrun the limit.
    /// A code that breaks the code rules (`favicon.ico`, `robots.txt`) names nothing without a
    /// read and costs nothing.
    ///
    /// - Throws: ``LinkServiceError`` `rateLimited` once the client has asked for too many codes
    ///   that name nothing, whatever this code names.
    func lookUp(
        _ code: String?,
        at date: Date,
        _ request: Request,
        _ context: LinkRequestContext
    ) async throws -> ShortLink? {
        guard let code else { return nil }
        let client = clientIdentification.key(request, context)
        if let link = cache.link(code: code, at: date) {
            if unknownCodeLimiter.blocks(client, at: date) { throw unknownCodeLimiter.refusal }
            return link
        }
        guard unknownCodeLimiter.spend(client, at: date) else { throw unknownCodeLimiter.refusal }
        // Taken before the read: an edit or delete committed meanwhile keeps this read out of the cache.
        let ticket = cache.ticket()
        guard let link = try await store.link(code: code) else { return nil }
        unknownCodeLimiter.refund(client, at: date)
        cache.keep(link, at: date, ticket: ticket)
        return link
    }

    // MARK: Expanding a short link in the app

    /// What the app needs when a short link opened it: the deep link to hand its dispatcher.
    struct Resolved: Encodable {
        let code: String
        let deepLink: String
        let route: String
    }

    /// `GET /api/resolve/{code}`, without a token: the app calls it when iOS or Android opened it
    /// for a short link, and gets the deep link behind the code, with the query the app was opened
    /// with (`/api/resolve/spring?utm_source=news`) passed on. It tells nothing the landing page
    /// does not already show. Asked on one of the short-link domains (the app calling the host it
    /// was opened with), it answers as `/{code}` there does: only for links on that domain.
    func resolve(_ request: Request, _ context: LinkRequestContext, code text: String) async throws -> Response {
        let code = try LinkRules.normalizedCode(text)
        let date = now()
        guard let link = try await lookUp(code, at: date, request, context), answers(link, on: request) else {
            throw LinkServiceError(.notFound, "No link has the code '\(code)'.")
        }
        let expired = link.isExpired(at: date)
        let client = ClientKind(userAgent: request.headers[.userAgent])
        try await count(
            ClickKey(code: code, at: date, client: client, outcome: expired ? .expired : .app),
            request,
            referrer: ClickSource(.referrer, ClickSource.app)
        )
        guard !expired else { throw LinkServiceError(.expired, "The link '\(code)' has expired.") }
        return JSONBody.response(
            Resolved(
                code: link.code,
                deepLink: admin.rules.deepLink(of: link, passing: request.uri.query),
                route: link.route
            )
        )
    }

    // MARK: Visits

    /// Counts a visit, unless it is a HEAD: link checkers, unfurlers and uptime monitors send those,
    /// and nobody followed the link. Where it came from is counted with it: the `Referer`'s host
    /// unless `referrer` says otherwise, and the country when the CDN's header is configured.
    func count(_ key: ClickKey, _ request: Request, referrer: ClickSource? = nil) async throws {
        guard request.method != .head else { return }
        var sources = [referrer ?? ClickSource.referrer(request.headers[.referer])]
        if let countryHeader { sources.append(ClickSource.country(request.headers[countryHeader])) }
        try await clicks.count(key, from: sources)
    }

    /// Not among HTTPTypes' names; made once rather than checked on every visit.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")

    /// Whether the request's `Host` is one short links answer on: one of the manifest's short-link
    /// domains, or a loopback name (a person trying the service locally, a health check on the same
    /// machine). Any other name pointed at the service gets the 404 page: nobody can serve this
    /// app's links under a domain of their own.
    func isLinkHost(_ request: Request) -> Bool {
        requestHost(request).map(linkHosts.contains) ?? false
    }

    /// The request's host, lowercased, without port or trailing dot.
    func requestHost(_ request: Request) -> String? {
        request.head.authority.map { LinkDomains.normalized(Authority.host($0)) }
    }

    /// Whether `link` answers on the request's host: its own domain, or a loopback name. A code is
    /// unique across domains, and `go.example.com/spring` is not `links.example.com/spring`'s link:
    /// on another listed domain it names nothing.
    func answers(_ link: ShortLink, on request: Request) -> Bool {
        guard let host = requestHost(request), linkDomains.domain(named: host) != nil else { return true }
        return host == linkDomains.domain(of: link)
    }

    func visit(_ request: Request, _ context: LinkRequestContext, code text: String) async throws -> Response {
        // A code that breaks the code rules, or a host that is not the short links', names no link:
        // the same 404 page, without a lookup.
        let date = now()
        let code = isLinkHost(request) ? try? LinkRules.normalizedCode(text) : nil
        let link = try await lookUp(code, at: date, request, context).flatMap { answers($0, on: request) ? $0 : nil }
        let client = ClientKind(userAgent: request.headers[.userAgent])
        let answer = VisitAnswer.for(
            code: text,
            link: link,
            client: client,
            query: request.uri.query,
            now: date,
            settings: visits,
            // Spent only when the answer would carry a token: the limit counts tokens, not visits.
            mayIssueClaim: { claimTokenLimiter.spend(clientIdentification.key(request, context), at: date) }
        )
        if let reason = answer.leftBehind, request.method != .head {
            // Counted, and named at debug only: anyone can send a long query to a real code, and a
            // line per visit at the default level would let a stranger fill the log.
            serviceMetrics.queryLeftBehind(reason).increment()
            context.logger.debug(
                "a visit's query was not passed on whole",
                metadata: ["code": "\(link?.code ?? text)", "reason": "\(reason.rawValue)"]
            )
        }
        // Only visits of links that exist are counted: anyone can ask for any code.
        if let link {
            try await count(ClickKey(code: link.code, at: date, client: client, outcome: answer.outcome), request)
        }
        return Self.response(answer)
    }

    /// `GET /?link=…`: a long Dynamic Link (``LongLink``), when long links are on, answered as a
    /// short link with its fields would be; without `link`, or with long links off, the 404 page
    /// an unknown code gets. Its visits are counted in
    /// `waypoint_links_long_link_visits_total{client, outcome}`: there is no code to count them by.
    func visitLongLink(_ request: Request, _ context: LinkRequestContext) async throws -> Response {
        let date = now()
        guard let longLinks, let query = request.uri.query, isLinkHost(request),
            let domain = requestHost(request).flatMap(linkDomains.domain(named:)) ?? linkDomains.first
        else { return try await visit(request, context, code: "") }
        let client = ClientKind(userAgent: request.headers[.userAgent])
        let answer: VisitAnswer
        do {
            let link = try longLinks.link(query: query, on: domain, now: date)
            answer = VisitAnswer.for(
                code: "",
                link: link,
                client: client,
                // Only the preview's page URL uses it: a long link passes no query on.
                query: query,
                now: date,
                settings: visits,
                mayIssueClaim: { claimTokenLimiter.spend(clientIdentification.key(request, context), at: date) }
            )
        } catch {
            // Anyone can write a long link: a broken one is a visitor's 404 page, and named at
            // debug only, as a query left behind is; escaped, since the reason quotes the link's
            // decoded values, which may hold a line break.
            context.logger.debug(
                "a long link was not followed",
                metadata: ["reason": "\(error.message.debugDescription)"]
            )
            answer = VisitAnswer.for(code: "", link: nil, client: client, now: date, settings: visits)
        }
        if request.method != .head {
            serviceMetrics.longLinkVisits(client: client, outcome: answer.outcome).increment()
        }
        return Self.response(answer)
    }

    /// The HTTP answer of a visit: a redirect, or a page that no cache keeps.
    static func response(_ answer: VisitAnswer) -> Response {
        var headers: HTTPFields = [
            // A link can be edited or expire: no cache may keep the answer.
            .cacheControl: "no-store",
            .xContentTypeOptions: "nosniff",
        ]
        // The landing page's links must not tell the next site which code was followed.
        if let referrerPolicy = Self.referrerPolicy { headers[referrerPolicy] = "no-referrer" }
        if let location = answer.location {
            headers[.location] = location
            return Response(status: HTTPResponse.Status(code: answer.status), headers: headers)
        }
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = Pages.contentSecurityPolicy
        return Response(
            status: HTTPResponse.Status(code: answer.status),
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: answer.html ?? ""))
        )
    }
}

/// Why the service did not start: what in the manifest or the options to change.
public struct LinkServiceStartError: Error, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
