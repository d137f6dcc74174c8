import Foundation

/// A link's run, step by step: for each route that takes it, in precedence order, its barriers (once
/// a check passes, every barrier is evaluated again from the first), then its handler; a redirect
/// runs its target the same way; the plan goes to the window's navigator. Each step is an action the
/// dispatcher performs (racing a timeout and the run's cancellation) and reports back.
extension DispatchStateMachine {
    /// The run under way in a scene.
    struct Run: Sendable {
        var entry: Entry
        /// What the link being run (the entry's, or the last redirect's target) resolved to.
        var resolved: ResolvedLink<LinkRoute<Destination>>
        /// The links followed so far: the entry's first, then each redirect's target.
        var chain: [String]
        /// Which of `resolved.candidates` is being tried.
        var candidate = 0
        /// The barriers of the route being tried, mandatory ones first, and which is being passed.
        var gates: [Barrier] = []
        var gate = 0
        /// The barriers (by index in `gates`) whose check said yes in this route's run: each must
        /// then pass by its own test, so a second call for its check fails the link.
        var checked: [Int] = []
        /// The outcome whose fallback handler runs (not found, forbidden, pass-through).
        var reporting: DispatchOutcome<Destination>?
        /// The plan the navigator is showing.
        var showing: NavigationPlan<Destination>?
        /// Why the run was stopped, once it was. A step that was stopped reports `.cancelled` and
        /// the run ends; a handler that answered before it could be stopped still does not get its
        /// plan shown or its redirect followed. A plan already being shown is shown.
        var stop: Stop?

        /// Why a run stops before it finishes.
        enum Stop {
            /// The app cancelled the link: it ends `.cancelled`.
            case cancelledByApp
            /// The link's window closed: a run that then ends `.cancelled` goes back to the front of
            /// the queue, free of that window, to run again in another.
            case sceneClosed
        }

        init(entry: Entry) {
            self.entry = entry
            self.resolved = entry.resolved
            self.chain = [entry.link.string]
        }

        var match: RouteMatch<LinkRoute<Destination>>? {
            resolved.candidates.indices.contains(candidate) ? resolved.candidates[candidate] : nil
        }
    }

    /// What the barriers and handler a step ran said.
    enum StepResult: Sendable {
        case evaluated(RaceOutcome<BarrierDecision>)
        case checked(RaceOutcome<Bool>)
        case handled(RaceOutcome<Result<HandlerResult<Destination>, any Error>>)
        /// A not-found, forbidden or pass-through handler returned (or timed out, or was cancelled).
        case reported(RaceOutcome<Void>)
        /// The navigator showed the plan.
        case shown
    }

    /// The step the run in `scene` was waiting for ended: the run goes on, or ends.
    mutating func stepEnded(in scene: SceneID, _ result: StepResult, now: TimeInterval, date: Date) -> [Action] {
        guard var run = running[scene] else { return [] }
        let (actions, outcome) = advance(&run, after: result, in: scene, date: date)
        guard let outcome else {
            running[scene] = run
            return actions
        }
        return actions + runEnded(in: scene, outcome: wrapped(outcome, in: run), now: now, date: date)
    }

    /// The first step of a run.
    func begin(_ run: inout Run, in scene: SceneID) -> (actions: [Action], outcome: DispatchOutcome<Destination>?) {
        switch run.resolved.resolution {
        case .invalid(let error):
            return ([], .invalid(message: error.message))
        case .forbidden(let link, let reason):
            return report(.forbidden(reason: reason), link, &run, in: scene)
        case .passThrough(let link):
            return report(.passThrough, link, &run, in: scene)
        case .notFound(let link):
            return report(.notFound, link, &run, in: scene)
        case .matched:
            run.candidate = 0
            return tryRoute(&run, in: scene)
        }
    }

    private func report(
        _ outcome: DispatchOutcome<Destination>,
        _ link: DeepLink,
        _ run: inout Run,
        in scene: SceneID
    ) -> (actions: [Action], outcome: DispatchOutcome<Destination>?) {
        run.reporting = outcome
        return ([.report(outcome, link, in: scene)], nil)
    }

    /// Tries the route at `run.candidate`: its barriers, then its handler; past the last, declined.
    private func tryRoute(
        _ run: inout Run,
        in scene: SceneID
    ) -> (actions: [Action], outcome: DispatchOutcome<Destination>?) {
        guard let match = run.match else { return ([], .declined) }
        let context = Self.context(of: match, in: scene)
        var gates = mandatoryBarriers.filter { $0.appliesTo(context) }.map(\.barrier)
        for name in match.value.barriers {
            guard let barrier = barriers[name] else {
                // Unreachable: building the dispatcher checked every name. Fail closed all the same.
                return ([], .barrierRejected(barrier: name, reason: "the barrier '\(name)' is not supplied"))
            }
            gates.append(barrier)
        }
        run.gates = gates
        run.gate = 0
        run.checked = []
        let (actions, outcome) = nextGate(&run, in: scene)
        return ([.emit(.matched(route: match.route.name), run.entry)] + actions, outcome)
    }

    /// Evaluates the next barrier, or hands the link to the route's handler once all passed.
    private func nextGate(
        _ run: inout Run,
        in scene: SceneID
    ) -> (actions: [Action], outcome: DispatchOutcome<Destination>?) {
        guard let match = run.match else { return ([], .declined) }
        guard run.gates.indices.contains(run.gate) else {
            return ([.emit(.dispatched(route: match.route.name), run.entry), .handle(match, in: scene)], nil)
        }
        return ([.evaluate(run.gates[run.gate], Self.context(of: match, in: scene), in: scene)], nil)
    }

    /// A check may outlast ``DispatcherConfiguration/maximumPendingAge`` (a login given an hour):
    /// the link is then kept, in the store too, until the check gives up, so that when the process
    /// dies meanwhile (the person went to their mail for a code) the link restored on the next launch
    /// is not taken for an old one, and leads on once they are logged in. The end is set once: a
    /// check shown again after a relaunch gets what is left of it (``checkTimeout(for:in:date:)``),
    /// so relaunching never keeps a link for ever. It moves on, so that a check gets its own whole
    /// wait, for a later check in the process that set it (a second factor after a slow login, in
    /// the same window or another after the first closed), and for
    /// a barrier asked again: one that passed before a later barrier's check said yes, and no longer
    /// passes (a login lapsed during a second factor's long check). Either happens only in the
    /// process that set the end (restored after a relaunch, a check gets what is left), so
    /// relaunching alone never moves it.
    private func keptThroughCheck(_ run: inout Run, of barrier: Barrier, date: Date) -> [Action] {
        let deadline = date.addingTimeInterval(configuration.checkWait(for: barrier))
        let pending = run.entry.pending
        let askedAgain = run.checked.contains { run.gate < $0 }
        let movesOn = pending.checkDeadline.map { (run.entry.keptEndHere || askedAgain) && $0 < deadline } ?? true
        guard movesOn, deadline.timeIntervalSince(pending.receivedAt) > configuration.maximumPendingAge
        else { return [] }
        run.entry = run.entry.waitingOnCheck(until: deadline)
        return [.keep(run.entry.pending)]
    }

    /// How long the check of `barrier` that the run in `scene` starts may take: the barrier's wait,
    /// cut to what is left of the link's kept deadline when it has one (a check started again
    /// after a relaunch).
    func checkTimeout(for barrier: Barrier, in scene: SceneID, date: Date) -> TimeInterval {
        let wait = configuration.checkWait(for: barrier)
        guard let deadline = running[scene]?.entry.pending.checkDeadline else { return wait }
        return max(0, min(wait, deadline.timeIntervalSince(date)))
    }

    /// The run after a step's result: its next actions, and its outcome when it ended. One switch
    /// over the step that ended (a barrier's evaluation or check, a handler, a shown plan, a
    /// fallback handler) and how it ended; `run.gate` and `run.candidate` say which barrier and
    /// which route the step was for.
    private func advance(
        _ run: inout Run,
        after result: StepResult,
        in scene: SceneID,
        date: Date
    ) -> (actions: [Action], outcome: DispatchOutcome<Destination>?) {
        let route = run.match?.route.name ?? ""
        let barrier = run.gates.indices.contains(run.gate) ? run.gates[run.gate] : nil
        let name = barrier?.name ?? ""
        switch result {
        case .evaluated(.finished(.passed)):
            run.gate += 1
            let (actions, outcome) = nextGate(&run, in: scene)
            return ([.emit(.barrierPassed(barrier: name), run.entry)] + actions, outcome)
        case .evaluated(.finished(.rejected(let reason))):
            return ([], .barrierRejected(barrier: name, reason: reason))
        case .evaluated(.finished(.needsCheck)) where run.checked.contains(run.gate):
            // The check said yes but the barrier does not pass: never let the link through, and
            // never show the same check twice in one run (two checks that undo each other would
            // otherwise take turns for ever).
            return ([], .barrierFailed(barrier: name))
        case .evaluated(.finished(.needsCheck)):
            guard let barrier, let match = run.match else { return ([], .barrierFailed(barrier: name)) }
            return (
                [.emit(.waitingOnBarrier(barrier: name), run.entry)]
                    + keptThroughCheck(&run, of: barrier, date: date)
                    + [.check(barrier, Self.context(of: match, in: scene), in: scene)],
                nil
            )
        case .checked(.finished(true)):
            // A check's yes is the app's login screen saying it is done, not the barrier passing:
            // the barrier is evaluated again and must pass by its own test, so a screen that closes
            // with `true` and no session lets nothing through. The barriers before it passed before
            // the check, which may have taken an hour: the person may have logged out meanwhile, so
            // every barrier is evaluated again, from the first.
            guard barrier != nil else { return ([], .barrierFailed(barrier: name)) }
            run.checked.append(run.gate)
            run.gate = 0
            return nextGate(&run, in: scene)
        case .checked(.finished(false)):
            return ([], .barrierFailed(barrier: name))
        case .evaluated(.timedOut), .checked(.timedOut):
            return ([], .barrierTimedOut(barrier: name))
        case .handled(.timedOut):
            return ([], .timedOut(route: route))
        case .handled(.finished(.failure(let error))), .handled(.finished(.success(.failed(let error)))):
            return ([], .failed(route: route, message: "\(error)"))
        case .handled(.finished(.success(.declined))):
            run.candidate += 1
            let (actions, outcome) = tryRoute(&run, in: scene)
            return ([.emit(.declined(route: route), run.entry)] + actions, outcome)
        case .handled(.finished(.success(.handled(let plan)))):
            guard run.stop == nil, let link = run.match?.link else { return ([], .cancelled) }
            run.showing = plan
            return ([.show(plan, link, in: scene)], nil)
        case .handled(.finished(.success(.redirect(let target)))):
            guard run.stop == nil else { return ([], .cancelled) }
            return redirect(&run, route: route, to: target, in: scene)
        case .reported(.finished):
            return ([], run.reporting ?? .cancelled)
        case .reported(.timedOut):
            let outcome = run.reporting ?? .cancelled
            return ([.emit(.outcomeHandlerTimedOut(outcome: "\(outcome)"), run.entry)], outcome)
        case .shown:
            guard let plan = run.showing else { return ([], .cancelled) }
            return ([], .handled(route: route, plan: plan))
        case .evaluated(.cancelled), .checked(.cancelled), .handled(.cancelled), .reported(.cancelled):
            return ([], .cancelled)
        }
    }

    /// Follows a handler's redirect: the target runs as if it had arrived in the original link's
    /// place, with its source, through policy, routing and barriers.
    private func redirect(
        _ run: inout Run,
        route: String,
        to target: String,
        in scene: SceneID
    ) -> (actions: [Action], outcome: DispatchOutcome<Destination>?) {
        guard let link = run.match?.link else { return ([], .cancelled) }
        let next: DeepLink
        switch resolver.policy.redirectTarget(target, from: link) {
        case .own(let own):
            next = own
        case .foreign(_, let reason):
            return ([], .redirectFailed(reason: "the route '\(route)' redirected, but \(reason)"))
        case .invalid(let error):
            let reason = "the route '\(route)' redirected to '\(target)', which is not a link: \(error.message)"
            return ([], .redirectFailed(reason: reason))
        }
        let path = (run.chain + [next.string]).joined(separator: " → ")
        if run.chain.contains(next.string) { return ([], .redirectFailed(reason: "a redirect loop: \(path)")) }
        guard run.chain.count <= configuration.maximumRedirects else {
            return ([], .redirectFailed(reason: "more than \(configuration.maximumRedirects) redirects: \(path)"))
        }
        run.chain.append(next.string)
        run.resolved = resolver.resolvedLink(next)
        let (actions, outcome) = begin(&run, in: scene)
        return ([.emit(.redirected(route: route, to: next.string), run.entry)] + actions, outcome)
    }

    /// The outcome at the end of the redirects followed, as the entry's: each redirect wraps it.
    private func wrapped(_ outcome: DispatchOutcome<Destination>, in run: Run) -> DispatchOutcome<Destination> {
        run.chain.dropFirst().reversed().reduce(outcome) { .redirected(to: $1, outcome: $0) }
    }

    static func context(of match: RouteMatch<LinkRoute<Destination>>, in scene: SceneID) -> BarrierContext {
        BarrierContext(link: match.link, route: match.route.name, pattern: match.route.pattern, scene: scene)
    }
}
