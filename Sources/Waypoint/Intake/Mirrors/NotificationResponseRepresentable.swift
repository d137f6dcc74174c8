/// What Waypoint reads from a notification response (`UNNotificationResponse` in the UIKit adapter).
///
/// ```swift
/// let tap = NotificationResponseSnapshot(requestIdentifier: "n1", userInfo: ["data": ["messageId": "1"]])
/// intake.notification(tap) // .link(… "/messages/1" …)
/// ```
public protocol NotificationResponseRepresentable {
    /// `UNNotificationDefaultActionIdentifier`, `UNNotificationDismissActionIdentifier`, or a custom id.
    var actionIdentifier: String { get }
    /// The notification request's identifier: the same on every callback that delivers it.
    var requestIdentifier: String { get }
    /// The notification's category (`aps.category` for remote notifications).
    var categoryIdentifier: String { get }
    /// The payload (`content.userInfo`).
    var userInfo: [AnyHashable: Any] { get }
    /// `content.targetContentIdentifier` (the payload's `target-content-id`): which window should
    /// show the notification's link when the app has several.
    var targetContentIdentifier: String? { get }
}

extension NotificationResponseRepresentable {
    /// None, unless the conforming type reads one.
    public var targetContentIdentifier: String? { nil }
}

/// The system's action identifiers, as strings, so the core can tell them apart on Linux.
///
/// ```swift
/// NotificationActionIdentifier.default   // "com.apple.UNNotificationDefaultActionIdentifier"
/// ```
public enum NotificationActionIdentifier {
    /// The user tapped the notification itself.
    public static let `default` = "com.apple.UNNotificationDefaultActionIdentifier"
    /// The user dismissed the notification (only reported for categories with `customDismissAction`).
    public static let dismiss = "com.apple.UNNotificationDismissActionIdentifier"
}

/// A notification response as a plain value: for tests, the command-line tool and adapters.
///
/// ```swift
/// let like = NotificationResponseSnapshot(actionIdentifier: "like", userInfo: ["aps": ["category": "post"]])
/// like.categoryIdentifier   // "post"
/// ```
public struct NotificationResponseSnapshot: NotificationResponseRepresentable, Sendable {
    /// The action taken: ``NotificationActionIdentifier/default`` for a tap on the notification.
    public var actionIdentifier: String
    /// The notification request's identifier.
    public var requestIdentifier: String
    /// The notification's category.
    public var categoryIdentifier: String
    /// The payload as a value tree.
    public var payload: PayloadValue
    /// The payload's members, for the protocol; empty unless the payload is an object.
    public var userInfo: [AnyHashable: Any] { payload.objectValue }
    /// Which window should show the link, when the app has several.
    public var targetContentIdentifier: String?

    /// A response; by default the tap on the notification itself. The category and the target
    /// content identifier default to the payload's `aps.category` and `aps.target-content-id`.
    public init(
        actionIdentifier: String = NotificationActionIdentifier.default,
        requestIdentifier: String = "",
        categoryIdentifier: String? = nil,
        targetContentIdentifier: String? = nil,
        userInfo payload: PayloadValue
    ) {
        self.actionIdentifier = actionIdentifier
        self.requestIdentifier = requestIdentifier
        self.categoryIdentifier = categoryIdentifier ?? payload["aps.category"]?.text ?? ""
        self.targetContentIdentifier = targetContentIdentifier ?? payload["aps.target-content-id"]?.text
        self.payload = payload
    }
}
