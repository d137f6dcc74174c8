import Foundation
import Waypoint

/// Finds what is wrong or suspicious in a manifest: routes that collide or can never win,
/// parameter type conflicts, quick actions the system would not show, notification and other
/// mappings that lead nowhere, and universal links the association file would not open.
///
/// ```swift
/// let findings = ManifestLinter(manifest: manifest).lint()
/// findings.first?.description
/// // "waypoint.yaml:7:5: error: Routes 'a' ('/users/{id}') and 'b' ('/users/{name}') are duplicates … [duplicate-route]"
/// ```
package struct ManifestLinter {
    package let manifest: Manifest
    /// A deployed apple-app-site-association to check against the routes, if any.
    package var associationFile: AASADocument?
    /// What reading the deployed file found; lint reports each as an `association-file` finding.
    package var associationFileProblems: [AASAProblem] = []

    package init(manifest: Manifest, associationFile: AASADocument? = nil) {
        self.manifest = manifest
        self.associationFile = associationFile
    }

    /// Checks the routes against a deployed association file, read by the same reader as
    /// `waypoint aasa check`.
    ///
    /// ```swift
    /// var linter = ManifestLinter(manifest: manifest)
    /// linter.readAssociationFile(data)
    /// linter.lint()  // its problems, then routes it would not open
    /// ```
    package mutating func readAssociationFile(_ data: Data) {
        (associationFile, associationFileProblems) = AASADocument.parse(data)
    }

    package func lint() -> [LintFinding] {
        var findings: [LintFinding] = []
        let (router, routeFindings) = buildRouter()
        findings += routeFindings
        // Two checks read each route's sample links; making them is most of linting a large table.
        let samples = Dictionary(
            (router?.routes ?? []).map { ($0.name, sampleLinks(for: $0.value)) },
            uniquingKeysWith: { first, _ in first }
        )
        findings += shadowedRoutes(router, samples: samples)
        findings += parameterTypeConflicts()
        findings += quickActionOverflow()
        findings += mappingsThatLeadNowhere(router)
        findings += providerOverlaps()
        findings += providerOrder()
        findings += ownProviderSamples(router)
        findings += appIDPlaceholders()
        findings += webOriginsThePolicyRefuses()
        findings += unusedBarrierWaits()
        findings += barrierNameSlips()
        findings += routesOffTheDomains()
        if let router {
            findings += manifest.redirectProblems(router).map { route, message in
                LintFinding(
                    severity: .error,
                    code: "redirect-leads-nowhere",
                    location: route.location,
                    message: message
                )
            }
        }
        findings += associationFileProblems.map { problem in
            LintFinding(
                severity: problem.severity == .error ? .error : .warning,
                code: "association-file",
                location: nil,
                message: "The association file: " + (problem.path.map { "\($0): " } ?? "") + problem.message
            )
        }
        findings += universalLinkCoverage(router, samples: samples)
        // What typed route code refuses (two routes that make one Swift case), so lint passes only
        // what codegen builds. Only when the routes themselves are sound: their errors come first.
        if router != nil, !routeFindings.contains(where: { $0.severity == .error }) {
            let generator = RouteCodeGenerator(manifest: manifest)
            var problems = generator.caseProblems()
            if problems.isEmpty {
                do { _ = try generator.source() } catch { problems.append(error) }
            }
            findings += problems.map { problem in
                LintFinding(
                    severity: .error,
                    code: "typed-routes",
                    location: problem.location,
                    message: problem.message
                )
            }
        }
        return findings.sorted { ($0.severity, $0.location?.line ?? 0) < ($1.severity, $1.location?.line ?? 0) }
    }

    /// Builds the router once; when that fails, adds routes one at a time, so every duplicate or
    /// ambiguity is reported, not only the first.
    private func buildRouter() -> (Router<ManifestRoute>?, [LintFinding]) {
        func build(_ routes: [Route<ManifestRoute>]) throws(WaypointError) -> Router<ManifestRoute> {
            var builder = RouterBuilder<ManifestRoute>(configuration: manifest.routerConfiguration)
            for route in routes { builder.add(route) }
            return try builder.build()
        }
        let routes = manifest.routes.map(\.routerRoute)
        if let router = try? build(routes) { return (router, []) }
        var findings: [LintFinding] = []
        var accepted: [Route<ManifestRoute>] = []
        for route in routes {
            do {
                _ = try build(accepted + [route])
                accepted.append(route)
            } catch {
                let code =
                    error.code == .ambiguousRoutes
                    ? "ambiguous-routes" : error.code == .duplicateName ? "duplicate-name" : "duplicate-route"
                findings.append(
                    LintFinding(severity: .error, code: code, location: route.value.location, message: error.message)
                )
            }
        }
        return (try? build(accepted), findings)
    }

    /// Sample links for each expansion of a route, in each form it accepts.
    func sampleLinks(for route: ManifestRoute) -> [DeepLink] {
        let pattern = route.pattern
        var links: [DeepLink] = []
        for expansion in pattern.expansions {
            let segments = expansion.flatMap { segment -> [String] in
                switch segment {
                case .literal(let text): [text]
                case .parameter(_, let type): [type.sampleText]
                case .wildcard: ["sample-value"]
                case .catchAll: ["sample", "rest"]
                }
            }
            var origins: [(String, String?)] = []
            if let scheme = pattern.scheme, scheme != "http", scheme != "https" {
                origins.append((scheme, nil))
            } else if let host = pattern.host {
                origins.append(("https", host.includesSubdomains ? "www." + host.domain : host.domain))
            } else {
                if let scheme = manifest.schemes.first { origins.append((scheme, nil)) }
                if let domain = manifest.domains.first {
                    origins.append(("https", domain.replacingOccurrences(of: "*.", with: "www.")))
                }
            }
            for (scheme, host) in origins {
                if let link = try? DeepLink(scheme: scheme, host: host, segments: segments) { links.append(link) }
            }
        }
        return links
    }

    private func shadowedRoutes(
        _ router: Router<ManifestRoute>?,
        samples samplesByRoute: [String: [DeepLink]]
    ) -> [LintFinding] {
        guard let router else { return [] }
        var findings: [LintFinding] = []
        for route in router.routes.map(\.value) {
            let samples = samplesByRoute[route.name] ?? []
            let winners = samples.compactMap { router.match($0)?.route.name }
            guard !samples.isEmpty, !winners.contains(route.name), let other = winners.first else { continue }
            findings.append(
                LintFinding(
                    severity: .warning,
                    code: "shadowed-route",
                    location: route.location,
                    message:
                        "The route '\(route.name)' can never win: its links (such as \(samples[0])) go to '\(other)' first."
                )
            )
        }
        return findings
    }

    /// The same parameter name with different types at the same position of routes sharing a prefix.
    private func parameterTypeConflicts() -> [LintFinding] {
        var seen: [String: (type: ParameterType, route: String)] = [:]
        var findings: [LintFinding] = []
        for route in manifest.routes {
            let pattern = route.pattern
            var reported = false
            for expansion in pattern.expansions {
                var prefix = ""
                for segment in expansion {
                    if case .parameter(let name, let type) = segment {
                        let key = prefix + "/{" + name + "}"
                        if let earlier = seen[key], earlier.type != type, earlier.route != route.name, !reported {
                            findings.append(
                                LintFinding(
                                    severity: .warning,
                                    code: "parameter-type-conflict",
                                    location: route.location,
                                    message:
                                        "The parameter '\(name)' after '\(prefix.isEmpty ? "/" : prefix)' is \(type) in '\(route.name)' "
                                        + "but \(earlier.type) in '\(earlier.route)'."
                                )
                            )
                            reported = true
                        } else if seen[key] == nil {
                            seen[key] = (type, route.name)
                        }
                    }
                    prefix += "/" + segment.shape
                }
            }
        }
        return findings
    }

    /// Every combination of the state values the conditions mention; more shown than the limit is a warning.
    private func quickActionOverflow() -> [LintFinding] {
        var keys: [String: Set<String>] = [:]
        for action in manifest.quickActions {
            for (key, values) in action.conditions { keys[key, default: []].formUnion(values) }
        }
        var states: [[String: String]] = [[:]]
        for (key, values) in keys.sorted(by: { $0.key < $1.key }) {
            states = states.flatMap { state in values.sorted().map { state.merging([key: $0]) { _, new in new } } }
        }
        var findings: [LintFinding] = []
        for state in states {
            let shown = manifest.quickActions.filter { $0.isShown(for: state) }
            guard shown.count > manifest.quickActionLimit else { continue }
            let hidden = shown.dropFirst(manifest.quickActionLimit).map(\.item.type).joined(separator: ", ")
            let stateText =
                state.isEmpty
                ? "every state"
                : state.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            findings.append(
                LintFinding(
                    severity: .warning,
                    code: "too-many-quick-actions",
                    location: shown[manifest.quickActionLimit].location,
                    message:
                        "For \(stateText), \(shown.count) quick actions qualify but the system shows \(manifest.quickActionLimit); "
                        + "not shown: \(hidden)."
                )
            )
        }
        return findings
    }

    /// Fills each template with samples and checks some route takes the result.
    private func mappingsThatLeadNowhere(_ router: Router<ManifestRoute>?) -> [LintFinding] {
        guard let router else { return [] }
        let resolver = LinkResolver(router: router, policy: manifest.makePolicy())
        // Each mapping with the source its links arrive with (a route limited to other sources
        // refuses them at run time, so it is no destination here either) and the values it is
        // known to carry: an `equals` rule's value fills its own key.
        var templates:
            [(
                what: String, template: LinkTemplate, source: LinkSource, known: [String: String],
                location: SourceLocation?
            )] =
                []
        for (rule, location) in manifest.notifications.rules {
            var known: [String: String] = [:]
            if case .equals(let keyPath, let value) = rule.condition { known[keyPath] = value }
            templates.append(("The notification rule", rule.link, .notification, known, location))
        }
        for category in manifest.notifications.categories {
            for action in category.actions {
                if case .link(let template) = action.target {
                    templates.append(
                        ("The action '\(action.id)' of category '\(category.id)'", template, .notification, [:], nil)
                    )
                }
            }
        }
        if let settings = manifest.notifications.settingsLink {
            templates.append(("The notification settings link", settings, .notification, [:], nil))
        }
        for activity in manifest.activities {
            templates.append(("The activity '\(activity.type)'", activity.link, .userActivity, [:], nil))
        }
        for message in manifest.webView.messages {
            if let link = message.link {
                templates.append(("The web message '\(message.name)'", link, .webMessage, [:], nil))
            }
        }
        var findings: [LintFinding] = []
        func leadsNowhere(_ what: String, _ template: LinkTemplate, _ why: String, _ location: SourceLocation?) {
            findings.append(
                LintFinding(
                    severity: .error,
                    code: "mapping-leads-nowhere",
                    location: location,
                    message: "\(what) leads to '\(template)', \(why)" + (why.hasSuffix(".") ? "" : ".")
                )
            )
        }
        for (what, template, source, known, location) in templates {
            var refusal: String?
            let leads = sampleFills(template.placeholders.filter { known[$0] == nil }, in: template).contains {
                samples in
                let values = samples.merging(known) { _, known in known }.mapValues(PayloadValue.string)
                guard let text = try? template.fill(from: Self.nest(.object(values))) else { return false }
                let resolution = resolver.resolve(text, source: source)
                let why = Self.notOpening(resolution, resolver: resolver)
                if let why { refusal = refusal ?? why }
                return resolution.match != nil && why == nil
            }
            if !leads {
                let why: String
                if let refusal {
                    why = refusal
                } else if !known.isEmpty {
                    let values = known.sorted { $0.key < $1.key }.map { "\($0.key) = '\($0.value)'" }
                    why = "which no route matches with \(values.joined(separator: ", "))"
                } else {
                    why = "which no route matches (unknown route or missing parameters)"
                }
                leadsNowhere(what, template, why, location)
            }
        }
        // A quick action's userInfo is written in the manifest: its link is made exactly as on a
        // device, so a value the userInfo carries with the wrong type shows. A placeholder the
        // userInfo does not carry is a runtime parameter, filled when the app sets the shortcut
        // (`/orders/{order_id}`): it is tried with a value of each parameter type, and only a link
        // no value can make match is an error.
        let intake = manifest.makeIntake()
        for action in manifest.quickActions {
            let what = "The quick action '\(action.item.type)'"
            let carried = PayloadValue.object(action.item.userInfo)
            let runtime = action.link.placeholders.filter { carried[$0] == nil }
            guard runtime.isEmpty else {
                let leads = sampleFills(runtime, in: action.link).contains { values in
                    var userInfo = action.item.userInfo
                    let samples = Self.nest(.object(values.mapValues(PayloadValue.string)))
                    // The manifest's userInfo values are strings, so a sample never lands inside one.
                    for (key, value) in samples.objectValue { userInfo[key] = value }
                    guard
                        case .link(let link, _) = intake.shortcut(
                            ShortcutItemSnapshot(type: action.item.type, userInfo: userInfo)
                        )
                    else { return false }
                    let resolution = resolver.resolve(link)
                    return resolution.match != nil && Self.notOpening(resolution, resolver: resolver) == nil
                }
                if !leads {
                    let names = runtime.map { "'\($0)'" }.joined(separator: ", ")
                    leadsNowhere(
                        what,
                        action.link,
                        "which no route matches whatever value the app gives \(names) when it sets the shortcut",
                        action.location
                    )
                }
                continue
            }
            let result = intake.shortcut(ShortcutItemSnapshot(type: action.item.type, userInfo: action.item.userInfo))
            switch result {
            case .failure(let error):
                leadsNowhere(
                    what,
                    action.link,
                    "but its link cannot be made from its userInfo: \(error.message)",
                    action.location
                )
            case .link(let link, _):
                let resolution = resolver.resolve(link)
                switch resolution {
                case .matched, .forbidden:
                    if let why = Self.notOpening(resolution, resolver: resolver) {
                        leadsNowhere(what, action.link, why, action.location)
                    }
                default:
                    let carried = action.item.userInfo.keys.sorted().joined(separator: ", ")
                    leadsNowhere(
                        what,
                        action.link,
                        "made from its userInfo as '\(link.string)', which no route matches"
                            + " (userInfo: \(carried.isEmpty ? "none" : carried))",
                        action.location
                    )
                }
            default: break
            }
        }
        return findings
    }

    /// Why a mapping's link, matched or refused, would still open no screen: the policy or the
    /// route refuses its source, or it lacks a query item the route needs (typed route code makes no
    /// route from it). `nil` when it opens its route, or when it matched nothing (said by the caller).
    static func notOpening(_ resolution: Resolution<ManifestRoute>, resolver: LinkResolver<ManifestRoute>) -> String? {
        switch resolution {
        case .forbidden(_, let reason):
            return "which is refused: \(reason)"
        case .matched(let match):
            guard let missing = match.route.value.queryItemProblem(in: match, resolver: resolver) else { return nil }
            return "which opens nothing: \(missing), and the link does not carry one"
        default:
            return nil
        }
    }

    /// Values to try for placeholders nothing fills in the manifest, so a mapping is an error only
    /// when no link it can make matches: each placeholder (`data.id` is read as `id`) gets a sample of
    /// each type a route parameter of that name has, or of every type when none has the name; at most
    /// 64 combinations.
    func sampleFills(_ placeholders: [String], in template: LinkTemplate? = nil) -> [[String: String]] {
        var typesByName: [String: [ParameterType]] = [:]
        func learn(_ name: String, _ type: ParameterType) {
            if typesByName[name]?.contains(type) != true { typesByName[name, default: []].append(type) }
        }
        for route in manifest.routes {
            for parameter in route.pattern.typedParameters { learn(parameter.name, parameter.type) }
            for item in route.query { learn(item.name, item.type) }
        }
        // A placeholder that fills a query item (`?page={data.p}`) takes that item's types, so typed
        // query items do not multiply into more combinations than are tried.
        var queryItemNames: [String: String] = [:]
        if let query = template?.text.split(separator: "?", maxSplits: 1).dropFirst().first {
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[1].hasPrefix("{"), parts[1].hasSuffix("}") else { continue }
                queryItemNames[String(parts[1].dropFirst().dropLast())] = String(parts[0])
            }
        }
        var fills: [[String: String]] = [[:]]
        for placeholder in Set(placeholders).sorted() {
            let name =
                queryItemNames[placeholder] ?? placeholder.split(separator: ".").last.map(String.init) ?? placeholder
            let types = typesByName[name] ?? ParameterType.allCases
            fills = fills.flatMap { fill in
                types.map { fill.merging([placeholder: $0.sampleText]) { _, new in new } }
            }
            fills = Array(fills.prefix(64))
        }
        return fills
    }

    /// Turns `{"data.messageId": v}` into `{"data": {"messageId": v}}`, so key paths resolve.
    static func nest(_ flat: PayloadValue) -> PayloadValue {
        var root: [String: PayloadValue] = [:]
        func insert(_ keys: ArraySlice<Substring>, _ value: PayloadValue, into object: inout [String: PayloadValue]) {
            guard let first = keys.first else { return }
            if keys.count == 1 {
                object[String(first)] = value
                return
            }
            var child = object[String(first)]?.objectValue ?? [:]
            insert(keys.dropFirst(), value, into: &child)
            object[String(first)] = .object(child)
        }
        for (key, value) in flat.objectValue { insert(key.split(separator: ".")[...], value, into: &root) }
        return .object(root)
    }

    /// Web-view origins the app lists whose host the policy denies or leaves to the system: the
    /// intake refuses every message from them, whatever `webView.origins` says.
    private func webOriginsThePolicyRefuses() -> [LintFinding] {
        let intake = manifest.makeIntake()
        return manifest.webView.origins.filter { !$0.hasPrefix("*.") }.compactMap { origin in
            guard let refusal = intake.refusedOriginHost(origin) else { return nil }
            return LintFinding(
                severity: .warning,
                code: "web-origin-refused",
                location: nil,
                message: "The web-view origin '\(origin)' may never post links: \(refusal). Remove one of the two."
            )
        }
    }

    /// Waits set for a barrier no route names whose name is a slip of one a route does. (A name no
    /// route uses may be a mandatory barrier's, which only the app's code knows; the dispatcher, when
    /// it is built, refuses a wait for a barrier the app did not supply.)
    /// A barrier name one route uses that is a slip of a name other routes use more (`logni` beside
    /// `login`): the app supplies barriers in code, so the misspelled one fails when the dispatcher
    /// is built, after the build that could have said so. Said here at the route.
    private func barrierNameSlips() -> [LintFinding] {
        var uses: [String: Int] = [:]
        for route in manifest.routes { for name in Set(route.barriers) { uses[name, default: 0] += 1 } }
        return manifest.routes.flatMap { route in
            route.barriers.compactMap { name -> LintFinding? in
                let commoner = uses.filter { $0.key != name && $0.value > uses[name, default: 0] }.keys.sorted()
                guard manifest.barrierWaits[name] == nil, let meant = Spelling.nearest(to: name, in: commoner) else {
                    return nil
                }
                return LintFinding(
                    severity: .warning,
                    code: "barrier-name-slip",
                    location: route.location,
                    message: "The route '\(route.name)' names the barrier '\(name)', which no other route does; "
                        + "\(uses[meant, default: 0]) routes name '\(meant)'. If it is a slip, the app's dispatcher refuses it "
                        + "when it is built."
                )
            }
        }
    }

    /// Routes on an `https` host the manifest's `domains` do not cover: the association file does not
    /// claim them and the entitlement does not list the host, so their universal links never open the
    /// app (they still match a link the app hands the router itself).
    private func routesOffTheDomains() -> [LintFinding] {
        let domains = manifest.domains.map { DomainPattern($0) }
        return manifest.routes.compactMap { route in
            guard route.pattern.scheme == "https", let host = route.pattern.host,
                route.sources?.contains(.universalLink) ?? true,
                !domains.contains(where: { $0.overlaps(host) })
            else { return nil }
            return LintFinding(
                severity: .warning,
                code: "route-off-domains",
                location: route.location,
                message: "The route '\(route.name)' is on \(host), which 'domains' does not list: no association "
                    + "file claims it, so its universal links open the browser. Add the host to 'domains'."
            )
        }
    }

    private func unusedBarrierWaits() -> [LintFinding] {
        let named = Set(manifest.routes.flatMap(\.barriers))
        // A near name that has a wait of its own is no slip of this one: this wait is only stale.
        let withoutWait = named.filter { manifest.barrierWaits[$0] == nil }.sorted()
        return manifest.barrierWaits.sorted { $0.key < $1.key }.compactMap { name, wait in
            guard !named.contains(name), let meant = Spelling.nearest(to: name, in: withoutWait) else { return nil }
            // Either side may be the slip: the wait's name, or the name the routes use.
            let routes = manifest.routes.filter { $0.barriers.contains(meant) }.map { "'\($0.name)'" }
            let those =
                routes.count == 1
                ? "the route \(routes[0]) names" : "the routes \(routes.joined(separator: ", ")) name"
            return LintFinding(
                severity: .warning,
                code: "unused-barrier",
                location: wait.location,
                message: "The barrier '\(name)' has a wait, but no route names it; \(those) '\(meant)', "
                    + "which has none. One of the two names is misspelled."
            )
        }
    }

    /// App IDs shaped like one but holding a placeholder (the loader refuses any other shape).
    private func appIDPlaceholders() -> [LintFinding] {
        manifest.appIDs.flatMap(AppID.problems).map { problem in
            LintFinding(severity: .warning, code: "appid-placeholder", location: nil, message: problem.message)
        }
    }

    /// Universal-link routes the association file would not open, and components no route handles.
    private func universalLinkCoverage(
        _ router: Router<ManifestRoute>?,
        samples: [String: [DeepLink]]
    ) -> [LintFinding] {
        guard let router, let domain = manifest.domains.first(where: { !$0.hasPrefix("*.") }) ?? manifest.domains.first
        else { return [] }
        // A deployed file that could not be read is reported as such, not replaced by the generated one.
        if associationFile == nil && !associationFileProblems.isEmpty { return [] }
        let host = domain.replacingOccurrences(of: "*.", with: "www.")
        let document = associationFile ?? AASAGenerator(manifest: manifest).document(for: domain)
        let checker = AASAChecker(document: document)
        var findings: [LintFinding] = []
        for entry in router.routes where AASAGenerator.isUniversal(entry.value, domain: domain) {
            let route = entry.value
            for link in samples[route.name] ?? [] where link.isWeb {
                let url = "https://\(host)\(link.routingPath)"
                let verdict = checker.check(url)
                if !verdict.opensApp {
                    findings.append(
                        LintFinding(
                            severity: .warning,
                            code: "universal-link-not-covered",
                            location: route.location,
                            message:
                                "The route '\(route.name)' takes universal links, but \(url) would not open the app: \(verdict.reason)."
                        )
                    )
                    break
                }
            }
        }
        // Components of a generated file come from the routes; only a deployed file can drift.
        guard associationFile != nil else { return findings }
        for (detailIndex, detail) in document.details.enumerated() {
            for (index, component) in (detail.components ?? []).enumerated() where !component.exclude {
                let pattern = component.path ?? "*"
                let samples = ParameterType.allCases.map { type in
                    AASAPattern.sampleText(pattern.replacingOccurrences(of: "?*", with: type.sampleText))
                }
                func link(_ path: String) -> DeepLink? {
                    try? DeepLink("https://\(host)\(path.hasPrefix("/") ? path : "/" + path)")
                }
                let links = samples.compactMap(link)
                // `*` and `?*` match across slashes, where a route's parameter is one segment: a link
                // one segment deeper than the pattern reads, when this component is what opens it,
                // needs a route too (`/products/*` opens `/products/12/reviews`).
                let place = "applinks.details[\(detailIndex)].components[\(index)]"
                let deeper = ParameterType.allCases.compactMap { type in
                    let wild = pattern.replacingOccurrences(of: "?*", with: "*")
                    return link(
                        AASAPattern.sampleText(
                            wild.replacingOccurrences(of: "*", with: "\(type.sampleText)/\(type.sampleText)")
                        )
                    )
                }
                var unhandled = links.contains(where: { router.match($0) != nil }) ? nil : links.first
                if unhandled == nil {
                    unhandled = deeper.first { link in
                        let verdict = checker.check("https://\(host)\(link.routingPath)")
                        return verdict.opensApp && verdict.location == place && router.match(link) == nil
                    }
                }
                guard let first = unhandled else { continue }
                findings.append(
                    LintFinding(
                        severity: .warning,
                        code: "component-without-route",
                        location: nil,
                        message: "The association file's component \(index) of details \(detailIndex) ('\(pattern)') "
                            + "opens the app for links like \(first.routingPath), which no route handles."
                    )
                )
            }
        }
        return findings
    }
}
