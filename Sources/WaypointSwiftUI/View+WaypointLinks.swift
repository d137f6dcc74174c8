#if canImport(SwiftUI)
import Combine  // owns `ObservableObject`; SwiftUI does not re-export it for member lookup
import Foundation
import SwiftUI
import Waypoint

/// Routes one window's `onOpenURL` and `onContinueUserActivity` into Waypoint as that window's
/// own, and tells the dispatcher when the window is on screen, active, in the background or gone.
///
/// Each `WindowGroup` window is a scene of its own: its identity is kept in `@SceneStorage`, so a
/// window the system restores after the process was killed gets back the links it had pending.
///
/// ```swift
/// ContentView().modifier(WaypointLinksModifier(intake: intake, dispatcher: dispatcher))
/// // the same as ContentView().waypointLinks(intake: intake, dispatcher: dispatcher)
/// ```
public struct WaypointLinksModifier: ViewModifier {
    let intake: LinkIntake
    let dispatcher: any LinkDispatching
    let shows: Set<String>
    /// Called once the window has its identity: where a window's own navigator is set.
    let connected: (@Sendable (SceneID) async -> Void)?
    @Environment(\.scenePhase) private var scenePhase
    @SceneStorage("waypoint.scene") private var storedScene = ""
    @StateObject private var window = WindowLinks()

    /// The window's links read with `intake` and handed to `dispatcher`; `shows` are the roles whose
    /// links the window shows when they arrive without one (``LinkRoute/sceneRole``).
    public init(intake: LinkIntake, dispatcher: any LinkDispatching, shows: Set<String> = []) {
        self.init(intake: intake, dispatcher: dispatcher, shows: shows, connected: nil)
    }

    init(
        intake: LinkIntake,
        dispatcher: any LinkDispatching,
        shows: Set<String>,
        connected: (@Sendable (SceneID) async -> Void)?
    ) {
        self.intake = intake
        self.dispatcher = dispatcher
        self.shows = shows
        self.connected = connected
    }

    /// `content`, with the window's link callbacks and scene phase forwarded to the dispatcher.
    public func body(content: Content) -> some View {
        content
            .onOpenURL { url in send { await $0.receive(intake.url(url), in: $1) } }
            .onContinueUserActivity(UserActivityType.browsingWeb) { activity in
                let result = intake.userActivity(UserActivityReader(activity))
                send { await $0.receive(result, in: $1) }
            }
            .onAppear {
                let (shows, connected) = (self.shows, self.connected)
                send { dispatcher, scene in
                    await dispatcher.sceneDidConnect(scene, shows: shows)
                    await connected?(scene)
                    await dispatcher.sceneDidBecomeReady(scene)
                }
            }
            // Runs at first and again on each change. Not `onChange(of:perform:)`: deprecated in
            // iOS 17, while its replacement needs iOS 17; `task(id:)` is iOS 15 and neither.
            .task(id: scenePhase) {
                switch scenePhase {
                case .active: send { await $0.sceneDidBecomeActive($1) }
                case .background: send { await $0.sceneDidEnterBackground($1) }
                default: break
                }
            }
            .onDisappear { send { await $0.sceneDidDisconnect($1) } }
    }

    /// Forwards in the order SwiftUI called, as this window.
    private func send(_ event: @escaping @Sendable (any LinkDispatching, SceneID) async -> Void) {
        let scene = window.identity(restoring: $storedScene)
        window.send(dispatcher, scene, event)
    }
}

/// One window's identity and the order its callbacks reach the dispatcher.
@MainActor
final class WindowLinks: ObservableObject {
    private var scene: SceneID?
    private var last: Task<Void, Never>?

    /// The window's scene: the stored one of a restored window, else a new one, stored.
    func identity(restoring stored: Binding<String>) -> SceneID {
        if let scene { return scene }
        let name = stored.wrappedValue.isEmpty ? UUID().uuidString : stored.wrappedValue
        stored.wrappedValue = name
        let scene = SceneID(name)
        self.scene = scene
        return scene
    }

    /// Each task waits for the one before: a link is never overtaken by its window's disconnection.
    func send(
        _ dispatcher: any LinkDispatching,
        _ scene: SceneID,
        _ event: @escaping @Sendable (any LinkDispatching, SceneID) async -> Void
    ) {
        let previous = last
        last = Task {
            await previous?.value
            await event(dispatcher, scene)
        }
    }
}

/// `NSUserActivity` read through the core's mirror protocol. A wrapper rather than a conformance,
/// so this module does not clash with `WaypointUIKit`'s when an app imports both.
private struct UserActivityReader: UserActivityRepresentable {
    let activity: NSUserActivity
    init(_ activity: NSUserActivity) { self.activity = activity }
    var activityType: String { activity.activityType }
    var webpageURL: URL? { activity.webpageURL }
    var userInfo: [AnyHashable: Any]? { activity.userInfo }
}

extension View {
    /// Routes the links this window receives through Waypoint; handled links are shown by the
    /// navigator set with `setNavigator(_:)`. For an app with one window.
    ///
    /// ```swift
    /// ContentView().waypointLinks(intake: intake, dispatcher: dispatcher)
    /// ```
    public func waypointLinks(intake: LinkIntake, dispatcher: any LinkDispatching) -> some View {
        modifier(WaypointLinksModifier(intake: intake, dispatcher: dispatcher))
    }

    /// Routes the links this window receives through Waypoint and shows them with this window's
    /// own navigation state: with several windows, each shows the links it received. `shows`
    /// names what the window displays (target content identifiers, route roles), for links that
    /// arrive without a window. `through` takes the window's links in place of `dispatcher`, such
    /// as a `ShortLinkResolvingDispatcher` around it; the window's navigation is set on
    /// `dispatcher`, so `through` must lead to that same dispatcher.
    ///
    /// ```swift
    /// WindowGroup {
    ///     RootView().waypointLinks(intake: intake, dispatcher: dispatcher, navigation: navigation)
    /// }
    /// ```
    public func waypointLinks<Destination>(
        intake: LinkIntake,
        dispatcher: LinkDispatcher<Destination>,
        navigation: NavigationModel<Destination>,
        shows: Set<String> = [],
        through receiver: (any LinkDispatching)? = nil
    ) -> some View {
        modifier(
            WaypointLinksModifier(intake: intake, dispatcher: receiver ?? dispatcher, shows: shows) { scene in
                await dispatcher.setNavigator({ plan, _ in await navigation.apply(plan) }, for: scene)
            }
        )
    }
}
#endif
