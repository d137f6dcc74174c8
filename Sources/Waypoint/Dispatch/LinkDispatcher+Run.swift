import Foundation

extension LinkDispatcher {
    /// Runs one link to its outcome: for each route that takes it, in precedence order, its
    /// barriers and its handler, until one handles it; a redirect runs its target the same way.
    /// What comes of it goes back to the state machine (``DispatchStateMachine/runEnded(in:outcome:now:date:)``).
    func run(_ entry: Entry, in scene: SceneID, _ cancellation: RunCancellation) async -> DispatchOutcome<Destination> {
        await outcome(of: entry.resolved, entry, scene, cancellation, chain: [entry.link.string])
    }

    /// The outcome of a resolved link: the entry's own, or where a redirect led (`chain` holds the
    /// links followed so far, the entry's first, this one last).
    private func outcome(
        of resolved: ResolvedLink<LinkRoute<Destination>>,
        _ entry: Entry,
        _ scene: SceneID,
        _ cancellation: RunCancellation,
        chain: [String]
    ) async -> DispatchOutcome<Destination> {
        let link: DeepLink
        switch resolved.resolution {
        case .invalid(let error):
            return .invalid(message: error.message)
        case .forbidden(let forbidden, let reason):
            link = forbidden
            let handler = fallbacks.forbidden
            return await report(.forbidden(reason: reason), entry, cancellation) { await handler?(link, reason) }
        case .passThrough(let passed):
            link = passed
            let handler = fallbacks.passThrough
            return await report(.passThrough, entry, cancellation) { await handler?(link) }
        case .notFound(let unmatched):
            link = unmatched
            let handler = fallbacks.notFound
            return await report(.notFound, entry, cancellation) { await handler?(link) }
        case .matched(let match):
            link = match.link
        }
        for match in resolved.candidates {
            let route = match.route.name
            emit(.matched(route: route), entry)
            if let stopped = await passBarriers(match, entry, scene, cancellation) { return stopped }
            let handler = match.value.handler
            emit(.dispatched(route: route), entry)
            let result = await race(configuration.handlerTimeout, cancellation) {
                () async -> Result<HandlerResult<Destination>, any Error> in
                do { return .success(try await handler(match)) } catch { return .failure(error) }
            }
            switch result {
            case .cancelled:
                return .cancelled
            case .timedOut:
                return .timedOut(route: route)
            case .finished(.failure(let error)), .finished(.success(.failed(let error))):
                return .failed(route: route, message: "\(error)")
            case .finished(.success(.declined)):
                emit(.declined(route: route), entry)
            case .finished(.success(.handled(let plan))):
                guard !cancellation.isCancelled else {
                    return .cancelled
                }
                await machine.scenes.navigator(for: scene)?(plan, link)
                return .handled(route: route, plan: plan)
            case .finished(.success(.redirect(let target))):
                guard !cancellation.isCancelled else {
                    return .cancelled
                }
                return await redirect(from: link, route: route, to: target, entry, scene, cancellation, chain)
            }
        }
        return .declined
    }

    /// Follows a handler's redirect: the target runs as if it had arrived in the original link's
    /// place, with its source, through policy, routing and barriers.
    private func redirect(
        from link: DeepLink,
        route: String,
        to target: String,
        _ entry: Entry,
        _ scene: SceneID,
        _ cancellation: RunCancellation,
        _ chain: [String]
    ) async -> DispatchOutcome<Destination> {
        let next: DeepLink
        switch resolver.policy.redirectTarget(target, from: link) {
        case .own(let own):
            next = own
        case .foreign(_, let reason):
            return .redirectFailed(reason: "the route '\(route)' redirected, but \(reason)")
        case .invalid(let error):
            return .redirectFailed(
                reason: "the route '\(route)' redirected to '\(target)', which is not a link: \(error.message)"
            )
        }
        let path = (chain + [next.string]).joined(separator: " → ")
        if chain.contains(next.string) {
            return .redirectFailed(reason: "a redirect loop: \(path)")
        }
        guard chain.count <= configuration.maximumRedirects else {
            return .redirectFailed(reason: "more than \(configuration.maximumRedirects) redirects: \(path)")
        }
        emit(.redirected(route: route, to: next.string), entry)
        let outcome = await outcome(
            of: resolver.resolved(next),
            entry,
            scene,
            cancellation,
            chain: chain + [next.string]
        )
        return .redirected(to: next.string, outcome: outcome)
    }

    /// Runs the handler of an outcome that no route handles, under the same timeout as a route's
    /// handler, so a not-found screen that never returns stalls nothing behind it.
    private func report(
        _ outcome: DispatchOutcome<Destination>,
        _ entry: Entry,
        _ cancellation: RunCancellation,
        _ handler: @escaping @Sendable () async -> Void
    ) async -> DispatchOutcome<Destination> {
        switch await race(configuration.handlerTimeout, cancellation, handler) {
        case .finished: return outcome
        case .timedOut:
            emit(.outcomeHandlerTimedOut(outcome: "\(outcome)"), entry)
            return outcome
        case .cancelled:
            return .cancelled
        }
    }

    /// Evaluates the mandatory barriers that apply, then the route's own; `nil` when all passed.
    private func passBarriers(
        _ match: LinkRoute<Destination>.Match,
        _ entry: Entry,
        _ scene: SceneID,
        _ cancellation: RunCancellation
    ) async -> DispatchOutcome<Destination>? {
        let route = match.route.name
        let context = BarrierContext(link: match.link, route: route, pattern: match.route.pattern, scene: scene)
        var gates = mandatoryBarriers.filter { $0.appliesTo(context) }.map(\.barrier)
        for name in match.value.barriers {
            guard let barrier = barriers[name] else {
                // Unreachable: building the dispatcher checked every name. Fail closed all the same.
                let reason = "the barrier '\(name)' is not supplied"
                return .barrierRejected(barrier: name, reason: reason)
            }
            gates.append(barrier)
        }
        for barrier in gates {
            if let stopped = await pass(barrier, context, entry, cancellation) { return stopped }
        }
        return nil
    }

    private func pass(
        _ barrier: Barrier,
        _ context: BarrierContext,
        _ entry: Entry,
        _ cancellation: RunCancellation
    ) async -> DispatchOutcome<Destination>? {
        let name = barrier.name
        var checked = false
        while true {
            switch await race(configuration.barrierEvaluationTimeout, cancellation, { await barrier.evaluate(context) })
            {
            case .finished(.passed):
                emit(.barrierPassed(barrier: name), entry)
                return nil
            case .finished(.rejected(let reason)):
                return .barrierRejected(barrier: name, reason: reason)
            case .finished(.needsCheck) where checked:
                // The check said yes but the barrier still does not pass: never let the link through.
                return .barrierFailed(barrier: name)
            case .finished(.needsCheck):
                emit(.waitingOnBarrier(barrier: name), entry)
                switch await race(configuration.barrierCheckTimeout, cancellation, { await barrier.check(context) }) {
                case .finished(true):
                    checked = true
                case .finished(false):
                    return .barrierFailed(barrier: name)
                case .timedOut:
                    return .barrierTimedOut(barrier: name)
                case .cancelled:
                    return .cancelled
                }
            case .timedOut:
                return .barrierTimedOut(barrier: name)
            case .cancelled:
                return .cancelled
            }
        }
    }

    private func race<T: Sendable>(
        _ timeout: TimeInterval,
        _ cancellation: RunCancellation,
        _ operation: @escaping @Sendable () async -> T
    ) async -> RaceOutcome<T> {
        let gate = RaceGate<T>()
        guard cancellation.track({ gate.settle(.cancelled) }) else { return .cancelled }
        return await RaceGate.run(timeout: timeout, clock: clock, gate: gate, operation)
    }
}
