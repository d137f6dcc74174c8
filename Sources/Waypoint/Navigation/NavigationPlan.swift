/// What the app should show for a handled link, and how to get there.
///
/// ```swift
/// // Scenario 4: from a push on a killed app, home first, then the order, so Back returns home.
/// let plan = NavigationPlan.pushOverRoot(Screen.order(1234), tab: "home")
/// plan.path(from: [.settings])  // [.order(1234)]
/// NavigationPlan.push(Screen.order(1)).path(from: [.list]) // [.list, .order(1)]
/// ```
public struct NavigationPlan<Destination: Hashable & Sendable>: Sendable, Hashable {
    /// How the destination is reached.
    public enum Presentation: Sendable, Hashable {
        /// Pushed onto the current stack.
        case push
        /// Back to the root of the (selected) tab, then pushed, so Back returns home.
        case pushOverRoot
        /// Presented modally over what is shown.
        case present
        /// The stack becomes `via + [destination]`, with no root below.
        case replaceStack
    }

    /// A tab to select first (`nil` keeps the current tab).
    public var tab: String?
    /// Screens to push below the destination, in order.
    public var via: [Destination]
    /// The screen to show.
    public var destination: Destination
    public var presentation: Presentation

    public init(
        destination: Destination,
        presentation: Presentation = .pushOverRoot,
        tab: String? = nil,
        via: [Destination] = []
    ) {
        self.destination = destination
        self.presentation = presentation
        self.tab = tab
        self.via = via
    }

    public static func push(_ destination: Destination, tab: String? = nil) -> Self {
        Self(destination: destination, presentation: .push, tab: tab)
    }
    public static func pushOverRoot(_ destination: Destination, tab: String? = nil, via: [Destination] = []) -> Self {
        Self(destination: destination, presentation: .pushOverRoot, tab: tab, via: via)
    }
    public static func present(_ destination: Destination, tab: String? = nil) -> Self {
        Self(destination: destination, presentation: .present, tab: tab)
    }
    public static func replaceStack(_ destination: Destination, via: [Destination] = [], tab: String? = nil) -> Self {
        Self(destination: destination, presentation: .replaceStack, tab: tab, via: via)
    }

    /// The `NavigationStack(path:)` path after the plan runs, given the current one. A modal
    /// presentation leaves the path as it is (show ``destination`` in a sheet).
    public func path(from current: [Destination]) -> [Destination] {
        switch presentation {
        case .push: current + via + [destination]
        case .pushOverRoot, .replaceStack: via + [destination]
        case .present: current
        }
    }
}
