import Foundation

/// State shared across threads behind a lock: the one lock box of the package, for the few places
/// a synchronous callback (a continuation, a cancellation handler, a store) must touch state that
/// an actor cannot hold. (`Synchronization.Mutex` needs iOS 18.)
///
/// Work inside `withLock` is short and never resumes a continuation or calls out: return what to
/// do, then do it after the lock is released.
///
/// ```swift
/// let count = Locked(0)
/// count.withLock { $0 += 1 }   // 1
/// ```
package final class Locked<State: Sendable>: @unchecked Sendable {
    // The lock guards `state`; nothing else is stored.
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) { self.state = state }

    /// Runs `body` with the state, exclusively.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
