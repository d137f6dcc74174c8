#if canImport(UIKit) && canImport(WebKit)
import Foundation
import UIKit
import WebKit
import Waypoint

/// Receives a web view's script messages and decides what happens to links the web view wants to
/// open. Messages are accepted only from the main frame of an allowed origin (decided in the core);
/// the app's own pages stay in the web view, its routes are routed and other sites open outside
/// only from a tap in the main frame, and `javascript:`, `file:` and their kind are refused.
///
/// ```swift
/// let handler = WebViewLinkHandler(intake: intake, dispatcher: dispatcher) { resolver.webNavigationDecision(for: $0) }
/// webView.configuration.userContentController.add(handler, name: "openLink")
/// // in webView(_:decidePolicyFor:decisionHandler:)
/// decisionHandler(handler.policy(for: navigationAction))
/// ```
@MainActor
public final class WebViewLinkHandler: NSObject, WKScriptMessageHandler {
    /// What turns script messages and navigations into links.
    public let intake: LinkIntake
    /// Where the links go.
    public let dispatcher: any LinkDispatching
    let decide: @Sendable (WebNavigation) -> WebNavigationDecision

    /// A handler that reads with `intake`, hands links to `dispatcher`, and asks `decide` what a
    /// navigation may do; see the example above.
    public init(
        intake: LinkIntake,
        dispatcher: any LinkDispatching,
        decide: @escaping @Sendable (WebNavigation) -> WebNavigationDecision
    ) {
        self.intake = intake
        self.dispatcher = dispatcher
        self.decide = decide
        super.init()
    }

    /// Hands the message's link to the dispatcher; the core refuses a message from another frame or
    /// origin, or to a handler the intake does not list.
    public func userContentController(
        _ userContentController: WKUserContentController,
        didReceive message: WKScriptMessage
    ) {
        let result = intake.webMessage(message)
        let dispatcher = self.dispatcher
        Task { await dispatcher.receive(result) }
    }

    /// What the web view should do with a navigation: routed links are handed to the dispatcher
    /// with source `.webNavigation`, and other apps are opened only when the decision says so.
    public func policy(for action: WKNavigationAction) -> WKNavigationActionPolicy {
        let navigation = WebNavigation(action)
        switch decide(navigation) {
        case .load:
            return .allow
        case .route:
            let result = intake.webNavigation(navigation)
            let dispatcher = self.dispatcher
            Task { await dispatcher.receive(result) }
            return .cancel
        case .openOutside:
            if let url = action.request.url { UIApplication.shared.open(url) }
            return .cancel
        case .refuse:
            return .cancel
        }
    }
}
#endif
