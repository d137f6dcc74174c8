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
public final class ManualClock: DispatchClock, @unchecked Sendable {
    private struct Sleeper {
        let id: UUID
        let deadline: TimeInterval
        let continuation: CheckedContinuation<Void, any Error>
    }

    // The lock guards every property below.
    private let lock = NSLock()
    private var current: TimeInterval = 0
    private var sleepers: [Sleeper] = []
    private var cancelledBeforeSleeping: Set<UUID> = []

    public init() {}

    public func now() -> TimeInterval {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// How many tasks are sleeping on the clock.
    public var sleeperCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return sleepers.count
    }

    public func sleep(seconds: TimeInterval) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if cancelledBeforeSleeping.remove(id) != nil {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else if seconds <= 0 {
                    lock.unlock()
                    continuation.resume()
                } else {
                    sleepers.append(Sleeper(id: id, deadline: current + seconds, continuation: continuation))
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            if let index = sleepers.firstIndex(where: { $0.id == id }) {
                let sleeper = sleepers.remove(at: index)
                lock.unlock()
                sleeper.continuation.resume(throwing: CancellationError())
            } else {
                cancelledBeforeSleeping.insert(id)
                lock.unlock()
            }
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    public func advance(by seconds: TimeInterval) {
        lock.lock()
        current += seconds
        let due = sleepers.filter { $0.deadline <= current }
        sleepers.removeAll { $0.deadline <= current }
        lock.unlock()
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` tasks sleep on the clock.
    public func waitForSleepers(_ count: Int) async {
        while sleeperCount < count { await Task.yield() }
    }
}
