#if canImport(UIKit)
import Foundation
import UIKit
import UserNotifications
import Waypoint

/// Installs the core's catalogs in the system: quick actions and notification categories.
///
/// ```swift
/// CatalogInstaller.installCategories(AppRoute.notificationCategories)
/// CatalogInstaller.installQuickActions(AppRoute.quickActions.items(for: ["profile": "host"]))
/// ```
@MainActor
public enum CatalogInstaller {
    /// Sets the app's dynamic quick actions. Call again when the state changes (a profile switch).
    ///
    /// ```swift
    /// CatalogInstaller.installQuickActions(catalog.items(for: session.profile))
    /// ```
    public static func installQuickActions(_ items: [QuickActionItem], in application: UIApplication = .shared) {
        application.shortcutItems = items.map { item in
            UIApplicationShortcutItem(
                type: item.type,
                localizedTitle: item.title,
                localizedSubtitle: item.subtitle,
                icon: item.iconName.map { UIApplicationShortcutIcon(systemImageName: $0) },
                userInfo: item.userInfo.compactMapValues(plistObject)
            )
        }
    }

    /// Registers every category and its actions with the notification center.
    public static func installCategories(
        _ catalog: NotificationCategoryCatalog,
        in center: UNUserNotificationCenter = .current()
    ) {
        let categories = catalog.categories.map { category in
            UNNotificationCategory(
                identifier: category.id,
                actions: category.actions.map { action in
                    var options: UNNotificationActionOptions = []
                    if action.options.contains(.foreground) { options.insert(.foreground) }
                    if action.options.contains(.destructive) { options.insert(.destructive) }
                    if action.options.contains(.authenticationRequired) { options.insert(.authenticationRequired) }
                    return UNNotificationAction(identifier: action.id, title: action.title, options: options)
                },
                intentIdentifiers: [],
                options: category.reportsDismiss ? [.customDismissAction] : []
            )
        }
        center.setNotificationCategories(Set(categories))
    }

    /// A payload value as a property-list object (`userInfo` takes plist values only).
    static func plistObject(_ value: PayloadValue) -> (any NSSecureCoding)? {
        switch value {
        case .string(let text): NSString(string: text)
        case .int(let number): NSNumber(value: number)
        case .double(let number): NSNumber(value: number)
        case .bool(let flag): NSNumber(value: flag)
        case .array(let items): NSArray(array: items.compactMap(plistObject))
        case .object(let object): NSDictionary(dictionary: object.compactMapValues(plistObject))
        case .null: nil
        }
    }
}
#endif
