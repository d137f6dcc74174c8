#if canImport(SwiftUI)
import Foundation
import SwiftUI
import Waypoint

/// Routes `onOpenURL` and `onContinueUserActivity` into Waypoint and tells the dispatcher when the
/// view is on screen and the scene is active.
public struct WaypointLinksModifier: ViewModifier {
    let intake: LinkIntake
    let dispatcher: any LinkDispatching
    @Environment(\.scenePhase) private var scenePhase

    public init(intake: LinkIntake, dispatcher: any LinkDispatching) {
        self.intake = intake
        self.dispatcher = dispatcher
    }

    public func body(content: Content) -> some View {
        content
            .onOpenURL { url in forward(intake.url(url)) }
            .onContinueUserActivity(UserActivityType.browsingWeb) { activity in
                forward(intake.userActivity(UserActivityReader(activity)))
            }
            .onAppear {
                let dispatcher = self.dispatcher
                Task {
                    await dispatcher.appDidBecomeReady()
                    await dispatcher.appDidBecomeActive()
                }
            }
            // Runs at first and again on each change. Not `onChange(of:perform:)`: deprecated in
            // iOS 17, while its replacement needs iOS 17; `task(id:)` is iOS 15 and neither.
            .task(id: scenePhase) { [dispatcher, scenePhase] in
                if scenePhase == .active { await dispatcher.appDidBecomeActive() }
                if scenePhase == .background { await dispatcher.appDidEnterBackground() }
            }
    }

    private func forward(_ result: IntakeResult) {
        let dispatcher = self.dispatcher
        Task { await dispatcher.receive(result) }
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
    /// Routes the links this scene receives through Waypoint.
    ///
    /// ```swift
    /// ContentView().waypointLinks(intake: intake, dispatcher: dispatcher)
    /// ```
    public func waypointLinks(intake: LinkIntake, dispatcher: any LinkDispatching) -> some View {
        modifier(WaypointLinksModifier(intake: intake, dispatcher: dispatcher))
    }
}
#endif
