/// How a ``Router`` compares segments and builds links. Every argument has a default.
///
/// ```swift
/// let configuration = RouterConfiguration(caseSensitive: false, linkScheme: "myapp")
/// ```
public struct RouterConfiguration: Sendable, Hashable {
    /// Whether literal path segments compare case-sensitively. The first segment of a custom-scheme
    /// link stands in the host position and always compares case-insensitively. Default `true`.
    ///
    /// Either way segments compare byte for byte after percent-decoding, and only ASCII letters
    /// fold: `É` and `é` differ, and so do `café` written with one code point and with `e` and a
    /// combining accent, as they do in a URL.
    public var caseSensitive: Bool
    /// The scheme of links built for routes whose pattern names none (`myapp` → `myapp://…`): the
    /// app's own, so `http`, `https` and `javascript` fail the build.
    public var linkScheme: String?

    /// A configuration with every value defaulted.
    public init(caseSensitive: Bool = true, linkScheme: String? = nil) {
        self.caseSensitive = caseSensitive
        self.linkScheme = linkScheme
    }
}
