import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// The admin page under `/admin`: sign in with an API token, list and search links, create and
/// edit one with its deep link checked against the manifest's routes as it is typed, and a chart of
/// a link's clicks and installs. Server-rendered HTML (Mustache, every value escaped) and one small
/// script of the service's own for the live check; nothing is fetched from elsewhere.
///
/// Creating and editing go through ``AdminAPI``, so the page and the API follow one set of rules.
struct AdminPage: Sendable {
    let api: AdminAPI
    let rules: LinkRules
    let store: any LinkStore
    let sessions: AdminSessions
    let templates: AdminTemplates
    let now: @Sendable () -> Date

    /// Only the service's own script and form targets, no framing, no inline script.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    func register(on router: RouterGroup<LinkRequestContext>) {
        router.get { request, _ in try await list(request) }
        router.post("session") { request, _ in try await signIn(request) }
        router.post("signout") { request, _ in try await signOut(request) }
        router.get("admin.js") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: AdminTemplates.script))
            )
        }
        router.get("check") { request, _ in try await check(request) }
        router.get("links/new") { request, _ in try await editor(request, code: nil) }
        router.post("links") { request, _ in try await save(request, code: nil) }
        router.get("links/:code") { request, context in try await editor(request, code: context.parameters.get("code"))
        }
        router.post("links/:code") { request, context in try await save(request, code: context.parameters.get("code")) }
        router.get("links/:code/qr") { request, context in
            try await qrCode(request, code: context.parameters.get("code"))
        }
    }

    // MARK: Sessions

    /// The signed-in session's id, or nil.
    func session(_ request: Request) async throws -> String? {
        guard let cookie = AdminSessions.cookie(in: request.headers[.cookie]) else { return nil }
        return try await sessions.session(cookie, at: now(), tokens: try await store.tokens())
    }

    func signIn(_ request: Request) async throws -> Response {
        let form = try await Self.form(request)
        // Sign-in has no session yet: its form carries a token made for this visitor's sign-in nonce.
        let nonce = AdminSessions.cookie(AdminSessions.signInCookieName, in: request.headers[.cookie])
        guard sessions.checkSignIn(form["csrf"], nonce: nonce) else {
            return signInPage(request, error: Self.staleForm)
        }
        let secret = form.value("token") ?? ""
        guard APIToken.matches(secret, anyOf: try await store.tokens().map(\.secretHash)) else {
            return signInPage(
                request,
                error: "That token is not one this service issued; create one with 'waypoint-links token create'."
            )
        }
        var response = Self.redirect("/admin")
        response.headers[.setCookie] = AdminSessions.setCookie(
            try await sessions.start(tokenHash: APIToken.hash(secret), at: now())
        )
        response.headers.append(HTTPField(name: .setCookie, value: AdminSessions.clearSignInCookie))
        return response
    }

    /// Ends the session on the server, so its cookie opens nothing after, wherever it was copied.
    func signOut(_ request: Request) async throws -> Response {
        guard let id = try await session(request), let cookie = AdminSessions.cookie(in: request.headers[.cookie]),
            sessions.checkCSRF(try await Self.form(request)["csrf"], session: id)
        else { return Self.redirect("/admin") }
        try await sessions.end(cookie, at: now())
        var response = Self.redirect("/admin")
        response.headers[.setCookie] = AdminSessions.clearCookie
        return response
    }

    /// The sign-in form, with a CSRF token for the visitor's sign-in nonce (a new one, in a cookie,
    /// when the request brings none).
    func signInPage(_ request: Request, error: String? = nil) -> Response {
        var nonce = AdminSessions.cookie(AdminSessions.signInCookieName, in: request.headers[.cookie]) ?? ""
        let isNew = nonce.utf8.count != 32 || Hexadecimal.decode(nonce) == nil
        if isNew { nonce = AdminSessions.randomHex(16) }
        var values: [String: Any] = ["csrf": sessions.signInToken(nonce: nonce)]
        if let error { values["error"] = error }
        var response = page(templates.render("signin", values), status: error == nil ? .ok : .unauthorized)
        if isNew { response.headers[.setCookie] = AdminSessions.setSignInCookie(nonce) }
        return response
    }

    // MARK: Pages

    func list(_ request: Request) async throws -> Response {
        guard let cookie = try await session(request) else { return signInPage(request) }
        let query = request.uri.queryParameters
        let search = query["q"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        let after = query["after"].flatMap { try? LinkRules.normalizedCode(String($0)) }
        let limit = 50
        let links = try await store.links(after: after, limit: limit + 1, containing: search)
        let rows: [[String: Any]] = links.prefix(limit).map { link in
            ["code": link.code, "deepLink": link.deepLink, "route": link.route, "url": api.body(link).url]
        }
        var values: [String: Any] = ["csrf": sessions.csrfToken(for: cookie), "links": rows, "q": search ?? ""]
        if links.count > limit, let last = links.prefix(limit).last {
            var next = URLComponents()
            next.queryItems =
                [URLQueryItem(name: "after", value: last.code)]
                + (search.map { [URLQueryItem(name: "q", value: $0)] } ?? [])
            values["next"] = "/admin" + (next.string ?? "")
        }
        if rows.isEmpty { values["empty"] = true }
        return page(templates.render("list", values))
    }

    func editor(_ request: Request, code: String?) async throws -> Response {
        guard let cookie = try await session(request) else { return signInPage(request) }
        guard let code else { return page(templates.render("editor", formValues(nil, cookie: cookie))) }
        let link: ShortLink
        do {
            link = try await api.existing(try LinkRules.normalizedCode(code))
        } catch let error as LinkServiceError {
            return page(
                templates.render(
                    "list",
                    ["csrf": sessions.csrfToken(for: cookie), "error": error.message, "empty": true]
                ),
                status: .notFound
            )
        }
        var values = formValues(link, cookie: cookie)
        let analytics = try await api.analyticsOf(link.code)
        values["total"] = Self.numbers(analytics.total)
        values["chart"] = AdminChart(analytics: analytics).values
        return page(templates.render("editor", values))
    }

    /// The link's QR code for the editor's image and its downloads: the API's, behind the session.
    func qrCode(_ request: Request, code: String?) async throws -> Response {
        guard try await session(request) != nil else {
            throw LinkServiceError(.unauthorized, "Sign in to the admin page first.")
        }
        return try await api.qrCode(try LinkRules.normalizedCode(code ?? ""), request)
    }

    func save(_ request: Request, code: String?) async throws -> Response {
        guard let cookie = try await session(request) else { return signInPage(request) }
        let form = try await Self.form(request)
        guard sessions.checkCSRF(form["csrf"], session: cookie) else {
            return page(
                templates.render("editor", formValues(nil, cookie: cookie, error: Self.staleForm)),
                status: .forbidden
            )
        }
        // The page shows some fields of a link; an edit keeps the others (a Play package or a
        // preview image set through the API) as they are when the edit is written, so an API edit
        // made meanwhile is not undone.
        func input(keeping kept: ShortLink?) -> LinkInput {
            let preview = ShortLink.Preview(
                title: form.value("title"),
                description: form.value("description"),
                imageURL: kept?.preview?.imageURL
            )
            let fallbacks = ShortLink.Fallbacks(
                appStoreID: form.value("appStoreID"),
                playPackage: kept?.fallbacks.playPackage,
                web: form.value("web"),
                ios: form.value("ios"),
                android: form.value("android"),
                desktop: form.value("desktop")
            )
            let hasPreview = preview.title != nil || preview.description != nil || preview.imageURL != nil
            var input = LinkInput(
                code: code == nil ? form.value("code") : nil,
                domain: form.value("domain"),
                deepLink: form.value("deepLink") ?? "",
                fallbacks: fallbacks,
                preview: hasPreview ? preview : nil,
                // A checkbox is sent only when checked: its absence means "off" only from a form that
                // showed it (a post from an older page, or a script, leaves the setting as it is).
                passQuery: form["passQueryShown"] != nil ? form["passQuery"] != nil : nil
            )
            if !hasPreview { input.cleared.insert(.preview) }
            return input
        }
        do {
            let link: ShortLink
            if let code {
                link = try await api.update(try LinkRules.normalizedCode(code), making: input(keeping:))
            } else {
                link = try await api.create(input(keeping: nil))
            }
            return Self.redirect("/admin/links/\(link.code)")
        } catch let error as LinkServiceError {
            // The form again, as typed, with what to change.
            var values = formValues(nil, cookie: cookie, error: error.message)
            for field in Self.textFields { values[field] = form[field] ?? "" }
            values["passQuery"] = form["passQuery"] != nil
            values["domains"] = domainChoices(selected: form["domain"])
            if let code {
                values["existing"] = true
                values["code"] = code
            }
            return page(templates.render("editor", values), status: .unprocessableContent)
        }
    }

    /// `GET /admin/check?deepLink=…`: the route the deep link resolves to, or why none does — what
    /// the editor shows as it is typed.
    func check(_ request: Request) async throws -> Response {
        guard try await session(request) != nil else {
            throw LinkServiceError(.unauthorized, "Sign in at /admin first.")
        }
        struct Answer: Encodable {
            let route: String?
            let error: String?
        }
        let deepLink = request.uri.queryParameters["deepLink"].map(String.init) ?? ""
        do {
            return JSONBody.response(Answer(route: try rules.route(for: deepLink), error: nil))
        } catch {
            return JSONBody.response(Answer(route: nil, error: error.message))
        }
    }

    // MARK: Helpers

    /// The short-link domains to pick from, the chosen one (else the first) selected; none when
    /// there is only one to pick.
    func domainChoices(selected: String?) -> [[String: Any]] {
        let all = api.domains.all
        guard all.count > 1 else { return [] }
        let chosen = selected.flatMap(api.domains.domain(named:)) ?? all[0]
        return all.map { ["name": $0, "selected": $0 == chosen] }
    }

    /// The editor's text fields, as the form names them.
    static let textFields = [
        "code", "deepLink", "web", "ios", "android", "desktop", "appStoreID", "title", "description",
    ]

    static let staleForm = "The form was out of date or came from another page; it was not saved. Try again."

    func formValues(_ link: ShortLink?, cookie: String, error: String? = nil) -> [String: Any] {
        // A new link passes a visit's query on, as the API's does, and is on the first domain.
        var values: [String: Any] = [
            "csrf": sessions.csrfToken(for: cookie), "passQuery": true, "domains": domainChoices(selected: nil),
            "domainPicker": api.domains.all.count > 1,
        ]
        if let error { values["error"] = error }
        guard let link else { return values }
        values["domains"] = domainChoices(selected: api.domains.domain(of: link))
        values["existing"] = true
        values["code"] = link.code
        values["url"] = api.body(link).url
        values["deepLink"] = link.deepLink
        values["route"] = link.route
        values["web"] = link.fallbacks.web ?? ""
        values["ios"] = link.fallbacks.ios ?? ""
        values["android"] = link.fallbacks.android ?? ""
        values["desktop"] = link.fallbacks.desktop ?? ""
        values["passQuery"] = link.passQuery
        values["appStoreID"] = link.fallbacks.appStoreID ?? ""
        values["title"] = link.preview?.title ?? ""
        values["description"] = link.preview?.description ?? ""
        return values
    }

    static func numbers(_ counts: LinkAnalytics.Counts) -> [String: Any] {
        [
            "clicks": counts.clicks, "installs": counts.installs, "claimable": counts.claimableClicks,
            "rate": counts.claimRate.map { String(format: "%.0f%%", $0 * 100) } ?? "–",
            "breakdowns": AdminBreakdown.all(counts).map(\.values),
        ]
    }

    static func form(_ request: Request) async throws -> FormBody {
        let buffer = try await request.body.collect(upTo: JSONBody.maxRequestBytes)
        return FormBody(String(buffer: buffer))
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    func page(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .xContentTypeOptions: "nosniff",
            .contentSecurityPolicy: Self.contentSecurityPolicy,
        ]
        if let referrerPolicy = LinkService.referrerPolicy { headers[referrerPolicy] = "same-origin" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
