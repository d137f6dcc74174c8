/// Keeps the first match and ends the walk: ``Router/match(_:)-7ylr5``.
@usableFromInline
struct FirstMatch<Value: Sendable>: TerminalVisitor {
    @usableFromInline let router: Router<Value>
    @usableFromInline let link: DeepLink
    @usableFromInline var match: RouteMatch<Value>?

    @inlinable
    init(_ router: Router<Value>, _ link: DeepLink) {
        self.router = router
        self.link = link
    }

    @inlinable
    mutating func visit(_ terminal: RouteTrie.Terminal, _ captures: UnsafeMutableBufferPointer<Range<Int>>) -> Bool {
        match = router.makeMatch(terminal, link, captures)
        return true
    }
}

/// Collects every match in precedence order: ``Router/candidates(for:)``.
@usableFromInline
struct EveryMatch<Value: Sendable>: TerminalVisitor {
    @usableFromInline let router: Router<Value>
    @usableFromInline let link: DeepLink
    @usableFromInline var matches: [RouteMatch<Value>] = []

    @inlinable
    init(_ router: Router<Value>, _ link: DeepLink) {
        self.router = router
        self.link = link
    }

    @inlinable
    mutating func visit(_ terminal: RouteTrie.Terminal, _ captures: UnsafeMutableBufferPointer<Range<Int>>) -> Bool {
        matches.append(router.makeMatch(terminal, link, captures))
        return false
    }
}
