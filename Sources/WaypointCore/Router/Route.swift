/// A named route: a pattern, its priority, and a value the app attaches (a screen, a destination…).
///
/// ```swift
/// let route = Route(name: "messages.detail", pattern: try RoutePattern("/messages/{id:int}"), value: Screen.chat)
/// route.name // "messages.detail"
/// ```
///
/// A route is one reference to immutable storage, so handing it out with every match costs a
/// single retain however much the route holds.
public struct Route<Value: Sendable>: Sendable {
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let name: String
        @usableFromInline let pattern: RoutePattern
        @usableFromInline let priority: Int
        @usableFromInline let value: Value
        @usableFromInline let sources: Set<LinkSource>?

        init(name: String, pattern: RoutePattern, priority: Int, sources: Set<LinkSource>?, value: Value) {
            self.name = name
            self.pattern = pattern
            self.priority = priority
            self.sources = sources
            self.value = value
        }
    }

    @usableFromInline let storage: Storage

    /// A route from a parsed pattern.
    ///
    /// - Parameters:
    ///   - name: Unique in the router; links are built back by it.
    ///   - pattern: What the route matches.
    ///   - priority: Orders routes that end at the same place; higher first.
    ///   - sources: The only ways in this route accepts links from; every source when `nil`.
    ///     `[.universalLink]` keeps a route that carries sensitive values away from custom schemes,
    ///     which any installed app can claim.
    ///   - value: What a match hands back (a screen, a destination).
    public init(
        name: String,
        pattern: RoutePattern,
        priority: Int = 0,
        sources: Set<LinkSource>? = nil,
        value: Value
    ) {
        storage = Storage(name: name, pattern: pattern, priority: priority, sources: sources, value: value)
    }

    /// A unique name, used to build links back (``Router/link(for:_:wildcards:fragment:style:)``).
    @inlinable public var name: String { storage.name }
    /// The parsed pattern.
    @inlinable public var pattern: RoutePattern { storage.pattern }
    /// Breaks ties between routes that match at the same precedence: higher wins.
    @inlinable public var priority: Int { storage.priority }
    /// What the app attached to the route.
    @inlinable public var value: Value { storage.value }
    /// The only sources this route accepts links from; every source when `nil`.
    @inlinable public var sources: Set<LinkSource>? { storage.sources }

    /// Whether the route takes a link that arrived through `source`.
    ///
    /// ```swift
    /// route.sources                      // [.universalLink]
    /// route.accepts(from: .urlScheme)    // false
    /// ```
    @inlinable public func accepts(from source: LinkSource) -> Bool { storage.sources?.contains(source) ?? true }
}
