// Stub of the WebKit API used by Waypoint's adapters. See README.md.
import Foundation

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

@MainActor open class WKUserContentController: NSObject {}

@MainActor public protocol WKScriptMessageHandler: NSObjectProtocol {
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
}

public enum WKNavigationActionPolicy: Int, Sendable {
    case cancel
    case allow
}
