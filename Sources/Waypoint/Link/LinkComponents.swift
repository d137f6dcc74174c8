/// Where each part of a link lies in its UTF-8 bytes. Found in one pass by ``LinkScanner``; the
/// public accessors of ``DeepLink`` decode from these ranges on demand.
@usableFromInline
struct LinkComponents: Sendable, Hashable {
    /// The scheme without `:`; `nil` for a path-only link such as `/messages/1`.
    @usableFromInline var scheme: Range<Int>?
    /// Between `//` and the path; empty for `myapp:///x`, `nil` when there is no `//`.
    @usableFromInline var authority: Range<Int>?
    /// The host of an `http(s)` link (no user info, no port).
    @usableFromInline var host: Range<Int>?
    @usableFromInline var port: Range<Int>?
    @usableFromInline var hasUserInfo = false
    /// `http` or `https`: the host stays a host; otherwise the authority is the first segment.
    @usableFromInline var isWeb = false
    @usableFromInline var path: Range<Int> = 0..<0
    /// Without the `?`.
    @usableFromInline var query: Range<Int>?
    /// Without the `#`.
    @usableFromInline var fragment: Range<Int>?
    @usableFromInline var segmentCount = 0
    @usableFromInline var queryItemCount = 0
    /// Whether any `%XX` escape occurs in the path; without one, segments compare byte for byte.
    @usableFromInline var pathHasEscapes = false

    /// The authority of a custom-scheme link, which routes as the first path segment.
    @inlinable
    var hostSegment: Range<Int>? {
        guard !isWeb, scheme != nil, let authority, !authority.isEmpty else { return nil }
        return authority
    }

    /// Calls `body` with each non-empty raw segment in order; the first may come from the host.
    @inlinable
    func forEachSegment(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, _ fromHost: Bool) -> Void) {
        if let hostSegment { body(hostSegment, true) }
        var start = path.lowerBound
        var index = start
        while index < path.upperBound {
            if bytes[index] == UInt8(ascii: "/") {
                if index > start { body(start..<index, false) }
                start = index + 1
            }
            index += 1
        }
        if index > start { body(start..<index, false) }
    }
}
