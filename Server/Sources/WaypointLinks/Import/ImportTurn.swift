import NIOConcurrencyHelpers

/// Whose turn it is to import on this instance: one import request at a time, since each reads up
/// to 32 MB on the threads that also answer visits (two at once held both of a small server's
/// threads, and visits waited seconds behind them).
///
/// ```swift
/// let turn = ImportTurn()
/// turn.take()   // true: import
/// turn.take()   // false: another import is under way (429)
/// turn.giveBack()
/// ```
final class ImportTurn: Sendable {
    private let taken = NIOLockedValueBox(false)

    /// Takes the turn; `false` when an import has it.
    func take() -> Bool {
        taken.withLockedValue { taken in
            if taken { return false }
            taken = true
            return true
        }
    }

    func giveBack() { taken.withLockedValue { $0 = false } }

    var isTaken: Bool { taken.withLockedValue { $0 } }
}
