import Foundation

// `indirect`: the values of each case live in one box, so code that copies or switches over an outcome
// moves one word, whatever the payload's layout (3 KB less machine code for a device; Scripts/measure-core.sh).
/// How a raced operation ended.
indirect enum RaceOutcome<Value: Sendable>: Sendable {
    case finished(Value)
    case timedOut
    case cancelled
}

/// Settles once: the first of completion, timeout and cancellation wins; later ones are ignored.
///
/// This is what keeps a late handler completion from touching anything: by the time it arrives the
/// gate is settled, and the dispatcher has moved on to the next link.
final class RaceGate<Value: Sendable>: Sendable {
    private struct State {
        var outcome: RaceOutcome<Value>?
        var continuation: CheckedContinuation<RaceOutcome<Value>, Never>?
    }

    private let state = Locked(State())

    /// Settles the gate; `false` when it was settled already.
    @discardableResult
    func settle(_ value: RaceOutcome<Value>) -> Bool {
        let settled = state.withLock {
            state -> (first: Bool, waiting: CheckedContinuation<RaceOutcome<Value>, Never>?) in
            guard state.outcome == nil else { return (false, nil) }
            state.outcome = value
            defer { state.continuation = nil }
            return (true, state.continuation)
        }
        settled.waiting?.resume(returning: value)
        return settled.first
    }

    func wait() async -> RaceOutcome<Value> {
        await withCheckedContinuation { continuation in
            let settled = state.withLock { state -> RaceOutcome<Value>? in
                if let outcome = state.outcome { return outcome }
                state.continuation = continuation
                return nil
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }

    /// Runs `operation` against a timeout. Neither a handler that never returns nor one that ignores
    /// cancellation can hold the caller past `timeout`: the caller waits on the gate, not on the task.
    static func run(
        timeout: TimeInterval,
        clock: any DispatchClock,
        gate: RaceGate<Value>,
        _ operation: @escaping @Sendable () async -> Value
    ) async -> RaceOutcome<Value> {
        let work = Task { gate.settle(.finished(await operation())) }
        let timer = Task {
            do {
                try await clock.sleep(seconds: timeout)
                gate.settle(.timedOut)
            } catch {
                // Cancelled because the operation finished first.
            }
        }
        let outcome = await gate.wait()
        timer.cancel()
        if case .finished = outcome {} else { work.cancel() }
        return outcome
    }
}
