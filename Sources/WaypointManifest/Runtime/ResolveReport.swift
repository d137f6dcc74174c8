import Waypoint

/// What `waypoint resolve` says about one input: the fields of its JSON object.
package struct ResolveReport: Sendable, Hashable {
    package var input: String
    package var source: LinkSource?
    package var status: ResolutionStatus
    package var route: String?
    package var pattern: String?
    package var parameters: [RouteParameters.Entry] = []
    package var wildcard: [String] = []
    package var query: [QueryItem] = []
    package var fragment: String?
    package var barriers: [String] = []
    /// The sources the matched route accepts, when it limits them.
    package var sources: [LinkSource] = []
    /// The app's name for the screen the matched route shows, and the tab selected first: what
    /// ``Manifest/makeDispatcher(destinations:barriers:mandatoryBarriers:fallbacks:configuration:store:clock:)``
    /// hands the navigator.
    package var destination: String?
    package var tab: String?
    /// The link a redirect route's match becomes (the route shows no screen of its own).
    package var redirect: String?
    /// How the screen is shown, when the route says other than the default (pushed over the root).
    package var presentation: RoutePresentation?
    /// The role of the window the matched route's links go to when they arrive without one.
    package var scene: String?
    /// The window content the input asks for (a notification's `target-content-id`).
    package var targetContentIdentifier: String?
    /// What in the intake read a notification: the app's key, a provider's place or button (the
    /// preset that matched, and where), a rule, a category's action, or a provider's marker.
    package var readBy: String?
    package var reason: String?

    /// Resolves what intake made of `input` against the manifest's router and policy, honouring each
    /// route's allowed sources.
    package static func make(
        input: String,
        intake result: IntakeResult,
        readBy: String? = nil,
        resolver: LinkResolver<ManifestRoute>
    ) -> ResolveReport {
        var report = ResolveReport(input: input, status: .invalid)
        report.readBy = readBy
        let link: DeepLink
        switch result {
        case .failure(let error):
            if error.code == .notForRouting { report.status = .notForRouting }
            report.reason = error.message
            return report
        case .action(let invocation) where invocation.providerButton != nil:
            report.status = .notForRouting
            report.reason =
                "\(invocation.providerButton ?? "The provider")'s button '\(invocation.actionIdentifier)' opens no "
                + "link: the app's action handler for it runs, or, without one, the app opens where it was."
            return report
        case .action(let invocation):
            report.status = .notFound
            report.reason =
                "The action '\(invocation.actionIdentifier)' runs the app's action handler; it opens no route."
            return report
        case .dismissed:
            report.status = .notFound
            report.reason = "The notification was dismissed; it opens no route."
            return report
        case .link(let received, _):
            link = received
        }
        report.source = link.source
        report.targetContentIdentifier = link.targetContentIdentifier
        report.query = link.queryItems
        report.fragment = link.fragment
        let resolved = resolver.resolvedLink(link, every: false)
        switch resolved.resolution {
        case .invalid(let error):
            report.reason = error.message
        case .forbidden(_, let reason):
            report.status = .forbidden
            report.reason = reason
            // Forbidden after policy allowed it: a route that does not take this source.
            report.route = resolved.refusedRoute?.name
        case .passThrough:
            report.status = .passThrough
            report.reason = "Not the app's link: the system opens it."
        case .notFound:
            report.status = .notFound
            report.reason = "No route matches \(link.routingPath)." + typeMismatch(link, in: resolver.router)
        case .matched(let match):
            report.status = .matched
            report.route = match.route.name
            report.pattern = match.route.pattern.text
            report.parameters = match.parameters.entries
            report.wildcard = match.wildcards
            report.barriers = match.route.value.barriers
            report.sources = match.route.value.sources.map { $0.sorted { $0.rawValue < $1.rawValue } } ?? []
            if let redirect = match.route.value.redirect {
                do {
                    report.redirect = try redirect.redirectTarget(parameters: match.parameters, link: match.link)
                } catch {
                    report.reason = error.message
                }
            } else {
                report.destination = match.route.value.destinationKey
                report.tab = match.route.value.tab
            }
            let presentation = match.route.value.presentation
            report.presentation = presentation == .pushOverRoot ? nil : presentation
            report.scene = match.route.value.scene
            if let missing = match.route.value.queryItemProblem(in: match, resolver: resolver) {
                report.status = .invalid
                report.reason =
                    "The link opens nothing: \(missing), and the link carries none (or one of another type); typed "
                    + "route code makes no route from it."
            }
        }
        return report
    }

    /// When a route has the link's shape but a typed parameter refused its value (`abc` for
    /// `/products/{id:int}`), a sentence naming the route and the refused values; else nothing.
    /// Found by matching against the routes that take the link's source with every parameter
    /// untyped, then with one typed at a time, so the router's own rules decide both.
    static func typeMismatch(_ link: DeepLink, in router: Router<ManifestRoute>) -> String {
        func relaxedRoute(_ route: Route<ManifestRoute>, typing kept: String? = nil) -> Route<Route<ManifestRoute>>? {
            guard let pattern = try? RoutePattern(untyped(route.pattern.text, keeping: kept)) else { return nil }
            return Route(name: route.name, pattern: pattern, priority: route.priority, sources: nil, value: route)
        }
        func build(_ routes: [Route<Route<ManifestRoute>>]) -> Router<Route<ManifestRoute>>? {
            var builder = RouterBuilder<Route<ManifestRoute>>(configuration: router.configuration)
            for route in routes { builder.add(route) }
            return try? builder.build()
        }
        let candidates = router.routes.filter { route in
            route.accepts(from: link.source) && route.pattern.typedParameters.contains { $0.type != .string }
        }.compactMap { relaxedRoute($0) }
        // Two routes that differ only in a parameter's type are one shape untyped: keep the first.
        var relaxed = build(candidates)
        if relaxed == nil, !candidates.isEmpty {
            var kept: [Route<Route<ManifestRoute>>] = []
            for route in candidates where build(kept + [route]) != nil { kept.append(route) }
            relaxed = build(kept)
        }
        guard let match = relaxed?.match(link) else { return "" }
        let route = match.route.value
        let refused = route.pattern.typedParameters.filter { $0.type != .string }.compactMap { parameter -> String? in
            guard let value = match.parameters.string(parameter.name),
                let typedAlone = relaxedRoute(route, typing: parameter.name),
                build([typedAlone])?.match(link) == nil
            else { return nil }
            return "'\(value)' for {\(parameter.name):\(parameter.type)}"
        }
        guard !refused.isEmpty else { return "" }
        return " The route '\(route.name)' (\(route.pattern.text)) has its shape but not its types: the link gives "
            + "\(refused.joined(separator: ", "))."
    }

    /// A pattern's text with each parameter's type left out but `kept`'s:
    /// `/products/{id:int}` → `/products/{id}`. (A `:` means a type only inside braces.)
    private static func untyped(_ pattern: String, keeping kept: String? = nil) -> String {
        var text = ""
        var parameter: String?
        for character in pattern {
            switch character {
            case "{" where parameter == nil:
                parameter = ""
            case "}" where parameter != nil:
                let inside = parameter ?? ""
                let name = inside.split(separator: ":", maxSplits: 1).first.map(String.init) ?? inside
                text += "{" + (name == kept ? inside : name) + "}"
                parameter = nil
            default:
                if parameter != nil { parameter?.append(character) } else { text.append(character) }
            }
        }
        return text + (parameter.map { "{" + $0 } ?? "")
    }

    /// The JSON object, with exactly the keys that apply.
    package var json: PayloadValue {
        var object: [String: PayloadValue] = ["input": .string(input), "status": .string(status.rawValue)]
        if let source { object["source"] = .string(source.rawValue) }
        if let route { object["route"] = .string(route) }
        if let pattern { object["pattern"] = .string(pattern) }
        if status == .matched {
            object["parameters"] = .object(
                Dictionary(parameters.map { ($0.name, Self.json($0.value)) }, uniquingKeysWith: { first, _ in first })
            )
            if !wildcard.isEmpty { object["wildcard"] = .array(wildcard.map(PayloadValue.string)) }
            if !barriers.isEmpty { object["barriers"] = .array(barriers.map(PayloadValue.string)) }
            if !sources.isEmpty { object["sources"] = .array(sources.map { .string($0.rawValue) }) }
            if let destination { object["destination"] = .string(destination) }
            if let tab { object["tab"] = .string(tab) }
            if let presentation { object["presentation"] = .string(presentation.rawValue) }
            if let redirect { object["redirect"] = .string(redirect) }
            if let scene { object["scene"] = .string(scene) }
        }
        if let targetContentIdentifier { object["targetContentIdentifier"] = .string(targetContentIdentifier) }
        if !query.isEmpty {
            var grouped: [String: [PayloadValue]] = [:]
            for item in query { grouped[item.name, default: []].append(.string(item.value ?? "")) }
            object["query"] = .object(grouped.mapValues(PayloadValue.array))
        }
        if let fragment { object["fragment"] = .string(fragment) }
        if let readBy { object["readBy"] = .string(readBy) }
        if let reason { object["reason"] = .string(reason) }
        return .object(object)
    }

    private static func json(_ value: ParameterValue) -> PayloadValue {
        switch value {
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .bool(let flag): .bool(flag)
        case .uuid, .string: .string(value.stringValue)
        }
    }

    /// Lines for people.
    package var text: String {
        var lines = [input, "  status:     \(status.rawValue)"]
        if let source { lines.append("  source:     \(source)") }
        if let route { lines.append("  route:      \(route)" + (pattern.map { "  (\($0))" } ?? "")) }
        for entry in parameters { lines.append("  parameter:  \(entry.name) = \(entry.value)") }
        if !wildcard.isEmpty { lines.append("  wildcard:   \(wildcard.joined(separator: ", "))") }
        for item in query { lines.append("  query:      \(item)") }
        if let fragment { lines.append("  fragment:   \(fragment)") }
        if !barriers.isEmpty { lines.append("  barriers:   \(barriers.joined(separator: ", "))") }
        if !sources.isEmpty { lines.append("  sources:    \(sources.map(\.rawValue).joined(separator: ", "))") }
        if let redirect { lines.append("  redirect:   \(redirect)") }
        if let destination {
            lines.append(
                "  destination: \(destination)" + (tab.map { "  (tab \($0))" } ?? "")
                    + (presentation.map { "  (\($0.rawValue))" } ?? "")
            )
        }
        if let scene { lines.append("  scene:      \(scene)") }
        if let targetContentIdentifier { lines.append("  target:     \(targetContentIdentifier)") }
        if let readBy { lines.append("  read by:    \(readBy)") }
        if let reason { lines.append("  reason:     \(reason)") }
        return lines.joined(separator: "\n")
    }
}
