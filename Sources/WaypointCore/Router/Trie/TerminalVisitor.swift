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

/// Collects the expansions whose route takes links from one source, in precedence order (the first
/// only, unless `every`), and remembers the first route that matched but refuses the source: the
/// resolver's one walk per link.
struct SourceAcceptedMatches<Value: Sendable>: TerminalVisitor {
    let routes: [Route<Value>]
    let source: LinkSource
    let every: Bool
    var found: [(terminal: RouteTrie.Terminal, captures: CapturedRanges)] = []
    /// The index of the first route that matched before any accepted the source.
    var refused: Int?

    init(routes: [Route<Value>], source: LinkSource, every: Bool) {
        self.routes = routes
        self.source = source
        self.every = every
    }

    mutating func visit(_ terminal: RouteTrie.Terminal, _ captures: UnsafeMutableBufferPointer<Range<Int>>) -> Bool {
        let index = Int(terminal.route)
        guard routes[index].accepts(from: source) else {
            if refused == nil, found.isEmpty { refused = index }
            return false
        }
        found.append((terminal, CapturedRanges(captures)))
        return !every
    }
}
