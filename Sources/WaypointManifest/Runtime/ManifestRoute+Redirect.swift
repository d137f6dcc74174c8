import Waypoint

extension LinkTemplate {
    /// The link a match of a redirect route becomes: this `redirect:` filled from the match's
    /// parameters, with the query of the link that arrived carried over as it was sent.
    ///
    /// ```swift
    /// // redirect: /books/{id}, for myapp://b/7?utm_source=mail
    /// redirect.redirectTarget(parameters: match.parameters, link: match.link)   // "/books/7?utm_source=mail"
    /// ```
    package func redirectTarget(parameters: RouteParameters, link: DeepLink) throws(WaypointError) -> String {
        var values: [String: PayloadValue] = [:]
        for entry in parameters { values[entry.name] = .string(entry.value.stringValue) }
        let filled = try fill(from: .object(values))
        let beforeFragment = link.string.prefix { $0 != "#" }
        guard let mark = beforeFragment.firstIndex(of: "?") else { return filled }
        let query = beforeFragment[beforeFragment.index(after: mark)...]
        guard !query.isEmpty else { return filled }
        // The query goes before the target's own fragment, if it has one.
        let target = filled.prefix { $0 != "#" }
        return target + (target.contains("?") ? "&" : "?") + query + filled.dropFirst(target.count)
    }
}

extension Manifest {
    /// Every redirect that leads to no route, with what to write instead: each route's `redirect:`
    /// is filled with a value of its parameter's type and matched against the router, the way a link
    /// redirected at run time is.
    package func redirectProblems(_ router: Router<ManifestRoute>) -> [(route: ManifestRoute, message: String)] {
        routes.compactMap { route in
            guard let redirect = route.redirect else { return nil }
            var values: [String: PayloadValue] = [:]
            for parameter in route.pattern.typedParameters where redirect.placeholders.contains(parameter.name) {
                values[parameter.name] = .string(ManifestLinter.sample(parameter.type))
            }
            let target = try? redirect.fill(from: .object(values))
            if let target, let match = try? router.match(target), match.route.value.redirect == nil { return nil }
            let patterns = routes.filter { $0.redirect == nil }.map(\.pattern.text)
            let nearest = Spelling.nearest(to: redirect.text, in: patterns).map { " Did you mean '\($0)'?" } ?? ""
            let leadsTo = target.map { "'\(redirect)' (made as '\($0)')" } ?? "'\(redirect)'"
            return (
                route,
                "The redirect of '\(route.name)' leads to \(leadsTo), which no route that shows a screen matches."
                    + nearest
            )
        }
    }
}
