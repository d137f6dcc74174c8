/// What a trie walk does with each route expansion that matches, in precedence order.
///
/// The walk is generic over its visitor, so each use is specialized: no closure context to retain
/// and release on every lookup, and the match built without going through value witnesses.
@usableFromInline
protocol TerminalVisitor {
    /// Called for each matching expansion with the ranges it captured; returns `true` to end the walk.
    mutating func visit(_ terminal: RouteTrie.Terminal, _ captures: UnsafeMutableBufferPointer<Range<Int>>) -> Bool
}
