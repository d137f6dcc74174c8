import Foundation
import Waypoint

/// The Info.plist entries and the entitlement the manifest implies, as property-list XML.
///
/// `CFBundleURLTypes` for the schemes, `UIApplicationShortcutItems` for the quick actions shown in
/// every state (the rest are installed at run time from the catalog), `NSUserActivityTypes` for the
/// activities, and `com.apple.developer.associated-domains` with `applinks:` entries.
package struct PlistGenerator: Sendable {
    package let manifest: Manifest

    package init(manifest: Manifest) { self.manifest = manifest }

    /// The bundle identifier, from the first app ID (`TEAMID.com.example.app` → `com.example.app`).
    var bundleIdentifier: String? {
        manifest.appIDs.first.map { $0.split(separator: ".").dropFirst().joined(separator: ".") }
    }

    package var infoPlist: [String: Any] {
        var plist: [String: Any] = [:]
        if !manifest.schemes.isEmpty {
            var type: [String: Any] = ["CFBundleURLSchemes": manifest.schemes, "CFBundleTypeRole": "Editor"]
            if let bundleIdentifier { type["CFBundleURLName"] = bundleIdentifier }
            plist["CFBundleURLTypes"] = [type]
        }
        let staticActions = manifest.quickActions.filter(\.conditions.isEmpty).prefix(manifest.quickActionLimit)
        if !staticActions.isEmpty {
            plist["UIApplicationShortcutItems"] = staticActions.map { action -> [String: Any] in
                var item: [String: Any] = [
                    "UIApplicationShortcutItemType": action.item.type,
                    "UIApplicationShortcutItemTitle": action.item.title,
                ]
                if let subtitle = action.item.subtitle { item["UIApplicationShortcutItemSubtitle"] = subtitle }
                if let icon = action.item.iconName { item["UIApplicationShortcutItemIconSymbolName"] = icon }
                if !action.item.userInfo.isEmpty {
                    item["UIApplicationShortcutItemUserInfo"] = action.item.userInfo.mapValues(Self.plistValue)
                }
                return item
            }
        }
        if !manifest.activities.isEmpty { plist["NSUserActivityTypes"] = manifest.activities.map(\.type) }
        return plist
    }

    package var entitlements: [String: Any] {
        ["com.apple.developer.associated-domains": manifest.domains.map { "applinks:" + $0 }]
    }

    static func plistValue(_ value: PayloadValue) -> Any {
        switch value {
        case .string(let text): text
        case .int(let number): number
        case .double(let number): number
        case .bool(let flag): flag
        case .array(let items): items.map(plistValue)
        case .object(let object): object.mapValues(plistValue)
        case .null: ""
        }
    }

    /// XML property-list text.
    package static func xml(_ plist: [String: Any]) throws(ManifestError) -> String {
        do {
            let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw ManifestError("The property list could not be written: \(error.localizedDescription)", at: nil)
        }
    }
}
