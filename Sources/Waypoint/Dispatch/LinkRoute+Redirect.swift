/// Routes that stand for another route: an old path kept working after a rename.
extension LinkRoute {
    /// A route whose links are redirected to `target`, filled from the match's parameters, with
    /// the arriving link's query carried over (``LinkTemplate/redirectTarget(parameters:link:)``).
    /// The target runs through policy, routing and barriers again (``HandlerResult/redirect(to:)``).
    ///
    /// ```swift
    /// LinkRoute<Screen>("old.book", "/b/{id:int}", redirectingTo: "/books/{id}")
    /// // myapp://b/7?utm_source=mail runs as /books/7?utm_source=mail
    /// ```
    public init(
        _ name: String,
        _ pattern: String,
        barriers: [String] = [],
        sources: Set<LinkSource>? = nil,
        priority: Int = 0,
        sceneRole: String? = nil,
        redirectingTo target: LinkTemplate
    ) {
        self.init(name, pattern, barriers: barriers, sources: sources, priority: priority, sceneRole: sceneRole) {
            match in
            .redirect(to: try target.redirectTarget(parameters: match.parameters, link: match.link))
        }
        redirect = target
    }
}

/// Why a redirect route's target is not a link of its router.
package struct RedirectProblem: Sendable {
    package let message: String
    /// Whether the target matched no route at all (a slip in its path), rather than a loop, a
    /// chain too long, a foreign destination or a bad template: where a nearest pattern helps.
    package let leadsNowhere: Bool

    init(_ message: String, leadsNowhere: Bool = false) {
        self.message = message
        self.leadsNowhere = leadsNowhere
    }
}

extension Router {
    /// Why a redirect route's target is not a link of this router, or `nil` when it is: what
    /// building a dispatcher checks of every `redirectingTo:` route, and the manifest of every
    /// `redirect:`, so a misspelled target fails there and not when a link arrives.
    ///
    /// The template's braces must pair, and each of its placeholders must be a parameter every
    /// shape of the route's pattern has. Filled with a value of each parameter's type (an untyped
    /// parameter tries a value of every type, since any text fits it), the target must be one of
    /// the app's own destinations when a `policy` is given, and must match a route; a redirect it
    /// meets is followed as the dispatcher follows it, up to `maximumRedirects`, to a route that
    /// shows a screen, without a loop.
    package func redirectProblem(
        of route: Route<Value>,
        to template: LinkTemplate,
        redirectOf: (Value) -> LinkTemplate?,
        maximumRedirects: Int,
        policy: LinkPolicy? = nil
    ) -> RedirectProblem? {
        if let problem = template.problem {
            return RedirectProblem("The redirect of '\(route.name)': the link template '\(template)': \(problem).")
        }
        if let (_, problem) = route.pattern.redirectPlaceholderProblem(template, of: route.name) {
            return RedirectProblem(problem)
        }
        var first: String?
        for values in Self.sampleValues(route.pattern.typedParameters) {
            guard let target = try? template.fill(from: .object(values)) else { continue }
            first = first ?? target
            switch follow(
                target,
                from: route,
                redirectOf: redirectOf,
                maximumRedirects: maximumRedirects,
                policy: policy
            )
            {
            case .showsScreen: return nil
            case .noRoute: continue
            case .problem(let problem): return RedirectProblem(problem)
            }
        }
        let leadsTo = first.map { "'\(template)' (made as '\($0)')" } ?? "'\(template)'"
        return RedirectProblem(
            "The redirect of '\(route.name)' leads to \(leadsTo), which no route that shows a screen matches.",
            leadsNowhere: true
        )
    }

    private enum RedirectEnd {
        case showsScreen
        case noRoute
        case problem(String)
    }

    /// Follows a redirect's target as the dispatcher does: each hop must be the app's own and
    /// match a route; a redirect route's own target is made from that match.
    private func follow(
        _ first: String,
        from route: Route<Value>,
        redirectOf: (Value) -> LinkTemplate?,
        maximumRedirects: Int,
        policy: LinkPolicy?
    ) -> RedirectEnd {
        var target = first
        var chain = [route.name]
        while true {
            guard chain.count <= maximumRedirects else {
                return .problem(
                    "The redirect of '\(route.name)' takes \(chain.count) redirect(s) (\(chain.joined(separator: " → "))), "
                        + "more than the dispatcher's maximumRedirects (\(maximumRedirects))."
                )
            }
            if let policy, !policy.isOwnDestination(target) {
                return .problem(
                    "The redirect of '\(route.name)' leads to '\(target)', which is not one of the app's own "
                        + "destinations (a path, one of the policy's schemes or an associated domain)."
                )
            }
            guard let match = try? match(target) else { return .noRoute }
            guard let next = redirectOf(match.route.value) else { return .showsScreen }
            guard !chain.contains(match.route.name) else {
                return .problem(
                    "The redirect of '\(route.name)' loops: \((chain + [match.route.name]).joined(separator: " → "))."
                )
            }
            chain.append(match.route.name)
            // The next route's own template is checked on its own; here it only has to lead on.
            guard let made = try? next.redirectTarget(parameters: match.parameters, link: match.link) else {
                return .noRoute
            }
            target = made
        }
    }

    /// Values for a pattern's parameters, each of its type; an untyped (`string`) parameter takes
    /// a value of every type in turn, at most 64 combinations.
    private static func sampleValues(_ parameters: [RoutePattern.TypedParameter]) -> [[String: PayloadValue]] {
        var combinations: [[String: PayloadValue]] = [[:]]
        for parameter in parameters {
            let types = parameter.type == .string ? ParameterType.allCases : [parameter.type]
            var next: [[String: PayloadValue]] = []
            for values in combinations {
                for type in types where next.count < 64 {
                    var extended = values
                    extended[parameter.name] = .string(type.sampleText)
                    next.append(extended)
                }
            }
            combinations = next
        }
        return combinations
    }
}

extension LinkTemplate {
    /// The link a match of a redirect route becomes: this template filled from the match's
    /// parameters, with the query of the link that arrived carried over as it was sent, before the
    /// template's own fragment. A placeholder the match has no value for is a
    /// ``WaypointError/Code/missingValue``.
    ///
    /// ```swift
    /// // "/books/{id}", for a match of /b/{id} on myapp://b/7?utm_source=mail
    /// try LinkTemplate("/books/{id}").redirectTarget(parameters: match.parameters, link: match.link)
    /// // "/books/7?utm_source=mail"
    /// ```
    public func redirectTarget(parameters: RouteParameters, link: DeepLink) throws(WaypointError) -> String {
        var values: [String: PayloadValue] = [:]
        for entry in parameters { values[entry.name] = .string(entry.value.stringValue) }
        let filled = try fill(from: .object(values))
        let beforeFragment = link.string.prefix { $0 != "#" }
        guard let mark = beforeFragment.firstIndex(of: "?") else { return filled }
        let query = beforeFragment[beforeFragment.index(after: mark)...]
        guard !query.isEmpty else { return filled }
        let target = filled.prefix { $0 != "#" }
        return target + (target.contains("?") ? "&" : "?") + query + filled.dropFirst(target.count)
    }
}

extension RoutePattern {
    /// The first placeholder of a redirect's `template` that is not a parameter every shape of this
    /// pattern has, with why, or `nil`: a parameter inside an optional group is missing from some
    /// links, so the target could not be made for them.
    package func redirectPlaceholderProblem(
        _ template: LinkTemplate,
        of routeName: String
    ) -> (placeholder: String, message: String)? {
        let parameters = typedParameters
        guard
            let placeholder = template.placeholders.first(where: { placeholder in
                !parameters.contains { $0.name == placeholder && $0.isInEveryShape }
            })
        else { return nil }
        let optional = parameters.contains { $0.name == placeholder } ? " in every link (it is optional)" : ""
        return (
            placeholder,
            "The redirect of '\(routeName)' uses '{\(placeholder)}', which its pattern '\(self)' does not have\(optional)."
        )
    }
}
