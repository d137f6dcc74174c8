import Foundation

/// Owns timing: holds links until the app can navigate, runs one at a time, deduplicates, keeps
/// pending links across process death, gates them with barriers, gives each handler a timeout, and
/// hands every handled destination to the navigator exactly once.
///
/// Everything that decides what a link does is given when the dispatcher is built, and checked
/// then: the routes with their handlers and barrier names, the barriers, what happens to other
/// links. Nothing is registered later, so no link can arrive before its handler exists.
///
/// ```swift
/// let dispatcher = try LinkDispatcher<Screen>(
///     routes: [
///         LinkRoute("messages.detail", "/messages/{id:int}") { .pushOverRoot(.chat($0.parameters.int("id") ?? 0)) },
///         LinkRoute("pay", "/pay", barriers: ["auth"]) { _ in .present(.pay) },
///     ],
///     policy: LinkPolicy(schemes: ["myapp"]),
///     barriers: [Barrier("auth") { _ in await session.isLoggedIn ? .passed : .needsCheck }],
///     store: FilePendingLinkStore(url: file)
/// )
/// await dispatcher.receive(intake.url(url))   // held: the app is not ready yet
/// await dispatcher.setNavigator { plan, _ in await navigator.show(plan) }
/// await dispatcher.appDidBecomeReady()         // root UI installed
/// await dispatcher.appDidBecomeActive()        // now it runs
/// ```
///
/// An app with several windows tells the dispatcher about each scene (``sceneDidConnect(_:shows:)``
/// and the other `scene…` methods) and receives each scene's links with ``receive(_:in:)``: a link
/// is shown by the window it arrived through, and each window runs its own links, so a login in
/// one does not hold back another. The `app…` methods act on ``SceneID/main``.
public actor LinkDispatcher<Destination: Hashable & Sendable> {
    /// Shows a handled link's plan; called exactly once per handled link within a process. Across
    /// a process that dies while a plan is shown, or before the store has forgotten the link, the
    /// link is restored and shown again on the next launch: at least once, never lost.
    public typealias Navigator = @Sendable (NavigationPlan<Destination>, DeepLink) async -> Void

    /// The dispatcher's router and policy: `dispatcher.resolver.resolve("myapp://pay", source: .urlScheme)`
    /// matches a link as the dispatcher would, without running it (the source defaults to `.text`,
    /// which a route limited by `sources` refuses).
    public nonisolated let resolver: LinkResolver<LinkRoute<Destination>>
    /// The timing and queueing rules the dispatcher was built with.
    public nonisolated let configuration: DispatcherConfiguration
    let store: any PendingLinkStore
    let clock: any DispatchClock
    let fallbacks: LinkFallbacks

    /// The dispatcher's life: which links wait, which scene runs which, what each scene can do. It
    /// decides; the actor performs what it answers (``perform(_:)``).
    var machine: DispatchStateMachine<Destination>
    /// Each scene's run under way: the gate that stops its steps, and the task of the step it waits for.
    var runs: [SceneID: ActiveRun] = [:]
    /// Whether the store's links were loaded: when the app becomes ready or the first link is
    /// received, whichever comes first, so saving a new link never overwrites what a previous
    /// process left, and no app has to remember to ask.
    private var hasRestored = false
    /// Who hears events.
    private var sinks = EventSinks<Destination>()
    /// Who waits for which outcome, and recent outcomes.
    private var outcomes = OutcomeLedger<Destination>()

    /// A dispatcher over routes declared with their handlers.
    ///
    /// - Throws: ``WaypointError`` for a bad pattern, a duplicate or ambiguous route, a redirect
    ///   whose target leads to no route (``WaypointError/Code/invalidRedirect``), a barrier a
    ///   route names but `barriers` lacks, two barriers with one name, a policy listing what is no
    ///   scheme or no domain (`myapp://`, `https://example.com`), a router `linkScheme` the policy
    ///   does not list, or a timeout or wait of 0 seconds or less (``DispatcherConfiguration``,
    ///   ``Barrier/maximumWait``).
    public init(
        routes: [LinkRoute<Destination>],
        policy: LinkPolicy,
        router: RouterConfiguration = RouterConfiguration(),
        barriers: [Barrier] = [],
        mandatoryBarriers: [MandatoryBarrier] = [],
        fallbacks: LinkFallbacks = LinkFallbacks(),
        configuration: DispatcherConfiguration = DispatcherConfiguration(),
        store: any PendingLinkStore = InMemoryPendingLinkStore(),
        clock: any DispatchClock = SystemDispatchClock()
    ) throws(WaypointError) {
        try self.init(
            routes: routes,
            policy: policy,
            router: router,
            barriers: barriers,
            mandatoryBarriers: mandatoryBarriers,
            fallbacks: fallbacks,
            configuration: configuration,
            store: store,
            clock: clock,
            probe: nil
        )
    }

    /// The dispatcher, with a probe that counts its resolutions (for the test that pins one per link).
    init(
        routes: [LinkRoute<Destination>],
        policy: LinkPolicy,
        router: RouterConfiguration,
        barriers: [Barrier],
        mandatoryBarriers: [MandatoryBarrier],
        fallbacks: LinkFallbacks,
        configuration: DispatcherConfiguration,
        store: any PendingLinkStore,
        clock: any DispatchClock,
        probe: ResolutionProbe?
    ) throws(WaypointError) {
        try policy.check()
        try configuration.check()
        var builder = RouterBuilder<LinkRoute<Destination>>(configuration: router)
        for route in routes {
            do {
                try builder.add(
                    route.name,
                    route.pattern,
                    priority: route.priority,
                    sources: route.sources,
                    value: route
                )
            } catch {
                throw WaypointError(
                    .invalidPattern,
                    input: route.pattern,
                    offset: error.offset,
                    names: [route.name],
                    underlyingCode: error.code,
                    message: "The route \(route.described): \(error.description)"
                )
            }
        }
        let built: Router<LinkRoute<Destination>>
        do {
            built = try builder.build()
        } catch {
            throw WaypointError(
                .invalidRouteTable,
                names: error.names,
                underlyingCode: error.code,
                message: error.description
            )
        }
        for route in built.routes {
            guard let redirect = route.value.redirect,
                let problem = built.redirectProblem(
                    of: route,
                    to: redirect,
                    redirectOf: \.redirect,
                    maximumRedirects: configuration.maximumRedirects,
                    policy: policy
                )
            else { continue }
            throw WaypointError(
                .invalidRedirect,
                names: [route.name],
                message: (route.value.location.map { "\($0): " } ?? "") + problem.message
            )
        }
        let checkedBarriers = try Self.checkedBarriers(
            barriers,
            mandatory: mandatoryBarriers,
            routes: routes,
            waits: configuration.barrierWaits
        )
        self.resolver = LinkResolver(router: built, policy: policy, probe: probe)
        // The policy passed its check above; what the resolver adds is the router's link scheme.
        if let problem = resolver.setupProblem { throw problem }
        self.fallbacks = fallbacks
        self.configuration = configuration
        self.machine = DispatchStateMachine(
            configuration: configuration,
            resolver: resolver,
            barriers: checkedBarriers,
            mandatoryBarriers: mandatoryBarriers
        )
        self.store = store
        self.clock = clock
    }

    /// The barriers by name, once each (mandatory ones included), with every name a route or a
    /// configured wait uses.
    private static func checkedBarriers(
        _ barriers: [Barrier],
        mandatory: [MandatoryBarrier],
        routes: [LinkRoute<Destination>],
        waits: [String: TimeInterval]
    ) throws(WaypointError) -> [String: Barrier] {
        var byName: [String: Barrier] = [:]
        for barrier in barriers + mandatory.map(\.barrier) {
            if let wait = barrier.maximumWait {
                try DispatcherConfiguration.checkDuration(wait, of: "The barrier '\(barrier.name)''s maximumWait")
            }
        }
        for barrier in barriers {
            guard byName.updateValue(barrier, forKey: barrier.name) == nil else {
                throw WaypointError(
                    .duplicateBarrier,
                    names: [barrier.name],
                    message: "Two barriers are named '\(barrier.name)'; each name must be one barrier."
                )
            }
        }
        var mandatoryNames: Set<String> = []
        for name in mandatory.map(\.barrier.name) {
            guard byName[name] == nil, mandatoryNames.insert(name).inserted else {
                throw WaypointError(
                    .duplicateBarrier,
                    names: [name],
                    message:
                        "Two barriers are named '\(name)' (a mandatory one among them); each name must be one barrier."
                )
            }
        }
        let supplied = byName.keys.map { $0 }.stablySorted().joined(separator: ", ")
        // Routes first: a route's error names its line, and a wait usually belongs to a route's barrier.
        for route in routes {
            for name in route.barriers where byName[name] == nil {
                throw WaypointError(
                    .unknownBarrier,
                    names: [route.name, name],
                    message: "The route \(route.described) names the barrier '\(name)', which is not supplied "
                        + (supplied.isEmpty ? "(no barriers are supplied)." : "(supplied: \(supplied)).")
                )
            }
        }
        let every = (byName.keys.map { $0 } + mandatoryNames).stablySorted().joined(separator: ", ")
        for name in waits.keys.map({ $0 }).stablySorted() where byName[name] == nil && !mandatoryNames.contains(name) {
            throw WaypointError(
                .unknownBarrier,
                names: [name],
                message: "A wait is set for the barrier '\(name)' (barrierWaits), which is not supplied "
                    + (every.isEmpty ? "(no barriers are supplied)." : "(supplied: \(every)).")
            )
        }
        return byName
    }

    // MARK: Navigation

    /// Sets what shows handled links in every scene without a navigator of its own (all of them,
    /// in a one-window app). Until there is one, links wait: a handled link is never reported
    /// handled with nothing shown.
    public func setNavigator(_ navigator: @escaping Navigator) {
        perform(machine.defaultNavigatorChanged(navigator, now: clock.now(), date: Date()))
    }

    /// Sets what shows handled links in one scene (window), connecting it if needed.
    ///
    /// ```swift
    /// await dispatcher.setNavigator({ plan, _ in await windowNavigator.show(plan) }, for: scene)
    /// ```
    public func setNavigator(_ navigator: @escaping Navigator, for scene: SceneID) {
        perform(machine.sceneChanged(scene, now: clock.now(), date: Date()) { $0.navigator = navigator })
    }

    // MARK: Events

    /// A stream of every event from now on.
    public func events() -> AsyncStream<DispatchEvent<Destination>> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<DispatchEvent<Destination>>.makeStream()
        sinks.add(continuation, id: id)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeStream(id) }
        }
        return stream
    }

    private func removeStream(_ id: UUID) { sinks.remove(id) }

    /// Calls `observer` with every event from now on, on the dispatcher; keep it quick.
    @discardableResult
    public func observe(_ observer: @escaping @Sendable (DispatchEvent<Destination>) -> Void) -> UUID {
        sinks.add(observer)
    }

    /// Stops an observer.
    public func removeObserver(_ id: UUID) { sinks.remove(id) }

    func emit(_ kind: DispatchEvent<Destination>.Kind, _ entry: Entry? = nil) {
        let event = DispatchEvent(
            kind: kind,
            linkID: entry?.pending.id,
            link: entry?.link,
            date: Date(),
            elapsed: entry.map { clock.now() - $0.receivedAt } ?? 0
        )
        sinks.send(event)
        if case .finished(let outcome) = kind, let id = entry?.pending.id { outcomes.record(outcome, for: id) }
    }

    /// Does what the state machine answered, in order; each step of a run goes to a task of its own
    /// (``LinkDispatcher/perform(step:)``, in the sources beside this).
    func perform(_ actions: [DispatchStateMachine<Destination>.Action]) {
        for action in actions {
            switch action {
            case .emit(let kind, let entry): emit(kind, entry)
            case .keep(let pending): keep(pending)
            case .forget(let pending): forget(pending)
            case .stop(let scene): runs[scene]?.cancellation.cancel()
            case .end(let scene): runs[scene] = nil
            case .fallback(let outcome, let link):
                let handler = fallbackHandler(for: outcome, link)
                Task { await handler() }
            case .evaluate, .check, .handle, .report, .show: perform(step: action)
            }
        }
    }

    /// Waits until the link finishes and returns its outcome: at once if it finished recently, and
    /// `nil` at once for a link this dispatcher does not know (or finished too long ago to remember).
    /// What a quick action's completion handler reports, for example.
    ///
    /// A link can wait a long time (until its window is ready, or behind a login), so the wait ends
    /// with `nil` when `timeout` seconds pass on the dispatcher's clock, or when the waiting task is
    /// cancelled; the link itself goes on, and its outcome is reported as events either way.
    ///
    /// ```swift
    /// if let id = await dispatcher.receive(intake.shortcut(item)) {
    ///     completionHandler(await dispatcher.outcome(of: id, timeout: 5)?.isHandled ?? false)
    /// } else {
    ///     completionHandler(false)
    /// }
    /// ```
    public func outcome(of id: UUID, timeout: TimeInterval? = nil) async -> DispatchOutcome<Destination>? {
        if let outcome = outcomes.outcome(of: id) { return outcome }
        guard machine.isUnderWay(id), !Task.isCancelled else { return nil }
        let waiter = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                outcomes.wait(for: id, OutcomeLedger.Waiter(id: waiter, continuation: continuation))
                if let timeout {
                    let timer = Task { [clock] in
                        // A cancelled sleep is an answered wait: nothing left to stop.
                        guard (try? await clock.sleep(seconds: timeout)) != nil else { return }
                        self.stopWaiting(waiter, for: id)
                    }
                    outcomes.setTimer(timer, of: waiter, for: id)
                }
            }
        } onCancel: {
            Task { await self.stopWaiting(waiter, for: id) }
        }
    }

    private func stopWaiting(_ waiter: UUID, for id: UUID) { outcomes.stopWaiting(waiter, for: id) }

    // MARK: Receiving

    /// Takes whatever intake made of something that opened the app.
    ///
    /// - Returns: The link's identifier (for ``cancel(_:)`` and ``outcome(of:timeout:)``), or `nil`
    ///   for anything that is not a link to run: an action, a dismissal, a failure, a duplicate (a
    ///   second tap of a link still waiting: that link runs, under its own identifier, in
    ///   ``pendingLinks``), and a link the policy refuses, which ends at once as
    ///   ``DispatchOutcome/forbidden(reason:)`` (reported as an event, its fallback run).
    @discardableResult
    public func receive(_ result: IntakeResult) -> UUID? {
        receive(result, in: nil)
    }

    /// Takes what intake made of something that opened one scene (window): its link is shown by
    /// that scene, and waits for it. `nil` for a way in without a scene.
    ///
    /// ```swift
    /// await dispatcher.receive(intake.url(url), in: SceneID(session.persistentIdentifier))
    /// ```
    @discardableResult
    public func receive(_ result: IntakeResult, in scene: SceneID?) -> UUID? {
        switch result {
        case .link(var link, let identity):
            if let scene { link.scene = scene }
            return receive(link, identity: identity)
        case .action(let invocation):
            if let handler = fallbacks.actions[invocation.actionIdentifier] {
                emit(.actionInvoked(action: invocation.actionIdentifier))
                Task { await handler(invocation) }
            } else if let provider = invocation.providerButton {
                // A button the provider sent that opens nothing ("Open app"): nothing wrong, and
                // nothing to route; the app stays where it is.
                let message =
                    "\(provider)'s button '\(invocation.actionIdentifier)' opens no link, and no action handler is "
                    + "given for it: the app opens where it was."
                emit(.finished(.notForRouting(message: message)))
            } else {
                let message = "No action handler is given for the notification action '\(invocation.actionIdentifier)'."
                emit(.finished(.invalid(message: message)))
            }
            return nil
        case .dismissed(let invocation):
            emit(.dismissed(action: invocation.actionIdentifier))
            return nil
        case .failure(let error) where error.code == .notForRouting:
            // A push provider's own push: nothing to open and nothing wrong, so no fallback runs.
            emit(.finished(.notForRouting(message: error.message)))
            return nil
        case .failure(let error):
            emit(.finished(.invalid(message: error.message)))
            if let handler = fallbacks.invalid { Task { await handler(error.input, error.message) } }
            return nil
        }
    }

    /// Takes a link. A delivery with the same `identity` as one still waiting or running is a
    /// duplicate and runs once (the rule is stated in full on the dispatcher's delivery ledger, in the
    /// sources). Without one, the identity is `link:` and the link's text, never the identity
    /// intake gives the same link (`LinkIntake.url(_:)` gives `url:` and the text): for links two
    /// callbacks may both deliver, pass intake's ``IntakeResult`` to ``receive(_:)``.
    @discardableResult
    public func receive(_ link: DeepLink, identity: String? = nil) -> UUID? {
        if !hasRestored { restorePendingLinks() }
        let pending = PendingLink(
            id: UUID(),
            link: link.string,
            source: link.source,
            identity: identity ?? DeliveryIdentity.link(link),
            receivedAt: Date(),
            scene: link.scene,
            targetContentIdentifier: link.targetContentIdentifier
        )
        let entry = Entry(pending: pending, link: link, resolved: resolver.resolvedLink(link), receivedAt: clock.now())
        let (actions, taken) = machine.linkArrived(entry, now: clock.now(), date: Date())
        perform(actions)
        return taken ? pending.id : nil
    }

    /// Loads links a previous process left pending and queues them. Runs by itself when the app
    /// becomes ready or the first link is received, whichever comes first; calling it earlier is
    /// harmless. A link older than ``DispatcherConfiguration/maximumPendingAge`` is not run: it ends
    /// as ``DispatchOutcome/expired(age:)``.
    ///
    /// - Returns: How many were restored (expired ones not counted).
    @discardableResult
    public func restorePendingLinks() -> Int {
        hasRestored = true
        let stored: [PendingLink]
        do {
            let restored = try store.restore()
            for refusal in restored.refused { emit(.storeProblem(message: refusal)) }
            stored = restored.links
        } catch {
            emit(.storeProblem(message: "\(error)"))
            return 0
        }
        let now = clock.now()
        var entries: [Entry] = []
        let known = machine.underWay
        for pending in stored where !known.contains(pending.id) {
            do {
                var link = try DeepLink(pending.link, source: pending.source, limits: resolver.policy.limits)
                link.scene = pending.scene
                link.targetContentIdentifier = pending.targetContentIdentifier
                // The dispatcher's clock is monotonic and restarts with the process; the stored
                // date carries the age across.
                let age = max(0, Date().timeIntervalSince(pending.receivedAt))
                entries.append(
                    Entry(pending: pending, link: link, resolved: resolver.resolvedLink(link), receivedAt: now - age)
                )
            } catch {
                emit(.finished(.invalid(message: error.message)))
                forget(pending)
            }
        }
        let (actions, restored) = machine.restored(entries, now: now, date: Date())
        perform(actions)
        emit(.restored(count: restored))
        perform(machine.resume(now: clock.now(), date: Date()))
        return restored
    }

    /// Writes a link received, or changed (its scene released), to the store: one change, whatever
    /// else is pending.
    func keep(_ pending: PendingLink) {
        do {
            try store.put(pending)
        } catch {
            emit(.storeProblem(message: "The pending link \(pending.link) could not be saved: \(error)"))
        }
    }

    /// Removes a finished link from the store.
    func forget(_ pending: PendingLink) {
        do {
            try store.remove(pending.id)
        } catch {
            emit(
                .storeProblem(
                    message: "The finished link \(pending.link) could not be removed from the store: \(error)"
                )
            )
        }
    }

    // MARK: Readiness

    /// The root UI of ``SceneID/main`` is installed: links may navigate once the app is also active.
    public func appDidBecomeReady() { sceneDidBecomeReady(.main) }

    /// ``SceneID/main`` is in the foreground.
    public func appDidBecomeActive() { sceneDidBecomeActive(.main) }

    /// ``SceneID/main`` left the foreground: its links wait until it is active again.
    public func appDidEnterBackground() { sceneDidEnterBackground(.main) }

    /// A scene (window) connected; `shows` names what it displays: target content identifiers
    /// (a notification's `target-content-id`) and route roles (``LinkRoute/sceneRole``). A link
    /// without a scene that wants one of them is shown here. Call again to change what it shows.
    ///
    /// ```swift
    /// await dispatcher.sceneDidConnect(SceneID(session.persistentIdentifier), shows: ["compose"])
    /// ```
    public func sceneDidConnect(_ scene: SceneID, shows: Set<String> = []) {
        perform(machine.sceneChanged(scene, now: clock.now(), date: Date()) { $0.shows = shows })
    }

    /// The scene's root UI is installed: its links may navigate once it is also active.
    public func sceneDidBecomeReady(_ scene: SceneID) {
        if !hasRestored { restorePendingLinks() }
        perform(machine.sceneChanged(scene, now: clock.now(), date: Date()) { $0.isReady = true })
    }

    /// The scene is in the foreground; the latest to become active shows links that have no scene.
    public func sceneDidBecomeActive(_ scene: SceneID) {
        perform(machine.sceneActivated(scene, now: clock.now(), date: Date()))
    }

    /// The scene left the foreground: its links wait until it is active again.
    public func sceneDidEnterBackground(_ scene: SceneID) {
        machine.sceneDeactivated(scene)
    }

    /// The scene disconnected (its window closed, or the system reclaimed it): the links waiting
    /// for it go to another scene or wait for one, and one running in it is stopped before it is
    /// shown and runs again elsewhere; none is lost or shown twice. A link restored for a scene
    /// that never reconnects waits for it until it expires or is tapped again (it then runs where
    /// the new tap was made); call this for sessions the system discarded
    /// (`application(_:didDiscardSceneSessions:)`) to release their links at once.
    public func sceneDidDisconnect(_ scene: SceneID) {
        perform(machine.sceneDisconnected(scene, now: clock.now(), date: Date()))
    }

    /// Cancels a waiting or running link: a waiting one ends `.cancelled` now; a running one is
    /// stopped at its step (a barrier's evaluation or check, its handler) and ends `.cancelled`. A
    /// plan the navigator is already showing is not taken back: that link still ends `.handled`.
    ///
    /// - Returns: `false` when the link already finished; `true` when it was waiting or running
    ///   (watch its `.finished` event for how it ended).
    @discardableResult
    public func cancel(_ id: UUID) -> Bool {
        let (actions, found) = machine.cancel(id)
        perform(actions)
        return found
    }

    /// The links waiting to run, oldest first.
    public var pendingLinks: [PendingLink] { machine.queue.map(\.pending) }

    /// Returns once nothing is running and nothing can run (the queue is empty, or the app is not
    /// ready or not active). For tests and app hosts.
    public func waitUntilIdle() async {
        while let step = runs.values.lazy.compactMap(\.step).first { await step.value }
    }
}
