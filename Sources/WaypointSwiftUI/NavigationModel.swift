#if canImport(SwiftUI)
import Combine  // owns `ObservableObject` and `@Published`; SwiftUI does not re-export them for member lookup
import SwiftUI
import Waypoint

/// Handled links as SwiftUI state: the `NavigationStack` path, the selected tab, and a sheet.
///
/// ```swift
/// @StateObject var navigation = NavigationModel<Screen>()
/// NavigationStack(path: $navigation.path) { Home().navigationDestination(for: Screen.self, destination: view) }
/// await dispatcher.setNavigator { plan, _ in await navigation.apply(plan) }
/// ```
@MainActor
public final class NavigationModel<Destination: Hashable & Sendable>: ObservableObject {
    @Published public var path: [Destination] = []
    @Published public var selectedTab: String?
    @Published public var presented: Destination?

    public init() {}

    /// Applies a handled link's plan: the tab first, then the path (or the sheet).
    public func apply(_ plan: NavigationPlan<Destination>) {
        if let tab = plan.tab { selectedTab = tab }
        if plan.presentation == .present {
            presented = plan.destination
        } else {
            presented = nil
        }
        path = plan.path(from: path)
    }
}
#endif
