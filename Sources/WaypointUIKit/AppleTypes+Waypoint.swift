#if canImport(UIKit)
import Foundation
import UIKit
import UserNotifications
import Waypoint

// Apple's types, read through the core's mirror protocols. Everything they are used for is decided
// in the core; these extensions only expose the values.

extension UNNotificationResponse: @retroactive NotificationResponseRepresentable {
    public var requestIdentifier: String { notification.request.identifier }
    public var categoryIdentifier: String { notification.request.content.categoryIdentifier }
    public var userInfo: [AnyHashable: Any] { notification.request.content.userInfo }
}

extension UIApplicationShortcutItem {
    /// The quick action as the core reads it. Built on the main actor, where UIKit's types live.
    @MainActor
    public var waypointSnapshot: ShortcutItemSnapshot {
        var values: [String: PayloadValue] = [:]
        for (key, value) in userInfo ?? [:] {
            if let converted = try? PayloadValue(any: value) { values[key] = converted }
        }
        return ShortcutItemSnapshot(type: type, userInfo: values)
    }
}

extension NSUserActivity: @retroactive UserActivityRepresentable {}
#endif
