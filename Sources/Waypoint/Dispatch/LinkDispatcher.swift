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
    /// Shows a handled link's plan; called exactly once per handled link.
    public typealias Navigator = @Sendable (NavigationPlan<Destination>, DeepLink) async -> Void

    public nonisolated let resolver: LinkResolver<LinkRoute<Destination>>
    public nonisolated let configuration: DispatcherConfiguration
    let store: any PendingLinkStore
    let clock: any DispatchClock
    /// The barriers routes name, by name.
    let barriers: [String: Barrier]
    let mandatoryBarriers: [MandatoryBarrier]
    let fallbacks: LinkFallbacks

    /// The windows: which can run links, what each shows, and their navigators.
    var scenes = SceneTable<Destination>()
    /// Links waiting to run, oldest first.
    var queue: [Entry] = []
    /// The link running in each scene, with the gate that cancels it.
    var running: [SceneID: (entry: Entry, cancel: @Sendable () -> Void)] = [:]
    /// The task running each scene's links, one at a time.
    private var lanes: [SceneID: Task<Void, Never>] = [:]
    /// Running links cancelled because their scene disconnected: they go back to the queue.
    var movingOut: Set<UUID> = []
    /// Whether the store's links were loaded: when the app becomes ready or the first link is
    /// received, whichever comes first, so saving a new link never overwrites what a previous
    /// process left, and no app has to remember to ask.
    private var hasRestored = false
    /// Which deliveries are duplicates: the one deduplication rule.
    private var deliveries = DeliveryLedger()
    /// Who hears events.
    private var sinks = EventSinks<Destination>()
    /// Who waits for which outcome, and recent outcomes.
    private var outcomes = OutcomeLedger<Destination>()

    /// A received link with what the dispatcher needs to run and persist it.
    /// A reference, not a value: the queue moves entries about (a restore can queue thousands), and
    /// moving a reference costs a word where a link's value costs hundreds of bytes.
    final class Entry: Sendable {
        let pending: PendingLink
        let link: DeepLink
        /// What policy and routing made of the link, once, at receipt.
        let resolved: ResolvedLink<LinkRoute<Destination>>
        /// Clock time at receipt, for event durations.
        let receivedAt: TimeInterval

        /// The role of the route the link matched, for choosing its window when it has none.
        var role: String? { link.scene == nil ? resolved.resolution.match?.value.sceneRole : nil }

        /// What it waits for: its own scene, else the content it wants shown, else any window.
        /// Links waiting for the same thing supersede one another under ``DispatcherConfiguration/QueuePolicy/latestWins``.
        var waitsFor: String {
            if let scene = pending.scene { return "scene " + scene.rawValue }
            return (pending.targetContentIdentifier ?? role).map { "shows " + $0 } ?? "any scene"
        }

        init(
            pending: PendingLink,
            link: DeepLink,
            resolved: ResolvedLink<LinkRoute<Destination>>,
            receivedAt: TimeInterval
        ) {
            self.pending = pending
            self.link = link
            self.resolved = resolved
            self.receivedAt = receivedAt
        }

        /// The entry free of the scene it arrived through, which has gone.
        func released() -> Entry {
            var pending = self.pending
            var link = self.link
            pending.scene = nil
            link.scene = nil
            return Entry(pending: pending, link: link, resolved: resolved.over(link), receivedAt: receivedAt)
        }
    }

    /// A dispatcher over routes declared with their handlers.
    ///
    /// - Throws: ``LinkSetupError`` for a bad pattern, a duplicate or ambiguous route, a barrier a
    ///   route names but `barriers` lacks, or two barriers with one name.
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
    ) throws(LinkSetupError) {
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
    ) throws(LinkSetupError) {
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
                throw LinkSetupError(
                    code: .invalidPattern,
                    message: "The route \(route.described): \(error.description)"
                )
            }
        }
        let built: Router<LinkRoute<Destination>>
        do {
            built = try builder.build()
        } catch {
            throw LinkSetupError(code: .invalidRouteTable, message: error.description)
        }
        self.barriers = try Self.checkedBarriers(barriers, mandatory: mandatoryBarriers, routes: routes)
        self.resolver = LinkResolver(router: built, policy: policy, probe: probe)
        self.mandatoryBarriers = mandatoryBarriers
        self.fallbacks = fallbacks
        self.configuration = configuration
        self.store = store
        self.clock = clock
    }

    /// The barriers by name, once each (mandatory ones included), with every name a route uses.
    private static func checkedBarriers(
        _ barriers: [Barrier],
        mandatory: [MandatoryBarrier],
        routes: [LinkRoute<Destination>]
    ) throws(LinkSetupError) -> [String: Barrier] {
        var byName: [String: Barrier] = [:]
        for barrier in barriers {
            guard byName.updateValue(barrier, forKey: barrier.name) == nil else {
                throw LinkSetupError(
                    code: .duplicateBarrier,
                    message: "Two barriers are named '\(barrier.name)'; each name must be one barrier."
                )
            }
        }
        var mandatoryNames: Set<String> = []
        for name in mandatory.map(\.barrier.name) {
            guard byName[name] == nil, mandatoryNames.insert(name).inserted else {
                throw LinkSetupError(
                    code: .duplicateBarrier,
                    message:
                        "Two barriers are named '\(name)' (a mandatory one among them); each name must be one barrier."
                )
            }
        }
        let supplied = byName.keys.sorted().joined(separator: ", ")
        for route in routes {
            for name in route.barriers where byName[name] == nil {
                throw LinkSetupError(
                    code: .unknownBarrier,
                    message: "The route \(route.described) names the barrier '\(name)', which is not supplied "
                        + (supplied.isEmpty ? "(no barriers are supplied)." : "(supplied: \(supplied)).")
                )
            }
        }
        return byName
    }

    // MARK: Navigation

    /// Sets what shows handled links in every scene without a navigator of its own (all of them,
    /// in a one-window app). Until there is one, links wait: a handled link is never reported
    /// handled with nothing shown.
    public func setNavigator(_ navigator: @escaping Navigator) {
        scenes.defaultNavigator = navigator
        startDraining()
    }

    /// Sets what shows handled links in one scene (window), connecting it if needed.
    ///
    /// ```swift
    /// await dispatcher.setNavigator({ plan, _ in await windowNavigator.show(plan) }, for: scene)
    /// ```
    public func setNavigator(_ navigator: @escaping Navigator, for scene: SceneID) {
        scenes.update(scene) { $0.navigator = navigator }
        startDraining()
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

    func emit(_ kind: DispatchEvent<Destination>.Kind, _ entry: Entry? = nil, link: DeepLink? = nil) {
        let event = DispatchEvent(
            kind: kind,
            linkID: entry?.pending.id,
            link: entry?.link ?? link,
            date: Date(),
            elapsed: entry.map { clock.now() - $0.receivedAt } ?? 0
        )
        sinks.send(event)
        if case .finished(let outcome) = kind, let id = entry?.pending.id { outcomes.record(outcome, for: id) }
    }

    /// Ends a link that was queued: reports its outcome and releases its delivery identity.
    func finish(_ entry: Entry, _ outcome: DispatchOutcome<Destination>) {
        deliveries.end(entry.pending.identity)
        emit(.finished(outcome), entry)
    }

    /// Waits until the link finishes and returns its outcome: at once if it finished recently, and
    /// `nil` at once for a link this dispatcher does not know (or finished too long ago to remember).
    /// What a quick action's completion handler reports, for example.
    ///
    /// ```swift
    /// if let id = await dispatcher.receive(intake.shortcut(item)) {
    ///     completionHandler(await dispatcher.outcome(of: id)?.isHandled ?? false)
    /// } else {
    ///     completionHandler(false)
    /// }
    /// ```
    public func outcome(of id: UUID) async -> DispatchOutcome<Destination>? {
        if let outcome = outcomes.outcome(of: id) { return outcome }
        let isWaiting =
            queue.contains { $0.pending.id == id } || running.values.contains { $0.entry.pending.id == id }
        guard isWaiting else { return nil }
        return await withCheckedContinuation { outcomes.wait(for: id, $0) }
    }

    // MARK: Receiving

    /// Takes whatever intake made of something that opened the app.
    ///
    /// - Returns: The link's identifier (for ``cancel(_:)``), or `nil` for anything that is not a
    ///   link to run (an action, a dismissal, a failure, a duplicate).
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
            emit(.actionInvoked(action: invocation.actionIdentifier))
            if let handler = fallbacks.actions[invocation.actionIdentifier] {
                Task { await handler(invocation) }
            } else {
                emit(
                    .invalid(
                        message:
                            "No action handler is given for the notification action '\(invocation.actionIdentifier)'."
                    )
                )
            }
            return nil
        case .dismissed(let invocation):
            emit(.dismissed(action: invocation.actionIdentifier))
            return nil
        case .failure(let error) where error.code == .notForRouting:
            // A push provider's own push: nothing to open and nothing wrong, so no fallback runs.
            emit(.notForRouting(message: error.message))
            return nil
        case .failure(let error):
            emit(.invalid(message: error.message))
            emit(.finished(.invalid(message: error.message)))
            if let handler = fallbacks.invalid { Task { await handler(error.input, error.message) } }
            return nil
        }
    }

    /// Takes a link. A delivery with the same `identity` (by default the link's text) as one still
    /// waiting or running is a duplicate and runs once (the rule is stated in full on the dispatcher's
    /// delivery ledger, in the sources).
    @discardableResult
    public func receive(_ link: DeepLink, identity: String? = nil) -> UUID? {
        if !hasRestored { restorePendingLinks() }
        let pending = PendingLink(
            id: UUID(),
            link: link.string,
            source: link.source,
            identity: identity ?? "link:" + link.string,
            receivedAt: Date(),
            scene: link.scene,
            targetContentIdentifier: link.targetContentIdentifier
        )
        let entry = Entry(pending: pending, link: link, resolved: resolver.resolved(link), receivedAt: clock.now())
        emit(.received, entry)
        if deliveries.isDuplicate(pending.identity) {
            emit(.deduplicated, entry)
            emit(.finished(.deduplicated), entry)
            return nil
        }
        if entry.resolved.isDeniedByPolicy, case .forbidden(_, let reason) = entry.resolved.resolution {
            emit(.rejectedByPolicy(reason: reason), entry)
            emit(.finished(.forbidden(reason: reason)), entry)
            if let handler = fallbacks.forbidden { Task { await handler(link, reason) } }
            return nil
        }
        enqueue(entry)
        return pending.id
    }

    private func enqueue(_ entry: Entry) {
        switch configuration.queuePolicy {
        case .latestWins:
            // Latest wins among links waiting for the same window: another window's are its own.
            let superseded = queue.filter { $0.waitsFor == entry.waitsFor }
            queue.removeAll { $0.waitsFor == entry.waitsFor }
            for old in superseded {
                finish(old, .superseded)
                forget(old.pending)
            }
        case .firstInFirstOut(let limit):
            if queue.count >= limit {
                emit(.finished(.dropped), entry)
                return
            }
        }
        deliveries.begin(entry.pending.identity)
        queue.append(entry)
        keep(entry.pending)
        if placement(of: entry) == nil { emit(.heldUntilReady, entry) }
        startDraining()
    }

    /// Loads links a previous process left pending and queues them. Runs by itself when the app
    /// becomes ready or the first link is received, whichever comes first; calling it earlier is
    /// harmless. A link older than ``DispatcherConfiguration/maximumPendingAge`` is not run: it ends
    /// as ``DispatchOutcome/expired``, with an event.
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
        var restored = 0
        let known = Set(queue.map(\.pending.id) + running.values.map(\.entry.pending.id))
        for pending in stored where !known.contains(pending.id) {
            do {
                var link = try DeepLink(pending.link, source: pending.source, limits: resolver.policy.limits)
                link.scene = pending.scene
                link.targetContentIdentifier = pending.targetContentIdentifier
                // The dispatcher's clock is monotonic and restarts with the process; the stored
                // date carries the age across.
                let age = max(0, Date().timeIntervalSince(pending.receivedAt))
                let entry = Entry(
                    pending: pending,
                    link: link,
                    resolved: resolver.resolved(link),
                    receivedAt: now - age
                )
                deliveries.begin(pending.identity)
                if expireIfOld(entry) {
                    forget(pending)
                    continue
                }
                queue.append(entry)
                restored += 1
            } catch {
                emit(.invalid(message: error.message))
                emit(.finished(.invalid(message: error.message)))
                forget(pending)
            }
        }
        emit(.restored(count: restored))
        startDraining()
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
        scenes.update(scene) { $0.shows = shows }
        startDraining()
    }

    /// The scene's root UI is installed: its links may navigate once it is also active.
    public func sceneDidBecomeReady(_ scene: SceneID) {
        if !hasRestored { restorePendingLinks() }
        scenes.update(scene) { $0.isReady = true }
        startDraining()
    }

    /// The scene is in the foreground; the latest to become active shows links that have no scene.
    public func sceneDidBecomeActive(_ scene: SceneID) {
        scenes.activate(scene)
        startDraining()
    }

    /// The scene left the foreground: its links wait until it is active again.
    public func sceneDidEnterBackground(_ scene: SceneID) {
        guard scenes.isConnected(scene) else { return }
        scenes.update(scene) { $0.isActive = false }
    }

    /// The scene disconnected (its window closed, or the system reclaimed it): the links waiting
    /// for it go to another scene or wait for one, and one running in it is stopped before it is
    /// shown and runs again elsewhere; none is lost or shown twice. A link restored for a scene
    /// that never reconnects waits for it until it expires; call this for sessions the system
    /// discarded (`application(_:didDiscardSceneSessions:)`) to release their links at once.
    public func sceneDidDisconnect(_ scene: SceneID) {
        scenes.disconnect(scene)
        for index in queue.indices where queue[index].pending.scene == scene {
            queue[index] = queue[index].released()
            emit(.sceneDisconnected(scene: scene), queue[index])
            keep(queue[index].pending)
        }
        if let running = running[scene] {
            movingOut.insert(running.entry.pending.id)
            running.cancel()
        }
        startDraining()
    }

    /// Where `entry` runs now, or `nil` while it waits.
    func placement(of entry: Entry) -> SceneID? {
        scenes.scene(for: entry.pending, role: entry.role)
    }

    /// Cancels a waiting or running link.
    ///
    /// - Returns: `false` when the link already finished.
    @discardableResult
    public func cancel(_ id: UUID) -> Bool {
        if let index = queue.firstIndex(where: { $0.pending.id == id }) {
            let entry = queue.remove(at: index)
            emit(.cancelled, entry)
            finish(entry, .cancelled)
            forget(entry.pending)
            return true
        }
        if let running = running.values.first(where: { $0.entry.pending.id == id }) {
            running.cancel()
            return true
        }
        return false
    }

    /// The links waiting to run, oldest first.
    public var pendingLinks: [PendingLink] { queue.map(\.pending) }

    /// Returns once nothing is running and nothing can run (the queue is empty, or the app is not
    /// ready or not active). For tests and app hosts.
    public func waitUntilIdle() async {
        while let lane = lanes.values.first { await lane.value }
    }

    /// Starts a lane for each scene that has a link it can run now, in the order the links came;
    /// one lane at a time unless ``DispatcherConfiguration/scenesRunIndependently``.
    func startDraining() {
        for entry in queue {
            guard let scene = placement(of: entry), lanes[scene] == nil else { continue }
            if !configuration.scenesRunIndependently, !lanes.isEmpty { return }
            lanes[scene] = Task { await self.drain(scene) }
        }
    }

    /// Runs the scene's links one at a time while it can.
    private func drain(_ scene: SceneID) async {
        while let index = queue.firstIndex(where: { placement(of: $0) == scene }) {
            let entry = queue.remove(at: index)
            if expireIfOld(entry) {
                forget(entry.pending)
                continue
            }
            await run(entry, in: scene)
        }
        lanes[scene] = nil
        startDraining()
    }

    /// Ends `entry` as expired when it waited longer than the configuration allows. The age is the
    /// larger of the monotonic clock's and the wall clock's: the system's uptime stops while the
    /// device sleeps, so a link held overnight would otherwise look minutes old.
    private func expireIfOld(_ entry: Entry) -> Bool {
        let age = max(clock.now() - entry.receivedAt, Date().timeIntervalSince(entry.pending.receivedAt))
        guard age > configuration.maximumPendingAge else { return false }
        emit(.expired(age: age), entry)
        finish(entry, .expired)
        return true
    }
}
