import Foundation

/// Cancels whatever step a running link is at: a barrier evaluation, a check, or its handler.
final class RunCancellation: Sendable {
    private struct State {
        var cancelled = false
        var cancelCurrentStep: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    func cancel() {
        let step = state.withLock { state in
            state.cancelled = true
            return state.cancelCurrentStep
        }
        step?()
    }

    /// Makes `cancelStep` the way to cancel the current step; `false` when already cancelled.
    func track(_ cancelStep: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.cancelCurrentStep = cancelStep
            return true
        }
    }
}
