#if canImport(UIKit) && canImport(WebKit)
import Foundation
import UIKit
import WebKit
import Waypoint

/// Receives a web view's script messages and decides what happens to links the web view wants to
/// open. Messages are accepted only from the main frame of an allowed origin (decided in the core);
/// the app's own pages stay in the web view, its routes are routed, other sites open outside, and
/// `javascript:`, `file:` and their kind are refused.
///
/// ```swift
/// let handler = WebViewLinkHandler(intake: intake, dispatcher: dispatcher, decide: resolver.webNavigationDecision)
/// webView.configuration.userContentController.add(handler, name: "openLink")
/// // in webView(_:decidePolicyFor:decisionHandler:)
/// decisionHandler(handler.policy(for: navigationAction.request.url))
/// ```
@MainActor
public final class WebViewLinkHandler: NSObject, WKScriptMessageHandler {
    public let intake: LinkIntake
    public let dispatcher: any LinkDispatching
    let decide: @Sendable (String) -> WebNavigationDecision

    public init(
        intake: LinkIntake,
        dispatcher: any LinkDispatching,
        decide: @escaping @Sendable (String) -> WebNavigationDecision
    ) {
        self.intake = intake
        self.dispatcher = dispatcher
        self.decide = decide
        super.init()
    }

    public func userContentController(
        _ userContentController: WKUserContentController,
        didReceive message: WKScriptMessage
    ) {
        let result = intake.webMessage(message)
        let dispatcher = self.dispatcher
        Task { await dispatcher.receive(result) }
    }

    /// What the web view should do with a navigation to `url`.
    public func policy(for url: URL?) -> WKNavigationActionPolicy {
        guard let url else { return .cancel }
        switch decide(url.absoluteString) {
        case .load:
            return .allow
        case .route:
            let result = intake.url(url)
            let dispatcher = self.dispatcher
            Task { await dispatcher.receive(result) }
            return .cancel
        case .openOutside:
            UIApplication.shared.open(url)
            return .cancel
        case .refuse:
            return .cancel
        }
    }
}
#endif
