/// What a route handler did with a match.
///
/// ```swift
/// dispatcher.handle("messages.detail") { match in
///     guard let id = match.parameters.int("id") else { return .declined }
///     return .handled(.pushOverRoot(.chat(id), tab: "inbox"))
/// }
/// ```
public enum HandlerResult<Destination: Hashable & Sendable>: Sendable {
    /// The link is handled: show this.
    case handled(NavigationPlan<Destination>)
    /// Not for this handler: the next candidate route in precedence order is tried.
    case declined
    /// The handler could not do it.
    case failed(any Error)
}
