import Foundation

/// What Waypoint reads from a Handoff or Spotlight user activity (`NSUserActivity` has exactly these).
public protocol UserActivityRepresentable {
    /// `NSUserActivityTypeBrowsingWeb`, `com.apple.corespotlightitem`, or the app's own type.
    var activityType: String { get }
    /// The page, for browsing-web activities (universal links).
    var webpageURL: URL? { get }
    /// Whatever the activity carries.
    var userInfo: [AnyHashable: Any]? { get }
}

/// The system's activity types and keys, as strings.
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
    public var activityType: String
    public var webpageURL: URL?
    public var payload: [String: PayloadValue]
    public var userInfo: [AnyHashable: Any]? { payload }

    public init(activityType: String, webpageURL: URL? = nil, userInfo: [String: PayloadValue] = [:]) {
        self.activityType = activityType
        self.webpageURL = webpageURL
        self.payload = userInfo
    }
}
