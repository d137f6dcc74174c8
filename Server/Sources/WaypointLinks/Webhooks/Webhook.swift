import Foundation

/// A receiver another system registered (`POST /api/webhooks`): the URL the service POSTs events
/// to, and which events it wants. Its secret signs every delivery and is shown once, when made.
///
/// ```swift
/// Webhook(id: "wh_3f…", url: "https://crm.example.com/hooks/links", events: [.linkCreated, .linkClicked],
///         createdAt: .now)
/// ```
public struct Webhook: Sendable, Hashable, Encodable {
    public var id: String
    public var url: String
    public var events: [WebhookEvent]
    public var createdAt: Date

    public init(id: String, url: String, events: [WebhookEvent], createdAt: Date) {
        self.id = id
        self.url = url
        self.events = events
        self.createdAt = createdAt
    }

    /// `wh_` and 24 random hexadecimal digits.
    static func makeID() -> String {
        "wh_" + Hexadecimal.encode((0..<12).map { _ in UInt8.random(in: 0...255) })
    }

    /// `whsec_` and 64 random hexadecimal digits (256 bits).
    static func makeSecret() -> String {
        "whsec_" + Hexadecimal.encode((0..<32).map { _ in UInt8.random(in: 0...255) })
    }
}

/// What happened, as the `Waypoint-Event` header and the body's `event` name it.
public enum WebhookEvent: String, Sendable, Hashable, Codable, CaseIterable {
    case linkCreated = "link.created"
    case linkUpdated = "link.updated"
    case linkDeleted = "link.deleted"
    /// Clicks, several links' at once: one delivery a click batch (about a second of visits).
    case linkClicked = "link.clicked"
    /// A deferred link claimed by the app it installed.
    case linkClaimed = "link.claimed"
}

/// One event on its way to one webhook, as the queue holds it.
public struct WebhookDelivery: Sendable, Hashable {
    /// Unique, and the same on every retry: receivers dedupe on it (`Waypoint-Delivery`).
    public var id: String
    public var webhookID: String
    public var url: String
    public var secret: String
    public var event: WebhookEvent
    /// The JSON sent, byte for byte the same on every retry (its signature's time is each try's).
    public var body: String
    /// Tries so far, this one included.
    public var attempts: Int
}
