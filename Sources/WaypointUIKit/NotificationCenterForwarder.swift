#if canImport(UIKit)
import Foundation
import UserNotifications
import Waypoint

/// What the app still wants to do with notifications Waypoint does not route: a Swift protocol with
/// defaults, so an app implements only what it needs.
///
/// ```swift
/// final class Notifications: NotificationCenterFallback {
///     func presentationOptions(for notification: UNNotification) -> UNNotificationPresentationOptions { [.list] }
/// }
/// forwarder.fallback = notifications   // held weakly: keep `notifications` alive
/// ```
public protocol NotificationCenterFallback: AnyObject {
    /// A response that carried no link Waypoint could use (already reported to observers).
    func didReceiveUnrouted(_ response: UNNotificationResponse)
    /// How to show a notification that arrives while the app is in the foreground.
    func presentationOptions(for notification: UNNotification) -> UNNotificationPresentationOptions
}

extension NotificationCenterFallback {
    /// Does nothing.
    public func didReceiveUnrouted(_ response: UNNotificationResponse) {}
    /// A banner, a sound and the badge.
    public func presentationOptions(for notification: UNNotification) -> UNNotificationPresentationOptions {
        [.banner, .sound, .badge]
    }
}

/// The notification center's delegate: taps, custom actions and dismissals, and "open settings for
/// notifications", forwarded to Waypoint. On a cold start the same response also arrives in the
/// scene's connection options; the dispatcher runs it once.
///
/// ```swift
/// let forwarder = NotificationCenterForwarder(intake: intake, dispatcher: dispatcher)
/// UNUserNotificationCenter.current().delegate = forwarder   // keep a strong reference
/// ```
public final class NotificationCenterForwarder: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
    // Immutable after init but for `fallback`, which is set once on the main thread at launch.
    /// What turns notification responses into links.
    public let intake: LinkIntake
    /// Where the links go.
    public let dispatcher: any LinkDispatching
    /// What the app does with notifications Waypoint does not route; banners, sounds and badges when `nil`.
    public weak var fallback: (any NotificationCenterFallback)?

    /// A delegate that reads with `intake` and hands each link to `dispatcher`; see the example above.
    public init(intake: LinkIntake, dispatcher: any LinkDispatching) {
        self.intake = intake
        self.dispatcher = dispatcher
        super.init()
    }

    /// Hands the response's link (or action) to the dispatcher and tells the system at once: the
    /// dispatcher holds the link until the app can show it.
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        let result = intake.notification(NotificationResponseReader(response))
        if case .failure = result { fallback?.didReceiveUnrouted(response) }
        let dispatcher = self.dispatcher
        Task { await dispatcher.receive(result) }
        // The link is held by the dispatcher (and its store); the system may be told at once. (A
        // short link waits in memory for the link service's answer first: ShortLinkResolvingDispatcher.)
        completionHandler()
    }

    /// Shows a notification that arrives in the foreground as the fallback's
    /// ``NotificationCenterFallback/presentationOptions(for:)`` says: a banner, a sound and the badge without one.
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        completionHandler(fallback?.presentationOptions(for: notification) ?? [.banner, .sound, .badge])
    }

    /// Hands "open notification settings" to the dispatcher, as a link to the intake's
    /// ``LinkIntake/notificationSettingsLink``.
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        openSettingsFor notification: UNNotification?
    ) {
        let result = intake.notificationSettings()
        let dispatcher = self.dispatcher
        Task { await dispatcher.receive(result) }
    }
}
#endif
