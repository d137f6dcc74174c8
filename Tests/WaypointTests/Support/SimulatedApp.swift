import Foundation
import Testing
import Waypoint
import WaypointTesting

/// The screens of the simulated app, across the five scenarios the project acts out.
enum Screen: Hashable, Sendable {
    case home, activity, messages
    case chat(Int)
    case request(Int)
    case newListing
    case pay(order: String)
    case book(Int)
    case tab(String)
    case order(Int)
    case settings
    case post(Int)
    case open(Int)
    case secure(Int)
}

/// What a scene's connection options carry on a cold start (`UIScene.ConnectionOptions`).
struct ConnectionOptions {
    var urls: [String] = []
    var userActivities: [UserActivitySnapshot] = []
    var shortcut: ShortcutItemSnapshot?
    var notificationResponse: NotificationResponseSnapshot?
}

/// An app host on Linux: it drives launch, scene connection, activation, background, termination,
/// login and logout the way UIKit would, and forwards every entry point through intake to the
/// dispatcher — what the UIKit adapter does on a device.
final class SimulatedApp: @unchecked Sendable {
    let intake: LinkIntake
    let store: any PendingLinkStore
    let clock = ManualClock()
    let configuration: DispatcherConfiguration
    private(set) var dispatcher: LinkDispatcher<Screen>

    /// Every plan the navigator was handed, in order.
    let navigations = Locked<[NavigationPlan<Screen>]>([])
    /// Every event, in order.
    let events = Locked<[DispatchEvent<Screen>]>([])
    let isLoggedIn = Locked(false)
    /// What the user does when the login screen is presented: log in or cancel.
    let loginAnswer = Locked(true)
    let loginPresentations = Locked(0)
    /// Close it to keep the login screen up until the test opens it again (a barrier check that
    /// never answers, and ignores cancellation meanwhile).
    let loginGate = Gate()
    let notFound = Locked<[String]>([])
    let passedThrough = Locked<[String]>([])
    let actions = Locked<[String]>([])
    let quickActions: QuickActionCatalog<Profile>
    let profile = Locked(Profile.guest)
    private(set) var installedQuickActions: [QuickActionItem] = []

    enum Profile: Sendable { case guest, host }

    init(
        routes: [(name: String, pattern: String, screen: Screen?, barriers: [String])],
        intake configure: (inout LinkIntake) -> Void = { _ in },
        policy: LinkPolicy,
        configuration: DispatcherConfiguration = DispatcherConfiguration(),
        store: any PendingLinkStore = InMemoryPendingLinkStore(),
        quickActions: QuickActionCatalog<Profile> = QuickActionCatalog([])
    ) throws {
        var intake = LinkIntake(policy: policy)
        intake.shortcutRoutes = quickActions.linkTemplates
        configure(&intake)
        self.intake = intake
        self.store = store
        self.configuration = configuration
        self.quickActions = quickActions
        self.routeTable = routes
        self.policy = policy
        dispatcher = try LinkDispatcher(routes: [], policy: policy, configuration: configuration, store: store)
        dispatcher = try makeDispatcher()
    }

    /// Handlers of the app's own, by route name, in place of the table's "show its screen" (a route
    /// with no screen and no handler here declines). Set before `launch`, as an app declares them.
    var handlers: [String: LinkRoute<Screen>.Handler] = [:]
    /// Scene roles of routes, by route name (``LinkRoute/sceneRole``). Set before `launch`.
    var sceneRoles: [String: String] = [:]
    /// How long a link may wait on the login check (``Barrier/maximumWait``). Set before `launch`.
    var authWait: TimeInterval?
    /// Barriers in front of every link they apply to.
    var mandatoryBarriers: [MandatoryBarrier] = []
    /// What happens to forbidden links and invalid input, beside the recorders below.
    var onForbidden: (@Sendable (DeepLink, String) async -> Void)?
    var onInvalid: (@Sendable (String, String) async -> Void)?
    /// Replaces the recording not-found fallback.
    var onNotFound: (@Sendable (DeepLink) async -> Void)?

    private let routeTable: [(name: String, pattern: String, screen: Screen?, barriers: [String])]
    private let policy: LinkPolicy

    /// The dispatcher an app delegate builds at launch: every route with its handler and barriers.
    func makeDispatcher() throws(WaypointError) -> LinkDispatcher<Screen> {
        let routes = routeTable.map { route in
            let handler: LinkRoute<Screen>.Handler =
                handlers[route.name]
                ?? { [screen = route.screen] _ in screen.map { .handled(.pushOverRoot($0)) } ?? .declined }
            return LinkRoute(
                route.name,
                route.pattern,
                barriers: route.barriers,
                sceneRole: sceneRoles[route.name],
                handler: handler
            )
        }
        let notFound = self.notFound
        let passedThrough = self.passedThrough
        let actions = self.actions
        return try LinkDispatcher(
            routes: routes,
            policy: policy,
            barriers: [authBarrier()],
            mandatoryBarriers: mandatoryBarriers,
            fallbacks: LinkFallbacks(
                notFound: onNotFound ?? { link in notFound.update { $0.append(link.string) } },
                passThrough: { link in passedThrough.update { $0.append(link.string) } },
                forbidden: onForbidden,
                invalid: onInvalid,
                actions: [
                    "like": { invocation in
                        actions.update { $0.append("like:\(invocation.payload["postId"]?.text ?? "")") }
                    }
                ]
            ),
            configuration: configuration,
            store: store,
            clock: clock
        )
    }

    /// A new process: a new dispatcher over the same store, wired like an app delegate would.
    func launch(_ options: ConnectionOptions = ConnectionOptions()) async {
        do {
            dispatcher = try makeDispatcher()
        } catch {
            preconditionFailure("the simulated app's setup is its tests' own: \(error)")
        }
        let events = self.events
        await dispatcher.observe { event in events.update { $0.append(event) } }
        if installsNavigatorAtLaunch { await installNavigator() }
        await dispatcher.restorePendingLinks()
        installQuickActions()
        // scene(_:willConnectTo:options:)
        for url in options.urls { await dispatcher.receive(intake.url(url)) }
        for activity in options.userActivities { await dispatcher.receive(intake.userActivity(activity)) }
        if let shortcut = options.shortcut { await dispatcher.receive(intake.shortcut(shortcut)) }
        if let response = options.notificationResponse { await dispatcher.receive(intake.notification(response)) }
    }

    private func authBarrier() -> Barrier {
        let isLoggedIn = self.isLoggedIn
        let loginAnswer = self.loginAnswer
        let presentations = self.loginPresentations
        let loginGate = self.loginGate
        let loginScenes = self.loginScenes
        return Barrier("auth", maximumWait: authWait) { _ in
            isLoggedIn.current ? .passed : .needsCheck
        } check: { context in
            presentations.update { $0 += 1 }
            loginScenes.update { $0.append(context.scene) }
            // While the gate is closed the login screen stays up and ignores cancellation: only the
            // timeout frees the queue.
            await loginGate.pass()
            let answer = loginAnswer.current
            if answer { isLoggedIn.update { $0 = true } }
            return answer
        }
    }

    /// Whether `launch` sets the navigator; when `false`, `installNavigator()` does it later.
    var installsNavigatorAtLaunch = true

    /// The navigator is set: the app can show handled links.
    func installNavigator() async {
        let navigations = self.navigations
        await dispatcher.setNavigator { plan, _ in navigations.update { $0.append(plan) } }
    }

    /// The root view controller is installed.
    func installRootUI() async { await dispatcher.appDidBecomeReady() }
    func becomeActive() async { await dispatcher.appDidBecomeActive() }
    func enterBackground() async { await dispatcher.appDidEnterBackground() }
    /// The process dies: nothing in memory survives, the store does.
    func terminate() {}
    func login() { isLoggedIn.update { $0 = true } }
    func logout() { isLoggedIn.update { $0 = false } }

    /// Switching profile re-installs the quick actions (scenario 1).
    func switchProfile(to profile: Profile) {
        self.profile.update { $0 = profile }
        installQuickActions()
    }

    private func installQuickActions() { installedQuickActions = quickActions.items(for: profile.current) }

    // Warm entry points.
    func open(_ url: String) async { await dispatcher.receive(intake.url(url)) }
    func openText(_ text: String) async { await dispatcher.receive(intake.text(text)) }
    func deliver(_ response: NotificationResponseSnapshot) async {
        await dispatcher.receive(intake.notification(response))
    }
    func perform(_ shortcut: ShortcutItemSnapshot) async { await dispatcher.receive(intake.shortcut(shortcut)) }
    func continueActivity(_ activity: UserActivitySnapshot) async {
        await dispatcher.receive(intake.userActivity(activity))
    }
    func webMessage(_ message: WebMessageSnapshot) async { await dispatcher.receive(intake.webMessage(message)) }
    func openNotificationSettings() async { await dispatcher.receive(intake.notificationSettings()) }

    /// Waits until the dispatcher has nothing left to run; a dispatcher that never gets there fails
    /// the test after ``testPatience`` rather than hanging the run.
    func settle(sourceLocation: SourceLocation = #_sourceLocation) async {
        await WaypointTests.settle(dispatcher, sourceLocation: sourceLocation)
    }

    /// The final outcome of every link, in order.
    var outcomes: [DispatchOutcome<Screen>] {
        events.read { events in
            events.compactMap { event in
                if case .finished(let outcome) = event.kind { return outcome }
                return nil
            }
        }
    }

    var screens: [Screen] { navigations.read { $0.map(\.destination) } }

    // Several windows: each scene with its own navigator, as a scene delegate sets it up.

    /// Every plan each scene's navigator was handed, with the scene the link arrived through.
    let shownInScene = Locked<[(scene: SceneID, arrivedIn: SceneID?, screen: Screen)]>([])
    /// The scene each login screen was presented in.
    let loginScenes = Locked<[SceneID]>([])

    /// Waits until the login screen was presented `count` times; `false` after ``testPatience``,
    /// so a broken dispatcher fails the test instead of hanging it.
    func loginPresented(_ count: Int = 1) async -> Bool {
        let presentations = loginPresentations
        return await eventually { presentations.current >= count }
    }

    /// `scene(_:willConnectTo:options:)`: the scene connects with what it shows, gets its own
    /// navigator, and forwards its cold-start entry points as its own.
    func connectScene(
        _ scene: SceneID,
        shows: Set<String> = [],
        _ options: ConnectionOptions = ConnectionOptions()
    )
        async
    {
        await dispatcher.sceneDidConnect(scene, shows: shows)
        let shown = shownInScene
        await dispatcher.setNavigator(
            { plan, link in shown.update { $0.append((scene, link.scene, plan.destination)) } },
            for: scene
        )
        for url in options.urls { await dispatcher.receive(intake.url(url), in: scene) }
        if let response = options.notificationResponse {
            await dispatcher.receive(intake.notification(response), in: scene)
        }
    }
    func sceneReady(_ scene: SceneID) async { await dispatcher.sceneDidBecomeReady(scene) }
    func sceneActive(_ scene: SceneID) async { await dispatcher.sceneDidBecomeActive(scene) }
    func sceneBackground(_ scene: SceneID) async { await dispatcher.sceneDidEnterBackground(scene) }
    func disconnectScene(_ scene: SceneID) async { await dispatcher.sceneDidDisconnect(scene) }
    /// A scene connected, its root UI installed, and in the foreground.
    func showScene(_ scene: SceneID, shows: Set<String> = []) async {
        await connectScene(scene, shows: shows)
        await sceneReady(scene)
        await sceneActive(scene)
    }
    func open(_ url: String, in scene: SceneID) async { await dispatcher.receive(intake.url(url), in: scene) }
    /// Where each handled screen was shown, in order.
    var shownScenes: [(SceneID, Screen)] { shownInScene.read { $0.map { ($0.scene, $0.screen) } } }
}
