import Foundation
import Testing
import WaypointTesting

@testable import Waypoint

// CPU-bound: about 35 s on two idle cores, four times that on a loaded machine.
/// Random sequences of app events against a reference model that states the rules plainly.
@Suite("Random event sequences agree with a reference model", .timeLimit(.minutes(5)))
struct DispatcherModelTests {
    enum Step: CustomStringConvertible {
        case receive(String)
        case ready, active, background, login, logout, navigator
        case answerLogin(Bool)
        case wait(TimeInterval)

        var description: String {
            switch self {
            case .receive(let link): "receive \(link)"
            case .ready: "ready"
            case .active: "active"
            case .background: "background"
            case .login: "login"
            case .logout: "logout"
            case .navigator: "navigator"
            case .answerLogin(let answer): "answerLogin \(answer)"
            case .wait(let seconds): "wait \(seconds)"
            }
        }
    }

    /// The rules, stated directly: one link at a time once ready and active and a navigator is set,
    /// latest waiting link wins, a delivery of a link that is still waiting is a duplicate (a new tap after it ran is
    /// not), a link that waited longer than the maximum age does not run, a protected link needs a
    /// login at the moment it runs, a redirect runs its target in the link's place.
    struct Model {
        var navigator = false
        var ready = false
        var active = false
        var loggedIn = false
        var loginAnswer = true
        var now: TimeInterval = 0
        var waiting: [(link: String, receivedAt: TimeInterval)] = []
        var outcomes: [String] = []
        let maximumAge: TimeInterval

        mutating func apply(_ step: Step) {
            switch step {
            case .receive(let link):
                if waiting.contains(where: { $0.link == link }) {
                    outcomes.append("deduplicated")
                    return
                }
                if link.hasPrefix("evil:") {
                    outcomes.append("forbidden")
                    return
                }
                outcomes += waiting.map { _ in "superseded" }
                waiting = [(link, now)]
            case .ready: ready = true
            case .active: active = true
            case .background: active = false
            case .login: loggedIn = true
            case .logout: loggedIn = false
            case .answerLogin(let answer): loginAnswer = answer
            case .wait(let seconds): now += seconds
            case .navigator: navigator = true
            }
            guard ready, active, navigator else { return }
            for (link, receivedAt) in waiting {
                outcomes.append(now - receivedAt > maximumAge ? "expired" : run(link))
            }
            waiting = []
        }

        mutating func run(_ link: String) -> String {
            // The legacy route redirects to the protected one.
            if link.contains("/legacy/") { return "redirected:" + run("/secure/1") }
            if link.contains("/missing/") { return "notFound" }
            if link.contains("/secure/"), !loggedIn {
                guard loginAnswer else { return "barrierFailed" }
                loggedIn = true
            }
            return "handled"
        }
    }

    static func name(_ outcome: DispatchOutcome<Screen>) -> String {
        switch outcome {
        case .handled: "handled"
        case .deduplicated: "deduplicated"
        case .forbidden: "forbidden"
        case .superseded: "superseded"
        case .notFound: "notFound"
        case .barrierFailed: "barrierFailed"
        case .expired: "expired"
        case .redirected(_, let outcome): "redirected:" + name(outcome)
        default: "\(outcome)"
        }
    }

    @Test("10,000 sequences: no link lost, none handled twice, nothing protected handled without login")
    func randomSequences() async throws {
        var random = SeededRandom(seed: 2026)
        let links = [
            "myapp://open/1", "myapp://open/2", "myapp://secure/1", "myapp://missing/1", "evil://x", "myapp://legacy/1",
        ]
        for sequence in 0..<10_000 {
            // A short maximum age, so that random waits reach it.
            let app = try makeApp(configuration: DispatcherConfiguration(maximumPendingAge: 20))
            let loggedInWhenHandled = Locked<[Bool]>([])
            let isLoggedIn = app.isLoggedIn
            app.handlers["secure"] = { _ in
                loggedInWhenHandled.update { $0.append(isLoggedIn.current) }
                return .handled(.push(.secure(1)))
            }
            app.handlers["legacy"] = { _ in .redirect(to: "/secure/1") }
            app.installsNavigatorAtLaunch = false
            await app.launch()
            var model = Model(maximumAge: app.configuration.maximumPendingAge)
            var steps: [Step] = []
            for _ in 0..<Int.random(in: 1...14, using: &random) {
                let step: Step
                switch Int.random(in: 0..<13, using: &random) {
                case 0..<5: step = .receive(links.randomElement(using: &random) ?? links[0])
                case 11: step = .navigator
                case 5: step = .ready
                case 6: step = .active
                case 7: step = .background
                case 8: step = .login
                case 9: step = .logout
                case 10: step = .answerLogin(Bool.random(using: &random))
                default: step = .wait(Double(Int.random(in: 0...8, using: &random)))
                }
                steps.append(step)
            }
            steps += [.ready, .active, .navigator]
            for step in steps {
                switch step {
                case .receive(let link): await app.open(link)
                case .ready: await app.installRootUI()
                case .active: await app.becomeActive()
                case .background: await app.enterBackground()
                case .login: app.login()
                case .logout: app.logout()
                case .answerLogin(let answer): app.loginAnswer.update { $0 = answer }
                case .wait(let seconds): app.clock.advance(by: seconds)
                case .navigator: await app.installNavigator()
                }
                await app.settle()
                model.apply(step)
            }
            let events = app.events.current
            let received = Set(events.filter { $0.kind == .received }.compactMap(\.linkID))
            var finished: [UUID: Int] = [:]
            for event in events {
                if case .finished = event.kind, let id = event.linkID { finished[id, default: 0] += 1 }
            }
            let outcomes = app.outcomes.map(Self.name)
            let handled = app.outcomes.filter(\.isHandled).count
            let context = "sequence \(sequence): \(steps)"
            #expect(Set(finished.keys) == received, "a link was lost: \(context)")
            #expect(finished.values.allSatisfy { $0 == 1 }, "a link finished twice: \(context)")
            #expect(app.navigations.current.count == handled, "navigated other than once per handled link: \(context)")
            #expect(loggedInWhenHandled.current.allSatisfy { $0 }, "a protected route ran logged out: \(context)")
            #expect(outcomes == model.outcomes, "\(context)")
            if outcomes != model.outcomes { return }
        }
    }

    enum SceneStep: CustomStringConvertible {
        case receive(Int, in: SceneID?, targeted: Bool)
        case connect(SceneID, showsTarget: Bool)
        case ready(SceneID)
        case active(SceneID)
        case background(SceneID)
        case disconnect(SceneID)
        case login, logout
        case answerLogin(Bool)

        var description: String {
            switch self {
            case .receive(let number, let scene, let targeted):
                "receive \(number) in \(scene?.rawValue ?? "none")\(targeted ? " targeted" : "")"
            case .connect(let scene, let shows): "connect \(scene)\(shows ? " showing the target" : "")"
            case .ready(let scene): "ready \(scene)"
            case .active(let scene): "active \(scene)"
            case .background(let scene): "background \(scene)"
            case .disconnect(let scene): "disconnect \(scene)"
            case .login: "login"
            case .logout: "logout"
            case .answerLogin(let answer): "answerLogin \(answer)"
            }
        }
    }

    @Test(
        "2,000 multi-scene sequences: none lost, none twice, none in a scene that did not receive or claim it, no barrier skipped"
    )
    func randomSceneSequences() async throws {
        var random = SeededRandom(seed: 2027)
        let scenes: [SceneID] = ["a", "b", "c"]
        for sequence in 0..<2_000 {
            let app = try makeApp(
                configuration: DispatcherConfiguration(
                    queuePolicy: .firstInFirstOut(limit: 1000),
                    scenesRunIndependently: Bool.random(using: &random)
                )
            )
            app.installsNavigatorAtLaunch = false
            let loggedInWhenHandled = Locked<[Bool]>([])
            let isLoggedIn = app.isLoggedIn
            app.handlers["chat"] = { .handled(.pushOverRoot(.chat($0.parameters.int("id") ?? 0))) }
            app.handlers["secure"] = { match in
                loggedInWhenHandled.update { $0.append(isLoggedIn.current) }
                return .handled(.pushOverRoot(.secure(match.parameters.int("id") ?? 0)))
            }
            await app.launch()
            var steps: [SceneStep] = []
            var number = 0
            for _ in 0..<Int.random(in: 1...16, using: &random) {
                let scene = scenes.randomElement(using: &random) ?? "a"
                switch Int.random(in: 0..<12, using: &random) {
                case 0..<4:
                    number += 1
                    let arrival: SceneID? = Bool.random(using: &random) ? scene : nil
                    steps.append(.receive(number, in: arrival, targeted: arrival == nil && Bool.random(using: &random)))
                case 4: steps.append(.connect(scene, showsTarget: Bool.random(using: &random)))
                case 5: steps.append(.ready(scene))
                case 6, 7: steps.append(.active(scene))
                case 8: steps.append(.background(scene))
                case 9: steps.append(.disconnect(scene))
                case 10: steps.append(Bool.random(using: &random) ? .login : .logout)
                default: steps.append(.answerLogin(Bool.random(using: &random)))
                }
            }
            for scene in scenes { steps += [.connect(scene, showsTarget: false), .ready(scene), .active(scene)] }

            var arrivedIn: [Int: SceneID] = [:]
            var everDisconnected: Set<SceneID> = []
            for step in steps {
                switch step {
                case .receive(let number, let scene, let targeted):
                    // Odd numbers are protected; a targeted one is a notification for "the target".
                    let path = number % 2 == 1 ? "secure" : "messages"
                    if let scene { arrivedIn[number] = scene }
                    if targeted {
                        let response = NotificationResponseSnapshot(
                            requestIdentifier: "n\(number)",
                            targetContentIdentifier: "the target",
                            userInfo: ["deeplink": .string("myapp://\(path)/\(number)")]
                        )
                        await app.dispatcher.receive(app.intake.notification(response), in: scene)
                    } else {
                        await app.dispatcher.receive(app.intake.url("myapp://\(path)/\(number)"), in: scene)
                    }
                case .connect(let scene, let showsTarget):
                    await app.connectScene(scene, shows: showsTarget ? ["the target"] : [])
                case .ready(let scene): await app.sceneReady(scene)
                case .active(let scene): await app.sceneActive(scene)
                case .background(let scene): await app.sceneBackground(scene)
                case .disconnect(let scene):
                    everDisconnected.insert(scene)
                    await app.disconnectScene(scene)
                case .login: app.login()
                case .logout: app.logout()
                case .answerLogin(let answer): app.loginAnswer.update { $0 = answer }
                }
                await app.settle()
            }
            let events = app.events.current
            let received = Set(events.filter { $0.kind == .received }.compactMap(\.linkID))
            var finished: [UUID: Int] = [:]
            for event in events {
                if case .finished = event.kind, let id = event.linkID { finished[id, default: 0] += 1 }
            }
            let context = "sequence \(sequence): \(steps)"
            #expect(Set(finished.keys) == received, "a link was lost: \(context)")
            #expect(finished.values.allSatisfy { $0 == 1 }, "a link finished twice: \(context)")
            let shown = app.shownInScene.current
            #expect(shown.count == app.outcomes.filter(\.isHandled).count, "shown other than once: \(context)")
            for (scene, claimed, screen) in shown {
                let number: Int
                switch screen {
                case .chat(let id), .secure(let id): number = id
                default: number = 0
                }
                // Shown where it arrived, unless that scene disconnected first; then it claims none.
                if let arrival = arrivedIn[number] {
                    #expect(
                        arrival == scene || (everDisconnected.contains(arrival) && claimed == nil),
                        "link \(number) arrived in \(arrival), shown in \(scene): \(context)"
                    )
                }
            }
            #expect(loggedInWhenHandled.current.allSatisfy { $0 }, "a protected route ran logged out: \(context)")
            let failedOutcomes = app.outcomes.filter { !$0.isHandled && $0 != .barrierFailed(barrier: "auth") }
            #expect(failedOutcomes.isEmpty, "\(failedOutcomes): \(context)")
            if Set(finished.keys) != received { return }
        }
    }
}
