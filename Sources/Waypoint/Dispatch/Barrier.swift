import Foundation

/// An async gate in front of routes, such as "log in first".
///
/// A barrier is evaluated when its link is about to run, never at receipt, so logging out between
/// receipt and dispatch puts it back in front of the link. When it answers ``BarrierDecision/needsCheck``
/// the dispatcher runs its check (present login, say); if the check succeeds every barrier of the
/// route is evaluated again, from the first (a check can take an hour, and the barriers before it
/// may no longer pass), and only `.passed` from each lets the same link continue. A barrier whose
/// check already said yes in this run and that still needs a check ends the link as
/// ``DispatchOutcome/barrierFailed(barrier:)``: a check screen is shown at most once for each route
/// the link tries (a redirect's target is another).
///
/// ```swift
/// let auth = Barrier("auth") { _ in
///     await session.isLoggedIn ? .passed : .needsCheck
/// } check: { _ in
///     await loginScreen.present()   // true when the user logged in
/// }
/// ```
///
/// A link waits on the check for as long as the dispatcher's ``DispatcherConfiguration/barrierWaits``
/// says for the barrier (a manifest's `barriers: {auth: {wait: 2h}}`), else the barrier's
/// ``maximumWait`` (`Barrier("auth", maximumWait: 3600) { … }`), else the dispatcher's
/// ``DispatcherConfiguration/barrierCheckTimeout``; it is kept pending meanwhile (until the wait
/// passes, even where that is past ``DispatcherConfiguration/maximumPendingAge``, and even when the
/// process dies in between: the next launch runs it again), and ends as
/// ``DispatchOutcome/barrierTimedOut(barrier:)`` only when the wait passes.
public struct Barrier: Sendable {
    /// The name routes refer to.
    public let name: String
    /// How long, in seconds, a link may wait on this barrier's check; `nil` for the dispatcher's
    /// ``DispatcherConfiguration/barrierCheckTimeout``. A wait in ``DispatcherConfiguration/barrierWaits``
    /// (where a manifest's `barriers: {NAME: {wait: …}}` goes) comes first.
    public var maximumWait: TimeInterval?
    let evaluate: @Sendable (BarrierContext) async -> BarrierDecision
    let check: @Sendable (BarrierContext) async -> Bool

    /// A barrier called `name`: `evaluate` decides whether a link may pass now; on `.needsCheck` the
    /// dispatcher runs `check` (present the login screen, say), and when it returns `true` evaluates again.
    ///
    /// ```swift
    /// Barrier("login", maximumWait: 3600) { _ in
    ///     await session.isLoggedIn ? .passed : .needsCheck
    /// } check: { _ in
    ///     await logIn()
    /// }
    /// ```
    public init(
        _ name: String,
        maximumWait: TimeInterval? = nil,
        evaluate: @escaping @Sendable (BarrierContext) async -> BarrierDecision,
        check: @escaping @Sendable (BarrierContext) async -> Bool = { _ in false }
    ) {
        self.name = name
        self.maximumWait = maximumWait
        self.evaluate = evaluate
        self.check = check
    }
}

/// What a barrier sees: the link and the route it matched.
///
/// Decide on the route, not the link's text: `myapp://ADMIN`, `myapp://%61dmin` and
/// `myapp://admin/` all match the route `/admin`, and a check of the raw text misses some of them.
/// The route's name is the surest key, whatever prefix or parameters its pattern has:
///
/// ```swift
/// MandatoryBarrier(adminOnly) { $0.route.hasPrefix("admin.") }          // routes named admin.*
/// MandatoryBarrier(adminOnly) { $0.pathSegments.first == "admin" }      // "/%41DMIN//x/" → ["admin", "x"]
/// ```
public struct BarrierContext: Sendable {
    /// The link as it arrived. Its text is the sender's: read it for parameters, not for access rules.
    public let link: DeepLink
    /// The name of the route the link matched.
    public let route: String
    /// The pattern of the route the link matched, as the app wrote it.
    public let pattern: RoutePattern
    /// The scene (window) the link runs in: where a check such as a login screen is presented.
    public let scene: SceneID

    /// The link's path, percent-decoded, empty segments dropped, and lowercased, for rules on a
    /// path prefix that hold in any case. (With a case-insensitive router `/ADMIN` matches
    /// `/admin`; with a case-sensitive one, the default, only a custom-scheme link's first segment,
    /// its host, is compared in any case.)
    public var pathSegments: [String] { link.pathSegments.map { $0.lowercased() } }
}

/// A barrier's answer.
///
/// ```swift
/// Barrier("adults") { _ in
///     await session.isAdult ? .passed : .rejected("for adults only")
/// }
/// ```
public enum BarrierDecision: Sendable, Hashable {
    /// The link may continue.
    case passed
    /// Run the barrier's check, then evaluate again.
    case needsCheck
    /// The link may not continue, with the reason.
    case rejected(String)
}
