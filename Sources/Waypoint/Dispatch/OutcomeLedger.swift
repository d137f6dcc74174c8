import Foundation

/// Who waits for which link's outcome, and the outcomes of recent links, so a caller that asks
/// after a link finished still gets it.
struct OutcomeLedger<Destination: Hashable & Sendable>: Sendable {
    /// One caller waiting: answered with the outcome, or with `nil` when it stops waiting (its
    /// timeout passed, its task was cancelled).
    struct Waiter: Sendable {
        let id: UUID
        let continuation: CheckedContinuation<DispatchOutcome<Destination>?, Never>
        /// The task that ends the wait at its timeout, stopped when the outcome comes first.
        var timer: Task<Void, Never>?
    }

    private var waiters: [UUID: [Waiter]] = [:]
    private var recent: [UUID: DispatchOutcome<Destination>] = [:]
    private var recentOrder: [UUID] = []

    /// How many finished outcomes are kept.
    static var rememberedLimit: Int { 64 }

    /// The outcome of a link that finished recently.
    func outcome(of id: UUID) -> DispatchOutcome<Destination>? { recent[id] }

    /// Resumes `waiter` when the link `link` finishes, or when ``stopWaiting(_:for:)`` names it.
    mutating func wait(for link: UUID, _ waiter: Waiter) {
        waiters[link, default: []].append(waiter)
    }

    /// The wait for `link`'s outcome at `waiter`: its timer is set once the wait is registered.
    mutating func setTimer(_ timer: Task<Void, Never>, of waiter: UUID, for link: UUID) {
        guard let index = waiters[link]?.firstIndex(where: { $0.id == waiter }) else {
            timer.cancel()
            return
        }
        waiters[link]?[index].timer = timer
    }

    /// The caller `waiter` stops waiting for `link` and is answered `nil`; nothing happens when it
    /// was answered already.
    mutating func stopWaiting(_ waiter: UUID, for link: UUID) {
        guard let index = waiters[link]?.firstIndex(where: { $0.id == waiter }),
            let stopped = waiters[link]?.remove(at: index)
        else { return }
        if waiters[link]?.isEmpty == true { waiters[link] = nil }
        stopped.timer?.cancel()
        stopped.continuation.resume(returning: nil)
    }

    /// The link `id` finished: its waiters are resumed, and its outcome is kept for later callers.
    mutating func record(_ outcome: DispatchOutcome<Destination>, for id: UUID) {
        for waiter in waiters.removeValue(forKey: id) ?? [] {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: outcome)
        }
        recent[id] = outcome
        recentOrder.append(id)
        if recentOrder.count > Self.rememberedLimit { recent[recentOrder.removeFirst()] = nil }
    }
}
