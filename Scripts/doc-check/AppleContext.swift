// What the documentation's UIKit and SwiftUI blocks assume, for Scripts/check-docs.py: an app's
// links (the example app's ApartmentLinks), a scene delegate's usual properties, and two views.
// Type-checked with the blocks, never run.
import Foundation
import SwiftUI
import UIKit
import UserNotifications
import Waypoint
import WaypointSwiftUI
import WaypointUIKit
import WebKit

/// The signed-in person, as the blocks ask about them.
final class Session: Sendable {
    static let shared = Session()
    var isHost: Bool { get async { true } }
    let profile = Profile.guest
}

@MainActor func logIn() async -> Bool { true }

/// A scene delegate with the properties the blocks use; each block's declarations go in a
/// subclass of their own, its statements in a method with the callback's parameters.
@MainActor class DocScene: UIResponder, UIWindowSceneDelegate, UNUserNotificationCenterDelegate, WKNavigationDelegate {
    var window: UIWindow?
    var router: SceneLinkRouter
    let links: ApartmentLinks
    let tabs = UITabBarController()
    let navigator: UIKitNavigator<Screen>
    let session = Session.shared
    let notificationCategories = NotificationCategoryCatalog([])
    let resolver: LinkResolver<Screen>
    let webView: WKWebView
    let handler: WebViewLinkHandler

    init(
        router: SceneLinkRouter,
        links: ApartmentLinks,
        navigator: UIKitNavigator<Screen>,
        resolver: LinkResolver<Screen>,
        webView: WKWebView,
        handler: WebViewLinkHandler
    ) {
        self.router = router
        self.links = links
        self.navigator = navigator
        self.resolver = resolver
        self.webView = webView
        self.handler = handler
    }

    required init?(coder: NSCoder) { return nil }
}

final class ScreenViewController: UIViewController {
    init(screen: Screen) { super.init(nibName: nil, bundle: nil) }
    required init?(coder: NSCoder) { return nil }
}

struct RootView: View {
    var body: some View { Text("Home") }
}

struct Home: View {
    var body: some View { Text("Home") }
}
