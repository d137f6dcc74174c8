/// What Waypoint reads from a home-screen quick action (`UIApplicationShortcutItem`).
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
    public var type: String
    public var userInfo: [String: PayloadValue]
    public var shortcutUserInfo: [String: Any]? { userInfo }

    public init(type: String, userInfo: [String: PayloadValue] = [:]) {
        self.type = type
        self.userInfo = userInfo
    }
}
