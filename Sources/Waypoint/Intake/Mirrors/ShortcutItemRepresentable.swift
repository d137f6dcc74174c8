/// What Waypoint reads from a home-screen quick action (`UIApplicationShortcutItem`).
///
/// ```swift
/// intake.shortcut(ShortcutItemReader(shortcutItem))   // WaypointUIKit's, for a UIApplicationShortcutItem
/// ```
public protocol ShortcutItemRepresentable {
    /// The quick action's type, such as `com.example.messages`.
    var type: String { get }
    /// The quick action's `userInfo` (plist values only).
    var shortcutUserInfo: [String: Any]? { get }
}

/// A quick action as a plain value.
///
/// ```swift
/// intake.shortcut(ShortcutItemSnapshot(type: "com.example.messages")) // .link(… "/messages" …)
/// ```
public struct ShortcutItemSnapshot: ShortcutItemRepresentable, Sendable {
    /// The quick action's type.
    public var type: String
    /// The quick action's `userInfo`.
    public var userInfo: [String: PayloadValue]
    /// The `userInfo`'s members, for the protocol.
    public var shortcutUserInfo: [String: Any]? { userInfo }

    /// A quick action of `type`: `ShortcutItemSnapshot(type: "com.example.messages")`.
    public init(type: String, userInfo: [String: PayloadValue] = [:]) {
        self.type = type
        self.userInfo = userInfo
    }
}
