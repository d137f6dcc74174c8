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

extension Router {
    /// Why a redirect route's target is not a link of this router, or `nil` when it is. Each of the
    /// template's placeholders must be a parameter that every shape of the route's pattern has, and
    /// the template, filled with a value of each parameter's type, must match a route that is not a
    /// redirect itself. Building a dispatcher checks every `redirectingTo:` route by it, and the
    /// manifest every `redirect:`, so a misspelled target fails there and not when a link arrives.
    package func redirectProblem(
        of route: Route<Value>,
        to template: LinkTemplate,
        isRedirect: (Value) -> Bool
    ) -> String? {
        if let (_, problem) = route.pattern.redirectPlaceholderProblem(template, of: route.name) { return problem }
        var values: [String: PayloadValue] = [:]
        for parameter in route.pattern.typedParameters { values[parameter.name] = .string(parameter.type.sampleText) }
        let target = try? template.fill(from: .object(values))
        if let target, let match = try? match(target), !isRedirect(match.route.value) { return nil }
        let leadsTo = target.map { "'\(template)' (made as '\($0)')" } ?? "'\(template)'"
        return "The redirect of '\(route.name)' leads to \(leadsTo), which no route that shows a screen matches."
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
