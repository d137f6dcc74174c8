import Foundation

/// What Waypoint reads from a Handoff or Spotlight user activity (`NSUserActivity` has exactly these).
///
/// ```swift
/// intake.userActivity(UserActivityReader(activity))   // WaypointUIKit's, for an NSUserActivity
/// ```
public protocol UserActivityRepresentable {
    /// `NSUserActivityTypeBrowsingWeb`, `com.apple.corespotlightitem`, or the app's own type.
    var activityType: String { get }
    /// The page, for browsing-web activities (universal links).
    var webpageURL: URL? { get }
    /// Whatever the activity carries.
    var userInfo: [AnyHashable: Any]? { get }
}

/// The system's activity types and keys, as strings.
///
/// ```swift
/// UserActivityType.browsingWeb   // "NSUserActivityTypeBrowsingWeb"
/// ```
public enum UserActivityType {
    /// `NSUserActivityTypeBrowsingWeb`: a universal link or Handoff from Safari.
    public static let browsingWeb = "NSUserActivityTypeBrowsingWeb"
    /// `CSSearchableItemActionType`: the user picked one of the app's Spotlight items.
    public static let spotlightItem = "com.apple.corespotlightitem"
    /// `CSSearchableItemActivityIdentifier`: the `userInfo` key holding the Spotlight item's identifier.
    public static let spotlightIdentifierKey = "kCSSearchableItemActivityIdentifier"
}

/// A user activity as a plain value.
///
/// ```swift
/// intake.userActivity(UserActivitySnapshot(activityType: UserActivityType.browsingWeb,
///                                          webpageURL: URL(string: "https://example.com/books/42")))
/// ```
public struct UserActivitySnapshot: UserActivityRepresentable, Sendable {
    /// The activity's type: ``UserActivityType/browsingWeb`` for a universal link.
    public var activityType: String
    /// The page, for a browsing-web activity.
    public var webpageURL: URL?
    /// The activity's `userInfo` as value trees.
    public var payload: [String: PayloadValue]
    /// The `userInfo`'s members, for the protocol.
    public var userInfo: [AnyHashable: Any]? { payload }

    /// An activity of `activityType`; see the example above.
    public init(activityType: String, webpageURL: URL? = nil, userInfo: [String: PayloadValue] = [:]) {
        self.activityType = activityType
        self.webpageURL = webpageURL
        self.payload = userInfo
    }
}
