/// Which form a built link takes.
///
/// ```swift
/// try router.link(for: "messages.detail", ["id": 42]).string                     // "myapp://messages/42"
/// try router.link(for: "messages.detail", ["id": 42], style: .universal(host: "example.com")).string
/// // "https://example.com/messages/42"
/// ```
public enum LinkStyle: Sendable, Hashable {
    /// A custom-scheme link, `scheme://first/second`.
    case scheme(String)
    /// An `https` link on an associated domain. The router does not know the app's domains: the
    /// policy does, and a link on another host resolves as `.passThrough`, a web page.
    case universal(host: String)
}
