import Foundation

/// The one deduplication rule of a ``LinkDispatcher``: a delivery is a duplicate of another, not a
/// new tap, when they share an identity and
///
/// - the first is still waiting or running (a cold start hands the same URL, activity or
///   notification to two callbacks, both before anything runs), or
/// - both are the same notification request with the same content, and the second came within a
///   link's ``DispatcherConfiguration/maximumPendingAge`` of the first: a notification is tapped
///   once, and iOS may hand that tap to a second callback after the first delivery already
///   finished. The content counts because APNs makes a request's identifier its
///   `apns-collapse-id`: every later push that replaces one (a score, a chat's latest message) has
///   the same identifier, and each is a tap of its own. The time counts because a reminder sent
///   again tomorrow, word for word, is a tap of its own too.
///
/// Anything else is a new tap and runs again, however soon: the same universal link or quick action
/// tapped a second time after the first opened navigates a second time.
///
/// Identities come from ``LinkIntake`` (``IntakeResult/link(_:identity:)``), in the forms
/// `DeliveryIdentity` lists, one for each way in.
struct DeliveryLedger: Sendable {
    /// Identities waiting or running, with how many deliveries of each.
    private var inFlight: [String: Int] = [:]
    /// Notification requests that already ran, with when each was received (the clock's time and
    /// the wall clock's), oldest first, at most ``rememberedRequestLimit``.
    private var finishedRequests: [String: (clock: TimeInterval, date: Date)] = [:]
    private var finishedRequestOrder: [String] = []

    /// How many finished notification requests are remembered (a few hundred bytes each).
    static let rememberedRequestLimit = 256

    /// Whether a delivery with `identity`, at clock time `now` and wall-clock `date`, is a
    /// duplicate of one waiting, running or (a notification request received up to `window`
    /// seconds before) already run. The age is the larger of the two clocks', as a waiting link's
    /// is: the system's uptime stops while the device sleeps.
    func isDuplicate(_ identity: String, now: TimeInterval, date: Date, window: TimeInterval) -> Bool {
        guard inFlight[identity] == nil else { return true }
        guard let received = finishedRequests[identity] else { return false }
        return max(now - received.clock, date.timeIntervalSince(received.date)) <= window
    }

    /// A delivery with `identity` starts waiting.
    mutating func begin(_ identity: String) { inFlight[identity, default: 0] += 1 }

    /// A delivery that began, received at clock time `receivedAt` on `date`, has finished, whatever
    /// its outcome.
    mutating func end(_ identity: String, receivedAt: TimeInterval, on date: Date) {
        switch inFlight[identity] {
        case .some(let count) where count > 1: inFlight[identity] = count - 1
        case .some: inFlight[identity] = nil
        case .none: break
        }
        guard identity.hasPrefix(DeliveryIdentity.notificationRequestPrefix) else { return }
        guard finishedRequests.updateValue((receivedAt, date), forKey: identity) == nil else { return }
        finishedRequestOrder.append(identity)
        if finishedRequestOrder.count > Self.rememberedRequestLimit {
            finishedRequests[finishedRequestOrder.removeFirst()] = nil
        }
    }
}
