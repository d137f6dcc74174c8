import Foundation
import Testing
@testable import Waypoint

// Waiting in tests. None of these waits spins: a loop of `Task.yield()` keeps a cooperative thread
// busy, and with tests running side by side on two cores it starved the very task it waited for.
// `eventually`, `finishes` and `settle` give up after `testPatience`, and when the test is
// cancelled (its suite's time limit), so a broken dispatcher fails its test instead of hanging the
// run. A `Gate` waits until the test opens it, as a login screen the user has not answered does.

/// How long a test waits for something that should happen: far beyond what it takes on a loaded
/// machine, and half the shortest suite time limit (a minute), so the wait's own message is the
/// one a hang gets.
let testPatience: Double = 30

/// Checks `condition` every millisecond until it holds; `false` after `seconds`, or when the test
/// is cancelled.
///
/// ```swift
/// #expect(await eventually { app.actions.current == ["like:4"] })
/// ```
func eventually(within seconds: Double = testPatience, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        do { try await Task.sleep(for: .milliseconds(1)) } catch { return false }
    }
    return true
}

/// Runs `work` and waits for it up to `seconds`: `true` when it finished, `false` when time ran
/// out first or the test was cancelled (then `work` is left running, unobserved).
///
/// ```swift
/// let settled = await finishes { await dispatcher.waitUntilIdle() }   // true
/// ```
func finishes(within seconds: Double = testPatience, _ work: @escaping @Sendable () async -> Void) async -> Bool {
    let waiting = Locked<CheckedContinuation<Bool, Never>?>(nil)
    let answer: @Sendable (Bool) -> Void = { finished in
        let continuation = waiting.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }
        continuation?.resume(returning: finished)
    }
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            waiting.withLock { $0 = continuation }
            // Cancelled before the continuation was kept: the handler found nothing to answer.
            if Task.isCancelled { return answer(false) }
            let timer = Task {
                try? await Task.sleep(for: .seconds(seconds))
                answer(false)
            }
            Task {
                await work()
                answer(true)
                timer.cancel()
            }
        }
    } onCancel: {
        answer(false)
    }
}

/// Waits until `dispatcher` has nothing left to run, by ``finishes(within:_:)``: a dispatcher
/// that never gets there fails the test instead of hanging the run.
func settle<Destination: Sendable>(
    _ dispatcher: LinkDispatcher<Destination>,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    if !(await finishes { await dispatcher.waitUntilIdle() }) {
        Issue.record(
            "The dispatcher was still busy after \(Int(testPatience)) s, or when the test was cancelled.",
            sourceLocation: sourceLocation
        )
    }
}

/// A door tasks wait at without spinning until the test opens it; they keep waiting when
/// cancelled, as a login screen the user has not answered stays up.
///
/// ```swift
/// let gate = Gate()
/// gate.close()
/// // … a task calls `await gate.pass()` and waits …
/// gate.open()   // it goes on
/// ```
final class Gate: Sendable {
    private struct State {
        var isOpen = true
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    func close() { state.withLock { $0.isOpen = false } }

    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Whether a task waits at the gate now.
    var isWaiting: Bool { state.withLock { !$0.waiting.isEmpty } }

    /// Returns at once when open, else when the test opens it.
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }
}
