/// What the app should show for a handled link, and how to get there.
///
/// ```swift
/// // Scenario 4: from a push on a killed app, home first, then the order, so Back returns home.
/// let plan = NavigationPlan.pushOverRoot(Screen.order(1234), tab: "home")
/// plan.path(from: [.settings])  // [.order(1234)]
/// NavigationPlan.push(Screen.order(1)).path(from: [.list]) // [.list, .order(1)]
/// ```
public struct NavigationPlan<Destination: Hashable & Sendable>: Sendable, Hashable, CustomReflectable {
    /// How the destination is reached.
    public enum Presentation: Sendable, Hashable {
        /// Pushed onto the current stack.
        case push
        /// Back to the root of the (selected) tab, then pushed, so Back returns home.
        case pushOverRoot
        /// Presented modally over what is shown, as a sheet.
        case present
        /// Presented modally over everything, covering the screen (SwiftUI's `fullScreenCover`,
        /// UIKit's `.fullScreen` style).
        case fullScreenCover
        /// The stack becomes `via + [destination]`, with no root below.
        case replaceStack
    }

    /// A tab to select first (`nil` keeps the current tab).
    public var tab: String? {
        get { storage.tab }
        set { storage = Storage(tab: newValue, via: via, destination: destination, presentation: presentation) }
    }
    /// Screens to push below the destination, in order.
    public var via: [Destination] {
        get { storage.via }
        set { storage = Storage(tab: tab, via: newValue, destination: destination, presentation: presentation) }
    }
    /// The screen to show.
    public var destination: Destination {
        get { storage.destination }
        set { storage = Storage(tab: tab, via: via, destination: newValue, presentation: presentation) }
    }
    /// How the destination is reached.
    public var presentation: Presentation {
        get { storage.presentation }
        set { storage = Storage(tab: tab, via: via, destination: destination, presentation: newValue) }
    }

    /// The plan's values, behind one reference: a plan is a word wherever it travels (outcomes,
    /// events, the dispatcher's state), so every type that carries one has the same layout for
    /// every app's `Destination`, and the compiler makes its copies once instead of generically.
    private var storage: Storage

    private final class Storage: Sendable {
        let tab: String?
        let via: [Destination]
        let destination: Destination
        let presentation: Presentation

        init(tab: String?, via: [Destination], destination: Destination, presentation: Presentation) {
            self.tab = tab
            self.via = via
            self.destination = destination
            self.presentation = presentation
        }
    }

    /// A plan that shows `destination` by `presentation`, after selecting `tab` and pushing `via`:
    /// `NavigationPlan(destination: Screen.order(1), tab: "home").presentation` is `.pushOverRoot`.
    public init(
        destination: Destination,
        presentation: Presentation = .pushOverRoot,
        tab: String? = nil,
        via: [Destination] = []
    ) {
        storage = Storage(tab: tab, via: via, destination: destination, presentation: presentation)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.destination == rhs.destination && lhs.presentation == rhs.presentation && lhs.tab == rhs.tab
                && lhs.via == rhs.via)
    }

    /// The plan's values, for `print`, `dump` and test failures (not its storage).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["tab": tab as Any, "via": via, "destination": destination, "presentation": presentation],
            displayStyle: .struct
        )
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(destination)
        hasher.combine(presentation)
        hasher.combine(tab)
        hasher.combine(via)
    }

    /// Pushes `destination` onto the current stack:
    /// `NavigationPlan.push(Screen.order(1)).path(from: [.list])` is `[.list, .order(1)]`.
    public static func push(_ destination: Destination, tab: String? = nil) -> Self {
        Self(destination: destination, presentation: .push, tab: tab)
    }
    /// Returns to the root of `tab` (or the current tab), then pushes `via` and `destination`, so Back
    /// returns home: `NavigationPlan.pushOverRoot(Screen.order(1)).path(from: [.settings])` is `[.order(1)]`.
    public static func pushOverRoot(_ destination: Destination, tab: String? = nil, via: [Destination] = []) -> Self {
        Self(destination: destination, presentation: .pushOverRoot, tab: tab, via: via)
    }
    /// Presents `destination` as a sheet over what is shown; the stack's path stays as it is.
    public static func present(_ destination: Destination, tab: String? = nil) -> Self {
        Self(destination: destination, presentation: .present, tab: tab)
    }
    /// Covers the screen with the destination: a sign-up flow, a player.
    ///
    /// ```swift
    /// NavigationPlan.fullScreenCover(Screen.player(7)).steps   // [.presentFullScreen(.player(7))]
    /// ```
    public static func fullScreenCover(_ destination: Destination, tab: String? = nil) -> Self {
        Self(destination: destination, presentation: .fullScreenCover, tab: tab)
    }
    /// Makes the stack `via + [destination]`, with no root below:
    /// `NavigationPlan.replaceStack(Screen.order(1), via: [.list]).path(from: [.settings])` is `[.list, .order(1)]`.
    public static func replaceStack(_ destination: Destination, via: [Destination] = [], tab: String? = nil) -> Self {
        Self(destination: destination, presentation: .replaceStack, tab: tab, via: via)
    }

    /// The `NavigationStack(path:)` path after the plan runs, given the current one: the pushes of
    /// ``steps``, so SwiftUI and UIKit carry out a plan alike. A modal presentation pushes ``via``
    /// (none unless given) and shows ``destination`` over the path, in a sheet or a full-screen cover.
    public func path(from current: [Destination]) -> [Destination] {
        switch presentation {
        case .push: current + via + [destination]
        case .pushOverRoot, .replaceStack: via + [destination]
        case .present, .fullScreenCover: current + via  // the destination is shown over the path
        }
    }
}
