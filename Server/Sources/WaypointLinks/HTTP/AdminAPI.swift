import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The admin API under `/api/links`, as `Server/openapi.yaml` describes it: create, read, list
/// (a page at a time, in code order), update and delete short links.
struct AdminAPI: Sendable {
    let rules: LinkRules
    let store: any LinkStore
    let domains: LinkDomains
    let now: @Sendable () -> Date
    /// Tells the webhooks of each link created, changed and deleted, once it is stored.
    var events = WebhookEvents.none
    /// Where a failure the answer does not detail is written.
    var logger = Logger(label: "waypoint-links.api")
    /// One import request at a time.
    let importTurn = ImportTurn()

    /// The most links one page lists, and how many when the request does not say.
    static let maxPageSize = 200
    static let defaultPageSize = 50

    /// A link as the API returns it: the stored link and its short URL.
    struct LinkBody: Encodable {
        let link: ShortLink
        let url: String

        func encode(to encoder: any Encoder) throws {
            try link.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(url, forKey: .url)
        }

        enum Key: String, CodingKey { case url }
    }

    struct Page: Encodable {
        let links: [LinkBody]
        /// The `after` to ask for the next page; absent on the last.
        let next: String?
    }

    /// Each endpoint with the query parameters it reads; any other is refused (``Request/takingQuery(_:at:)``).
    func register(on router: RouterGroup<LinkRequestContext>) {
        router.post { request, _ in
            try request.takingQuery([], at: "POST /api/links")
            return try await create(request)
        }
        router.post("bulk") { request, _ in
            try request.takingQuery([], at: "POST /api/links/bulk")
            return try await BulkCreation(api: self).handle(request)
        }
        router.post("import") { request, _ in
            try request.takingQuery(["format", "domain"], at: "POST /api/links/import")
            return try await LinkImport.handle(request, api: self)
        }
        // Before ":code": a link cannot have the code "export" (LinkRules.reservedCodes).
        router.get("export") { request, _ in
            try request.takingQuery(["format"], at: "GET /api/links/export")
            return try LinkExport.handle(request, api: self)
        }
        router.get { request, _ in
            try request.takingQuery(["after", "limit", "q"], at: "GET /api/links")
            return try await list(request)
        }
        router.get(":code") { request, context in
            try request.takingQuery([], at: "GET /api/links/CODE")
            return try await read(try code(context))
        }
        router.patch(":code") { request, context in
            try request.takingQuery([], at: "PATCH /api/links/CODE")
            return try await update(try code(context), request)
        }
        router.delete(":code") { request, context in
            try request.takingQuery([], at: "DELETE /api/links/CODE")
            return try await delete(try code(context))
        }
        router.get(":code/clicks") { request, context in
            try request.takingQuery([], at: "GET /api/links/CODE/clicks")
            return try await clicks(try code(context))
        }
        router.get(":code/analytics") { request, context in
            try request.takingQuery([], at: "GET /api/links/CODE/analytics")
            return try await analytics(try code(context))
        }
        router.get(":code/qr") { request, context in
            try request.takingQuery(["format", "size"], at: "GET /api/links/CODE/qr")
            return try await qrCode(try code(context), request)
        }
    }

    /// The link as the API shows it: on its domain (the first, for a link from before there were
    /// several), with its URL.
    func body(_ link: ShortLink) -> LinkBody {
        var shown = link
        shown.domain = domains.domain(of: link)
        return LinkBody(link: shown, url: domains.url(of: link))
    }

    func create(_ request: Request) async throws -> Response {
        created(try await create(try await JSONBody.decode(LinkInput.self, from: request)))
    }

    /// Stores a new link: the API's, the admin page's and an import's one way to create. An import
    /// accepts an expiry in the past (the link comes in expired); a person creating one does not.
    func create(_ input: LinkInput, acceptingPastExpiry: Bool = false) async throws -> ShortLink {
        let date = now()
        if let custom = input.code {
            let link = try rules.newLink(
                from: input,
                code: try LinkRules.normalizedCode(custom),
                now: date,
                acceptingPastExpiry: acceptingPastExpiry
            )
            try rules.checkNotTakenByApp(link.code, on: link.domain, chosen: true)
            guard try await store.insert(link) else {
                throw LinkServiceError(
                    .codeTaken,
                    "The code '\(link.code)' is taken; choose another or leave 'code' out."
                )
            }
            await events.emit(.linkCreated, body(link))
            return link
        }
        // A generated code colliding is a one-in-10^20 event; a few tries make it one in never.
        for _ in 0..<4 {
            let link = try rules.newLink(
                from: input,
                code: CodeGenerator.make(),
                now: date,
                acceptingPastExpiry: acceptingPastExpiry
            )
            try rules.checkNotTakenByApp(link.code, on: link.domain, chosen: false)
            if try await store.insert(link) {
                await events.emit(.linkCreated, body(link))
                return link
            }
        }
        throw LinkServiceError(.unavailable, "No free code was found; try again.")
    }

    private func created(_ link: ShortLink) -> Response {
        JSONBody.response(body(link), status: .created, headers: [.location: "/api/links/\(link.code)"])
    }

    func list(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        var limit = Self.defaultPageSize
        if let text = query["limit"] {
            guard let value = Int(String(text)), (1...Self.maxPageSize).contains(value) else {
                throw LinkServiceError(.invalidRequest, "'limit' is a whole number from 1 to \(Self.maxPageSize).")
            }
            limit = value
        }
        let after = try query["after"].map { try LinkRules.normalizedCode(String($0)) }
        // The admin page's search: the code or the deep link contains it, ASCII case aside.
        let search = query["q"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        // One more than the page, to know whether another follows.
        let links = try await store.links(after: after, limit: limit + 1, containing: search)
        let page = links.prefix(limit)
        return JSONBody.response(Page(links: page.map(body), next: links.count > limit ? page.last?.code : nil))
    }

    func read(_ code: String) async throws -> Response {
        JSONBody.response(body(try await existing(code)))
    }

    func update(_ code: String, _ request: Request) async throws -> Response {
        JSONBody.response(body(try await update(code, with: try await JSONBody.decode(LinkInput.self, from: request))))
    }

    /// Changes a link: the API's and the admin page's one way to edit. The change is applied to
    /// the link as stored when it is written: an edit that meets another one under way (a field
    /// each, from two people) reads the link again and applies itself to that, so neither undoes
    /// the other.
    func update(_ code: String, with input: LinkInput) async throws -> ShortLink {
        try await update(code) { _ in input }
    }

    /// Changes a link with the edit `making` derives from it as stored (the admin page keeps the
    /// fields it does not show from the link being changed), anew on each try.
    func update(_ code: String, making input: (ShortLink) -> LinkInput) async throws -> ShortLink {
        for _ in 1...Self.maximumEditTries {
            let current = try await existing(code)
            let link = try rules.updated(current, with: input(current), now: now())
            switch try await store.replace(link, ifStill: current) {
            case .replaced:
                await events.emit(.linkUpdated, body(link))
                return link
            case .notFound: throw notFound(code)
            case .changedMeanwhile: continue
            }
        }
        throw LinkServiceError(
            .unavailable,
            "The link '\(code)' was changed by other edits \(Self.maximumEditTries) times while this one was "
                + "applied; nothing of it was saved. Send it again."
        )
    }

    /// How often an edit reads the link again after other edits changed it meanwhile.
    static let maximumEditTries = 20

    func delete(_ code: String) async throws -> Response {
        guard try await store.delete(code: code) else { throw notFound(code) }
        await events.emit(.linkDeleted, WebhookEvents.LinkDeleted(code: code))
        return Response(status: .noContent)
    }

    /// A link's click counts, as the API returns them.
    struct Clicks: Encodable {
        struct Row: Encodable {
            let day: String
            let client: ClientKind
            let outcome: VisitOutcome
            let count: Int
        }

        let code: String
        let total: Int
        let clicks: [Row]
    }

    func clicks(_ code: String) async throws -> Response {
        let link = try await existing(code)
        let counts = try await store.clicks(code: link.code)
        let rows = counts.map {
            Clicks.Row(
                day: ClickKey.dayText($0.key.day),
                client: $0.key.client,
                outcome: $0.key.outcome,
                count: $0.count
            )
        }
        return JSONBody.response(Clicks(code: link.code, total: counts.reduce(0) { $0 + $1.count }, clicks: rows))
    }

    /// `GET /api/links/{code}/analytics`.
    func analytics(_ code: String) async throws -> Response {
        JSONBody.response(try await analyticsOf(code))
    }

    /// `GET /api/links/{code}/qr?format=png|svg&size=N`: the QR code of the link's `url`.
    func qrCode(_ code: String, _ request: Request) async throws -> Response {
        let qr = try LinkQRCode(query: request.uri.queryParameters)
        let link = try await existing(code)
        return try qr.response(for: domains.url(of: link), code: link.code)
    }

    /// A link's clicks and installs; the admin page draws them too.
    func analyticsOf(_ code: String) async throws -> LinkAnalytics {
        let link = try await existing(code)
        return LinkAnalytics(
            code: link.code,
            clicks: try await store.clicks(code: link.code),
            sources: try await store.clickSources(code: link.code),
            installs: try await store.installs(code: link.code)
        )
    }

    func existing(_ code: String) async throws -> ShortLink {
        guard let link = try await store.link(code: code) else { throw notFound(code) }
        return link
    }

    private func notFound(_ code: String) -> LinkServiceError {
        LinkServiceError(.notFound, "No link has the code '\(code)'.")
    }

    private func code(_ context: LinkRequestContext) throws -> String {
        try LinkRules.normalizedCode(context.parameters.get("code") ?? "")
    }
}
