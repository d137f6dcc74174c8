import Foundation

/// Where webhooks and their delivery queue live: in the links' database, beside them but apart from
/// ``LinkStore``. Both engines implement it. A queued delivery is a row, so a restart or a crash
/// loses none; the deliverer leases the rows it sends, so instances sharing a database do not send
/// one at the same time, and a lease that runs out (a crash mid-send) makes the row due again.
///
/// ```swift
/// try await store.addWebhook(webhook, secret: secret)
/// try await store.enqueue(.linkCreated, body: json, at: .now)  // a delivery for each webhook that wants it
/// let due = try await store.leaseDueDeliveries(at: .now, for: 60, limit: 20)
/// ```
public protocol WebhookStore: Sendable {
    func addWebhook(_ webhook: Webhook, secret: String) async throws(StoreError)
    /// Every webhook, oldest first, without secrets.
    func webhooks() async throws(StoreError) -> [Webhook]
    /// Removes the webhook and its undelivered deliveries; `false` when there was none.
    func deleteWebhook(id: String) async throws(StoreError) -> Bool

    /// Queues `body` for each webhook that wants `event`, due at once; how many were queued.
    @discardableResult
    func enqueue(_ event: WebhookEvent, body: String, at date: Date) async throws(StoreError) -> Int
    /// Up to `limit` due deliveries, each leased for `lease` (not due again until then) and counted as
    /// one more attempt.
    func leaseDueDeliveries(
        at date: Date,
        for lease: Duration,
        limit: Int
    ) async throws(StoreError) -> [WebhookDelivery]
    /// The receiver answered 2xx: the delivery leaves the queue.
    func markDelivered(id: String) async throws(StoreError)
    /// The receiver failed: due again at `date`, with why it failed.
    func retry(id: String, at date: Date, error: String) async throws(StoreError)
    /// Deliveries still queued.
    func undeliveredCount() async throws(StoreError) -> Int
}
