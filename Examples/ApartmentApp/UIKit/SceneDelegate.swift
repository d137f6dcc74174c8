import UIKit
import Waypoint
import WaypointUIKit

/// Scenario 1 as a scene-based UIKit app: every entry point forwarded in one line each. On iPad
/// each window (scene) has its own router and navigator, so a link opened in the second window is
/// shown there, and a window that closes hands its waiting links to another.
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?
    private var router: SceneLinkRouter?
    private var navigator: UIKitNavigator<Screen>?

    func scene(
        _ scene: UIScene,
        willConnectTo session: UISceneSession,
        options connectionOptions: UIScene.ConnectionOptions
    ) {
        guard let windowScene = scene as? UIWindowScene, let links = AppLinks.shared else { return }
        let tabs = UITabBarController()
        tabs.viewControllers = [UINavigationController(rootViewController: HomeViewController())]
        let window = UIWindow(windowScene: windowScene)
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        self.window = window

        let navigator = UIKitNavigator<Screen>(
            tabBarController: tabs,
            tabIndex: { $0 == "home" ? 0 : nil },
            makeViewController: { ScreenViewController(screen: $0) }
        )
        self.navigator = navigator
        // The dispatcher was built whole at launch, so the order below cannot lose a link: what
        // `connect` forwards waits until this window's navigator is set, its UI is installed and
        // it is active. The router is named by the session's persistent identifier, which a
        // restored window keeps.
        let router = SceneLinkRouter(intake: links.intake, dispatcher: links.dispatcher, scene: scene)
        self.router = router
        router.connect(connectionOptions)
        router.rootInstalled()
        let sceneID = router.scene
        Task { await links.dispatcher.setNavigator({ plan, _ in await navigator.show(plan) }, for: sceneID) }
    }

    func sceneDidDisconnect(_ scene: UIScene) { router?.disconnect() }
    func sceneDidBecomeActive(_ scene: UIScene) { router?.didBecomeActive() }
    func sceneDidEnterBackground(_ scene: UIScene) { router?.didEnterBackground() }
    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) { router?.open(URLContexts) }
    func scene(_ scene: UIScene, continue userActivity: NSUserActivity) { router?.continue(userActivity) }

    func windowScene(
        _ windowScene: UIWindowScene,
        performActionFor shortcutItem: UIApplicationShortcutItem,
        completionHandler: @escaping (Bool) -> Void
    ) {
        guard let router else {
            completionHandler(false)
            return
        }
        router.perform(shortcutItem) { handled in completionHandler(handled) }
    }
}

/// The links of the running app (built by the app delegate).
@MainActor
enum AppLinks {
    static var shared: ApartmentLinks? { (UIApplication.shared.delegate as? AppDelegate)?.links }
}

/// Who is logged in; switching to the host profile re-installs the quick actions (scenario 1).
@MainActor
final class Session {
    static let shared = Session()
    private(set) var isHost = false

    func logInAsHost() -> Bool {
        isHost = true
        if let links = AppLinks.shared { CatalogInstaller.installQuickActions(links.quickActionItems(for: .host)) }
        return true
    }
}

final class HomeViewController: UIViewController {}

final class ScreenViewController: UIViewController {
    let screen: Screen
    init(screen: Screen) {
        self.screen = screen
        super.init(nibName: nil, bundle: nil)
        title = "\(screen)"
    }

    /// Never restored from a storyboard or archive: built in code from a handled link.
    required init?(coder: NSCoder) { nil }
}
