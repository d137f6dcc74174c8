/// What a web view should do with a link it is about to load.
///
/// ```swift
/// let tap = WebNavigation(url: "https://apple.com", isMainFrame: true, isUserInitiated: true)
/// resolver.webNavigationDecision(for: tap)   // .openOutside
/// ```
public enum WebNavigationDecision: Sendable, Hashable {
    /// A page of the app's own domains with no route: load it in the web view.
    case load
    /// A route of the app matches: cancel the load and route the link in the app.
    case route
    /// Not the app's (another site, another app's scheme): cancel and let the system open it.
    case openOutside
    /// Refused (`javascript:`, `file:`, user info, a plain-`http` page, a resolver set up wrong):
    /// cancel and do nothing; the text says why.
    case refuse(String)
}

extension LinkResolver {
    /// Decides what a web view does with a navigation: nothing dangerous is loaded; the app's
    /// routes are routed and other apps and sites open outside only from a tap in the main frame
    /// (unless `allowances` say otherwise); the app's own pages stay in the web view, and an
    /// embedded frame loads other sites as a browser would. Only `https` pages are loaded: a plain
    /// `http` page is refused, on the app's own domains too.
    ///
    /// The link is read with source ``LinkSource/webNavigation``, so a route limited to universal
    /// links is not routed from inside the web view: its page loads instead. Policy and routes are
    /// asked once, as for every link, so a resolver whose router and policy do not fit together
    /// (``LinkResolver/init(router:policy:)``) refuses every navigation with that mistake.
    ///
    /// ```swift
    /// let tap = { WebNavigation(url: $0, isMainFrame: true, isUserInitiated: true) }
    /// resolver.webNavigationDecision(for: tap("https://example.com/books/42")) // .route
    /// resolver.webNavigationDecision(for: tap("https://example.com/about"))    // .load
    /// resolver.webNavigationDecision(for: tap("https://other.org/"))           // .openOutside
    /// resolver.webNavigationDecision(for: tap("http://example.com/about"))     // .refuse(…): not https
    /// resolver.webNavigationDecision(for: tap("javascript:alert(1)"))          // .refuse(…)
    /// ```
    public func webNavigationDecision(
        for navigation: WebNavigation,
        allowing allowances: WebNavigationAllowances = []
    ) -> WebNavigationDecision {
        let link: DeepLink
        do {
            link = try DeepLink(navigation.url, source: .webNavigation, limits: policy.limits)
        } catch {
            return .refuse(error.message)
        }
        let fromMainFrame = navigation.isMainFrame || allowances.contains(.fromSubframes)
        let tapped = navigation.isUserInitiated || allowances.contains(.withoutTap)
        let untrusted =
            "\(link) leaves the web view only from a tap in the main frame; this navigation came "
            + (fromMainFrame ? "from a script or a redirect" : "from an embedded frame")
        // Only https is loaded: a plain-http page, even on the app's own domain, could be anyone's
        // on the way, and a page in the app's web view is trusted with its messages.
        let loadable = link.scheme == "https"
        let notHTTPS = "\(link) is not https; the web view loads https pages only"
        // Policy, then routing, once, as for every link: the verdict decides what leaves the web view.
        let verdict = resolvedLink(link, every: false)
        switch verdict.resolution {
        case .invalid(let error):
            return .refuse(error.message)
        case .forbidden(_, let reason) where verdict.isDeniedByPolicy:
            return .refuse(reason)
        case .passThrough:
            if fromMainFrame && tapped { return .openOutside }
            // Another site in an embedded frame loads there, as in a browser: nothing leaves the web view.
            guard link.isWeb && !navigation.isMainFrame else { return .refuse(untrusted) }
            return loadable ? .load : .refuse(notHTTPS)
        case .matched where fromMainFrame && tapped:
            return .route
        case .matched, .notFound, .forbidden:
            // Not routed: a link from a frame or a script, one no route takes, or one whose route
            // takes no web navigations. A web page stays a web page.
            if link.isWeb { return loadable ? .load : .refuse(notHTTPS) }
            return .refuse(fromMainFrame && tapped ? "no route takes \(link)" : untrusted)
        }
    }
}
