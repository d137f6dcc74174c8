#if canImport(UIKit)
import Foundation
import UIKit
import UserNotifications
import Waypoint
import WebKit

// Apple's types, read through the core's mirror protocols. Wrappers rather than conformances on
// Apple's classes: nothing is added to UIKit's types, and no conformance can clash with one that
// Apple, another library or `WaypointSwiftUI` declares. The core converts the values and reports,
// as a typed failure, any it cannot use.
//
// Public, with `LinkIntake` overloads below, so an app whose delegate belongs to another SDK
// (Firebase Messaging, Braze) forwards Apple's values to Waypoint in one line.

/// A notification response as the core reads it.
public struct NotificationResponseReader: NotificationResponseRepresentable {
    public let response: UNNotificationResponse
    public init(_ response: UNNotificationResponse) { self.response = response }
    public var actionIdentifier: String { response.actionIdentifier }
    public var requestIdentifier: String { response.notification.request.identifier }
    public var categoryIdentifier: String { response.notification.request.content.categoryIdentifier }
    public var userInfo: [AnyHashable: Any] { response.notification.request.content.userInfo }
}

/// A Handoff, Spotlight or universal-link activity as the core reads it.
public struct UserActivityReader: UserActivityRepresentable {
    public let activity: NSUserActivity
    public init(_ activity: NSUserActivity) { self.activity = activity }
    public var activityType: String { activity.activityType }
    public var webpageURL: URL? { activity.webpageURL }
    public var userInfo: [AnyHashable: Any]? { activity.userInfo }
}

/// A quick action's values, copied on the main actor, where UIKit's types live.
public struct ShortcutItemReader: ShortcutItemRepresentable {
    public let type: String
    public let shortcutUserInfo: [String: Any]?

    @MainActor
    public init(_ item: UIApplicationShortcutItem) {
        type = item.type
        shortcutUserInfo = item.userInfo
    }
}

extension LinkIntake {
    /// A notification response from any delegate, one another SDK owns included.
    ///
    /// ```swift
    /// // In a delegate that belongs to Firebase or Braze:
    /// func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
    ///     await dispatcher.receive(intake.notification(response))   // .link("/messages/7"), .action, …
    /// }
    /// ```
    public func notification(_ response: UNNotificationResponse) -> IntakeResult {
        notification(NotificationResponseReader(response))
    }

    /// A Handoff, Spotlight or universal-link activity.
    ///
    /// ```swift
    /// await dispatcher.receive(intake.userActivity(activity))   // .link("https://example.com/books/1")
    /// ```
    public func userActivity(_ activity: NSUserActivity) -> IntakeResult {
        userActivity(UserActivityReader(activity))
    }

    /// A home-screen quick action.
    ///
    /// ```swift
    /// let result = intake.shortcut(shortcutItem)   // .link("/messages", source .shortcut)
    /// ```
    @MainActor
    public func shortcut(_ item: UIApplicationShortcutItem) -> IntakeResult {
        shortcut(ShortcutItemReader(item))
    }

    /// A web view's script message: its name, body, the origin and whether it came from the main
    /// frame. A body that is not a property-list value is a typed failure.
    ///
    /// ```swift
    /// await dispatcher.receive(intake.webMessage(message))   // .link("https://example.com/books/1")
    /// ```
    @MainActor
    public func webMessage(_ message: WKScriptMessage) -> IntakeResult {
        let origin = message.frameInfo.securityOrigin
        do {
            let body = try PayloadValue(any: message.body)
            let port = origin.port > 0 ? ":\(origin.port)" : ""
            return webMessage(
                WebMessageSnapshot(
                    name: message.name,
                    body: body,
                    origin: "\(origin.protocol)://\(origin.host)\(port)",
                    isMainFrame: message.frameInfo.isMainFrame
                )
            )
        } catch {
            return .failure(error)
        }
    }
}
#endif
