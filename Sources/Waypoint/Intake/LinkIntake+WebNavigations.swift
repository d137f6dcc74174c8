extension LinkIntake {
    /// A web view navigation the app routes (``WebNavigationDecision/route``), with source
    /// ``LinkSource/webNavigation``: a route limited to universal links never runs from inside the
    /// web view, whatever address the page navigates to. It labels the link only; the frame and
    /// tap rules are ``LinkResolver/webNavigationDecision(for:allowing:)``'s, so call it for a
    /// navigation that decision routed.
    ///
    /// ```swift
    /// intake.webNavigation(WebNavigation(url: "https://example.com/books/42", isMainFrame: true, isUserInitiated: true))
    /// // .link("https://example.com/books/42", source .webNavigation)
    /// ```
    public func webNavigation(_ navigation: WebNavigation) -> IntakeResult {
        result { () throws(WaypointError) in
            let link = try parse(navigation.url, strict: true, source: .webNavigation)
            return .link(link, identity: DeliveryIdentity.navigation(link))
        }
    }
}
