/// One segment of a route pattern after optional groups are expanded.
///
/// ```swift
/// try RoutePattern("/files/*/**").expansions   // [[.literal("files"), .wildcard, .catchAll]]
/// ```
public enum PatternSegment: Sendable, Hashable, CustomStringConvertible {
    /// Text that must match exactly (percent-decoded): `messages`.
    case literal(String)
    /// A named parameter with its type: `{id:int}`, `{slug}`, `:slug`.
    case parameter(name: String, type: ParameterType)
    /// `*`: exactly one segment, captured without a name.
    case wildcard
    /// `**`: the rest of the path, zero or more segments; last only.
    case catchAll

    public var description: String {
        switch self {
        case .literal(let text): text
        case .parameter(let name, let type): type == .string ? "{\(name)}" : "{\(name):\(type)}"
        case .wildcard: "*"
        case .catchAll: "**"
        }
    }

    /// The parameter's name; `nil` for other segments.
    ///
    /// ```swift
    /// PatternSegment.parameter(name: "id", type: .int).parameterName // "id"
    /// PatternSegment.literal("messages").parameterName             // nil
    /// ```
    var parameterName: String? {
        if case .parameter(let name, _) = self { name } else { nil }
    }

    /// The segment with parameter names left out: two patterns with the same shapes match the same
    /// links (`{}`, `{:int}`, literals, `*`, `**`).
    public var shape: String {
        switch self {
        case .parameter(_, let type): type == .string ? "{}" : "{:\(type)}"
        default: description
        }
    }
}
