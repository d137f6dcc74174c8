#if canImport(UIKit)
import UIKit
import Waypoint

/// Carries out navigation plans on a tab bar controller and its navigation controllers (or on a
/// single navigation controller): select the tab, push over the root so Back returns home,
/// present, or replace the stack. The order of steps comes from the core (`NavigationPlan.steps`).
///
/// ```swift
/// let navigator = UIKitNavigator<Screen>(
///     tabBarController: tabs,
///     tabIndex: { ["home": 0, "inbox": 1][$0] },
///     makeViewController: { $0.makeViewController() }
/// )
/// await dispatcher.setNavigator { plan, _ in await navigator.show(plan) }
/// ```
@MainActor
public final class UIKitNavigator<Destination: Hashable & Sendable> {
    /// The tab bar controller plans act on; `nil` for a navigator over one navigation controller.
    public let tabBarController: UITabBarController?
    /// The navigation controller plans act on, without tabs; `nil` for a navigator over tabs.
    public let navigationController: UINavigationController?
    let tabIndex: (String) -> Int?
    let makeViewController: (Destination) -> UIViewController

    /// A navigator over tabs, each holding a navigation controller.
    public init(
        tabBarController: UITabBarController,
        tabIndex: @escaping (String) -> Int?,
        makeViewController: @escaping (Destination) -> UIViewController
    ) {
        self.tabBarController = tabBarController
        self.navigationController = nil
        self.tabIndex = tabIndex
        self.makeViewController = makeViewController
    }

    /// A navigator over one navigation controller (tabs in plans are ignored).
    public init(
        navigationController: UINavigationController,
        makeViewController: @escaping (Destination) -> UIViewController
    ) {
        self.tabBarController = nil
        self.navigationController = navigationController
        self.tabIndex = { _ in nil }
        self.makeViewController = makeViewController
    }

    private var currentStack: UINavigationController? {
        (tabBarController?.selectedViewController as? UINavigationController) ?? navigationController
    }

    private var root: UIViewController? { tabBarController ?? navigationController }

    /// Carries out `plan`'s steps (``NavigationPlan/steps``) in order:
    /// `navigator.show(.pushOverRoot(.order(7), tab: "home"))`.
    public func show(_ plan: NavigationPlan<Destination>) {
        for step in plan.steps { perform(step) }
    }

    private func perform(_ step: NavigationStep<Destination>) {
        switch step {
        case .selectTab(let identifier):
            if let index = tabIndex(identifier) { tabBarController?.selectedIndex = index }
        case .dismissPresented:
            root?.presentedViewController?.dismiss(animated: false)
        case .popToRoot:
            _ = currentStack?.popToRootViewController(animated: false)
        case .push(let destination):
            currentStack?.pushViewController(makeViewController(destination), animated: true)
        case .present(let destination):
            let presenter = root?.presentedViewController ?? root
            presenter?.present(makeViewController(destination), animated: true)
        case .presentFullScreen(let destination):
            let presenter = root?.presentedViewController ?? root
            let cover = makeViewController(destination)
            cover.modalPresentationStyle = .fullScreen
            presenter?.present(cover, animated: true)
        case .setStack(let destinations):
            currentStack?.setViewControllers(destinations.map(makeViewController), animated: true)
        }
    }
}
#endif
