import Foundation
import PostgresNIO

/// Webhooks in PostgreSQL: instances share the queue, and `FOR UPDATE SKIP LOCKED` gives each due
/// row to one of them.
extension PostgresLinkStore: WebhookStore {
    public func addWebhook(_ webhook: Webhook, secret: String) async throws(StoreError) {
        let events = WebhookRow.events(webhook.events)
        let created = LinkRow.seconds(webhook.createdAt)
        _ = try await rows(
            "add a webhook",
            """
            INSERT INTO webhooks (id, url, events, secret, created_at)
            VALUES (\(webhook.id), \(webhook.url), \(events), \(secret), \(created)) RETURNING id
            """
        ) { try $0.decode(String.self) }
    }

    public func webhooks() async throws(StoreError) -> [Webhook] {
        try await rows("read webhooks", "SELECT id, url, events, created_at FROM webhooks ORDER BY created_at, id") {
            try $0.decode((String, String, String, Int).self)
        }.map { id, url, events, created in
            Webhook(id: id, url: url, events: WebhookRow.events(events), createdAt: LinkRow.date(created))
        }
    }

    public func deleteWebhook(id: String) async throws(StoreError) -> Bool {
        var deleted = false
        try await run("delete a webhook") { client, logger in
            deleted = try await client.withTransaction(logger: logger) { connection in
                try await connection.query("DELETE FROM webhook_deliveries WHERE webhook_id = \(id)", logger: logger)
                var found = false
                for try await _ in try await connection.query(
                    "DELETE FROM webhooks WHERE id = \(id) RETURNING id",
                    logger: logger
                ) { found = true }
                return found
            }
        }
        return deleted
    }

    public func enqueue(_ event: WebhookEvent, body: String, at date: Date) async throws(StoreError) -> Int {
        let name = event.rawValue
        let pattern = "%," + event.rawValue + ",%"
        let due = WebhookRow.milliseconds(date)
        let created = LinkRow.seconds(date)
        // Ids from md5 of random values: no extension, and no PostgreSQL 13 for gen_random_uuid().
        return try await rows(
            "queue a webhook delivery",
            """
            INSERT INTO webhook_deliveries (id, webhook_id, event, body, due_at, created_at)
            SELECT 'whd_' || md5(random()::text || clock_timestamp()::text || id), id, \(name), \(body), \(due), \(created)
            FROM webhooks WHERE events LIKE \(pattern)
            RETURNING id
            """
        ) { try $0.decode(String.self) }.count
    }

    public func leaseDueDeliveries(
        at date: Date,
        for lease: Duration,
        limit: Int
    ) async throws(StoreError) -> [WebhookDelivery] {
        let now = WebhookRow.milliseconds(date)
        let until = now + WebhookRow.milliseconds(lease)
        // A delivery queued as its webhook was deleted (on another instance, at that moment) has
        // nowhere to go, and would hold the head of the queue.
        _ = try await rows(
            "drop deliveries of deleted webhooks",
            """
            DELETE FROM webhook_deliveries AS d WHERE d.due_at <= \(now)
            AND NOT EXISTS (SELECT 1 FROM webhooks AS w WHERE w.id = d.webhook_id) RETURNING d.id
            """
        ) { try $0.decode(String.self) }
        return try await rows(
            "lease webhook deliveries",
            """
            WITH due AS (
                SELECT id FROM webhook_deliveries WHERE due_at <= \(now) ORDER BY due_at LIMIT \(limit)
                FOR UPDATE SKIP LOCKED
            )
            UPDATE webhook_deliveries AS d SET due_at = \(until), attempts = d.attempts + 1
            FROM due, webhooks AS w
            WHERE d.id = due.id AND w.id = d.webhook_id
            RETURNING d.id, d.webhook_id, w.url, w.secret, d.event, d.body, d.attempts
            """
        ) { row in
            let columns = row.makeRandomAccess()
            return WebhookRow.delivery(
                id: try columns[0].decode(String.self),
                webhookID: try columns[1].decode(String.self),
                url: try columns[2].decode(String.self),
                secret: try columns[3].decode(String.self),
                event: try columns[4].decode(String.self),
                body: try columns[5].decode(String.self),
                attempts: try columns[6].decode(Int.self)
            )
        }.compactMap { $0 }
    }

    public func markDelivered(id: String) async throws(StoreError) {
        _ = try await rows("mark a webhook delivered", "DELETE FROM webhook_deliveries WHERE id = \(id) RETURNING id") {
            try $0.decode(String.self)
        }
    }

    public func retry(id: String, at date: Date, error: String) async throws(StoreError) {
        let due = WebhookRow.milliseconds(date)
        _ = try await rows(
            "reschedule a webhook delivery",
            "UPDATE webhook_deliveries SET due_at = \(due), last_error = \(error) WHERE id = \(id) RETURNING id"
        ) { try $0.decode(String.self) }
    }

    public func undeliveredCount() async throws(StoreError) -> Int {
        try await rows("count webhook deliveries", "SELECT count(*)::bigint FROM webhook_deliveries") {
            try $0.decode(Int.self)
        }.first ?? 0
    }
}
