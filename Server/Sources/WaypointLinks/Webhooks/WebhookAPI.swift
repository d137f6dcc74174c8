import Foundation
import HTTPTypes
import Hummingbird

/// `POST /api/webhooks`, `GET /api/webhooks` and `DELETE /api/webhooks/{id}`, with an API token,
/// as `Server/openapi.yaml` describes them.
struct WebhookAPI: Sendable {
    /// Nil for a store that keeps no webhooks: every route answers 503 saying so.
    let store: (any WebhookStore)?
    /// `serve --webhook-allow-private`: receivers on loopback and private networks are allowed.
    let allowPrivate: Bool
    let now: @Sendable () -> Date
    /// Told when webhooks come and go, so events start and stop at once.
    let events: WebhookEvents

    /// `{"url": "https://…", "events": ["link.created", …]}`.
    struct Input: Decodable {
        let url: String
        let events: [String]

        enum CodingKeys: String, CodingKey, CaseIterable { case url, events }

        init(from decoder: any Decoder) throws {
            try AnyKey.refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.stringValue), of: "a webhook")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            url = try container.decode(String.self, forKey: .url)
            events = try container.decode([String].self, forKey: .events)
        }
    }

    /// A new webhook, with its secret: the one time it is shown.
    struct Created: Encodable {
        let webhook: Webhook
        let secret: String

        func encode(to encoder: any Encoder) throws {
            try webhook.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(secret, forKey: .secret)
        }

        enum Key: String, CodingKey { case secret }
    }

    struct List: Encodable { let webhooks: [Webhook] }

    func register(on router: RouterGroup<LinkRequestContext>) {
        router.post { request, _ in
            try request.takingQuery([], at: "POST /api/webhooks")
            return try await create(request)
        }
        router.get { request, _ in
            try request.takingQuery([], at: "GET /api/webhooks")
            return JSONBody.response(List(webhooks: try await available().webhooks()))
        }
        router.delete(":id") { request, context in
            try request.takingQuery([], at: "DELETE /api/webhooks/ID")
            return try await delete(context.parameters.get("id") ?? "")
        }
    }

    private func available() throws -> any WebhookStore {
        guard let store else {
            throw LinkServiceError(.unavailable, "This database keeps no webhooks.")
        }
        return store
    }

    func create(_ request: Request) async throws -> Response {
        let store = try available()
        let input = try await JSONBody.decode(Input.self, from: request)
        var wanted: [WebhookEvent] = []
        for name in input.events {
            guard let event = WebhookEvent(rawValue: name) else {
                throw LinkServiceError(
                    .invalidRequest,
                    "'\(name)' is no event; the events are "
                        + WebhookEvent.allCases.map(\.rawValue).joined(separator: ", ") + "."
                )
            }
            if !wanted.contains(event) { wanted.append(event) }
        }
        guard !wanted.isEmpty else {
            throw LinkServiceError(.invalidRequest, "'events' names at least one event, such as \"link.created\".")
        }
        try await WebhookReceiver.check(input.url, allowPrivate: allowPrivate)
        let webhook = Webhook(id: Webhook.makeID(), url: input.url, events: wanted, createdAt: now())
        let secret = Webhook.makeSecret()
        try await store.addWebhook(webhook, secret: secret)
        events.subscriptions.forget()
        return JSONBody.response(
            Created(webhook: webhook, secret: secret),
            status: .created,
            headers: [.location: "/api/webhooks/\(webhook.id)"]
        )
    }

    func delete(_ id: String) async throws -> Response {
        guard try await available().deleteWebhook(id: id) else {
            throw LinkServiceError(.notFound, "No webhook has the id '\(id)'.")
        }
        events.subscriptions.forget()
        return Response(status: .noContent)
    }
}
