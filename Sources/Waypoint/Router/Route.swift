/// A named route: a pattern, its priority, and a value the app attaches (a screen, a destination…).
///
/// ```swift
/// let route = Route(name: "messages.detail", pattern: try RoutePattern("/messages/{id:int}"), value: Screen.chat)
/// route.name // "messages.detail"
/// ```
public struct Route<Value: Sendable>: Sendable {
    /// A unique name, used to build links back (``Router/link(for:_:wildcards:fragment:style:)``).
    public let name: String
    /// The parsed pattern.
    public let pattern: RoutePattern
    /// Breaks ties between routes that match at the same precedence: higher wins.
    public let priority: Int
    /// What the app attached to the route.
    public let value: Value

    /// A route from a parsed pattern.
    public init(name: String, pattern: RoutePattern, priority: Int = 0, value: Value) {
        self.name = name
        self.pattern = pattern
        self.priority = priority
        self.value = value
    }
}
