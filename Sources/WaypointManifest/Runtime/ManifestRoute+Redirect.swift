import Waypoint

extension Manifest {
    /// Every redirect that leads to no route, with what to write instead: the core's rule
    /// (``Router/redirectProblem(of:to:isRedirect:)``, the one the dispatcher checks when it is
    /// built), with the nearest pattern that shows a screen.
    package func redirectProblems(_ router: Router<ManifestRoute>) -> [(route: ManifestRoute, message: String)] {
        router.routes.compactMap { route in
            guard let redirect = route.value.redirect,
                let problem = router.redirectProblem(of: route, to: redirect, isRedirect: { $0.redirect != nil })
            else { return nil }
            let patterns = routes.filter { $0.redirect == nil }.map(\.pattern.text)
            let nearest = Spelling.nearest(to: redirect.text, in: patterns).map { " Did you mean '\($0)'?" } ?? ""
            return (route.value, problem + nearest)
        }
    }
}
