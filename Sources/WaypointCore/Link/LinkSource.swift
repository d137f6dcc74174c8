/// Where a link came from: the way into the app that delivered it.
///
/// The source travels with the link through every stage, so policy, barriers and handlers can treat
/// a universal link (verified by the system against the app's domain) differently from a custom
/// scheme that any installed app may claim.
///
/// It is set from the way the link arrived, never read from its text. `Waypoint`'s `LinkIntake`
/// sets it for each way in; code that resolves links itself passes it, or the link counts as text
/// (which a route limited to `sources: [.universalLink]` refuses):
///
/// ```swift
/// try DeepLink("myapp://messages/1").source                           // .text: a string, from wherever
/// try DeepLink("myapp://messages/1", source: .urlScheme).source       // .urlScheme: the system opened it
/// resolver.resolve("https://example.com/pay", source: .universalLink)   // as the system delivered it
/// ```
public enum LinkSource: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A custom-scheme URL (`myapp://…`), opened by any app or web page.
    case urlScheme
    /// An `https` link on one of the app's associated domains, verified by the system.
    case universalLink
    /// A tap or action on a remote or local notification.
    case notification
    /// A home-screen quick action.
    case shortcut
    /// A Handoff or Spotlight user activity.
    case userActivity
    /// A message posted by a web view's script.
    case webMessage
    /// A navigation inside the app's web view (a tapped link, or a script setting `location`):
    /// not verified by the system, unlike a universal link to the same address.
    case webNavigation
    /// Text typed or sent by people, such as a link inside an in-app message.
    case text
    /// The link that led to an install, delivered on first launch by an attribution provider.
    case deferred
    /// A web link that is not a universal link (another host, or plain `http`): not the app's to open.
    case web

    public var description: String { rawValue }
}
