// Stub of the WebKit API used by Waypoint's adapters. See README.md.
import Foundation
import UIKit  // the stub, built before this one

// On Apple platforms `URLRequest` is Foundation's, which WebKit re-exports; on Linux it lives in
// FoundationNetworking, re-exported here so the adapters read it with the imports they have.
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif

@MainActor open class WKSecurityOrigin: NSObject {
    open var `protocol`: String { "" }
    open var host: String { "" }
    open var port: Int { 0 }
}

@MainActor open class WKFrameInfo: NSObject {
    open var isMainFrame: Bool { true }
    open var securityOrigin: WKSecurityOrigin { WKSecurityOrigin() }
}

@MainActor open class WKScriptMessage: NSObject {
    open var name: String { "" }
    open var body: Any { "" }
    open var frameInfo: WKFrameInfo { WKFrameInfo() }
}

@MainActor open class WKUserContentController: NSObject {
    open func add(_ scriptMessageHandler: any WKScriptMessageHandler, name: String) {}
}

@MainActor public protocol WKScriptMessageHandler: NSObjectProtocol {
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
}

public enum WKNavigationActionPolicy: Int, Sendable {
    case cancel
    case allow
}

public enum WKNavigationType: Int, Sendable {
    case linkActivated = 0
    case formSubmitted = 1
    case backForward = 2
    case reload = 3
    case formResubmitted = 4
    case other = -1
}

@MainActor open class WKNavigationAction: NSObject {
    open var sourceFrame: WKFrameInfo { WKFrameInfo() }
    open var targetFrame: WKFrameInfo? { nil }
    open var navigationType: WKNavigationType { .other }
    open var request: URLRequest { URLRequest(url: URL(fileURLWithPath: "/")) }
}

@MainActor open class WKWebViewConfiguration: NSObject {
    open var userContentController = WKUserContentController()
}

// The documentation's blocks use these; the adapters do not.
@MainActor open class WKWebView: UIView {
    open var configuration: WKWebViewConfiguration { WKWebViewConfiguration() }
    open weak var navigationDelegate: (any WKNavigationDelegate)?
}

/// Every requirement is optional in the SDK; a protocol with no requirements stands for that here.
@MainActor public protocol WKNavigationDelegate: NSObjectProtocol {}
