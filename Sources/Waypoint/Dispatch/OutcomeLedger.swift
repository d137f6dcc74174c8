import Foundation

/// Who waits for which link's outcome, and the outcomes of recent links, so a caller that asks
/// after a link finished still gets it.
struct OutcomeLedger<Destination: Hashable & Sendable>: Sendable {
    private var waiters: [UUID: [CheckedContinuation<DispatchOutcome<Destination>?, Never>]] = [:]
    private var recent: [UUID: DispatchOutcome<Destination>] = [:]
    private var recentOrder: [UUID] = []

    /// How many finished outcomes are kept.
    static var rememberedLimit: Int { 64 }

    /// The outcome of a link that finished recently.
    func outcome(of id: UUID) -> DispatchOutcome<Destination>? { recent[id] }

    /// Resumes `waiter` when the link `id` finishes.
    mutating func wait(for id: UUID, _ waiter: CheckedContinuation<DispatchOutcome<Destination>?, Never>) {
        waiters[id, default: []].append(waiter)
    }

    /// The link `id` finished: its waiters are resumed, and its outcome is kept for later callers.
    mutating func record(_ outcome: DispatchOutcome<Destination>, for id: UUID) {
        for waiter in waiters.removeValue(forKey: id) ?? [] { waiter.resume(returning: outcome) }
        recent[id] = outcome
        recentOrder.append(id)
        if recentOrder.count > Self.rememberedLimit { recent[recentOrder.removeFirst()] = nil }
    }
}
