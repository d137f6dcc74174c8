import Foundation
import SQLiteNIO

/// Webhooks in the SQLite file: one process writes it, so a lease is only a crash's safety net.
extension SQLiteLinkStore: WebhookStore {
    public func addWebhook(_ webhook: Webhook, secret: String) async throws(StoreError) {
        _ = try await writer.execute(
            "INSERT INTO webhooks (id, url, events, secret, created_at) VALUES (?, ?, ?, ?, ?)",
            [
                .text(webhook.id), .text(webhook.url), .text(WebhookRow.events(webhook.events)), .text(secret),
                .integer(LinkRow.seconds(webhook.createdAt)),
            ]
        )
    }

    public func webhooks() async throws(StoreError) -> [Webhook] {
        try await read("SELECT id, url, events, created_at FROM webhooks ORDER BY created_at, id").compactMap { row in
            guard let id = row.column("id")?.string, let url = row.column("url")?.string,
                let events = row.column("events")?.string, let created = row.column("created_at")?.integer
            else { return nil }
            return Webhook(id: id, url: url, events: WebhookRow.events(events), createdAt: LinkRow.date(created))
        }
    }

    public func deleteWebhook(id: String) async throws(StoreError) -> Bool {
        try await writer.transaction { run throws(StoreError) in
            _ = try await run("DELETE FROM webhook_deliveries WHERE webhook_id = ?", [.text(id)])
            return try await !run("DELETE FROM webhooks WHERE id = ? RETURNING id", [.text(id)]).isEmpty
        }
    }

    public func enqueue(_ event: WebhookEvent, body: String, at date: Date) async throws(StoreError) -> Int {
        try await writer.execute(
            """
            INSERT INTO webhook_deliveries (id, webhook_id, event, body, due_at, created_at)
            SELECT 'whd_' || lower(hex(randomblob(16))), id, ?, ?, ?, ? FROM webhooks WHERE events LIKE ?
            RETURNING id
            """,
            [
                .text(event.rawValue), .text(body), .integer(WebhookRow.milliseconds(date)),
                .integer(LinkRow.seconds(date)), .text("%," + event.rawValue + ",%"),
            ]
        ).count
    }

    public func leaseDueDeliveries(
        at date: Date,
        for lease: Duration,
        limit: Int
    ) async throws(StoreError) -> [WebhookDelivery] {
        let now = WebhookRow.milliseconds(date)
        // A delivery queued as its webhook was deleted has nowhere to go.
        _ = try await writer.execute(
            "DELETE FROM webhook_deliveries WHERE due_at <= ? AND webhook_id NOT IN (SELECT id FROM webhooks)",
            [.integer(now)]
        )
        let rows = try await writer.execute(
            """
            UPDATE webhook_deliveries SET due_at = ?, attempts = attempts + 1
            WHERE id IN (SELECT id FROM webhook_deliveries WHERE due_at <= ? ORDER BY due_at LIMIT ?)
            RETURNING id, webhook_id, event, body, attempts,
                (SELECT url FROM webhooks WHERE webhooks.id = webhook_id) AS url,
                (SELECT secret FROM webhooks WHERE webhooks.id = webhook_id) AS secret
            """,
            [.integer(now + WebhookRow.milliseconds(lease)), .integer(now), .integer(limit)]
        )
        return rows.compactMap { row in
            WebhookRow.delivery(
                id: row.column("id")?.string,
                webhookID: row.column("webhook_id")?.string,
                url: row.column("url")?.string,
                secret: row.column("secret")?.string,
                event: row.column("event")?.string,
                body: row.column("body")?.string,
                attempts: row.column("attempts")?.integer
            )
        }
    }

    public func markDelivered(id: String) async throws(StoreError) {
        _ = try await writer.execute("DELETE FROM webhook_deliveries WHERE id = ?", [.text(id)])
    }

    public func retry(id: String, at date: Date, error: String) async throws(StoreError) {
        _ = try await writer.execute(
            "UPDATE webhook_deliveries SET due_at = ?, last_error = ? WHERE id = ?",
            [.integer(WebhookRow.milliseconds(date)), .text(error), .text(id)]
        )
    }

    public func undeliveredCount() async throws(StoreError) -> Int {
        try await read("SELECT count(*) AS count FROM webhook_deliveries").first?.column("count")?.integer ?? 0
    }
}

/// How both engines store a webhook's fields.
enum WebhookRow {
    /// `,link.created,link.clicked,`: a LIKE on `,<event>,` finds a webhook that wants it.
    static func events(_ events: [WebhookEvent]) -> String { "," + events.map(\.rawValue).joined(separator: ",") + "," }

    static func events(_ text: String) -> [WebhookEvent] {
        text.split(separator: ",").compactMap { WebhookEvent(rawValue: String($0)) }
    }

    static func milliseconds(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    /// A leased row; nil when its webhook was deleted meanwhile (the row goes with the next delete).
    static func delivery(
        id: String?,
        webhookID: String?,
        url: String?,
        secret: String?,
        event: String?,
        body: String?,
        attempts: Int?
    ) -> WebhookDelivery? {
        guard let id, let webhookID, let url, let secret, let event = event.flatMap(WebhookEvent.init(rawValue:)),
            let body, let attempts
        else { return nil }
        return WebhookDelivery(
            id: id,
            webhookID: webhookID,
            url: url,
            secret: secret,
            event: event,
            body: body,
            attempts: attempts
        )
    }
}
