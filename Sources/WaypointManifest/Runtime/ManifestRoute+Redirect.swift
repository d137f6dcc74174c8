import Waypoint

extension Manifest {
    /// Every redirect that leads to no route, with what to write instead: the core's rule
    /// (``Router/redirectProblem(of:to:redirectOf:maximumRedirects:policy:)``, the one the
    /// dispatcher checks when it is built), with the nearest pattern that shows a screen when the
    /// target leads nowhere. `maximumRedirects` is the dispatcher's default unless the app sets one.
    package func redirectProblems(
        _ router: Router<ManifestRoute>,
        maximumRedirects: Int = DispatcherConfiguration().maximumRedirects
    ) -> [(route: ManifestRoute, message: String)] {
        let policy = makePolicy()
        return router.routes.compactMap { route in
            guard let redirect = route.value.redirect,
                let problem = router.redirectProblem(
                    of: route,
                    to: redirect,
                    redirectOf: \.redirect,
                    maximumRedirects: maximumRedirects,
                    policy: policy
                )
            else { return nil }
            guard problem.leadsNowhere else { return (route.value, problem.message) }
            let patterns = routes.filter { $0.redirect == nil }.map(\.pattern.text)
            let nearest = Spelling.nearest(to: redirect.text, in: patterns).map { " Did you mean '\($0)'?" } ?? ""
            return (route.value, problem.message + nearest)
        }
    }
}
