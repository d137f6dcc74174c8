/// A navigation a web view is about to perform, with the facts that decide what it may do
/// (from `WKNavigationAction`: the request's URL, the target frame, the navigation type).
///
/// ```swift
/// let tap = WebNavigation(url: "https://example.com/books/42", isMainFrame: true, isUserInitiated: true)
/// resolver.webNavigationDecision(for: tap)     // .route
/// let script = WebNavigation(url: "myapp://pay", isMainFrame: true, isUserInitiated: false)
/// resolver.webNavigationDecision(for: script)  // .refuse("… only from a tap in the main frame …")
/// ```
public struct WebNavigation: Sendable, Hashable {
    /// The address the web view would load.
    public var url: String
    /// Whether the navigation started in the main frame and loads the main frame or a new window:
    /// not an embedded `iframe`'s (its `target="_top"` links included), and not a load the app
    /// starts itself, which no page asked for.
    public var isMainFrame: Bool
    /// Whether a person started it: a tapped link or a submitted form (`WKNavigationType`
    /// `.linkActivated`, `.formSubmitted`), not a redirect or a script setting `location`. WebKit
    /// has no public user-gesture flag and reports a script's `click()` or `submit()` the same way,
    /// so this is what the page's navigation type says, not proof of a person.
    public var isUserInitiated: Bool

    /// A navigation to `url`; see the example above.
    public init(url: String, isMainFrame: Bool, isUserInitiated: Bool) {
        self.url = url
        self.isMainFrame = isMainFrame
        self.isUserInitiated = isUserInitiated
    }
}

/// What a web view's navigation may do beyond the default: route in the app or open another app
/// only from a tap in the main frame.
///
/// ```swift
/// resolver.webNavigationDecision(for: navigation, allowing: [.withoutTap])
/// ```
public struct WebNavigationAllowances: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Navigations no one tapped (a script, a redirect) may route and open other apps.
    public static let withoutTap = WebNavigationAllowances(rawValue: 1 << 0)
    /// Navigations of embedded frames may route and open other apps.
    public static let fromSubframes = WebNavigationAllowances(rawValue: 1 << 1)
}
