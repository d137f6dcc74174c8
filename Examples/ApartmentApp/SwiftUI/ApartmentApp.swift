// Deployment target: iOS 16 (`NavigationStack`); Scripts/check-apple-sdk.sh reads this line.
import Combine
import SwiftUI
import Waypoint
import WaypointSwiftUI

/// Scenario 1 as a SwiftUI app: `onOpenURL` and universal links routed by Waypoint, handled links
/// bound to the `NavigationStack` path.
@main
struct ApartmentApp: App {
    var body: some Scene {
        WindowGroup {
            RootView()
        }
    }
}

/// Built once: the links (`nil` only if the app's own setup has a mistake, which `Tools/AdapterCheck`
/// catches by building it in CI) and the navigation state handled links are bound to.
@MainActor
final class AppModel: ObservableObject {
    // This sample has no host login: host-only links are refused until it has one.
    let links = try? ApartmentLinks(
        pendingLinks: UserDefaultsPendingLinkStore(key: "apartments.pendingLinks"),
        isHost: { false },
        logInAsHost: { false }
    )
}

struct RootView: View {
    @StateObject private var model = AppModel()
    @StateObject private var navigation = NavigationModel<Screen>()

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
        let navigation = self.navigation
        return AnyView(
            content
                // Links that arrive before the navigator is set wait for it: the modifier may mark
                // the view ready first without losing or misreporting one.
                .waypointLinks(intake: links.intake, dispatcher: links.dispatcher)
                .task { await links.dispatcher.setNavigator { plan, _ in await navigation.apply(plan) } }
        )
    }
}
