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
