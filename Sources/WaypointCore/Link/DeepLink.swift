import Foundation

/// One normalized inbound link, whatever way it came into the app.
///
/// A `DeepLink` is a validated view over the link's text: parsing is one pass that records where
/// each part lies, and the parts are decoded when asked for. Scheme and host are case-insensitive.
/// For a custom scheme the host is the first path segment, so these three route alike (in the host,
/// the first segment compares in any case, as a host does; a router that compares case-sensitively
/// refuses two routes whose shapes differ only there):
///
/// ```swift
/// try DeepLink("myapp://messages/1").pathSegments   // ["messages", "1"]
/// try DeepLink("myapp:///messages/1").pathSegments  // ["messages", "1"]
/// try DeepLink("MYAPP://Messages/1").pathSegments   // ["Messages", "1"], "Messages" compares case-insensitively
/// try DeepLink("https://example.com/books/42").host // "example.com"
/// ```
///
/// The path is split on `/` first and each segment is percent-decoded once afterwards, so `%2F` stays
/// inside its segment. Empty segments are dropped. `+` is literal in the path; in the query it is a
/// space and `%2B` is `+`.
public struct DeepLink: Sendable, Hashable, CustomStringConvertible {
    /// The link's text, as parsed (after lenient encoding when built with ``init(text:source:limits:)``).
    public let string: String
    /// The way into the app that delivered the link.
    public var source: LinkSource
    /// What the link was read from, when it came in a payload (a notification's `userInfo`, a quick
    /// action's `userInfo`, a web message's body). Untrusted, like the link itself. Not kept across
    /// process death: a link restored from a `PendingLinkStore` has none (the store keeps the link only).
    public var payload: PayloadValue?
    /// The scene (window) the link arrived through; `nil` for a way in without one (a notification
    /// tap in the app delegate, a deferred link). Set by `LinkDispatcher.receive(_:in:)`.
    public var scene: SceneID?
    /// What the link wants to be shown by when the app has several windows: a notification's
    /// `target-content-id`, matched against what each scene says it shows.
    public var targetContentIdentifier: String?
    @usableFromInline let components: LinkComponents

    /// Parses link text strictly: anything a link may not hold unencoded is a ``WaypointError``.
    ///
    /// - Parameters:
    ///   - string: A URL such as `myapp://messages/1` or `https://example.com/books/42`, or a path
    ///     such as `/messages/1`.
    ///   - source: The way the link arrived. Never inferred from the text: an `https` string is not
    ///     a universal link because it looks like one. By default `.text`, the least trusted source;
    ///     `LinkIntake` and the adapters set the source from the callback that delivered the link.
    ///   - limits: The size limits to enforce.
    public init(_ string: String, source: LinkSource = .text, limits: LinkLimits = .default) throws(WaypointError) {
        let scanned = withUTF8Bytes(string) { bytes in
            Result { () throws(LinkScanner.Failure) in try LinkScanner(bytes: bytes, limits: limits).scan() }
        }
        let components: LinkComponents
        switch scanned {
        case .success(let value): components = value
        case .failure(let failure): throw failure.error(for: string)
        }
        self.string = string
        self.components = components
        self.source = source
    }

    /// Parses a Foundation `URL`.
    ///
    /// ```swift
    /// try DeepLink(url: URL(string: "myapp://pay?order_id=123")!).queryValue("order_id") // "123"
    /// ```
    public init(url: URL, source: LinkSource = .text, limits: LinkLimits = .default) throws(WaypointError) {
        try self.init(url.absoluteString, source: source, limits: limits)
    }

    /// Parses text that came from people, leniently: surrounding white space (and the invisible
    /// marks a right-to-left composer puts around a link: RLM, LRM, ALM, a BOM, zero-width spaces) is
    /// trimmed, and spaces, non-ASCII characters and stray `%` are percent-encoded instead of rejected.
    ///
    /// ```swift
    /// try DeepLink(text: " myapp://search?q=三体 小说 ").queryValue("q") // "三体 小说"
    /// ```
    ///
    /// Backslashes and control characters are still rejected: they have no safe reading. Escaped
    /// ones (`%0A`, `%1B`) are bytes like any other once decoded, in a path segment as in a query:
    /// a parameter that names a file goes through ``RouteParameters/resourceName(_:)``, which
    /// refuses them, and a redirect target through the policy's own-destination rule.
    /// A failure's ``WaypointError/input`` is the text exactly as given. Its message quotes the link
    /// as encoded (a space as `%20`) and its ``WaypointError/offset`` counts there, except for a
    /// bidirectional character, which is found before encoding and counted in the text as given.
    public init(text: String, source: LinkSource = .text, limits: LinkLimits = .default) throws(WaypointError) {
        let (trimmed, front) = LenientText.trimmed(text)
        if let bidi = LenientText.firstBidiControl(in: trimmed) {
            let failure = LinkScanner.bidiControl(at: front + bidi.lowerBound, endingAt: front + bidi.upperBound - 1)
            throw failure.error(for: text)
        }
        let encoded = LenientText.encode(trimmed)
        do {
            try self.init(encoded, source: source, limits: limits)
        } catch {
            throw WaypointError(error.code, input: text, offset: error.offset, message: error.message)
        }
    }

    /// Builds a link from decoded parts, percent-encoding each one. `host` must be a host name
    /// (`example.com`, or `example.com.` fully qualified): user info, a port, a path or an IP
    /// address in it is an `invalidHost` error.
    ///
    /// ```swift
    /// try DeepLink(scheme: "myapp", segments: ["messages", "a/b"]).string // "myapp://messages/a%2Fb"
    /// try DeepLink(scheme: "https", host: "example.com", segments: ["books", "42"]).string
    /// // "https://example.com/books/42"
    /// ```
    public init(
        scheme: String,
        host: String? = nil,
        segments: [String],
        query: [QueryItem] = [],
        fragment: String? = nil,
        source: LinkSource = .text,
        limits: LinkLimits = .default
    ) throws(WaypointError) {
        // A host is spliced in as it is, so it must be one: `good.com@evil.com` or `example.com/x`
        // would be read as another host or path.
        if let host,
            host.hasPrefix("*")
                || !DomainPattern.isDomain(
                    String(decoding: LinkScanner.withoutTrailingDot(host.utf8), as: UTF8.self),
                    bytes: LinkScanner.isHostByte
                )
        {
            throw WaypointError(
                .invalidHost,
                input: host,
                message:
                    "'\(host)' is not a host name; write one such as 'example.com' (no scheme, user, port or path)."
            )
        }
        var text = scheme + "://"
        let encoded = segments.map { percentEncode($0, allowed: .pathSegment) }
        if let host {
            text += host.lowercased()
            for segment in encoded { text += "/" + segment }
        } else {
            text += encoded.joined(separator: "/")
        }
        if !query.isEmpty {
            text += "?"
            text += query.map { item in
                let name = percentEncode(item.name, allowed: .queryComponent)
                return item.value.map { name + "=" + percentEncode($0, allowed: .queryComponent) } ?? name
            }.joined(separator: "&")
        }
        if let fragment { text += "#" + percentEncode(fragment, allowed: .fragment) }
        try self.init(text, source: source, limits: limits)
    }

    public var description: String { string }

    @inlinable
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUTF8Bytes(string, body)
    }

    private func text(_ range: Range<Int>?) -> String? {
        guard let range else { return nil }
        return withBytes { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
}

extension DeepLink {
    /// The scheme in lowercase (`"myapp"`, `"https"`), or `nil` for a bare path.
    public var scheme: String? { text(components.scheme)?.lowercased() }

    /// The host of an `http(s)` link in lowercase, without user info or port. `nil` for custom
    /// schemes, whose host is the first path segment.
    public var host: String? { text(components.host)?.lowercased() }

    /// The port of an `http(s)` link, when one is given.
    public var port: Int? { text(components.port).flatMap { Int($0) } }

    /// Whether an `http(s)` link carries user info (`https://example.com@evil.com`), which no link
    /// of an app needs and policy refuses.
    public var hasUserInfo: Bool { components.hasUserInfo }

    /// Whether the scheme is `http` or `https`.
    public var isWeb: Bool { components.isWeb }

    /// The decoded, non-empty path segments; for a custom scheme the host comes first.
    public var pathSegments: [String] {
        withBytes { bytes in
            var segments: [String] = []
            segments.reserveCapacity(components.segmentCount)
            components.forEachSegment(bytes) { range, _ in segments.append(decodeComponent(bytes, range)) }
            return segments
        }
    }

    /// The path the router sees, with its segments still percent-encoded: `"/messages/1"`.
    package var routingPath: String {
        withBytes { bytes in
            var path = ""
            components.forEachSegment(bytes) { range, _ in
                path += "/" + String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            return path.isEmpty ? "/" : path
        }
    }

    /// The decoded query items in order; repeated names are kept. A `+` reads as a space, as web
    /// forms and most senders write one (`?q=summer+sale` → `summer sale`); a plus itself is `%2B`,
    /// as the links Waypoint builds write it. (`URLComponents.queryItems` keeps `+`.)
    public var queryItems: [QueryItem] {
        guard let query = components.query else { return [] }
        return withBytes { bytes in
            var items: [QueryItem] = []
            items.reserveCapacity(components.queryItemCount)
            var start = query.lowerBound
            while start < query.upperBound {
                var end = start
                while end < query.upperBound, bytes[end] != UInt8(ascii: "&") { end += 1 }
                if end > start {
                    var equals = start
                    while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                    let name = decodeComponent(bytes, start..<equals, plusIsSpace: true)
                    let value = equals < end ? decodeComponent(bytes, (equals + 1)..<end, plusIsSpace: true) : nil
                    items.append(QueryItem(name: name, value: value))
                }
                start = end + 1
            }
            return items
        }
    }

    /// Every value given for `name`, in order (`?key=1&key=2` → `["1", "2"]`).
    public func queryValues(_ name: String) -> [String] {
        queryItems.compactMap { $0.name == name ? ($0.value ?? "") : nil }
    }

    /// The first value given for `name`.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }.map { $0.value ?? "" }
    }

    /// The decoded fragment (after `#`), if any.
    public var fragment: String? {
        guard let range = components.fragment else { return nil }
        return withBytes { decodeComponent($0, range) }
    }
}
