import Waypoint

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
