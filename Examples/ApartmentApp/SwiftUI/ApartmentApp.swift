// Deployment target: iOS 16 (`NavigationStack`); Scripts/check-apple-sdk.sh reads this line.
import Combine
import SwiftUI
import Waypoint
import WaypointSwiftUI

/// Scenario 1 as a SwiftUI app: `onOpenURL` and universal links routed by Waypoint, handled links
/// bound to each window's `NavigationStack` path. On iPad every window of the `WindowGroup` shows
/// the links it received.
@main
struct ApartmentApp: App {
    @StateObject private var model = AppModel()

    var body: some Scene {
        WindowGroup {
            RootView(model: model)
        }
    }
}

/// Built once for the app, shared by its windows: the links (`nil` only if the app's own setup has
/// a mistake, which `Tools/AdapterCheck` catches by building it in CI).
@MainActor
final class AppModel: ObservableObject {
    // This sample has no host login: host-only links are refused until it has one.
    let links = try? ApartmentLinks(
        pendingLinks: try PendingLinkStorage.store(),
        isHost: { false },
        logInAsHost: { false }
    )
}

/// One window: its own navigation state, which the links it receives are bound to.
struct RootView: View {
    @ObservedObject var model: AppModel
    @StateObject private var navigation = NavigationModel<Screen>()

    init(model: AppModel) { _model = ObservedObject(wrappedValue: model) }

    var body: some View {
        routed(
            NavigationStack(path: $navigation.path) {
                Text("Home").navigationDestination(for: Screen.self) { screen in Text("\(screen)") }
            }
        )
    }

    private func routed(_ content: some View) -> AnyView {
        guard let links = model.links else {
            return AnyView(Text("Links are unavailable: the route table is invalid."))
        }
        // This window's links wait for its navigator, which the modifier sets before it marks
        // the window ready, so none is lost or shown by another window.
        return AnyView(
            content.waypointLinks(intake: links.intake, dispatcher: links.dispatcher, navigation: navigation)
        )
    }
}
