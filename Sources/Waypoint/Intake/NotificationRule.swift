/// Maps a notification payload that carries no link to a link.
///
/// ```swift
/// NotificationRule(.present("data.messageId"), link: "/messages/{data.messageId}")
/// NotificationRule(.equals("aps.category", "bookDetail"), link: "/books/{book_id}")
/// ```
public struct NotificationRule: Sendable, Hashable {
    /// When the rule applies.
    public enum Condition: Sendable, Hashable {
        /// The key path holds a scalar value that is not blank: empty text, what a sender's empty
        /// template variable leaves, counts as absent, as it does for a link key, so a later rule
        /// still applies.
        case present(String)
        /// The key path holds this value (compared as text).
        case equals(String, String)
    }

    /// When the rule applies.
    public var condition: Condition
    /// The link it makes, filled from the payload.
    public var link: LinkTemplate

    /// A rule that makes `link` for a payload where `condition` holds; see the example above.
    public init(_ condition: Condition, link: LinkTemplate) {
        self.condition = condition
        self.link = link
    }

    /// Whether the rule applies to `payload`.
    public func matches(_ payload: PayloadValue) -> Bool {
        switch condition {
        case .present(let keyPath): payload[keyPath]?.text.map { !LinkIntake.isBlank($0) } ?? false
        case .equals(let keyPath, let value): payload[keyPath]?.text == value
        }
    }
}

/// A web-view message the app accepts, by handler name.
///
/// ```swift
/// let intake = LinkIntake(
///     policy: policy,
///     webMessages: [WebMessageRoute(name: "openBook", link: "/books/{id}")],
///     webOrigins: ["example.com"]
/// )
/// ```
public struct WebMessageRoute: Sendable, Hashable {
    /// The script message handler's name.
    public var name: String
    /// How the body becomes a link; `nil` when the body is the link text itself (or has a `url`,
    /// `link` or `deeplink` member).
    public var link: LinkTemplate?

    /// Accepts messages to the handler `name`: `WebMessageRoute(name: "openBook", link: "/books/{id}")`.
    public init(name: String, link: LinkTemplate? = nil) {
        self.name = name
        self.link = link
    }
}
