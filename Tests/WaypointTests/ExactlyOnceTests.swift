import Foundation
import Testing
import WaypointTesting

@testable import Waypoint

/// An app with a login and a second factor, a window, and everything the dispatcher hands it
/// recorded: which screens it showed, whether the person was logged in when each handler ran, and
/// every outcome.
private final class TwoFactorApp: Sendable {
    let clock = ManualClock()
    let loggedIn = Locked(false)
    let verified = Locked(false)
    let authEvaluations = Locked(0)
    let authChecks = Locked(0)
    let verifyGate = Gate()
    let shown = Locked<[String]>([])
    let outcomes = Locked<[DispatchOutcome<String>]>([])
    let problems = Locked<[String]>([])
    let dispatcher: LinkDispatcher<String>
    static let policy = LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"])

    init(
        store: any PendingLinkStore = InMemoryPendingLinkStore(),
        configuration: DispatcherConfiguration = DispatcherConfiguration()
    ) async throws {
        let loggedIn = self.loggedIn
        let verified = self.verified
        let authEvaluations = self.authEvaluations
        let authChecks = self.authChecks
        let verifyGate = self.verifyGate
        func route(_ name: String, _ pattern: String, _ barriers: [String] = []) -> LinkRoute<String> {
            LinkRoute(name, pattern, barriers: barriers) { match in
                let id = match.parameters.int("id").map { " \($0)" } ?? ""
                return .handled(.push(name + id + (loggedIn.current ? " [in]" : " [out]")))
            }
        }
        dispatcher = try LinkDispatcher(
            routes: [route("open", "/open/{id:int}"), route("vault", "/vault", ["auth", "verify"])],
            policy: Self.policy,
            barriers: [
                Barrier("auth") { _ in
                    authEvaluations.update { $0 += 1 }
                    return loggedIn.current ? .passed : .needsCheck
                } check: { _ in
                    authChecks.update { $0 += 1 }
                    loggedIn.update { $0 = true }
                    return true
                },
                Barrier("verify") { _ in
                    verified.current ? .passed : .needsCheck
                } check: { _ in
                    await verifyGate.pass()
                    verified.update { $0 = true }
                    return true
                },
            ],
            configuration: configuration,
            store: store,
            clock: clock
        )
        let outcomes = self.outcomes
        let problems = self.problems
        await dispatcher.observe { event in
            if case .finished(let outcome) = event.kind { outcomes.update { $0.append(outcome) } }
            if case .storeProblem(let message) = event.kind { problems.update { $0.append(message) } }
        }
    }

    func launch() async {
        let shown = self.shown
        await dispatcher.setNavigator { plan, _ in shown.update { $0.append(plan.destination) } }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
    }
}

@Suite("Exactly once: each tap shown once, none dropped without an outcome", .timeLimit(.minutes(1)))
struct ExactlyOnceTests {
    let intake = LinkIntake(policy: TwoFactorApp.policy)

    @Test("A check that passes sends the link back through every barrier: a logout meanwhile stops it")
    func barriersAgainAfterCheck() async throws {
        let app = try await TwoFactorApp()
        app.loggedIn.update { $0 = true }
        app.verifyGate.close()
        await app.launch()
        let id = try #require(await app.dispatcher.receive(intake.url("myapp://vault")))
        #expect(await eventually { app.authEvaluations.current == 1 && app.verifyGate.isWaiting })
        // The person logs out while the second factor's screen is up, then finishes it.
        app.loggedIn.update { $0 = false }
        app.verifyGate.open()
        #expect(
            await app.dispatcher.outcome(of: id, timeout: testPatience)
                == .handled(route: "vault", plan: .push("vault [in]"))
        )
        // The login was asked again (and said yes) before the link ran: never as the logged-out person.
        #expect(app.authChecks.current == 1)
        #expect(app.authEvaluations.current == 3)
        #expect(app.shown.current == ["vault [in]"])
    }

    @Test("A link restored for a window that never comes back runs where it is tapped again, or expires")
    func restoredForGoneWindow() async throws {
        let gone = SceneID("session-of-a-killed-process")
        func stored(_ text: String) -> PendingLink {
            PendingLink(
                id: UUID(),
                link: text,
                source: .urlScheme,
                identity: "url:" + text,
                receivedAt: Date(),
                scene: gone
            )
        }
        let app = try await TwoFactorApp(store: InMemoryPendingLinkStore([stored("myapp://open/1")]))
        await app.launch()
        await settle(app.dispatcher)
        #expect(app.shown.current.isEmpty)
        // Tapped again in the window the person is in: the link moves there and runs, once.
        #expect(await app.dispatcher.receive(intake.url("myapp://open/1")) == nil)
        await settle(app.dispatcher)
        #expect(app.shown.current == ["open 1 [out]"])
        #expect(app.outcomes.current == [.deduplicated, .handled(route: "open", plan: .push("open 1 [out]"))])
        #expect(await app.dispatcher.pendingLinks.isEmpty)

        // Tapped again once it is too old to run: it ends expired, and the new tap runs.
        let old = try await TwoFactorApp(store: InMemoryPendingLinkStore([stored("myapp://open/3")]))
        await old.launch()
        await settle(old.dispatcher)
        old.clock.advance(by: 601)
        #expect(await old.dispatcher.receive(intake.url("myapp://open/3")) != nil)
        await settle(old.dispatcher)
        #expect(old.shown.current == ["open 3 [out]"])
        #expect(old.outcomes.current.first?.isExpired == true)
        #expect(old.outcomes.current.count == 2)

        // Not tapped again: it expires when a window becomes active past its age, not never.
        let later = try await TwoFactorApp(store: InMemoryPendingLinkStore([stored("myapp://open/2")]))
        await later.launch()
        later.clock.advance(by: 601)
        await later.dispatcher.appDidBecomeActive()
        await settle(later.dispatcher)
        #expect(later.outcomes.current.count == 1)
        #expect(later.outcomes.current.first?.isExpired == true)
        #expect(await later.dispatcher.pendingLinks.isEmpty)
    }

    @Test("Two quick actions of one type with other user info are two taps: the latest wins")
    func quickActionsOfOneType() async throws {
        var intake = self.intake
        intake.shortcutRoutes = ["com.example.open": "/open/{id}"]
        let app = try await TwoFactorApp()
        let first = await app.dispatcher.receive(
            intake.shortcut(ShortcutItemSnapshot(type: "com.example.open", userInfo: ["id": "1"]))
        )
        let second = await app.dispatcher.receive(
            intake.shortcut(ShortcutItemSnapshot(type: "com.example.open", userInfo: ["id": "2"]))
        )
        // The same item handed to two callbacks is still one tap.
        let again = await app.dispatcher.receive(
            intake.shortcut(ShortcutItemSnapshot(type: "com.example.open", userInfo: ["id": "2"]))
        )
        #expect(first != nil && second != nil && again == nil)
        await app.launch()
        await settle(app.dispatcher)
        #expect(app.shown.current == ["open 2 [out]"])
    }

    @Test("The same notification, word for word, is one tap within a link's age and a new one after")
    func repeatedNotification() async throws {
        let app = try await TwoFactorApp()
        await app.launch()
        let push = NotificationResponseSnapshot(
            requestIdentifier: "daily-reminder",
            userInfo: ["aps": ["alert": "Your daily summary"], "deeplink": "myapp://open/5"]
        )
        #expect(await app.dispatcher.receive(intake.notification(push)) != nil)
        await settle(app.dispatcher)
        // A second callback a moment later: the same tap.
        #expect(await app.dispatcher.receive(intake.notification(push)) == nil)
        // Sent again tomorrow under the same collapse identifier: a tap of its own.
        app.clock.advance(by: 24 * 3600)
        #expect(await app.dispatcher.receive(intake.notification(push)) != nil)
        await settle(app.dispatcher)
        #expect(app.shown.current == ["open 5 [out]", "open 5 [out]"])
    }

    @Test("A notification's time is the larger of the clock's and the wall clock's: uptime stops in sleep")
    func repeatedNotificationAfterSleep() {
        var ledger = DeliveryLedger()
        let identity = DeliveryIdentity.notification(request: "daily", action: "open", payload: "{}")
        let tapped = Date(timeIntervalSince1970: 1_800_000_000)
        ledger.begin(identity)
        ledger.end(identity, receivedAt: 100, on: tapped)
        // Five minutes later, by both clocks: the same tap handed to a second callback.
        #expect(ledger.isDuplicate(identity, now: 400, date: tapped.addingTimeInterval(300), window: 600))
        // The next morning: five minutes of uptime (the device slept), ten hours by the wall clock.
        #expect(!ledger.isDuplicate(identity, now: 400, date: tapped.addingTimeInterval(36_000), window: 600))
    }

    @Test("Unreadable records in UserDefaults are reported; the others still run")
    func defaultsOneBadRecord() async throws {
        let suite = "exactly-once-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let good = PendingLink(
            id: UUID(),
            link: "myapp://open/1",
            source: .urlScheme,
            identity: "url:myapp://open/1",
            receivedAt: Date()
        )
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let record = String(decoding: try encoder.encode(good), as: UTF8.self)
        // Another build's record: a source this one does not know.
        let other = record.replacingOccurrences(of: "urlScheme", with: "carrierPigeon")
            .replacingOccurrences(of: good.id.uuidString, with: UUID().uuidString)
        // And a value that is no record at all.
        defaults.set(Data("[\(record),\(other),42]".utf8), forKey: "pending")
        let store = UserDefaultsPendingLinkStore(defaults: defaults, key: "pending")
        let app = try await TwoFactorApp(store: store)
        await app.launch()
        await settle(app.dispatcher)
        #expect(app.shown.current == ["open 1 [out]"])
        #expect(app.problems.current.count == 2)
        #expect(app.problems.current.first?.hasPrefix("The pending link 2 of 3 under 'pending' cannot be read") == true)
        #expect(app.problems.current.last?.hasPrefix("The pending link 3 of 3 under 'pending' cannot be read") == true)
        #expect(defaults.data(forKey: "pending.damaged") != nil)
        #expect(try store.load().isEmpty)
    }
}

extension DispatchOutcome {
    fileprivate var isExpired: Bool {
        if case .expired = self { return true }
        return false
    }
}
