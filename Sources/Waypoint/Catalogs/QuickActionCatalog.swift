/// Home-screen quick actions, declared once with the app state each one shows for.
///
/// ```swift
/// enum Profile: Sendable { case guest, host }
/// let catalog = QuickActionCatalog<Profile>([
///     QuickAction(type: "activity", title: "Recent activity", link: "/activity"),
///     QuickAction(type: "messages", title: "Messages", link: "/messages"),
///     QuickAction(type: "listing.new", title: "New listing", link: "/listings/new") { $0 == .host },
/// ])
/// catalog.items(for: .guest).map(\.type) // ["activity", "messages"]
/// catalog.items(for: .host).map(\.type)  // ["activity", "messages", "listing.new"]
/// ```
public struct QuickActionCatalog<State>: Sendable {
    /// The actions, in display order.
    public var actions: [QuickAction<State>]
    /// How many the system shows; the rest are not installed. Default 4.
    public var maximumVisible: Int

    /// A catalog of `actions` in display order, of which at most `maximumVisible` are installed.
    public init(_ actions: [QuickAction<State>], maximumVisible: Int = 4) {
        self.actions = actions
        self.maximumVisible = maximumVisible
    }

    /// What to install for `state`, in order, at most ``maximumVisible``.
    public func items(for state: State) -> [QuickActionItem] {
        Array(actions.filter { $0.isShown(state) }.map(\.item).prefix(maximumVisible))
    }

    /// Quick action type → link template, for ``LinkIntake/shortcutRoutes``.
    public var linkTemplates: [String: LinkTemplate] {
        Dictionary(actions.map { ($0.item.type, $0.link) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A quick action definition: what it shows, where it leads, and when it is shown.
///
/// ```swift
/// QuickAction<Profile>(type: "messages", title: "Messages", link: "/messages").item.title  // "Messages"
/// ```
public struct QuickAction<State>: Sendable {
    /// What the home screen shows: its type, title, subtitle, icon and `userInfo`.
    public var item: QuickActionItem
    /// The link it opens; placeholders are filled from the item's `userInfo`.
    public var link: LinkTemplate
    /// When the action is shown; always when `nil`.
    public var isShown: @Sendable (State) -> Bool

    /// An action of `type` that opens `link` and shows while `when` holds for the app's state:
    /// `QuickAction(type: "listing.new", title: "New listing", link: "/listings/new") { $0 == .host }`.
    public init(
        type: String,
        title: String,
        subtitle: String? = nil,
        iconName: String? = nil,
        userInfo: [String: PayloadValue] = [:],
        link: LinkTemplate,
        when isShown: @escaping @Sendable (State) -> Bool = { _ in true }
    ) {
        self.item = QuickActionItem(
            type: type,
            title: title,
            subtitle: subtitle,
            iconName: iconName,
            userInfo: userInfo
        )
        self.link = link
        self.isShown = isShown
    }
}

/// A quick action to install: the values of `UIApplicationShortcutItem`.
///
/// ```swift
/// QuickActionItem(type: "messages", title: "Messages", iconName: "envelope").iconName  // "envelope"
/// ```
public struct QuickActionItem: Sendable, Hashable {
    /// The action's type: what `UIApplicationShortcutItem.type` reports when it is chosen.
    public var type: String
    /// The action's title.
    public var title: String
    /// A second line under the title, if any.
    public var subtitle: String?
    /// An SF Symbol or template image name.
    public var iconName: String?
    /// Plist values only.
    public var userInfo: [String: PayloadValue]

    /// An item as the UIKit adapter installs it: `QuickActionItem(type: "messages", title: "Messages")`.
    public init(
        type: String,
        title: String,
        subtitle: String? = nil,
        iconName: String? = nil,
        userInfo: [String: PayloadValue] = [:]
    ) {
        self.type = type
        self.title = title
        self.subtitle = subtitle
        self.iconName = iconName
        self.userInfo = userInfo
    }
}
