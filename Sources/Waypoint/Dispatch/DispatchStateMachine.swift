import Foundation

/// The dispatcher's life as a value: which links wait, which window runs which link, how far each
/// run has got, and what each window can do. It takes what happens — a link arrived, links were
/// restored, a window connected, became ready or active, went to the background or closed, a
/// barrier passed, failed or timed out, a handler answered, a plan was shown, a link was cancelled —
/// and answers with what to do: report, store, forget, evaluate or check a barrier, call a handler,
/// show a plan, stop a step. It performs nothing itself and reads no clock (times come with the
/// events), so a test drives it without an actor, a task or a clock; ``LinkDispatcher`` performs its
/// actions (racing each step against its timeout and the run's cancellation) and reports each
/// step's result back with ``stepEnded(in:_:now:date:)``.
///
/// ```swift
/// var machine = DispatchStateMachine<Screen>(configuration: configuration, resolver: resolver, barriers: [:], mandatoryBarriers: [])
/// machine.linkArrived(entry, now: 0, date: Date())
/// // (actions: [.emit(.received, entry), .keep(entry.pending), .emit(.heldUntilReady, entry)], taken: true)
/// machine.sceneChanged(.main, now: 1, date: Date()) { $0.isReady = true; $0.navigator = show }
/// machine.sceneActivated(.main, now: 1, date: Date())
/// // [.emit(.matched(route: "chat"), entry), .emit(.dispatched(route: "chat"), entry), .handle(match, in: .main)]
/// machine.stepEnded(in: .main, .handled(.finished(.success(.handled(plan)))), now: 2, date: Date())
/// // [.show(plan, link, in: .main)]
/// machine.stepEnded(in: .main, .shown, now: 2, date: Date())
/// // [.end(.main), .emit(.finished(.handled(route: "chat", plan: plan)), entry), .forget(entry.pending)]
/// ```
struct DispatchStateMachine<Destination: Hashable & Sendable>: Sendable {
    typealias Entry = LinkDispatcher<Destination>.Entry

    // `indirect`: an action's values live in one box, so the machine's code that builds, copies and
    // performs actions moves one word (5.5 KB less machine code for a device; Scripts/measure-core.sh).
    /// What the dispatcher does, in order.
    indirect enum Action: Sendable {
        /// Report a step of the link's life (or of no link, for `nil`).
        case emit(DispatchEvent<Destination>.Kind, Entry?)
        /// Write the link, new or changed, to the pending store.
        case keep(PendingLink)
        /// Remove the link from the pending store.
        case forget(PendingLink)
        /// Evaluate a barrier; report `.evaluated`.
        case evaluate(Barrier, BarrierContext, in: SceneID)
        /// Run a barrier's check (present the login); report `.checked`.
        case check(Barrier, BarrierContext, in: SceneID)
        /// Call the route's handler; report `.handled`.
        case handle(RouteMatch<LinkRoute<Destination>>, in: SceneID)
        /// Run the fallback handler of an outcome no route handles; report `.reported`.
        case report(DispatchOutcome<Destination>, DeepLink, in: SceneID)
        /// Hand the plan to the scene's navigator; report `.shown`.
        case show(NavigationPlan<Destination>, DeepLink, in: SceneID)
        /// Stop the step under way in the scene: a barrier's evaluation or check and a handler report
        /// `.cancelled` (unless they already answered); a plan being shown is shown.
        case stop(SceneID)
        /// Run the app's fallback handler for a link refused at receipt, without waiting for it: the
        /// link never queued, so nothing waits behind it.
        case fallback(DispatchOutcome<Destination>, DeepLink)
        /// The run in the scene ended: its cancellation gate closes.
        case end(SceneID)

        /// The scene of a run's step, for the actions that are steps.
        var stepScene: SceneID? {
            switch self {
            case .evaluate(_, _, let scene), .check(_, _, let scene), .handle(_, let scene), .report(_, _, let scene),
                .show(_, _, let scene):
                scene
            case .emit, .keep, .forget, .stop, .end, .fallback:
                nil
            }
        }
    }

    let configuration: DispatcherConfiguration
    /// Policy and routes, for redirect targets: a link is resolved before it reaches the machine.
    let resolver: LinkResolver<LinkRoute<Destination>>
    /// The barriers routes name, by name, and the mandatory ones.
    let barriers: [String: Barrier]
    let mandatoryBarriers: [MandatoryBarrier]
    /// The windows: which can run links, what each shows, and their navigators.
    private(set) var scenes = SceneTable<Destination>()
    /// Links waiting to run, oldest first.
    private(set) var queue: [Entry] = []
    /// The run under way in each scene.
    var running: [SceneID: Run] = [:]
    /// Which deliveries are duplicates: the one deduplication rule.
    private var deliveries = DeliveryLedger()

    init(
        configuration: DispatcherConfiguration,
        resolver: LinkResolver<LinkRoute<Destination>>,
        barriers: [String: Barrier],
        mandatoryBarriers: [MandatoryBarrier]
    ) {
        self.configuration = configuration
        self.resolver = resolver
        self.barriers = barriers
        self.mandatoryBarriers = mandatoryBarriers
    }

    /// The links waiting or running, by identifier.
    var underWay: Set<UUID> { Set(queue.map(\.pending.id) + running.values.map(\.entry.pending.id)) }

    /// Whether the link waits or runs.
    func isUnderWay(_ id: UUID) -> Bool {
        queue.contains { $0.pending.id == id } || running.values.contains { $0.entry.pending.id == id }
    }

    // MARK: Links

    /// A link arrived (resolved already): a duplicate ends at once, a link policy refused ends at
    /// once (its fallback runs), anything else waits its turn.
    ///
    /// - Returns: The actions, and whether the link was taken: `false` for a duplicate and a refusal,
    ///   which have no identifier to follow.
    mutating func linkArrived(_ entry: Entry, now: TimeInterval, date: Date) -> (actions: [Action], taken: Bool) {
        let (settled, moved) = settleGoneScene(for: entry, now: now, date: date)
        var actions: [Action] = [.emit(.received, entry)] + settled
        if let moved {
            // The delivery is a duplicate of the waiting copy, which runs where the tap was made
            // instead of the window that is gone, as the newest link there.
            actions.append(.emit(.finished(.deduplicated), entry))
            if case .latestWins = configuration.queuePolicy { actions += supersede(waitingFor: moved.waitsFor) }
            return (actions + enqueue(moved, now: now, date: date), false)
        }
        if deliveries.isDuplicate(entry.pending.identity, now: now, date: date, window: configuration.maximumPendingAge)
        {
            actions.append(.emit(.finished(.deduplicated), entry))
            return (actions, false)
        }
        if entry.resolved.isDeniedByPolicy, case .forbidden(_, let reason) = entry.resolved.resolution {
            let outcome = DispatchOutcome<Destination>.forbidden(reason: reason)
            actions += [.emit(.finished(outcome), entry), .fallback(outcome, entry.link)]
            return (actions, false)
        }
        switch configuration.queuePolicy {
        case .latestWins:
            actions += supersede(waitingFor: entry.waitsFor)
        case .firstInFirstOut(let limit):
            if queue.count >= limit { return (actions + [.emit(.finished(.dropped), entry)], true) }
        }
        deliveries.begin(entry.pending.identity)
        return (actions + enqueue(entry, now: now, date: date), true)
    }

    /// Puts `entry` last in the queue and in the store, and starts what can run now.
    private mutating func enqueue(_ entry: Entry, now: TimeInterval, date: Date) -> [Action] {
        queue.append(entry)
        let held: [Action] = placement(of: entry) == nil ? [.emit(.heldUntilReady, entry)] : []
        return [.keep(entry.pending)] + held + startRuns(now: now, date: date)
    }

    /// Links a previous process left pending (resolved already), oldest first; ones already known
    /// are skipped and old ones expire.
    ///
    /// - Returns: The actions, and how many links now wait.
    mutating func restored(_ entries: [Entry], now: TimeInterval, date: Date) -> (actions: [Action], count: Int) {
        var actions: [Action] = []
        var count = 0
        var known = underWay
        for entry in entries where known.insert(entry.pending.id).inserted {
            deliveries.begin(entry.pending.identity)
            if let expired = expire(entry, now: now, date: date) {
                actions += expired + [.forget(entry.pending)]
                continue
            }
            queue.append(entry)
            count += 1
        }
        return (actions, count)
    }

    /// Starts whatever can run now (after a restore has been reported).
    mutating func resume(now: TimeInterval, date: Date) -> [Action] {
        startRuns(now: now, date: date)
    }

    /// The app cancelled a link: a waiting one ends now, a running one is stopped (its run ends it).
    ///
    /// - Returns: The actions, and `false` when the link is neither waiting nor running.
    mutating func cancel(_ id: UUID) -> (actions: [Action], found: Bool) {
        if let index = queue.firstIndex(where: { $0.pending.id == id }) {
            let entry = queue.remove(at: index)
            return (finish(entry, .cancelled) + [.forget(entry.pending)], true)
        }
        if let scene = running.first(where: { $0.value.entry.pending.id == id })?.key {
            // The app's word wins over a window that closed meanwhile: the link ends cancelled.
            running[scene]?.stop = .cancelledByApp
            return ([.stop(scene)], true)
        }
        return ([], false)
    }

    /// The run in `scene` ended with `outcome`. A link stopped because its scene closed goes back to
    /// the front of the queue, free of that scene; any other ends. The scene then runs its next link,
    /// or another scene starts.
    mutating func runEnded(
        in scene: SceneID,
        outcome: DispatchOutcome<Destination>,
        now: TimeInterval,
        date: Date
    ) -> [Action] {
        guard let run = running.removeValue(forKey: scene) else { return [] }
        // A scene keeps running its own links, one after another; only when it has none left may
        // another scene's start (and only then is the queue scanned: once a link, it was quadratic).
        let (settled, moved) = settle(run.entry, outcome, stopped: run.stop, in: scene)
        let actions = [.end(scene)] + settled + nextRun(in: scene, now: now, date: date)
        // A link that moved may run in another window now, whether or not this one goes on.
        return running[scene] == nil || moved ? actions + startRuns(now: now, date: date) : actions
    }

    /// What ends a run: a link stopped because its scene closed goes back to the front of the queue,
    /// free of that scene; any other link ends with its outcome.
    ///
    /// - Returns: The actions, and whether the link went back to the queue.
    private mutating func settle(
        _ entry: Entry,
        _ outcome: DispatchOutcome<Destination>,
        stopped: Run.Stop? = nil,
        in scene: SceneID
    ) -> (actions: [Action], moved: Bool) {
        if case .cancelled = outcome.final, stopped == .sceneClosed {
            // Its scene disconnected before it was shown (at the link or at a redirect's target):
            // the link runs again, from the start, in another.
            let moved = entry.released()
            queue.insert(moved, at: 0)
            return ([.emit(.sceneDisconnected(scene: scene), moved), .keep(moved.pending)], true)
        }
        return (finish(entry, outcome) + [.forget(entry.pending)], false)
    }

    // MARK: Scenes

    /// A scene connected or changed (ready, active, what it shows, its navigator): links it can
    /// now run start.
    mutating func sceneChanged(
        _ scene: SceneID,
        now: TimeInterval,
        date: Date,
        _ change: (inout SceneTable<Destination>.Scene) -> Void
    ) -> [Action] {
        scenes.update(scene, change)
        return startRuns(now: now, date: date)
    }

    /// The scene became active: the latest active shows links that have no scene. Links that
    /// waited too long for a window that never came back end here, not never.
    mutating func sceneActivated(_ scene: SceneID, now: TimeInterval, date: Date) -> [Action] {
        scenes.activate(scene)
        return expireWaiting(now: now, date: date) + startRuns(now: now, date: date)
    }

    /// The scene went to the background: its links wait.
    mutating func sceneDeactivated(_ scene: SceneID) {
        guard scenes.isConnected(scene) else { return }
        scenes.update(scene) { $0.isActive = false }
    }

    /// The navigator every scene without its own uses changed.
    mutating func defaultNavigatorChanged(
        _ navigator: LinkDispatcher<Destination>.Navigator?,
        now: TimeInterval,
        date: Date
    ) -> [Action] {
        scenes.defaultNavigator = navigator
        return startRuns(now: now, date: date)
    }

    /// The scene closed: links waiting for it are released to any window, and one running in it is
    /// stopped, to run again elsewhere.
    mutating func sceneDisconnected(_ scene: SceneID, now: TimeInterval, date: Date) -> [Action] {
        scenes.disconnect(scene)
        var actions: [Action] = []
        for index in queue.indices where queue[index].pending.scene == scene {
            queue[index] = queue[index].released()
            actions += [.emit(.sceneDisconnected(scene: scene), queue[index]), .keep(queue[index].pending)]
        }
        // A run the app already cancelled ends cancelled; any other is stopped to run again elsewhere.
        if let run = running[scene], run.stop == nil {
            running[scene]?.stop = .sceneClosed
            actions.append(.stop(scene))
        }
        return actions + startRuns(now: now, date: date)
    }

    // MARK: Running

    /// Where `entry` runs now, or `nil` while it waits.
    func placement(of entry: Entry) -> SceneID? {
        scenes.scene(for: entry.pending, role: entry.role)
    }

    /// Starts a run in each idle scene that has a link it can run now, in the order the links came;
    /// one scene at a time unless ``DispatcherConfiguration/scenesRunIndependently``. Each turn
    /// takes at least one link off the queue, so it ends.
    private mutating func startRuns(now: TimeInterval, date: Date) -> [Action] {
        var actions: [Action] = []
        while configuration.scenesRunIndependently || running.isEmpty, let scene = firstIdleSceneWithWork() {
            actions += nextRun(in: scene, now: now, date: date)
        }
        return actions
    }

    /// The scene of the oldest waiting link that can run now in a scene running nothing.
    private func firstIdleSceneWithWork() -> SceneID? {
        for entry in queue {
            if let scene = placement(of: entry), running[scene] == nil { return scene }
        }
        return nil
    }

    /// The scene's next link, when the scene is idle and can run one; expired ones end on the way.
    private mutating func nextRun(in scene: SceneID, now: TimeInterval, date: Date) -> [Action] {
        var actions: [Action] = []
        while running[scene] == nil, let index = queue.firstIndex(where: { placement(of: $0) == scene }) {
            let entry = queue.remove(at: index)
            if let expired = expire(entry, now: now, date: date) {
                actions += expired + [.forget(entry.pending)]
                continue
            }
            var run = Run(entry: entry)
            let (steps, outcome) = begin(&run, in: scene)
            actions += steps
            if let outcome {
                // Ended before any step (input that is not a link): the scene takes its next.
                actions += [.end(scene)] + settle(entry, outcome, in: scene).actions
                continue
            }
            running[scene] = run
        }
        return actions
    }

    /// Ends every waiting link that waited longer than the configuration allows. A link is
    /// otherwise checked only when it is taken off the queue, and one that waits for a window the
    /// system never reconnects (a session from a killed process) would wait for ever.
    private mutating func expireWaiting(now: TimeInterval, date: Date) -> [Action] {
        var actions: [Action] = []
        var kept: [Entry] = []
        for entry in queue {
            if let expired = expire(entry, now: now, date: date) {
                actions += expired + [.forget(entry.pending)]
            } else {
                kept.append(entry)
            }
        }
        if !actions.isEmpty { queue = kept }
        return actions
    }

    /// Latest wins among links waiting for the same window (another window's are its own): those
    /// waiting for `waitsFor` end superseded.
    private mutating func supersede(waitingFor waitsFor: String) -> [Action] {
        let superseded = queue.filter { $0.waitsFor == waitsFor }
        queue.removeAll { $0.waitsFor == waitsFor }
        return superseded.flatMap { finish($0, .superseded) + [.forget($0.pending)] }
    }

    /// A new delivery of links that wait for a window that is not connected (restored for a
    /// session the system has not brought back): the person tapped it again where they are. A
    /// copy too old to run ends expired (then the new delivery is a tap of its own); the first
    /// other copy is taken off the queue and moved to the new delivery's window, as fresh as it
    /// (the new delivery is its duplicate, as the copy is still under way, and the caller queues
    /// the copy as the newest link); any further copy, left by a store that failed to forget, ends
    /// superseded. A copy that waits for the delivery's own window stays where it is.
    ///
    /// - Returns: The actions, and the copy moved, for the caller to queue.
    private mutating func settleGoneScene(
        for delivery: Entry,
        now: TimeInterval,
        date: Date
    ) -> (actions: [Action], moved: Entry?) {
        let identity = delivery.pending.identity
        // Every delivery comes by here, and a restore can queue thousands: look before copying.
        guard queue.contains(where: { isGoneCopy($0, of: identity) }) else { return ([], nil) }
        var actions: [Action] = []
        var moved: Entry?
        var kept: [Entry] = []
        for waiting in queue {
            guard isGoneCopy(waiting, of: identity), let scene = waiting.pending.scene else {
                kept.append(waiting)
                continue
            }
            if let expired = expire(waiting, now: now, date: date) {
                actions += expired + [.forget(waiting.pending)]
            } else if scene == delivery.pending.scene {
                // Delivered through the gone window itself, before it connects again: the copy
                // already waits there, and the delivery is an ordinary duplicate.
                kept.append(waiting)
            } else if moved == nil {
                let copy = waiting.retapped(as: delivery)
                moved = copy
                actions.append(.emit(.sceneDisconnected(scene: scene), copy))
            } else {
                actions += finish(waiting, .superseded) + [.forget(waiting.pending)]
            }
        }
        queue = kept
        return (actions, moved)
    }

    /// Whether `waiting` is a delivery with `identity` that waits for a window not connected.
    private func isGoneCopy(_ waiting: Entry, of identity: String) -> Bool {
        guard waiting.pending.identity == identity, let scene = waiting.pending.scene else { return false }
        return !scenes.isConnected(scene)
    }

    /// Ends a link that was under way: releases its delivery identity and reports its outcome.
    private mutating func finish(_ entry: Entry, _ outcome: DispatchOutcome<Destination>) -> [Action] {
        deliveries.end(entry.pending.identity, receivedAt: entry.receivedAt, on: entry.pending.receivedAt)
        return [.emit(.finished(outcome), entry)]
    }

    /// Ends `entry` as expired when it waited longer than the configuration allows, else `nil`. The
    /// age is the larger of the monotonic clock's and the wall clock's: the system's uptime stops
    /// while the device sleeps, so a link held overnight would otherwise look minutes old.
    private mutating func expire(_ entry: Entry, now: TimeInterval, date: Date) -> [Action]? {
        let age = max(now - entry.receivedAt, date.timeIntervalSince(entry.pending.receivedAt))
        // A link that waited on a long check (a login given an hour) lives until the check's end.
        let checkWait = entry.pending.checkDeadline.map { $0.timeIntervalSince(entry.pending.receivedAt) } ?? 0
        guard age > max(configuration.maximumPendingAge, checkWait) else { return nil }
        return finish(entry, .expired(age: age))
    }
}
