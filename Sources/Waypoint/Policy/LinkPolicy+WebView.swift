/// What a web view should do with a link it is about to load.
public enum WebNavigationDecision: Sendable, Hashable {
    /// A page of the app's own domains with no route: load it in the web view.
    case load
    /// A route of the app matches: cancel the load and route the link in the app.
    case route
    /// Not the app's (another site, another app's scheme): cancel and let the system open it.
    case openOutside
    /// Refused by policy (`javascript:`, `file:`, user info…): cancel and do nothing.
    case refuse(String)
}

extension LinkResolver {
    /// Decides what a web view does with a navigation to `text`: the app's own pages stay in the web
    /// view unless a route takes them, other sites open outside, and nothing dangerous is loaded.
    ///
    /// ```swift
    /// resolver.webNavigationDecision(for: "https://example.com/books/42") // .route
    /// resolver.webNavigationDecision(for: "https://example.com/about")    // .load
    /// resolver.webNavigationDecision(for: "https://other.org/")           // .openOutside
    /// resolver.webNavigationDecision(for: "javascript:alert(1)")          // .refuse(…)
    /// ```
    public func webNavigationDecision(for text: String) -> WebNavigationDecision {
        switch resolve(text) {
        case .matched: .route
        case .notFound(let link): link.isWeb ? .load : .refuse("no route takes \(link)")
        case .passThrough: .openOutside
        case .forbidden(_, let reason): .refuse(reason)
        case .invalid(let error): .refuse(error.message)
        }
    }
}
