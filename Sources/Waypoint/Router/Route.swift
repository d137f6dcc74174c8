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

        init(name: String, pattern: RoutePattern, priority: Int, value: Value) {
            self.name = name
            self.pattern = pattern
            self.priority = priority
            self.value = value
        }
    }

    @usableFromInline let storage: Storage

    /// A route from a parsed pattern.
    public init(name: String, pattern: RoutePattern, priority: Int = 0, value: Value) {
        storage = Storage(name: name, pattern: pattern, priority: priority, value: value)
    }

    /// A unique name, used to build links back (``Router/link(for:_:wildcards:fragment:style:)``).
    @inlinable public var name: String { storage.name }
    /// The parsed pattern.
    @inlinable public var pattern: RoutePattern { storage.pattern }
    /// Breaks ties between routes that match at the same precedence: higher wins.
    @inlinable public var priority: Int { storage.priority }
    /// What the app attached to the route.
    @inlinable public var value: Value { storage.value }
}
