import Foundation

/// How a raced operation ended.
enum RaceOutcome<Value: Sendable>: Sendable {
    case finished(Value)
    case timedOut
    case cancelled
}

/// Settles once: the first of completion, timeout and cancellation wins; later ones are ignored.
///
/// This is what keeps a late handler completion from touching anything: by the time it arrives the
/// gate is settled, and the dispatcher has moved on to the next link.
final class RaceGate<Value: Sendable>: @unchecked Sendable {
    // The lock guards `outcome` and `continuation`; everything else is immutable.
    private let lock = NSLock()
    private var outcome: RaceOutcome<Value>?
    private var continuation: CheckedContinuation<RaceOutcome<Value>, Never>?

    /// Settles the gate; `false` when it was settled already.
    @discardableResult
    func settle(_ value: RaceOutcome<Value>) -> Bool {
        lock.lock()
        guard outcome == nil else {
            lock.unlock()
            return false
        }
        outcome = value
        let waiting = continuation
        continuation = nil
        lock.unlock()
        waiting?.resume(returning: value)
        return true
    }

    func wait() async -> RaceOutcome<Value> {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let outcome {
                lock.unlock()
                continuation.resume(returning: outcome)
            } else {
                self.continuation = continuation
                lock.unlock()
            }
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
