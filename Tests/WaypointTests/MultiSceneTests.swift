import Foundation
import Testing
import WaypointTesting

@testable import Waypoint

/// Several windows (iPad, Mac Catalyst, visionOS): each scene has its own navigator, readiness and
/// activity, and each link lands in the scene it arrived through, or the one the app chooses.
@Suite("Each link lands in the scene it arrived in", .timeLimit(.minutes(1)))
struct MultiSceneTests {
    static let first: SceneID = "window-1"
    static let second: SceneID = "window-2"

    /// The dispatcher tests' app, with no navigator but each scene's own.
    static func makeWindowedApp(
        configuration: DispatcherConfiguration = DispatcherConfiguration(),
        store: any PendingLinkStore = InMemoryPendingLinkStore(),
        roles: [String: String] = [:]
    ) async throws -> SimulatedApp {
        let app = try makeApp(configuration: configuration, store: store)
        app.installsNavigatorAtLaunch = false
        // Screens that say which link they show.
        app.handlers["chat"] = { .handled(.pushOverRoot(.chat($0.parameters.int("id") ?? 0))) }
        app.handlers["secure"] = { .handled(.pushOverRoot(.secure($0.parameters.int("id") ?? 0))) }
        app.sceneRoles = roles
        await app.launch()
        return app
    }

    static func shown(_ app: SimulatedApp) -> [String] {
        app.shownScenes.map { "\($0.0) \($0.1)" }
    }

    @Test("Two windows, a link opened in the second: only the second navigates")
    func linkInSecondWindow() async throws {
        let app = try await Self.makeWindowedApp()
        await app.showScene(Self.first)
        await app.showScene(Self.second)
        await app.open("myapp://messages/1", in: Self.second)
        await app.settle()
        // Even when the first window is the more recently active, the second's link is the second's.
        await app.sceneActive(Self.first)
        await app.open("myapp://messages/2", in: Self.second)
        await app.settle()
        #expect(Self.shown(app) == ["window-2 chat(1)", "window-2 chat(2)"])
    }

    @Test("A link waits for the window it arrived in, not for another that could run it")
    func waitsForItsWindow() async throws {
        let app = try await Self.makeWindowedApp()
        await app.showScene(Self.first)
        await app.connectScene(Self.second)
        await app.open("myapp://messages/3", in: Self.second)
        await app.settle()
        #expect(Self.shown(app).isEmpty)
        await app.sceneReady(Self.second)
        await app.sceneActive(Self.second)
        await app.settle()
        #expect(Self.shown(app) == ["window-2 chat(3)"])
    }

    @Test(
        "A notification with a target content identifier opens in the scene that shows it; without one, in the active scene"
    )
    func notificationTargets() async throws {
        let app = try await Self.makeWindowedApp()
        await app.showScene(Self.first, shows: ["thread-7"])
        await app.showScene(Self.second)
        let targeted = NotificationResponseSnapshot(
            requestIdentifier: "n1",
            userInfo: ["aps": ["target-content-id": "thread-7"], "data": ["messageId": "7"]]
        )
        await app.deliver(targeted)
        await app.settle()
        let untargeted = NotificationResponseSnapshot(requestIdentifier: "n2", userInfo: ["data": ["messageId": "8"]])
        await app.deliver(untargeted)
        await app.settle()
        await app.sceneActive(Self.first)
        await app.deliver(NotificationResponseSnapshot(requestIdentifier: "n3", userInfo: ["data": ["messageId": "9"]]))
        await app.settle()
        #expect(Self.shown(app) == ["window-1 chat(7)", "window-2 chat(8)", "window-1 chat(9)"])
    }

    @Test(
        "A notification for content no window shows goes to the active one; one a background window shows waits for it"
    )
    func targetWaitsForItsWindow() async throws {
        let app = try await Self.makeWindowedApp()
        await app.showScene(Self.first)
        await app.connectScene(Self.second, shows: ["thread-5"])
        await app.sceneReady(Self.second)
        await app.deliver(
            NotificationResponseSnapshot(
                requestIdentifier: "n5",
                targetContentIdentifier: "thread-5",
                userInfo: ["data": ["messageId": "5"]]
            )
        )
        await app.deliver(
            NotificationResponseSnapshot(
                requestIdentifier: "n6",
                targetContentIdentifier: "nobody-shows-this",
                userInfo: ["data": ["messageId": "6"]]
            )
        )
        await app.settle()
        #expect(Self.shown(app) == ["window-1 chat(6)"])
        await app.sceneActive(Self.second)
        await app.settle()
        #expect(Self.shown(app) == ["window-1 chat(6)", "window-2 chat(5)"])
    }

    @Test("A route's scene role picks the window that shows it for a link without one")
    func routeRoles() async throws {
        let app = try await Self.makeWindowedApp(roles: ["chat": "inbox"])
        await app.showScene(Self.first, shows: ["inbox"])
        await app.showScene(Self.second)
        await app.deliver(NotificationResponseSnapshot(requestIdentifier: "r1", userInfo: ["data": ["messageId": "1"]]))
        await app.dispatcher.receive(app.intake.url("myapp://open/2"))
        await app.open("myapp://messages/3", in: Self.second)
        await app.settle()
        #expect(
            Self.shown(app).sorted() == ["window-1 chat(1)", "window-2 chat(3)", "window-2 open(1)"].sorted()
        )
    }

    @Test("A scene disconnecting with a pending link: the link runs once, in another scene")
    func disconnectWithPendingLink() async throws {
        let app = try await Self.makeWindowedApp()
        await app.showScene(Self.first)
        await app.connectScene(Self.second)
        await app.open("myapp://messages/4", in: Self.second)
        await app.settle()
        await app.disconnectScene(Self.second)
        await app.settle()
        #expect(Self.shown(app) == ["window-1 chat(4)"])
        #expect(app.shownInScene.current.first?.arrivedIn == nil, "the link no longer claims the gone window")
        #expect(app.outcomes.count == 1)
        let moved = app.events.current.filter { $0.kind == .sceneDisconnected(scene: Self.second) }
        #expect(moved.count == 1)
    }

    @Test("A scene disconnecting while its link waits on login: the login moves with it and the link is shown once")
    func disconnectDuringBarrier() async throws {
        let app = try await Self.makeWindowedApp(configuration: DispatcherConfiguration(barrierCheckTimeout: 30))
        await app.showScene(Self.first)
        await app.showScene(Self.second)
        app.loginGate.close()
        await app.open("myapp://secure/1", in: Self.second)
        #expect(await app.loginPresented())
        await app.disconnectScene(Self.second)
        // The link runs again in the first window, and asks for login there.
        #expect(await app.loginPresented(2))
        app.loginGate.open()
        await app.settle()
        #expect(app.loginScenes.current == [Self.second, Self.first])
        #expect(Self.shown(app) == ["window-1 secure(1)"])
        #expect(app.outcomes == [.handled(route: "secure", plan: .pushOverRoot(.secure(1)))])
    }

    @Test("A login in one window does not hold back another's links, unless the app says so")
    func barrierDoesNotBlockOtherScenes() async throws {
        for independent in [true, false] {
            let app = try await Self.makeWindowedApp(
                configuration: DispatcherConfiguration(barrierCheckTimeout: 30, scenesRunIndependently: independent)
            )
            await app.showScene(Self.first)
            await app.showScene(Self.second)
            app.loginGate.close()
            await app.open("myapp://secure/2", in: Self.first)
            #expect(await app.loginPresented())
            await app.open("myapp://messages/5", in: Self.second)
            if independent {
                #expect(await eventually { !Self.shown(app).isEmpty })
            } else {
                // Give the second window's lane every chance to run before the login is answered.
                try await Task.sleep(for: .milliseconds(50))
            }
            let beforeLogin = Self.shown(app)
            app.loginGate.open()
            await app.settle()
            if independent {
                #expect(beforeLogin == ["window-2 chat(5)"])
                #expect(Self.shown(app) == ["window-2 chat(5)", "window-1 secure(2)"])
            } else {
                #expect(beforeLogin.isEmpty)
                #expect(Self.shown(app) == ["window-1 secure(2)", "window-2 chat(5)"])
            }
            #expect(app.loginScenes.current == [Self.first])
        }
    }

    @Test("After process death, a restored window gets its own link back; another window does not take it")
    func restoredSceneGetsItsLink() async throws {
        let store = InMemoryPendingLinkStore()
        let app = try await Self.makeWindowedApp(store: store)
        await app.connectScene(Self.second)
        await app.open("myapp://messages/6", in: Self.second)
        await app.settle()
        #expect(try store.load().map(\.scene) == [Self.second])
        app.terminate()

        await app.launch()
        await app.showScene(Self.first)
        await app.settle()
        #expect(Self.shown(app).isEmpty, "the other window does not take a restored window's link")
        await app.showScene(Self.second)
        await app.settle()
        #expect(Self.shown(app) == ["window-2 chat(6)"])
        #expect(try store.load().isEmpty)
    }

    @Test("A restored link for a window the system discarded goes to the active window")
    func discardedSceneReleasesItsLink() async throws {
        let store = InMemoryPendingLinkStore()
        let app = try await Self.makeWindowedApp(store: store)
        await app.connectScene(Self.second)
        await app.open("myapp://messages/7", in: Self.second)
        await app.settle()
        await app.launch()
        await app.showScene(Self.first)
        await app.settle()
        #expect(Self.shown(app).isEmpty)
        // application(_:didDiscardSceneSessions:)
        await app.disconnectScene(Self.second)
        await app.settle()
        #expect(Self.shown(app) == ["window-1 chat(7)"])
    }

    @Test("A pending link stored before scenes existed still loads")
    func storedWithoutScene() throws {
        let old =
            #"[{"id":"6F1C3A57-3B0A-4C53-9A57-1D2B3C4D5E6F","link":"myapp://messages/1","source":"urlScheme","identity":"link:myapp://messages/1","receivedAt":0}]"#
        let links = try JSONDecoder().decode([PendingLink].self, from: Data(old.utf8))
        #expect(links.first?.scene == nil)
        #expect(links.first?.link == "myapp://messages/1")
    }
}
