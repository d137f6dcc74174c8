/// What Waypoint reads from a web view's script message (`WKScriptMessage` with its `frameInfo`).
///
/// ```swift
/// intake.webMessage(WebMessageReader(message))   // WaypointUIKit's, for a WKScriptMessage
/// ```
public protocol WebMessageRepresentable {
    /// The message handler's name (`window.webkit.messageHandlers.NAME.postMessage(…)`).
    var name: String { get }
    /// The posted body, as the page posted it: a string, a dictionary, or any other value a script
    /// can post (a number, a list, `null`).
    var body: Any { get }
    /// Whether the message came from the main frame, not an embedded `iframe`.
    var isMainFrame: Bool { get }
    /// The sending frame's security origin: scheme, host, port (0 when default).
    var originScheme: String { get }
    /// The sending frame's host.
    var originHost: String { get }
    /// The sending frame's port; 0 for the scheme's default.
    var originPort: Int { get }
}

/// A web message as a plain value.
///
/// ```swift
/// let message = WebMessageSnapshot(name: "openLink", body: "/books/42", origin: "https://example.com")
/// intake.webMessage(message) // .link(…)
/// ```
public struct WebMessageSnapshot: WebMessageRepresentable, Sendable {
    /// The message handler's name.
    public var name: String
    /// The posted body as a value tree.
    public var payload: PayloadValue
    /// Whether the main frame sent it.
    public var isMainFrame: Bool
    /// The sending frame's scheme.
    public var originScheme: String
    /// The sending frame's host.
    public var originHost: String
    /// The sending frame's port; 0 for the scheme's default.
    public var originPort: Int
    /// The body for the protocol: the payload itself, whatever kind of value it is, as a page's
    /// body reaches the intake on a device.
    public var body: Any { payload }

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
