/// One route, declared once: the links it matches, who may use it, what guards it, and what its
/// links become. A ``LinkDispatcher`` is built from a list of them, so a route's pattern, its
/// barriers and its handler can never drift apart, and no route can be left without a handler.
///
/// ```swift
/// enum Screen: Hashable, Sendable { case chat(Int), pay(order: String) }
///
/// let routes: [LinkRoute<Screen>] = [
///     LinkRoute("messages.detail", "/messages/{id:int}") { match in
///         .pushOverRoot(.chat(match.parameters.int("id") ?? 0), tab: "inbox")
///     },
///     LinkRoute("pay", "/pay", barriers: ["login"]) { match in
///         .present(.pay(order: match.link.queryValue("order_id") ?? ""))
///     },
/// ]
/// ```
public struct LinkRoute<Destination: Hashable & Sendable>: Sendable {
    /// A match of this route, as its handler sees it: typed parameters, query, source.
    public typealias Match = RouteMatch<LinkRoute<Destination>>
    /// Turns a match into what to show, or declines, redirects or fails.
    public typealias Handler = @Sendable (Match) async throws -> HandlerResult<Destination>

    /// The route's name: in events, outcomes, reverse routing and the manifest.
    public let name: String
    /// The pattern, as ``RoutePattern`` reads it.
    public let pattern: String
    /// The barriers, by name, in the order they are checked; every name must be a barrier the
    /// dispatcher is given, or building it fails.
    public let barriers: [String]
    /// The ways in allowed to open this route; `nil` for every way.
    public let sources: Set<LinkSource>?
    /// Settles ambiguity between routes that match the same links at the same precedence.
    public let priority: Int
    /// Which window shows this route's links when they arrive without one (a notification tap, a
    /// deferred link): a scene that says it shows this role (``LinkDispatcher/sceneDidConnect(_:shows:)``).
    /// `nil`: the foreground-active window. A link that arrived through a window stays there.
    public let sceneRole: String?
    let handler: Handler
    /// The target of a route made with `redirectingTo:`, kept so building the dispatcher can check
    /// that it leads to a route (``Router/redirectProblem(of:to:redirectOf:maximumRedirects:policy:)``).
    var redirect: LinkTemplate?
    /// Where the route was declared, when not in Swift (`shop.yaml:4:5`): setup errors name it.
    /// Routes generated from a manifest set it.
    public var location: String?

    /// The route as setup errors name it: `'orders'`, or `'orders' (shop.yaml:4:5)`.
    var described: String { "'\(name)'" + (location.map { " (\($0))" } ?? "") }

    /// A route whose handler decides: handled, declined, redirected or failed.
    ///
    /// ```swift
    /// LinkRoute<Screen>("short", "/s/{code}") { match in .redirect(to: "/books/\(match.parameters.string("code") ?? "")") }
    /// ```
    public init(
        _ name: String,
        _ pattern: String,
        barriers: [String] = [],
        sources: Set<LinkSource>? = nil,
        priority: Int = 0,
        sceneRole: String? = nil,
        handler: @escaping Handler
    ) {
        self.name = name
        self.pattern = pattern
        self.barriers = barriers
        self.sources = sources
        self.priority = priority
        self.sceneRole = sceneRole
        self.handler = handler
    }

    /// A route whose links always lead to a plan built from the match. Throwing fails the link,
    /// with the error in its outcome.
    ///
    /// ```swift
    /// LinkRoute<Screen>("messages.detail", "/messages/{id:int}") { match in .pushOverRoot(.chat(match.parameters.int("id") ?? 0)) }
    /// ```
    ///
    /// A closure that fits both initializers (one that only throws) is the handler's, so a trailing
    /// closure never needs its label.
    @_disfavoredOverload
    public init(
        _ name: String,
        _ pattern: String,
        barriers: [String] = [],
        sources: Set<LinkSource>? = nil,
        priority: Int = 0,
        sceneRole: String? = nil,
        to plan: @escaping @Sendable (Match) async throws -> NavigationPlan<Destination>
    ) {
        self.init(name, pattern, barriers: barriers, sources: sources, priority: priority, sceneRole: sceneRole) {
            match in
            .handled(try await plan(match))
        }
    }
}

/// A barrier in front of every link it applies to, before the matched route's own barriers.
///
/// Whether it applies is decided on the matched route (``BarrierContext``), so no spelling of a
/// link (`/ADMIN`, `%61dmin`, `//admin`) gets past it to a route it guards.
///
/// ```swift
/// MandatoryBarrier(Barrier("maintenance") { _ in .rejected("down for maintenance") }) { $0.link.source != .notification }
/// MandatoryBarrier(adminOnly) { $0.route.hasPrefix("admin.") }
/// ```
public struct MandatoryBarrier: Sendable {
    /// The barrier. A manifest's wait for it goes to ``DispatcherConfiguration/barrierWaits``, like
    /// any barrier's.
    public var barrier: Barrier
    let appliesTo: @Sendable (BarrierContext) -> Bool

    /// `barrier` in front of every link whose matched route `appliesTo` accepts; every link by default.
    public init(_ barrier: Barrier, appliesTo: @escaping @Sendable (BarrierContext) -> Bool = { _ in true }) {
        self.barrier = barrier
        self.appliesTo = appliesTo
    }
}

/// What happens to links no route handles, to input that is not a link, and to notification
/// actions that run code instead of a route. Every handler is optional.
///
/// ```swift
/// LinkFallbacks(passThrough: { link in await openInSafari(link) }, actions: ["like": { await like($0.payload) }])
/// ```
public struct LinkFallbacks: Sendable {
    /// Links of the app that no route matches (show a "not found" screen). Runs when the link's
    /// turn comes, once its window is ready.
    public var notFound: (@Sendable (DeepLink) async -> Void)?
    /// Links that are not the app's (open them in Safari). Runs when the link's turn comes.
    public var passThrough: (@Sendable (DeepLink) async -> Void)?
    /// Links refused, with the reason. A link the policy refuses (a scheme not the app's, a denied
    /// host) runs it as soon as it is received, which can be before the app's first screen exists:
    /// report or log it there, and show nothing. A link a route refuses for its source runs it
    /// when the link's turn comes.
    public var forbidden: (@Sendable (DeepLink, String) async -> Void)?
    /// Input that could not become a link: the input and the message. Runs as soon as it is
    /// received, like a link the policy refuses.
    public var invalid: (@Sendable (String, String) async -> Void)?
    /// Notification actions by identifier (``NotificationActionTarget/handler`` actions).
    public var actions: [String: @Sendable (NotificationActionInvocation) async -> Void]

    /// Handlers for what no route handles; each one left out does nothing beyond the outcome it reports.
    public init(
        notFound: (@Sendable (DeepLink) async -> Void)? = nil,
        passThrough: (@Sendable (DeepLink) async -> Void)? = nil,
        forbidden: (@Sendable (DeepLink, String) async -> Void)? = nil,
        invalid: (@Sendable (String, String) async -> Void)? = nil,
        actions: [String: @Sendable (NotificationActionInvocation) async -> Void] = [:]
    ) {
        self.notFound = notFound
        self.passThrough = passThrough
        self.forbidden = forbidden
        self.invalid = invalid
        self.actions = actions
    }
}
