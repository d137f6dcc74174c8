// Runs the Apple adapters on Linux against the SDK stubs in Tools/AppleStubs: the stubs' classes are
// subclassed here to carry values, as UIKit would fill them, and every check drives an adapter
// exactly as a scene delegate, app delegate, notification center or web view would. It proves the
// forwarding (what reaches the core, and what comes back to UIKit); the stubs' README says what it
// cannot prove. Built and run by Scripts/check-adapters.sh; exits 1 on the first failed check.
import Foundation
import UIKit
import UserNotifications
import Waypoint
import WaypointUIKit
import WebKit

// MARK: UIKit's objects, filled the way the system fills them

final class URLContext: UIOpenURLContext {
    let link: URL
    init(_ link: URL) {
        self.link = link
        super.init()
    }
    override var url: URL { link }
}

final class Content: UNNotificationContent, @unchecked Sendable {
    let payload: [AnyHashable: Any]
    let target: String?
    init(_ payload: [AnyHashable: Any], target: String? = nil) {
        self.payload = payload
        self.target = target
        super.init()
    }
    override var userInfo: [AnyHashable: Any] { payload }
    override var targetContentIdentifier: String? { target }
}

final class Request: UNNotificationRequest, @unchecked Sendable {
    let id: String
    let body: Content
    init(id: String, body: Content) {
        self.id = id
        self.body = body
        super.init()
    }
    override var identifier: String { id }
    override var content: UNNotificationContent { body }
}

final class Notification: UNNotification, @unchecked Sendable {
    let held: Request
    init(_ request: Request) {
        held = request
        super.init()
    }
    override var request: UNNotificationRequest { held }
}

final class Response: UNNotificationResponse, @unchecked Sendable {
    let action: String
    let held: Notification
    init(
        id: String,
        payload: [AnyHashable: Any],
        action: String = NotificationActionIdentifier.default,
        target: String? = nil
    ) {
        self.action = action
        held = Notification(Request(id: id, body: Content(payload, target: target)))
        super.init()
    }
    override var actionIdentifier: String { action }
    override var notification: UNNotification { held }
}

final class Options: UIScene.ConnectionOptions {
    let contexts: Set<UIOpenURLContext>
    let response: UNNotificationResponse?
    let shortcut: UIApplicationShortcutItem?
    init(urls: [URL], response: UNNotificationResponse? = nil, shortcut: UIApplicationShortcutItem? = nil) {
        contexts = Set(urls.map(URLContext.init))
        self.response = response
        self.shortcut = shortcut
        super.init()
    }
    override var urlContexts: Set<UIOpenURLContext> { contexts }
    override var notificationResponse: UNNotificationResponse? { response }
    override var shortcutItem: UIApplicationShortcutItem? { shortcut }
}

final class ShortcutItem: UIApplicationShortcutItem {
    let kind: String
    init(type: String) {
        kind = type
        super.init(type: type, localizedTitle: type)
    }
    override var type: String { kind }
}

/// A window scene with its session's persistent identifier, as UIKit gives each window.
final class WindowScene: UIWindowScene {
    let identifier: String
    init(_ identifier: String) {
        self.identifier = identifier
        super.init()
    }
    override var session: UISceneSession { Session(identifier) }
}

final class Session: UISceneSession {
    let identifier: String
    init(_ identifier: String) {
        self.identifier = identifier
        super.init()
    }
    override var persistentIdentifier: String { identifier }
}

final class Origin: WKSecurityOrigin {
    override var `protocol`: String { "https" }
    override var host: String { "example.com" }
}

final class Frame: WKFrameInfo {
    let main: Bool
    init(main: Bool) {
        self.main = main
        super.init()
    }
    override var isMainFrame: Bool { main }
    override var securityOrigin: WKSecurityOrigin { Origin() }
}

final class ScriptMessage: WKScriptMessage {
    let content: Any
    let frame: Frame
    init(_ content: Any, mainFrame: Bool) {
        self.content = content
        frame = Frame(main: mainFrame)
        super.init()
    }
    override var name: String { "openLink" }
    override var body: Any { content }
    override var frameInfo: WKFrameInfo { frame }
}

/// A navigation as WebKit describes it: the URL, the frame it loads, and how it started.
final class NavigationAction: WKNavigationAction {
    let url: URL?
    let source: Frame
    let frame: Frame?
    let type: WKNavigationType
    init(_ text: String, mainFrame: Bool = true, fromMainFrame: Bool? = nil, type: WKNavigationType = .linkActivated) {
        url = URL(string: text)
        source = Frame(main: fromMainFrame ?? mainFrame)
        frame = Frame(main: mainFrame)
        self.type = type
        super.init()
    }
    override var sourceFrame: WKFrameInfo { source }
    override var targetFrame: WKFrameInfo? { frame }
    override var navigationType: WKNavigationType { type }
    override var request: URLRequest {
        var request = URLRequest(url: URL(fileURLWithPath: "/"))
        request.url = url
        return request
    }
}

/// Remembers what the navigator did to it.
final class RecordingNavigationController: UINavigationController {
    var log: [String] = []
    override func pushViewController(_ viewController: UIViewController, animated: Bool) {
        log.append("push \(viewController.title ?? "?")")
    }
    override func popToRootViewController(animated: Bool) -> [UIViewController]? {
        log.append("popToRoot")
        return []
    }
}

/// Remembers what was presented over it, and how.
final class RecordingTabBarController: UITabBarController {
    var presented: [String] = []
    override func present(_ viewController: UIViewController, animated: Bool, completion: (() -> Void)? = nil) {
        let style = viewController.modalPresentationStyle == .fullScreen ? "full screen" : "sheet"
        presented.append("\(viewController.title ?? "?") as \(style)")
    }
}

// MARK: The app under test

final class Shown: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}

var failures = 0
@MainActor
func check(_ condition: Bool, _ what: String) {
    print(condition ? "ok    \(what)" : "FAIL  \(what)")
    if !condition { failures += 1 }
}

/// Waits until `condition` holds or two seconds pass: the adapters forward in tasks of their own.
@MainActor
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<200 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return condition()
}

func makeApp(
    _ configuration: DispatcherConfiguration = DispatcherConfiguration()
) throws -> (LinkIntake, LinkDispatcher<String>, Shown) {
    let policy = LinkPolicy(schemes: ["app"], associatedDomains: ["example.com"])
    let intake = LinkIntake(
        policy: policy,
        notificationRules: [NotificationRule(.present("data.messageId"), link: "/messages/{data.messageId}")],
        shortcutRoutes: ["messages": "/messages"],
        webMessages: [WebMessageRoute(name: "openLink")],
        webOrigins: ["example.com"]
    )
    let dispatcher = try LinkDispatcher<String>(
        routes: [
            LinkRoute("messages.detail", "/messages/{id:int}") { match in
                .pushOverRoot("chat \(match.parameters.int("id") ?? 0)")
            },
            LinkRoute("messages", "/messages") { _ in .pushOverRoot("messages") },
        ],
        policy: policy,
        router: RouterConfiguration(linkScheme: "app"),
        configuration: configuration
    )
    return (intake, dispatcher, Shown())
}

func prepare(_ dispatcher: LinkDispatcher<String>, _ shown: Shown) async {
    await dispatcher.setNavigator { plan, _ in shown.append(plan.destination) }
}

// MARK: Checks

@MainActor
func sceneColdStart() async throws {
    let (intake, dispatcher, shown) = try makeApp()
    await prepare(dispatcher, shown)
    let router = SceneLinkRouter(intake: intake, dispatcher: dispatcher)
    let forwarder = NotificationCenterForwarder(intake: intake, dispatcher: dispatcher)
    let tap = Response(id: "push-1", payload: ["aps": ["alert": "New message"], "data": ["messageId": "7"]])

    router.connect(Options(urls: [], response: tap))
    check(shown.all.isEmpty, "nothing is shown before the root UI is installed")
    router.rootInstalled()
    router.didBecomeActive()
    check(await eventually { shown.all == ["chat 7"] }, "a push in the connection options opens its chat")
    var completed = false
    forwarder.userNotificationCenter(UNUserNotificationCenter.current(), didReceive: tap) { completed = true }
    check(completed, "the notification center's completion handler is called at once")
    try? await Task.sleep(nanoseconds: 100_000_000)
    check(shown.all == ["chat 7"], "the same push through the notification center is not shown a second time")

    router.open([URLContext(URL(string: "app:///messages/8")!)])
    check(await eventually { shown.all.last == "chat 8" }, "scene(_:openURLContexts:) routes a warm link")
}

@MainActor
func sceneColdStartFromLinkOrQuickAction() async throws {
    for (options, expected) in [
        (Options(urls: [URL(string: "app://messages/1")!]), "chat 1"),
        (Options(urls: [], shortcut: ShortcutItem(type: "messages")), "messages"),
    ] {
        let (intake, dispatcher, shown) = try makeApp()
        await prepare(dispatcher, shown)
        let router = SceneLinkRouter(intake: intake, dispatcher: dispatcher)
        router.connect(options)
        router.rootInstalled()
        router.didBecomeActive()
        check(
            await eventually { shown.all == [expected] },
            "a cold start from the connection options shows \(expected)"
        )
    }
}

/// Two windows, each with its own router and navigator: a link opened in one is shown there, a
/// push that targets the other's content is shown there, and a window that closes hands its
/// waiting link to the other.
@MainActor
func twoWindows() async throws {
    let (intake, dispatcher, _) = try makeApp()
    let first = SceneLinkRouter(intake: intake, dispatcher: dispatcher, scene: WindowScene("session-A"))
    let second = SceneLinkRouter(intake: intake, dispatcher: dispatcher, scene: WindowScene("session-B"))
    check(first.scene == SceneID("session-A"), "a scene router is named by its session's persistent identifier")
    let shownIn = Shown()
    for router in [first, second] {
        let name = router.scene.rawValue
        await dispatcher.setNavigator({ plan, _ in shownIn.append("\(name): \(plan.destination)") }, for: router.scene)
    }
    first.connect(Options(urls: []), shows: ["thread-9"])
    second.connect(Options(urls: []))
    for router in [first, second] {
        router.rootInstalled()
        router.didBecomeActive()
    }
    second.open([URLContext(URL(string: "app://messages/1")!)])
    check(
        await eventually { shownIn.all == ["session-B: chat 1"] },
        "a link opened in the second window is shown there"
    )
    let forwarder = NotificationCenterForwarder(intake: intake, dispatcher: dispatcher)
    let targeted = Response(id: "push-9", payload: ["data": ["messageId": "9"]], target: "thread-9")
    forwarder.userNotificationCenter(UNUserNotificationCenter.current(), didReceive: targeted) {}
    check(
        await eventually { shownIn.all.last == "session-A: chat 9" },
        "a push whose target-content-id the first window shows opens there"
    )
    second.didEnterBackground()
    second.open([URLContext(URL(string: "app://messages/2")!)])
    second.disconnect()
    check(
        await eventually { shownIn.all.last == "session-A: chat 2" },
        "a link waiting for a window that closed is shown in the other"
    )
    try? await Task.sleep(nanoseconds: 50_000_000)
    check(shownIn.all.count == 3, "… once")
}

@MainActor
func quickActions() async throws {
    let (intake, dispatcher, shown) = try makeApp()
    await prepare(dispatcher, shown)
    let router = SceneLinkRouter(intake: intake, dispatcher: dispatcher)
    router.rootInstalled()
    router.didBecomeActive()

    var answers: [Bool] = []
    router.perform(ShortcutItem(type: "messages")) { answers.append($0) }
    router.perform(ShortcutItem(type: "unknown.action")) { answers.append($0) }
    check(await eventually { answers.count == 2 }, "the quick action's completion handler is called")
    check(Set(answers) == [false, true], "… with true for a routed action and false for an unknown one")
    check(shown.all == ["messages"], "the routed quick action is shown")

    let delegate = AppDelegateLinkRouter(intake: intake, dispatcher: dispatcher)
    let launchedFromShortcut = delegate.launch([.shortcutItem: ShortcutItem(type: "messages")])
    check(
        !launchedFromShortcut,
        "an app-delegate launch from a quick action returns false, so UIKit does not send it twice"
    )
    check(delegate.launch([.url: URL(string: "app://messages/3")!]), "an app-delegate launch from a URL returns true")
    // The launch quick action may still be waiting when the URL arrives; under latest-wins the URL
    // then supersedes it. Either way the launch URL is shown.
    check(await eventually { shown.all.contains("chat 3") }, "… and routes the launch URL")
}

@MainActor
func appDelegateColdStartFromPush() async throws {
    // First-in-first-out, so a second delivery would run rather than be replaced.
    let (intake, dispatcher, shown) = try makeApp(DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 8)))
    await prepare(dispatcher, shown)
    let delegate = AppDelegateLinkRouter(intake: intake, dispatcher: dispatcher)
    let forwarder = NotificationCenterForwarder(intake: intake, dispatcher: dispatcher)
    let payload: [AnyHashable: Any] = ["aps": ["alert": "New message"], "data": ["messageId": "9"]]
    check(delegate.launch([.remoteNotification: payload]), "an app-delegate launch from a push returns true")
    forwarder.userNotificationCenter(
        UNUserNotificationCenter.current(),
        didReceive: Response(id: "push-9", payload: payload)
    ) {}
    delegate.rootInstalled()
    delegate.didBecomeActive()
    check(await eventually { shown.all == ["chat 9"] }, "an app-delegate cold start from a push opens its chat")
    try? await Task.sleep(nanoseconds: 100_000_000)
    check(shown.all == ["chat 9"], "… once, though the launch options carry the same push")
}

@MainActor
func webViews() async throws {
    let (intake, dispatcher, shown) = try makeApp()
    await prepare(dispatcher, shown)
    await dispatcher.appDidBecomeReady()
    await dispatcher.appDidBecomeActive()
    let resolver = dispatcher.resolver
    let handler = WebViewLinkHandler(intake: intake, dispatcher: dispatcher) { resolver.webNavigationDecision(for: $0) }

    handler.userContentController(WKUserContentController(), didReceive: ScriptMessage("/messages/4", mainFrame: false))
    handler.userContentController(WKUserContentController(), didReceive: ScriptMessage("/messages/5", mainFrame: true))
    check(
        await eventually { shown.all == ["chat 5"] },
        "a script message from the main frame is routed; one from an iframe is not"
    )
    check(
        intake.webMessage(ScriptMessage(NSObject(), mainFrame: false)).error?.code == .notMainFrame,
        "an iframe's message is refused for its frame, before its body is converted"
    )
    check(handler.policy(for: NavigationAction("javascript:alert(1)")) == .cancel, "a web view never loads javascript:")
    check(
        handler.policy(for: NavigationAction("https://example.com/about")) == .allow,
        "the app's own pages load in the web view"
    )
    check(
        handler.policy(for: NavigationAction("app://messages/7", type: .other)) == .cancel,
        "a script's navigation to the app's link is cancelled…"
    )
    check(
        handler.policy(for: NavigationAction("app://messages/8", mainFrame: false)) == .cancel,
        "… and so is an embedded frame's…"
    )
    check(
        handler.policy(for: NavigationAction("app://messages/9", mainFrame: true, fromMainFrame: false)) == .cancel,
        "… and an embedded frame's target=_top link…"
    )
    check(
        handler.policy(for: NavigationAction("https://example.com/messages/6")) == .cancel,
        "… but a tapped link to the app's route leaves the web view…"
    )
    check(await eventually { shown.all.last == "chat 6" }, "… and is routed")
    try? await Task.sleep(nanoseconds: 50_000_000)
    check(shown.all == ["chat 5", "chat 6"], "… and nothing the script or the frame asked for ran")
}

/// An app whose notification delegate belongs to another SDK forwards Apple's values itself, one
/// line each, through the public conversions.
@MainActor
func foreignDelegate() async throws {
    let (intake, dispatcher, shown) = try makeApp()
    await prepare(dispatcher, shown)
    await dispatcher.appDidBecomeReady()
    await dispatcher.appDidBecomeActive()
    let response: UNNotificationResponse = Response(id: "push-9", payload: ["data": ["messageId": "9"]])
    await dispatcher.receive(intake.notification(response))
    check(await eventually { shown.all == ["chat 9"] }, "a foreign delegate's notification response is routed")
    let activity = NSUserActivity(activityType: UserActivityType.browsingWeb)
    activity.webpageURL = URL(string: "https://example.com/messages/10")
    await dispatcher.receive(intake.userActivity(activity))
    check(await eventually { shown.all.last == "chat 10" }, "… and so is a user activity…")
    let item: UIApplicationShortcutItem = ShortcutItem(type: "messages")
    await dispatcher.receive(intake.shortcut(item))
    check(await eventually { shown.all.last == "messages" }, "… a quick action…")
    let message: WKScriptMessage = ScriptMessage("https://example.com/messages/11", mainFrame: true)
    await dispatcher.receive(intake.webMessage(message))
    check(await eventually { shown.all.last == "chat 11" }, "… and a script message")
}

/// The example app's links build (no setup error hides behind its `try?`) and route as its manifest
/// declares: presentations, the redirect of old chat links, the host barrier, quick actions per profile.
@MainActor
func exampleAppLinks() async throws {
    let links = try ApartmentLinks(pendingLinks: InMemoryPendingLinkStore(), isHost: { false }, logInAsHost: { false })
    let shown = Shown()
    await links.dispatcher.setNavigator { plan, _ in shown.append("\(plan.destination) \(plan.presentation)") }
    await links.dispatcher.appDidBecomeReady()
    await links.dispatcher.appDidBecomeActive()
    var outcomes: [DispatchOutcome<Screen>?] = []
    for link in [
        "deeplinkTutorial://messages/3", "deeplinkTutorial://request/4", "deeplinkTutorial://chat/5",
        "deeplinkTutorial://listings/new",
    ] {
        guard let id = await links.dispatcher.receive(links.intake.url(link)) else {
            check(false, "the example app's links take its own link \(link)")
            return
        }
        outcomes.append(await links.dispatcher.outcome(of: id))
    }
    check(outcomes[0]?.isHandled == true, "the example app's links route a chat…")
    check(outcomes[1]?.isHandled == true, "… a booking request…")
    let chat: DispatchOutcome<Screen> = .handled(route: "messages.detail", plan: .pushOverRoot(.chat(5)))
    check(outcomes[2] == .redirected(to: "/messages/5", outcome: chat), "… an old chat link, redirected…")
    check(outcomes[3] == .barrierFailed(barrier: "host"), "… and keep a guest out of the host-only listing")
    check(
        shown.all == ["chat(3) pushOverRoot", "request(4) present", "chat(5) pushOverRoot"],
        "… showing each as its manifest route presents it"
    )
    check(
        links.quickActionItems(for: .guest).map(\.title) == ["Recent activity", "Messages"]
            && links.quickActionItems(for: .host).map(\.title) == ["Recent activity", "Messages", "New listing"],
        "hosts get \"New listing\" as a quick action, guests do not"
    )
    check(
        links.dispatcher.configuration.barrierWaits == ["host": 1800],
        "a link waits 30 minutes for a guest to log in as a host"
    )

    // A host sees the new listing as a full-screen cover.
    let host = try ApartmentLinks(pendingLinks: InMemoryPendingLinkStore(), isHost: { true }, logInAsHost: { true })
    let hostShown = Shown()
    await host.dispatcher.setNavigator { plan, _ in hostShown.append("\(plan.destination) \(plan.presentation)") }
    await host.dispatcher.appDidBecomeReady()
    await host.dispatcher.appDidBecomeActive()
    guard let listing = await host.dispatcher.receive(host.intake.url("deeplinkTutorial://listings/new")) else {
        check(false, "a host's links take the new listing")
        return
    }
    check(
        await host.dispatcher.outcome(of: listing)?.isHandled == true
            && hostShown.all == ["newListing fullScreenCover"],
        "… and a host the new listing, as a full-screen cover"
    )
}

@MainActor
func navigator() {
    let stack = RecordingNavigationController(rootViewController: UIViewController())
    let tabs = RecordingTabBarController()
    tabs.selectedViewController = stack
    let navigator = UIKitNavigator<String>(
        tabBarController: tabs,
        tabIndex: { $0 == "inbox" ? 1 : nil },
        makeViewController: { name in
            let controller = UIViewController()
            controller.title = name
            return controller
        }
    )
    navigator.show(.pushOverRoot("order 1234", tab: "inbox"))
    check(tabs.selectedIndex == 1, "the navigator selects the plan's tab")
    check(stack.log == ["popToRoot", "push order 1234"], "… then pushes over the root so Back returns home")
    navigator.show(.present("filters"))
    navigator.show(.fullScreenCover("player"))
    check(tabs.presented == ["filters as sheet", "player as full screen"], "a sheet, then a full-screen cover")
}

try await sceneColdStart()
try await sceneColdStartFromLinkOrQuickAction()
try await quickActions()
try await twoWindows()
try await appDelegateColdStartFromPush()
try await webViews()
try await foreignDelegate()
try await exampleAppLinks()
navigator()
print(failures == 0 ? "adapter checks: all passed" : "adapter checks: \(failures) failed")
exit(failures == 0 ? 0 : 1)
