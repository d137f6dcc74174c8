/// What a trie walk does with each route expansion that matches, in precedence order.
///
/// The walk is generic over its visitor, so each use is specialized: no closure context to retain
/// and release on every lookup, and the match built without going through value witnesses.
@usableFromInline
protocol TerminalVisitor {
    /// Called for each matching expansion with the ranges it captured; returns `true` to end the walk.
    mutating func visit(_ terminal: RouteTrie.Terminal, _ captures: UnsafeMutableBufferPointer<Range<Int>>) -> Bool
}

/// Keeps the first matching expansion and ends the walk. It holds no reference, so making one
/// costs no retain; the router builds the match from it after the walk.
@usableFromInline
struct FirstMatch: TerminalVisitor {
    @usableFromInline var found: (terminal: RouteTrie.Terminal, captures: CapturedRanges)?

    @inlinable init() {}

    @inlinable
    mutating func visit(_ terminal: RouteTrie.Terminal, _ captures: UnsafeMutableBufferPointer<Range<Int>>) -> Bool {
        found = (terminal, CapturedRanges(captures))
        return true
    }
}

/// Collects every matching expansion, in precedence order.
@usableFromInline
struct EveryMatch: TerminalVisitor {
    @usableFromInline var found: [(terminal: RouteTrie.Terminal, captures: CapturedRanges)] = []

    @inlinable init() {}

    @inlinable
    mutating func visit(_ terminal: RouteTrie.Terminal, _ captures: UnsafeMutableBufferPointer<Range<Int>>) -> Bool {
        found.append((terminal, CapturedRanges(captures)))
        return false
    }
}
