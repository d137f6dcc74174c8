import Foundation
import Waypoint

/// A ``DispatchClock`` that moves only when told, so tests of timeouts and pending-link expiry
/// run instantly and the same way every time.
///
/// ```swift
/// let clock = ManualClock()
/// let dispatcher = try LinkDispatcher<Screen>(routes: routes, policy: policy, clock: clock)
/// // … a handler that never returns is running …
/// await clock.waitForSleepers(1)
/// clock.advance(by: 10)   // its timeout fires now
/// ```
public final class ManualClock: DispatchClock, Sendable {
    private struct Sleeper {
        let id: UUID
        let deadline: TimeInterval
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// A task in ``waitForSleepers(_:)``, waiting for `count` sleepers.
    private struct SleeperWait {
        let id: UUID
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var current: TimeInterval = 0
        var sleepers: [Sleeper] = []
        var cancelledBeforeSleeping: Set<UUID> = []
        var sleeperWaits: [SleeperWait] = []
        var cancelledBeforeWaiting: Set<UUID> = []

        /// Takes out the waits that the sleepers now there satisfy.
        mutating func satisfiedWaits() -> [SleeperWait] {
            let count = sleepers.count
            defer { sleeperWaits.removeAll { $0.count <= count } }
            return sleeperWaits.filter { $0.count <= count }
        }
    }

    private let state = Locked(State())

    /// A clock at 0 with no sleepers.
    public init() {}

    /// The seconds the clock was advanced by, in all: `ManualClock().now()` is `0`.
    public func now() -> TimeInterval { state.withLock(\.current) }

    /// How many tasks are sleeping on the clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// How many tasks wait in ``waitForSleepers(_:)``: the package's tests wait for one to be
    /// suspended before cancelling it.
    package var sleeperWaitCount: Int { state.withLock { $0.sleeperWaits.count } }

    /// Sleeps until the clock is advanced `seconds` past now; throws `CancellationError` when the task
    /// is cancelled. A sleep of 0 or less returns at once.
    public func sleep(seconds: TimeInterval) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Next {
                    case cancelled, wakeNow
                    case sleep(waitsSatisfied: [SleeperWait])
                }
                let next = state.withLock { state -> Next in
                    if state.cancelledBeforeSleeping.remove(id) != nil { return .cancelled }
                    if seconds <= 0 { return .wakeNow }
                    state.sleepers.append(
                        Sleeper(id: id, deadline: state.current + seconds, continuation: continuation)
                    )
                    return .sleep(waitsSatisfied: state.satisfiedWaits())
                }
                switch next {
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .wakeNow: continuation.resume()
                case .sleep(let waits): for wait in waits { wait.continuation.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                if let index = state.sleepers.firstIndex(where: { $0.id == id }) {
                    return state.sleepers.remove(at: index)
                }
                state.cancelledBeforeSleeping.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    public func advance(by seconds: TimeInterval) {
        let due = state.withLock { state -> [Sleeper] in
            state.current += seconds
            let now = state.current
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` tasks sleep on the clock, or once the waiting task is
    /// cancelled. It waits without taking a thread, so the tasks it waits for get to run.
    public func waitForSleepers(_ count: Int) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let answered = state.withLock { state -> Bool in
                    if state.cancelledBeforeWaiting.remove(id) != nil || state.sleepers.count >= count { return true }
                    state.sleeperWaits.append(SleeperWait(id: id, count: count, continuation: continuation))
                    return false
                }
                if answered { continuation.resume() }
            }
        } onCancel: {
            let wait = state.withLock { state -> SleeperWait? in
                if let index = state.sleeperWaits.firstIndex(where: { $0.id == id }) {
                    return state.sleeperWaits.remove(at: index)
                }
                state.cancelledBeforeWaiting.insert(id)
                return nil
            }
            wait?.continuation.resume()
        }
    }
}
