import Foundation
import Testing

@testable import Waypoint

/// The dispatcher's life as a value, driven directly: no actor, no task, no clock.
@Suite("The dispatch state machine answers each event with what to do")
struct DispatchStateMachineTests {
    typealias Machine = DispatchStateMachine<String>
    typealias Entry = Machine.Entry

    static let navigator: LinkDispatcher<String>.Navigator = { _, _ in }
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A received link as the dispatcher makes one: resolved (to no route: the machine never
    /// routes), received at `now` on the machine's clock.
    static func entry(_ text: String, scene: SceneID? = nil, now: TimeInterval = 0) throws -> Entry {
        var link = try DeepLink(text, source: .urlScheme)
        link.scene = scene
        let pending = PendingLink(
            id: UUID(),
            link: text,
            source: .urlScheme,
            identity: "url:" + text,
            receivedAt: start.addingTimeInterval(now),
            scene: scene
        )
        return Entry(pending: pending, link: link, resolved: ResolvedLink(resolution: .notFound(link)), receivedAt: now)
    }

    /// What the actions say, for comparing: `kind link` per event, `keep`/`forget`/`run`/`stop`.
    static func describe(_ actions: [Machine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .emit(.finished(let outcome), let entry): "finished \(outcome) \(entry?.pending.link ?? "-")"
            case .emit(let kind, let entry): "\(kind) \(entry?.pending.link ?? "-")"
            case .keep(let pending): "keep \(pending.link)"
            case .forget(let pending): "forget \(pending.link)"
            case .run(let entry, let scene): "run \(entry.pending.link) in \(scene.rawValue)"
            case .stopRun(let scene): "stop \(scene.rawValue)"
            }
        }
    }

    @Test("A link is held until its window is ready, active and has a navigator, then runs once and is forgotten")
    func heldThenRun() throws {
        var machine = Machine(configuration: DispatcherConfiguration())
        let link = try Self.entry("myapp://a")
        #expect(
            Self.describe(machine.linkArrived(link, now: 0, date: Self.start))
                == ["received myapp://a", "keep myapp://a", "heldUntilReady myapp://a"]
        )
        #expect(Self.describe(machine.sceneChanged(.main, now: 1, date: Self.start) { $0.isReady = true }).isEmpty)
        #expect(Self.describe(machine.sceneActivated(.main, now: 1, date: Self.start)).isEmpty)
        #expect(
            Self.describe(machine.defaultNavigatorChanged(Self.navigator, now: 1, date: Self.start))
                == ["run myapp://a in main"]
        )
        let ended = machine.runEnded(in: .main, outcome: .notFound, now: 2, date: Self.start)
        #expect(
            Self.describe(ended) == [
                "finished notFound myapp://a", "forget myapp://a",
            ]
        )
        #expect(machine.queue.isEmpty && machine.running.isEmpty)
        // Finished: the same link again is a new tap, not a duplicate.
        let again = machine.linkArrived(try Self.entry("myapp://a"), now: 3, date: Self.start)
        #expect(Self.describe(again).contains("run myapp://a in main"))
    }

    @Test("A window that closes while its link runs stops the run; the link runs again in another window")
    func closedWindowMovesItsLink() throws {
        var machine = Machine(configuration: DispatcherConfiguration())
        let first = SceneID("first")
        let second = SceneID("second")
        for scene in [first, second] {
            _ = machine.sceneChanged(scene, now: 0, date: Self.start) {
                $0.isReady = true
                $0.navigator = Self.navigator
            }
        }
        _ = machine.sceneActivated(second, now: 0, date: Self.start)
        _ = machine.sceneActivated(first, now: 0, date: Self.start)
        let link = try Self.entry("myapp://a", scene: first)
        #expect(Self.describe(machine.linkArrived(link, now: 0, date: Self.start)).last == "run myapp://a in first")
        #expect(Self.describe(machine.sceneDisconnected(first, now: 1, date: Self.start)) == ["stop first"])
        let ended = machine.runEnded(in: first, outcome: .cancelled, now: 1, date: Self.start)
        #expect(
            Self.describe(ended)
                == ["sceneDisconnected(scene: first) myapp://a", "keep myapp://a", "run myapp://a in second"]
        )
        #expect(machine.running[second]?.pending.scene == nil)
    }

    @Test("A link that waited past the maximum age ends as expired when it would run, and is forgotten")
    func expiresWhenItWouldRun() throws {
        var machine = Machine(configuration: DispatcherConfiguration(maximumPendingAge: 60))
        _ = machine.linkArrived(try Self.entry("myapp://old"), now: 0, date: Self.start)
        _ = machine.sceneChanged(.main, now: 0, date: Self.start) {
            $0.isReady = true
            $0.navigator = Self.navigator
        }
        let actions = Self.describe(machine.sceneActivated(.main, now: 61, date: Self.start.addingTimeInterval(61)))
        #expect(
            actions == [
                "finished expired(age: 61.0) myapp://old", "forget myapp://old",
            ]
        )
    }

    /// Random events against the rules every state must keep, for both ways scenes share the work.
    @Test(
        "Random events keep the rules: one outcome per link, runs only where they may, one run per window",
        arguments: [false, true]
    )
    func randomEventsKeepTheRules(independent: Bool) throws {
        var random = SeededRandom(seed: independent ? 37 : 73)
        let scenes = [SceneID.main, SceneID("second")]
        let texts = ["myapp://a", "myapp://b", "myapp://c", "myapp://d"]
        for _ in 0..<300 {
            var machine = Machine(
                configuration: DispatcherConfiguration(
                    queuePolicy: Bool.random(using: &random) ? .latestWins : .firstInFirstOut(limit: 3),
                    maximumPendingAge: 100,
                    scenesRunIndependently: independent
                )
            )
            var now: TimeInterval = 0
            var arrived: [UUID: Entry] = [:]
            var finished: [UUID: Int] = [:]
            var steps: [String] = []

            func check(_ actions: [Machine.Action]) {
                for action in actions {
                    switch action {
                    case .emit(.finished, let entry?):
                        finished[entry.pending.id, default: 0] += 1
                        #expect(finished[entry.pending.id] == 1, "a second outcome after \(steps)")
                    case .run(let entry, let scene):
                        #expect(machine.scenes.canRun(scene), "a run where none may run after \(steps)")
                        #expect(entry.pending.scene == nil || entry.pending.scene == scene, "a run in another window")
                        #expect(now - entry.receivedAt <= 100, "an expired link ran after \(steps)")
                    default:
                        break
                    }
                }
                #expect(independent || machine.running.count <= 1, "two runs at once after \(steps)")
            }

            for _ in 0..<Int.random(in: 1...25, using: &random) {
                let scene = scenes.randomElement(using: &random) ?? .main
                let date = Self.start.addingTimeInterval(now)
                switch Int.random(in: 0..<9, using: &random) {
                case 0, 1:
                    let text = texts.randomElement(using: &random) ?? "myapp://a"
                    let entry = try Self.entry(text, scene: Bool.random(using: &random) ? scene : nil, now: now)
                    steps.append("arrive \(text)")
                    arrived[entry.pending.id] = entry
                    check(machine.linkArrived(entry, now: now, date: date))
                case 2:
                    steps.append("ready \(scene.rawValue)")
                    check(machine.sceneChanged(scene, now: now, date: date) { $0.isReady = true })
                case 3:
                    steps.append("active \(scene.rawValue)")
                    check(machine.sceneActivated(scene, now: now, date: date))
                case 4:
                    steps.append("background \(scene.rawValue)")
                    machine.sceneDeactivated(scene)
                case 5:
                    steps.append("navigator")
                    check(machine.defaultNavigatorChanged(Self.navigator, now: now, date: date))
                case 6:
                    steps.append("close \(scene.rawValue)")
                    check(machine.sceneDisconnected(scene, now: now, date: date))
                case 7:
                    guard let running = machine.running.keys.randomElement(using: &random) else { continue }
                    let outcome: DispatchOutcome<String> = Bool.random(using: &random) ? .declined : .cancelled
                    steps.append("end \(running.rawValue) \(outcome)")
                    check(machine.runEnded(in: running, outcome: outcome, now: now, date: date))
                default:
                    let seconds = Double(Int.random(in: 1...60, using: &random))
                    steps.append("wait \(seconds)")
                    now += seconds
                    if let id = arrived.keys.randomElement(using: &random), Bool.random(using: &random) {
                        steps.append("cancel")
                        let underWay = machine.isUnderWay(id)
                        let (actions, found) = machine.cancel(id)
                        #expect(found == underWay, "cancel misjudged a link after \(steps)")
                        check(actions)
                    }
                }
            }
            // Everything can run now, and every run ends: each link that arrived has one outcome.
            for scene in scenes {
                check(
                    machine.sceneChanged(scene, now: now, date: Self.start.addingTimeInterval(now)) {
                        $0.isReady = true
                        $0.navigator = Self.navigator
                    }
                )
                check(machine.sceneActivated(scene, now: now, date: Self.start.addingTimeInterval(now)))
            }
            var rounds = 0
            while let running = machine.running.keys.first, rounds < 100 {
                rounds += 1
                check(
                    machine.runEnded(
                        in: running,
                        outcome: .declined,
                        now: now,
                        date: Self.start.addingTimeInterval(now)
                    )
                )
            }
            #expect(machine.queue.isEmpty && machine.running.isEmpty, "links left over after \(steps)")
            for id in arrived.keys {
                #expect(finished[id] == 1, "a link without its one outcome after \(steps)")
            }
        }
    }
}
