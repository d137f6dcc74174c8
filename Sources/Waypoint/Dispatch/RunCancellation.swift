import Foundation

/// Cancels whatever step a running link is at: a barrier evaluation, a check, or its handler.
final class RunCancellation: @unchecked Sendable {
    // The lock guards both properties.
    private let lock = NSLock()
    private var cancelled = false
    private var cancelCurrentStep: (@Sendable () -> Void)?

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let step = cancelCurrentStep
        lock.unlock()
        step?()
    }

    /// Makes `cancelStep` the way to cancel the current step; `false` when already cancelled.
    func track(_ cancelStep: @escaping @Sendable () -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !cancelled else { return false }
        cancelCurrentStep = cancelStep
        return true
    }
}
