/// An async gate in front of routes, such as "log in first".
///
/// A barrier is evaluated when its link is about to run, never at receipt, so logging out between
/// receipt and dispatch puts it back in front of the link. When it answers ``BarrierDecision/needsCheck``
/// the dispatcher runs its check (present login, say); if the check succeeds the barrier is evaluated
/// again, and only `.passed` lets the same link continue.
///
/// ```swift
/// let auth = Barrier("auth") { _ in
///     await session.isLoggedIn ? .passed : .needsCheck
/// } check: { _ in
///     await loginScreen.present()   // true when the user logged in
/// }
/// ```
public struct Barrier: Sendable {
    /// The name routes refer to.
    public let name: String
    let evaluate: @Sendable (BarrierContext) async -> BarrierDecision
    let check: @Sendable (BarrierContext) async -> Bool

    public init(
        _ name: String,
        evaluate: @escaping @Sendable (BarrierContext) async -> BarrierDecision,
        check: @escaping @Sendable (BarrierContext) async -> Bool = { _ in false }
    ) {
        self.name = name
        self.evaluate = evaluate
        self.check = check
    }
}

/// What a barrier sees: the link and the route it matched.
public struct BarrierContext: Sendable {
    public let link: DeepLink
    public let route: String
}

/// A barrier's answer.
public enum BarrierDecision: Sendable, Hashable {
    /// The link may continue.
    case passed
    /// Run the barrier's check, then evaluate again.
    case needsCheck
    /// The link may not continue, with the reason.
    case rejected(String)
}
