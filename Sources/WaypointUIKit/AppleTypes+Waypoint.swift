#if canImport(UIKit)
import Foundation
import UIKit
import UserNotifications
import Waypoint

// Apple's types, read through the core's mirror protocols. Wrappers rather than conformances on
// Apple's classes: nothing is added to UIKit's types, and no conformance can clash with one that
// Apple, another library or `WaypointSwiftUI` declares. The core converts the values and reports,
// as a typed failure, any it cannot use.

/// A notification response as the core reads it.
struct NotificationResponseReader: NotificationResponseRepresentable {
    let response: UNNotificationResponse
    init(_ response: UNNotificationResponse) { self.response = response }
    var actionIdentifier: String { response.actionIdentifier }
    var requestIdentifier: String { response.notification.request.identifier }
    var categoryIdentifier: String { response.notification.request.content.categoryIdentifier }
    var userInfo: [AnyHashable: Any] { response.notification.request.content.userInfo }
}

/// A Handoff, Spotlight or universal-link activity as the core reads it.
struct UserActivityReader: UserActivityRepresentable {
    let activity: NSUserActivity
    init(_ activity: NSUserActivity) { self.activity = activity }
    var activityType: String { activity.activityType }
    var webpageURL: URL? { activity.webpageURL }
    var userInfo: [AnyHashable: Any]? { activity.userInfo }
}

/// A quick action's values, copied on the main actor, where UIKit's types live.
struct ShortcutItemReader: ShortcutItemRepresentable {
    let type: String
    let shortcutUserInfo: [String: Any]?

    @MainActor
    init(_ item: UIApplicationShortcutItem) {
        type = item.type
        shortcutUserInfo = item.userInfo
    }
}
#endif
