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
///
/// ```swift
/// // In a delegate another SDK owns (Firebase Messaging, Braze):
/// await dispatcher.receive(intake.notification(NotificationResponseReader(response)))
/// ```
public struct NotificationResponseReader: NotificationResponseRepresentable {
    /// The response as the system delivered it.
    public let response: UNNotificationResponse
    /// Reads `response`: `intake.notification(NotificationResponseReader(response))`.
    public init(_ response: UNNotificationResponse) { self.response = response }
    /// The action taken: `UNNotificationDefaultActionIdentifier` for a tap on the notification.
    public var actionIdentifier: String { response.actionIdentifier }
    /// The notification request's identifier.
    public var requestIdentifier: String { response.notification.request.identifier }
    /// The notification's category.
    public var categoryIdentifier: String { response.notification.request.content.categoryIdentifier }
    /// The notification's payload.
    public var userInfo: [AnyHashable: Any] { response.notification.request.content.userInfo }
    /// The payload's `target-content-id`: which window should show the link.
    public var targetContentIdentifier: String? { response.notification.request.content.targetContentIdentifier }
}

/// A Handoff, Spotlight or universal-link activity as the core reads it.
///
/// ```swift
/// await dispatcher.receive(intake.userActivity(UserActivityReader(userActivity)))
/// ```
public struct UserActivityReader: UserActivityRepresentable {
    /// The activity as the system delivered it.
    public let activity: NSUserActivity
    /// Reads `activity`: `intake.userActivity(UserActivityReader(activity))`.
    public init(_ activity: NSUserActivity) { self.activity = activity }
    /// The activity's type.
    public var activityType: String { activity.activityType }
    /// The page, for a universal link or Handoff from Safari.
    public var webpageURL: URL? { activity.webpageURL }
    /// What the activity carries.
    public var userInfo: [AnyHashable: Any]? { activity.userInfo }
}

/// A quick action's values, copied on the main actor, where UIKit's types live.
///
/// ```swift
/// await dispatcher.receive(intake.shortcut(ShortcutItemReader(shortcutItem)))
/// ```
public struct ShortcutItemReader: ShortcutItemRepresentable {
    /// The quick action's type.
    public let type: String
    /// The quick action's `userInfo`.
    public let shortcutUserInfo: [String: Any]?

    /// Copies `item`'s values: `intake.shortcut(ShortcutItemReader(shortcutItem))`.
    @MainActor
    public init(_ item: UIApplicationShortcutItem) {
        type = item.type
        shortcutUserInfo = item.userInfo
    }
}

/// A script message as the core reads it, copied on the main actor, where WebKit's types live.
/// The body is kept as WebKit gave it: the core converts it only after the frame, the origin and
/// the handler's name are accepted, so a refused message's body is never walked.
///
/// ```swift
/// await dispatcher.receive(intake.webMessage(WebMessageReader(message)))
/// ```
public struct WebMessageReader: WebMessageRepresentable {
    /// The message handler's name.
    public let name: String
    /// The posted body, as WebKit gave it.
    public let body: Any
    /// Whether the main frame sent it.
    public let isMainFrame: Bool
    /// The sending frame's scheme.
    public let originScheme: String
    /// The sending frame's host.
    public let originHost: String
    /// The sending frame's port; 0 for the scheme's default.
    public let originPort: Int

    /// Copies `message`'s values: `intake.webMessage(WebMessageReader(message))`.
    @MainActor
    public init(_ message: WKScriptMessage) {
        name = message.name
        body = message.body
        isMainFrame = message.frameInfo.isMainFrame
        let origin = message.frameInfo.securityOrigin
        originScheme = origin.protocol
        originHost = origin.host
        originPort = origin.port
    }
}

extension WebNavigation {
    /// The facts of a web view's navigation: its URL; whether it started in the main frame and
    /// loads the main frame or a new window (an `iframe`'s `target="_top"` link started in the
    /// `iframe`); and whether a person started it (`.linkActivated` or `.formSubmitted`).
    ///
    /// ```swift
    /// resolver.webNavigationDecision(for: WebNavigation(navigationAction))   // .route, .load, …
    /// ```
    @MainActor
    public init(_ action: WKNavigationAction) {
        // Declared non-null, but nil for a load the app itself starts (`webView.load(_:)`): read
        // as optional, such a load counts as no page's navigation.
        let source: WKFrameInfo? = action.sourceFrame
        self.init(
            url: action.request.url?.absoluteString ?? "",
            isMainFrame: source?.isMainFrame == true && (action.targetFrame?.isMainFrame ?? true),
            isUserInitiated: action.navigationType == .linkActivated || action.navigationType == .formSubmitted
        )
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
    /// frame. The body is converted only once the rest is accepted; a body that is not a
    /// property-list value is a typed failure.
    ///
    /// ```swift
    /// await dispatcher.receive(intake.webMessage(message))   // .link("https://example.com/books/1")
    /// ```
    @MainActor
    public func webMessage(_ message: WKScriptMessage) -> IntakeResult {
        webMessage(WebMessageReader(message))
    }
}
#endif
