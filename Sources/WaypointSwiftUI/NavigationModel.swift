#if canImport(SwiftUI)
import Combine  // owns `ObservableObject` and `@Published`; SwiftUI does not re-export them for member lookup
import SwiftUI
import Waypoint

/// Handled links as SwiftUI state: the `NavigationStack` path, the selected tab, a sheet and a
/// full-screen cover.
///
/// ```swift
/// @StateObject var navigation = NavigationModel<Screen>()
/// NavigationStack(path: $navigation.path) { Home().navigationDestination(for: Screen.self, destination: view) }
/// await dispatcher.setNavigator { plan, _ in await navigation.apply(plan) }
/// ```
@MainActor
public final class NavigationModel<Destination: Hashable & Sendable>: ObservableObject {
    /// The `NavigationStack` path: bind it with `NavigationStack(path: $navigation.path)`.
    @Published public var path: [Destination] = []
    /// The tab a plan selected, for a `TabView(selection:)`.
    @Published public var selectedTab: String?
    /// What a sheet shows (``NavigationPlan/Presentation/present``).
    @Published public var presented: Destination?
    /// What a full-screen cover shows (``NavigationPlan/Presentation/fullScreenCover``).
    @Published public var covered: Destination?

    /// An empty path, no tab selected, nothing presented.
    public init() {}

    /// Applies a handled link's plan: the tab first, then the path (or the sheet, or the cover).
    public func apply(_ plan: NavigationPlan<Destination>) {
        if let tab = plan.tab { selectedTab = tab }
        presented = plan.presentation == .present ? plan.destination : nil
        covered = plan.presentation == .fullScreenCover ? plan.destination : nil
        path = plan.path(from: path)
    }
}
#endif
