/// What Waypoint reads from a web view's script message (`WKScriptMessage` with its `frameInfo`).
public protocol WebMessageRepresentable {
    /// The message handler's name (`window.webkit.messageHandlers.NAME.postMessage(…)`).
    var name: String { get }
    /// The posted body: a string or a dictionary.
    var body: Any { get }
    /// Whether the message came from the main frame, not an embedded `iframe`.
    var isMainFrame: Bool { get }
    /// The sending frame's security origin: scheme, host, port (0 when default).
    var originScheme: String { get }
    var originHost: String { get }
    var originPort: Int { get }
}

/// A web message as a plain value.
///
/// ```swift
/// let message = WebMessageSnapshot(name: "openLink", body: "/books/42", origin: "https://example.com")
/// intake.webMessage(message) // .link(…)
/// ```
public struct WebMessageSnapshot: WebMessageRepresentable, Sendable {
    public var name: String
    public var payload: PayloadValue
    public var isMainFrame: Bool
    public var originScheme: String
    public var originHost: String
    public var originPort: Int
    public var body: Any {
        if case .string(let text) = payload { return text }
        return payload.objectValue
    }

    /// A message from `origin` (`https://example.com`), by default from the main frame.
    public init(name: String, body: PayloadValue, origin: String, isMainFrame: Bool = true) {
        self.name = name
        self.payload = body
        self.isMainFrame = isMainFrame
        let parsed = try? DeepLink(origin)
        self.originScheme = parsed?.scheme ?? ""
        self.originHost = parsed?.host ?? ""
        self.originPort = parsed?.port ?? 0
    }
}
