import Foundation

extension LinkDispatcher {
    /// A scene's run as the actor sees it: the gate that stops its steps (opened by its first step,
    /// closed when the machine says the run ended, `.end`), and the step under way.
    struct ActiveRun {
        let cancellation = RunCancellation()
        var step: Task<Void, Never>?
    }

    /// Performs one step of a run in a task of its own — a barrier's evaluation or check and a
    /// handler race their timeouts and the run's cancellation; showing a plan does not — and reports
    /// what came of it to the state machine, which answers with the next.
    func perform(step action: DispatchStateMachine<Destination>.Action) {
        guard let scene = action.stepScene else { return }
        let work: @Sendable (RunCancellation) async -> DispatchStateMachine<Destination>.StepResult
        switch action {
        case .evaluate(let barrier, let context, _):
            let timeout = configuration.barrierEvaluationTimeout
            work = { .evaluated(await self.race(timeout, $0) { await barrier.evaluate(context) }) }
        case .check(let barrier, let context, _):
            let timeout = machine.checkTimeout(for: barrier, in: scene, date: Date())
            work = { .checked(await self.race(timeout, $0) { await barrier.check(context) }) }
        case .handle(let match, _):
            let timeout = configuration.handlerTimeout
            let handler = match.value.handler
            work = { cancellation in
                .handled(
                    await self.race(timeout, cancellation) {
                        () async -> Result<HandlerResult<Destination>, any Error> in
                        do { return .success(try await handler(match)) } catch { return .failure(error) }
                    }
                )
            }
        case .report(let outcome, let link, _):
            // The handler of an outcome no route handles runs under the handler timeout too, so a
            // not-found screen that never returns stalls nothing behind it.
            let timeout = configuration.handlerTimeout
            let handler = fallbackHandler(for: outcome, link)
            work = { .reported(await self.race(timeout, $0) { await handler() }) }
        case .show(let plan, let link, _):
            let navigator = machine.scenes.navigator(for: scene)
            work = { _ in
                await navigator?(plan, link)
                return .shown
            }
        case .emit, .keep, .forget, .stop, .end, .fallback:
            return
        }
        var run = runs[scene] ?? ActiveRun()
        let cancellation = run.cancellation
        run.step = Task {
            let result = await work(cancellation)
            self.stepEnded(in: scene, result)
        }
        runs[scene] = run
    }

    private func stepEnded(in scene: SceneID, _ result: DispatchStateMachine<Destination>.StepResult) {
        runs[scene]?.step = nil
        perform(machine.stepEnded(in: scene, result, now: clock.now(), date: Date()))
    }

    /// What the app asked to run for an outcome no route handles.
    func fallbackHandler(
        for outcome: DispatchOutcome<Destination>,
        _ link: DeepLink
    ) -> @Sendable () async -> Void {
        switch outcome {
        case .forbidden(let reason):
            let handler = fallbacks.forbidden
            return { await handler?(link, reason) }
        case .passThrough:
            let handler = fallbacks.passThrough
            return { await handler?(link) }
        case .notFound:
            let handler = fallbacks.notFound
            return { await handler?(link) }
        default:
            return {}
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
