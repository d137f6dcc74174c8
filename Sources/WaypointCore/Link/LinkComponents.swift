/// Where each part of a link lies in its UTF-8 bytes. Found in one pass by ``LinkScanner``; the
/// public accessors of ``DeepLink`` decode from these ranges on demand.
@usableFromInline
struct LinkComponents: Sendable, Hashable {
    /// The scheme without `:`; `nil` for a path-only link such as `/messages/1`.
    @usableFromInline var scheme: Range<Int>? {
        get { storedScheme.range }
        set { storedScheme = CompactRange(newValue) }
    }
    /// Between `//` and the path; empty for `myapp:///x`, `nil` when there is no `//`.
    @usableFromInline var authority: Range<Int>? {
        get { storedAuthority.range }
        set { storedAuthority = CompactRange(newValue) }
    }
    /// The host of an `http(s)` link (no user info, no port).
    @usableFromInline var host: Range<Int>? {
        get { storedHost.range }
        set { storedHost = CompactRange(newValue) }
    }
    @usableFromInline var port: Range<Int>? {
        get { storedPort.range }
        set { storedPort = CompactRange(newValue) }
    }
    @usableFromInline var path: Range<Int> {
        get { storedPath.range ?? 0..<0 }
        set { storedPath = CompactRange(newValue) }
    }
    /// Without the `?`.
    @usableFromInline var query: Range<Int>? {
        get { storedQuery.range }
        set { storedQuery = CompactRange(newValue) }
    }
    /// Without the `#`.
    @usableFromInline var fragment: Range<Int>? {
        get { storedFragment.range }
        set { storedFragment = CompactRange(newValue) }
    }
    /// The segments ``forEachSegment(_:_:)`` yields, the host segment included.
    @usableFromInline var segmentCount: Int {
        get { Int(storedSegmentCount) }
        set { storedSegmentCount = Int32(truncatingIfNeeded: newValue) }
    }
    @usableFromInline var queryItemCount: Int {
        get { Int(storedQueryItemCount) }
        set { storedQueryItemCount = Int32(truncatingIfNeeded: newValue) }
    }
    @usableFromInline var hasUserInfo = false
    /// `http` or `https`: the host stays a host; otherwise the authority is the first segment.
    @usableFromInline var isWeb = false

    // Compact storage: a link is copied into every match, so it stays small (offsets as Int32).
    @usableFromInline var storedScheme = CompactRange()
    @usableFromInline var storedAuthority = CompactRange()
    @usableFromInline var storedHost = CompactRange()
    @usableFromInline var storedPort = CompactRange()
    @usableFromInline var storedPath = CompactRange()
    @usableFromInline var storedQuery = CompactRange()
    @usableFromInline var storedFragment = CompactRange()
    @usableFromInline var storedSegmentCount: Int32 = 0
    @usableFromInline var storedQueryItemCount: Int32 = 0

    @usableFromInline init() {}

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
        var splitter = SegmentSplitter(pathStart: path.lowerBound)
        for index in path where bytes[index] == UInt8(ascii: "/") {
            if let segment = splitter.slash(at: index) { body(segment, false) }
        }
        if let segment = splitter.end(at: path.upperBound) { body(segment, false) }
    }
}

/// An optional range of byte offsets in 8 bytes; links are at most a few kilobytes.
@usableFromInline
struct CompactRange: Sendable, Hashable {
    @usableFromInline var lower: Int32 = -1
    @usableFromInline var upper: Int32 = -1

    @usableFromInline init() {}

    @inlinable
    init(_ range: Range<Int>?) {
        if let range {
            lower = Int32(truncatingIfNeeded: range.lowerBound)
            upper = Int32(truncatingIfNeeded: range.upperBound)
        }
    }

    @inlinable
    var range: Range<Int>? { lower < 0 ? nil : Int(lower)..<Int(upper) }
}
