/// The one rule for where a link's path segments lie: the runs of bytes between `/`, empty runs
/// dropped, so `/a//b/` has two segments.
///
/// ``LinkScanner`` feeds it each `/` it meets while checking the path, and counts what comes out
/// (``LinkComponents/segmentCount``); ``LinkComponents/forEachSegment(_:_:)`` runs it over the path
/// to fill the buffer the router sizes from that count. One rule, so the two always agree.
///
/// ```swift
/// var splitter = SegmentSplitter(pathStart: 0)  // over "/a//b"
/// splitter.slash(at: 0)                          // nil
/// splitter.slash(at: 2)                          // 1..<2, "a"
/// splitter.slash(at: 3)                          // nil
/// splitter.end(at: 5)                            // 4..<5, "b"
/// ```
@usableFromInline
struct SegmentSplitter {
    /// Where the segment being read began: just after the last `/`.
    @usableFromInline var start: Int

    @inlinable
    init(pathStart: Int) { start = pathStart }

    /// The segment a `/` at `index` ends, unless it is empty.
    @inlinable
    mutating func slash(at index: Int) -> Range<Int>? {
        defer { start = index + 1 }
        return index > start ? start..<index : nil
    }

    /// The last segment, when the path ends at `index`, unless it is empty.
    @inlinable
    func end(at index: Int) -> Range<Int>? { index > start ? start..<index : nil }
}
