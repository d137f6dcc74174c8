// Stub of the UserNotifications API used by Waypoint's adapters. See README.md.
import Foundation

open class UNNotificationContent: NSObject, @unchecked Sendable {
    open var categoryIdentifier: String { "" }
    open var userInfo: [AnyHashable: Any] { [:] }
    open var targetContentIdentifier: String? { nil }
}

open class UNNotificationRequest: NSObject, @unchecked Sendable {
    open var identifier: String { "" }
    open var content: UNNotificationContent { UNNotificationContent() }
}

open class UNNotification: NSObject, @unchecked Sendable {
    open var request: UNNotificationRequest { UNNotificationRequest() }
}

open class UNNotificationResponse: NSObject, @unchecked Sendable {
    open var actionIdentifier: String { "" }
    open var notification: UNNotification { UNNotification() }
}

public struct UNNotificationPresentationOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
    public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
    public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
    public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)
}

public struct UNNotificationActionOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)
    public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
    public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)
}

public struct UNNotificationCategoryOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
}

open class UNNotificationAction: NSObject, @unchecked Sendable {
    public init(identifier: String, title: String, options: UNNotificationActionOptions = []) {}
}

open class UNNotificationCategory: NSObject, @unchecked Sendable {
    public init(
        identifier: String,
        actions: [UNNotificationAction],
        intentIdentifiers: [String],
        options: UNNotificationCategoryOptions = []
    ) {}
}

public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {}

open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    open class func current() -> UNUserNotificationCenter { UNUserNotificationCenter() }
    open weak var delegate: (any UNUserNotificationCenterDelegate)?
    open func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {}
}
