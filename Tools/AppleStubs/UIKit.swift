// Stub of the UIKit API used by Waypoint's adapters and the example app. See README.md.

import Combine
@_exported import Foundation
@_exported import UserNotifications

// The real Foundation overlay names Combine's two types without re-exporting Combine's members;
// UIKit re-exports Foundation, so these stand in for those two lines.
public typealias ObservableObject = Combine.ObservableObject
public typealias Published = Combine.Published

@MainActor open class UIResponder: NSObject {}

@MainActor open class UIViewController: UIResponder {
    public init(nibName: String?, bundle: Bundle?) {}
    // Required, as in UIKit: a subclass with an initializer of its own must provide it too.
    public required init?(coder: NSCoder) {}
    public convenience override init() { self.init(nibName: nil, bundle: nil) }
    open var presentedViewController: UIViewController? { nil }
    open var title: String?
    open var modalPresentationStyle: UIModalPresentationStyle = .automatic
    open func present(_ viewController: UIViewController, animated: Bool, completion: (() -> Void)? = nil) {}
    open func dismiss(animated: Bool, completion: (() -> Void)? = nil) {}
}

public enum UIModalPresentationStyle: Int, Sendable {
    case fullScreen = 0
    case pageSheet = 1
    case automatic = -2
}

@MainActor open class UINavigationController: UIViewController {
    public init(rootViewController: UIViewController) { super.init(nibName: nil, bundle: nil) }
    public required init?(coder: NSCoder) { super.init(coder: coder) }
    open var viewControllers: [UIViewController] = []
    open func pushViewController(_ viewController: UIViewController, animated: Bool) {}
    open func popToRootViewController(animated: Bool) -> [UIViewController]? { nil }
    open func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) {}
}

@MainActor open class UITabBarController: UIViewController {
    open var selectedIndex: Int = 0
    open var selectedViewController: UIViewController?
    open var viewControllers: [UIViewController]?
}

@MainActor open class UIView: UIResponder {}

@MainActor open class UIScene: UIResponder {
    open var session: UISceneSession { UISceneSession() }
    @MainActor open class ConnectionOptions: NSObject {
        open var urlContexts: Set<UIOpenURLContext> { [] }
        open var userActivities: Set<NSUserActivity> { [] }
        open var shortcutItem: UIApplicationShortcutItem? { nil }
        open var notificationResponse: UNNotificationResponse? { nil }
    }
}

@MainActor open class UIWindowScene: UIScene {}

@MainActor open class UIWindow: UIView {
    public init(windowScene: UIWindowScene) {}
    open var rootViewController: UIViewController?
    open func makeKeyAndVisible() {}
}

@MainActor open class UISceneSession: NSObject {
    open var persistentIdentifier: String { "" }
}

@MainActor open class UIOpenURLContext: NSObject {
    open var url: URL { URL(fileURLWithPath: "/") }
}

open class NSUserActivity: NSObject, @unchecked Sendable {
    private let type: String
    public init(activityType: String) { type = activityType }
    open var activityType: String { type }
    open var webpageURL: URL?
    open var userInfo: [AnyHashable: Any]?
}

@MainActor public protocol UIUserActivityRestoring: NSObjectProtocol {}

@MainActor open class UIApplicationShortcutIcon: NSObject {
    public init(systemImageName: String) {}
}

@MainActor open class UIApplicationShortcutItem: NSObject {
    public init(
        type: String,
        localizedTitle: String,
        localizedSubtitle: String? = nil,
        icon: UIApplicationShortcutIcon? = nil,
        userInfo: [String: any NSSecureCoding]? = nil
    ) {}
    open var type: String { "" }
    open var userInfo: [String: any NSSecureCoding]? { nil }
}

@MainActor open class UIApplication: UIResponder {
    open class var shared: UIApplication { UIApplication() }
    open var shortcutItems: [UIApplicationShortcutItem]?
    open var delegate: (any UIApplicationDelegate)?
    open func open(
        _ url: URL,
        options: [OpenExternalURLOptionsKey: Any] = [:],
        completionHandler: ((Bool) -> Void)? = nil
    ) {}

    public struct LaunchOptionsKey: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let url = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsURLKey")
        public static let shortcutItem = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsShortcutItemKey")
        public static let remoteNotification = LaunchOptionsKey(
            rawValue: "UIApplicationLaunchOptionsRemoteNotificationKey"
        )
        public static let userActivityDictionary = LaunchOptionsKey(
            rawValue: "UIApplicationLaunchOptionsUserActivityDictionaryKey"
        )
    }

    public struct OpenURLOptionsKey: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    public struct OpenExternalURLOptionsKey: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
}

@MainActor public protocol UIApplicationDelegate: NSObjectProtocol {}

extension UIApplicationDelegate {
    public static func main() {}
}

@MainActor public protocol UISceneDelegate: NSObjectProtocol {}
@MainActor public protocol UIWindowSceneDelegate: UISceneDelegate {}
