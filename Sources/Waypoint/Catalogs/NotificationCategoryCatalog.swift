/// A notification category and its actions, declared once: the UIKit adapter registers them with
/// `UNUserNotificationCenter`, and intake uses them to tell what each action does.
///
/// ```swift
/// let post = NotificationCategory(id: "post", actions: [
///     NotificationAction(id: "like", title: "Like", target: .handler),
///     NotificationAction(id: "open", title: "Open", options: .foreground, target: .payloadLink),
///     NotificationAction(id: "report", title: "Report", options: [.destructive, .authenticationRequired],
///                        target: .link("/posts/{postId}/report")),
/// ])
/// ```
public struct NotificationCategory: Sendable, Hashable {
    /// The category identifier (`aps.category`).
    public var id: String
    /// The actions, in the order they are shown.
    public var actions: [NotificationAction]
    /// Whether the system reports dismissals (`customDismissAction`).
    public var reportsDismiss: Bool

    /// A category `id` (the payload's `aps.category`) with its `actions`, shown in that order.
    public init(id: String, actions: [NotificationAction], reportsDismiss: Bool = false) {
        self.id = id
        self.actions = actions
        self.reportsDismiss = reportsDismiss
    }
}

/// One action button of a notification.
///
/// ```swift
/// let open = NotificationAction(id: "open", title: "Open", options: .foreground, target: .payloadLink)
/// open.options.contains(.foreground)  // true
/// ```
public struct NotificationAction: Sendable, Hashable {
    /// How the system runs the action (`UNNotificationActionOptions`).
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Brings the app to the foreground.
        public static let foreground = Options(rawValue: 1 << 0)
        /// Shown as destructive.
        public static let destructive = Options(rawValue: 1 << 1)
        /// Needs the device unlocked.
        public static let authenticationRequired = Options(rawValue: 1 << 2)
    }

    /// The action identifier the system reports when the button is tapped.
    public var id: String
    /// The button's text.
    public var title: String
    /// How the system runs the action: in the foreground, as destructive, only when unlocked.
    public var options: Options
    /// What the action does in the app.
    public var target: NotificationActionTarget

    /// A button `title` that reports `id` and does `target`:
    /// `NotificationAction(id: "open", title: "Open", options: .foreground, target: .payloadLink)`.
    public init(id: String, title: String, options: Options = [], target: NotificationActionTarget) {
        self.id = id
        self.title = title
        self.options = options
        self.target = target
    }
}

/// What a notification action does.
///
/// ```swift
/// NotificationAction(id: "report", title: "Report", target: .link("/posts/{postId}/report"))
/// ```
public enum NotificationActionTarget: Sendable, Hashable {
    /// Opens a route: the template is filled from the payload.
    case link(LinkTemplate)
    /// Opens the link the payload carries, as a tap on the notification would.
    case payloadLink
    /// Runs the app's action handler for the action's id (``LinkFallbacks/actions``), without
    /// routing (for example "like", which may run in the background).
    case handler
}

/// Every category the app declares.
///
/// ```swift
/// let catalog = NotificationCategoryCatalog([post])   // the category above
/// catalog.action("like", in: "post")?.target          // .handler
/// catalog.action("like", in: "other")?.id             // "like": the first action with that id
/// ```
public struct NotificationCategoryCatalog: Sendable, Hashable {
    /// The categories, as the UIKit adapter registers them.
    public var categories: [NotificationCategory]

    /// A catalog of `categories`:
    /// `NotificationCategoryCatalog([post]).action("like", in: "post")?.target` is `.handler`.
    public init(_ categories: [NotificationCategory] = []) { self.categories = categories }

    /// The action `actionID` of category `categoryID`; when the category is unknown, the first
    /// action with that id in any category.
    public func action(_ actionID: String, in categoryID: String) -> NotificationAction? {
        if let category = categories.first(where: { $0.id == categoryID }) {
            return category.actions.first { $0.id == actionID }
        }
        return categories.lazy.flatMap(\.actions).first { $0.id == actionID }
    }

    /// Checks that the app's action handlers and the catalog's ``NotificationActionTarget/handler``
    /// actions are the same set, so an action never runs nothing and a handler is never dead code.
    ///
    /// ```swift
    /// try catalog.checkHandlers(LinkFallbacks(actions: ["like": { _ in }]))
    /// // WaypointError.Code.unknownAction when "like" is not a handler action, or one has no handler
    /// ```
    public func checkHandlers(_ fallbacks: LinkFallbacks) throws(WaypointError) {
        let handlerActions = categories.flatMap(\.actions).filter { $0.target == .handler }.map(\.id)
        if let unhandled = handlerActions.first(where: { fallbacks.actions[$0] == nil }) {
            throw WaypointError(
                .unknownAction,
                names: [unhandled],
                message: "The notification action '\(unhandled)' runs an action handler (handler: true), "
                    + "which the app did not give in fallbacks.actions."
            )
        }
        if let stray = fallbacks.actions.keys.map({ $0 }).stablySorted().first(where: { !handlerActions.contains($0) })
        {
            throw WaypointError(
                .unknownAction,
                names: [stray],
                message: "The app gives an action handler for '\(stray)', which no notification action "
                    + "declares with handler: true."
            )
        }
    }
}
