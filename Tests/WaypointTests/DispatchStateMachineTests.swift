import Foundation
import Testing

@testable import Waypoint

/// The dispatcher's life as a value, driven directly: no actor, no task, no clock. Each test plays
/// the dispatcher's part: it feeds events and the results of the steps the machine asks for.
@Suite("The dispatch state machine answers each event with what to do")
struct DispatchStateMachineTests {
    typealias Machine = DispatchStateMachine<String>
    typealias Entry = Machine.Entry

    static let navigator: LinkDispatcher<String>.Navigator = { _, _ in }
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let second = SceneID("second")

    /// Routes whose handlers and barriers never run here: the machine only names them in actions.
    static func machine(_ configuration: DispatcherConfiguration = DispatcherConfiguration()) throws -> Machine {
        var builder = RouterBuilder<LinkRoute<String>>()
        let routes = [
            LinkRoute<String>("open", "/open/{id:int}") { _ in .push("open") },
            LinkRoute<String>("secure", "/secure/{id:int}", barriers: ["auth"]) { _ in .push("secure") },
            LinkRoute<String>("legacy", "/legacy/{id:int}") { _ in .redirect(to: "/open/7") },
            LinkRoute<String>("vault", "/vault", barriers: ["auth", "verify"]) { _ in .push("vault") },
        ]
        for route in routes { try builder.add(route.name, route.pattern, value: route) }
        return Machine(
            configuration: configuration,
            resolver: LinkResolver(router: try builder.build(), policy: LinkPolicy(schemes: ["myapp"])),
            barriers: ["auth": Barrier("auth") { _ in .needsCheck }, "verify": Barrier("verify") { _ in .needsCheck }],
            mandatoryBarriers: []
        )
    }

    /// A received link as the dispatcher makes one: resolved, received at `now` on the machine's clock.
    static func entry(
        _ text: String,
        scene: SceneID? = nil,
        now: TimeInterval = 0,
        for machine: Machine
    ) throws -> Entry {
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
        return Entry(pending: pending, link: link, resolved: machine.resolver.resolvedLink(link), receivedAt: now)
    }

    /// What the actions say, for comparing.
    static func describe(_ actions: [Machine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .emit(.finished(let outcome), let entry): "finished \(name(outcome)) \(entry?.pending.link ?? "-")"
            case .emit(let kind, let entry): "\(kind) \(entry?.pending.link ?? "-")"
            case .keep(let pending): "keep \(pending.link)"
            case .forget(let pending): "forget \(pending.link)"
            case .fallback(let outcome, let link): "fallback \(outcome) \(link)"
            case .evaluate(let barrier, _, let scene): "evaluate \(barrier.name) in \(scene.rawValue)"
            case .check(let barrier, _, let scene): "check \(barrier.name) in \(scene.rawValue)"
            case .handle(let match, let scene): "handle \(match.route.name) in \(scene.rawValue)"
            case .report(let outcome, _, let scene): "report \(outcome) in \(scene.rawValue)"
            case .show(let plan, _, let scene): "show \(plan.destination) in \(scene.rawValue)"
            case .stop(let scene): "stop \(scene.rawValue)"
            case .end(let scene): "end \(scene.rawValue)"
            }
        }
    }

    /// An outcome in short: a plan by its destination.
    static func name(_ outcome: DispatchOutcome<String>) -> String {
        switch outcome {
        case .handled(let route, let plan): "handled \(route) \(plan.destination)"
        case .redirected(let target, let outcome): "redirected \(target) → \(name(outcome))"
        default: "\(outcome)"
        }
    }

    /// Makes `scene` ready, active and able to show links.
    static func open(_ scene: SceneID, in machine: inout Machine, now: TimeInterval = 0) -> [String] {
        let date = start.addingTimeInterval(now)
        var actions = machine.sceneChanged(scene, now: now, date: date) {
            $0.isReady = true
            $0.navigator = navigator
        }
        actions += machine.sceneActivated(scene, now: now, date: date)
        return describe(actions)
    }

    static func step(
        _ result: Machine.StepResult,
        in scene: SceneID = .main,
        _ machine: inout Machine,
        now: TimeInterval = 0
    ) -> [String] {
        describe(machine.stepEnded(in: scene, result, now: now, date: start.addingTimeInterval(now)))
    }

    @Test("A link is held until its window can show it, then its route's handler runs and its plan is shown once")
    func heldThenShown() throws {
        var machine = try Self.machine()
        #expect(
            Self.describe(
                machine.linkArrived(try Self.entry("myapp://open/1", for: machine), now: 0, date: Self.start).actions
            )
                == ["received myapp://open/1", "keep myapp://open/1", "heldUntilReady myapp://open/1"]
        )
        #expect(
            Self.open(.main, in: &machine)
                == [
                    "matched(route: \"open\") myapp://open/1",
                    "dispatched(route: \"open\") myapp://open/1",
                    "handle open in main",
                ]
        )
        #expect(
            Self.step(.handled(.finished(.success(.handled(.push("open 1"))))), &machine) == ["show open 1 in main"]
        )
        #expect(
            Self.step(.shown, &machine)
                == ["end main", "finished handled open open 1 myapp://open/1", "forget myapp://open/1"]
        )
        #expect(machine.queue.isEmpty && machine.running.isEmpty)
    }

    @Test("A barrier that needs a check presents it, is evaluated again, and only a pass lets the link on")
    func barrierCheckThenPass() throws {
        var machine = try Self.machine()
        _ = Self.open(.main, in: &machine)
        let arrived = Self.describe(
            machine.linkArrived(try Self.entry("myapp://secure/1", for: machine), now: 0, date: Self.start).actions
        )
        #expect(
            arrived.suffix(2) == ["matched(route: \"secure\") myapp://secure/1", "evaluate auth in main"]
        )
        #expect(
            Self.step(.evaluated(.finished(.needsCheck)), &machine)
                == ["waitingOnBarrier(barrier: \"auth\") myapp://secure/1", "check auth in main"]
        )
        #expect(Self.step(.checked(.finished(true)), &machine) == ["evaluate auth in main"])
        #expect(
            Self.step(.evaluated(.finished(.passed)), &machine)
                == [
                    "barrierPassed(barrier: \"auth\") myapp://secure/1",
                    "dispatched(route: \"secure\") myapp://secure/1",
                    "handle secure in main",
                ]
        )
        // The same again, but the barrier still needs a check after the check said yes: refused.
        _ = Self.step(.handled(.cancelled), &machine)
        _ = machine.linkArrived(try Self.entry("myapp://secure/2", for: machine), now: 0, date: Self.start)
        _ = Self.step(.evaluated(.finished(.needsCheck)), &machine)
        _ = Self.step(.checked(.finished(true)), &machine)
        #expect(
            Self.step(.evaluated(.finished(.needsCheck)), &machine)
                == [
                    "end main", "finished barrierFailed(barrier: \"auth\") myapp://secure/2", "forget myapp://secure/2",
                ]
        )
    }

    @Test("A check asked again after another said yes gets its whole wait, not what is left of the other's")
    func checkAfterYesGetsItsWait() throws {
        var configuration = DispatcherConfiguration(barrierCheckTimeout: 300)
        configuration.barrierWaits = ["verify": 3600]
        var machine = try Self.machine(configuration)
        _ = Self.open(.main, in: &machine)
        _ = machine.linkArrived(try Self.entry("myapp://vault", for: machine), now: 0, date: Self.start)
        _ = Self.step(.evaluated(.finished(.passed)), &machine)
        #expect(Self.step(.evaluated(.finished(.needsCheck)), &machine).contains("keep myapp://vault"))
        let verify = try #require(machine.barriers["verify"])
        let auth = try #require(machine.barriers["auth"])
        #expect(machine.checkTimeout(for: verify, in: .main, date: Self.start) == 3600)
        // The second factor said yes ten seconds before its hour ended; the login is needed again.
        let late = Self.start.addingTimeInterval(3590)
        _ = machine.stepEnded(in: .main, .checked(.finished(true)), now: 3590, date: late)
        let asked = Self.describe(
            machine.stepEnded(in: .main, .evaluated(.finished(.needsCheck)), now: 3590, date: late)
        )
        #expect(asked.last == "check auth in main")
        #expect(machine.checkTimeout(for: auth, in: .main, date: late) == 300)
    }

    @Test("After a relaunch, a check gets what is left of the kept end, even after another check said yes")
    func relaunchKeepsTheEnd() throws {
        var configuration = DispatcherConfiguration(barrierCheckTimeout: 300)
        configuration.barrierWaits = ["verify": 3600]
        var machine = try Self.machine(configuration)
        _ = Self.open(.main, in: &machine, now: 0)
        // Restored in a new process, 3,000 s into the second factor's hour: read from the store.
        let stored = try Self.entry("myapp://vault", for: machine)
        var pending = stored.pending
        pending.checkDeadline = Self.start.addingTimeInterval(3601)
        let restored = Entry(pending: pending, link: stored.link, resolved: stored.resolved, receivedAt: 0)
        let late = Self.start.addingTimeInterval(3000)
        _ = machine.restored([restored], now: 0, date: late)
        _ = machine.resume(now: 0, date: late)
        let verify = try #require(machine.barriers["verify"])
        // This process's login (a Face ID lock asked every launch) says yes; the second factor is
        // then asked in its usual order, not again: it gets the 601 s left, so relaunching never
        // keeps the link past its end.
        _ = machine.stepEnded(in: .main, .evaluated(.finished(.needsCheck)), now: 0, date: late)
        _ = machine.stepEnded(in: .main, .checked(.finished(true)), now: 0, date: late)
        _ = machine.stepEnded(in: .main, .evaluated(.finished(.passed)), now: 0, date: late)
        let asked = Self.describe(machine.stepEnded(in: .main, .evaluated(.finished(.needsCheck)), now: 0, date: late))
        #expect(asked.last == "check verify in main")
        #expect(!asked.contains("keep myapp://vault"))
        #expect(machine.checkTimeout(for: verify, in: .main, date: late) == 601)
    }

    @Test("A new tap of a link restored for a window that is gone moves it there, as the newest link")
    func retapOfGoneWindowLink() throws {
        var machine = try Self.machine()
        let gone = SceneID("gone")
        _ = machine.restored([try Self.entry("myapp://open/1", scene: gone, for: machine)], now: 0, date: Self.start)
        _ = machine.sceneChanged(.main, now: 0, date: Self.start) { $0.navigator = Self.navigator }
        // Not ready yet: taps wait. Another link, then the restored one tapped again, both in main.
        _ = machine.linkArrived(try Self.entry("myapp://open/2", scene: .main, for: machine), now: 1, date: Self.start)
        let again = machine.linkArrived(
            try Self.entry("myapp://open/1", scene: .main, for: machine),
            now: 2,
            date: Self.start
        )
        #expect(!again.taken)
        #expect(
            Self.describe(again.actions) == [
                "received myapp://open/1", "sceneDisconnected(scene: gone) myapp://open/1",
                "finished deduplicated myapp://open/1", "finished superseded myapp://open/2", "forget myapp://open/2",
                "keep myapp://open/1", "heldUntilReady myapp://open/1",
            ]
        )
        #expect(machine.queue.map(\.pending.scene) == [.main])
        #expect(Self.open(.main, in: &machine).last == "handle open in main")
    }

    @Test("A re-tap of a gone window's link is never lost: a full queue, a copy left twice, a notification")
    func retapOfGoneWindowLinkEdges() throws {
        let gone = SceneID("gone")
        // A queue at its limit (a restore is not held to it): the copy moves, nothing is dropped.
        var full = try Self.machine(DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 1)))
        let first = try Self.entry("myapp://open/1", scene: gone, for: full)
        _ = full.restored([first, try Self.entry("myapp://open/2", scene: gone, for: full)], now: 0, date: Self.start)
        let again = full.linkArrived(
            try Self.entry("myapp://open/1", scene: .main, for: full),
            now: 1,
            date: Self.start
        )
        #expect(!Self.describe(again.actions).contains { $0.hasPrefix("finished dropped") })
        #expect(full.queue.map(\.pending.link) == ["myapp://open/2", "myapp://open/1"])
        // A copy the store failed to forget: the first moves, the second ends superseded.
        var twice = try Self.machine()
        let copy = first.pending
        let stale = PendingLink(
            id: UUID(),
            link: copy.link,
            source: copy.source,
            identity: copy.identity,
            receivedAt: copy.receivedAt,
            scene: gone
        )
        let staleEntry = Entry(pending: stale, link: first.link, resolved: first.resolved, receivedAt: 0)
        _ = twice.restored([first, staleEntry], now: 0, date: Self.start)
        let retap = Self.describe(
            twice.linkArrived(try Self.entry("myapp://open/1", scene: .main, for: twice), now: 1, date: Self.start)
                .actions
        )
        #expect(
            retap.filter { $0.hasPrefix("finished") } == [
                "finished superseded myapp://open/1", "finished deduplicated myapp://open/1",
            ]
        )
        #expect(twice.queue.count == 1 && twice.queue.first?.pending.scene == .main)
        // A copy near the end of its age, tapped again while its new window is not active yet: it
        // is as fresh as the tap, so it runs when the window is.
        var aging = try Self.machine()
        _ = aging.restored([try Self.entry("myapp://open/1", scene: gone, for: aging)], now: 0, date: Self.start)
        let late = Self.start.addingTimeInterval(590)
        _ = aging.linkArrived(
            try Self.entry("myapp://open/1", scene: .main, now: 590, for: aging),
            now: 590,
            date: late
        )
        #expect(Self.open(.main, in: &aging, now: 615).last == "handle open in main")
        // A delivery through the gone window itself, before it connects again: an ordinary duplicate.
        var same = try Self.machine()
        _ = same.restored([try Self.entry("myapp://open/1", scene: gone, for: same)], now: 0, date: Self.start)
        let through = same.linkArrived(
            try Self.entry("myapp://open/1", scene: gone, for: same),
            now: 1,
            date: Self.start
        )
        #expect(Self.describe(through.actions) == ["received myapp://open/1", "finished deduplicated myapp://open/1"])
        #expect(same.queue.map(\.pending.scene) == [gone])
        // The same, when the copy is too old: it ends expired and the delivery is a tap of its own.
        let older = same.linkArrived(
            try Self.entry("myapp://open/1", scene: gone, now: 700, for: same),
            now: 700,
            date: Self.start.addingTimeInterval(700)
        )
        #expect(older.taken)
        #expect(
            Self.describe(older.actions).prefix(3) == [
                "received myapp://open/1", "finished expired(age: 700.0) myapp://open/1", "forget myapp://open/1",
            ]
        )
        // A copy that waited on a long check is as fresh as the tap: no end is kept from its old life.
        let waited = try Self.entry("myapp://open/1", scene: gone, for: same).waitingOnCheck(until: Self.start)
        let fresh = try Self.entry("myapp://open/1", scene: .main, now: 9, for: same)
        #expect(waited.retapped(as: fresh).pending.checkDeadline == nil)
        #expect(!waited.retapped(as: fresh).keptEndHere)
        #expect(waited.released().pending.checkDeadline == Self.start)
        // A notification's identity: the copy moves and runs; the ledger's memory of finished
        // requests plays no part, as nothing finished.
        var push = try Self.machine()
        let request = "notification:req:open:digest"
        func tap(_ scene: SceneID) throws -> Entry {
            let entry = try Self.entry("myapp://open/5", scene: scene, for: push)
            var pending = entry.pending
            pending = PendingLink(
                id: pending.id,
                link: pending.link,
                source: .notification,
                identity: request,
                receivedAt: pending.receivedAt,
                scene: scene
            )
            return Entry(pending: pending, link: entry.link, resolved: entry.resolved, receivedAt: 0)
        }
        _ = push.restored([try tap(gone)], now: 0, date: Self.start)
        _ = push.linkArrived(try tap(.main), now: 60, date: Self.start.addingTimeInterval(60))
        #expect(Self.open(.main, in: &push, now: 60).last == "handle open in main")
    }

    @Test("In the process that asked it, a later check of the link gets its own whole wait")
    func laterCheckGetsItsWait() throws {
        var configuration = DispatcherConfiguration(barrierCheckTimeout: 300)
        configuration.barrierWaits = ["auth": 3600]
        var machine = try Self.machine(configuration)
        _ = Self.open(.main, in: &machine)
        _ = machine.linkArrived(try Self.entry("myapp://vault", for: machine), now: 0, date: Self.start)
        #expect(Self.step(.evaluated(.finished(.needsCheck)), &machine).contains("keep myapp://vault"))
        // The login took almost its hour; the second factor, asked for the first time, gets its 300 s.
        let late = Self.start.addingTimeInterval(3590)
        _ = machine.stepEnded(in: .main, .checked(.finished(true)), now: 3590, date: late)
        _ = machine.stepEnded(in: .main, .evaluated(.finished(.passed)), now: 3590, date: late)
        _ = machine.stepEnded(in: .main, .evaluated(.finished(.needsCheck)), now: 3590, date: late)
        let verify = try #require(machine.barriers["verify"])
        #expect(machine.checkTimeout(for: verify, in: .main, date: late) == 300)
        // The same when the link moved to another window meanwhile (its first one closed): the end
        // was still set in this process. One restored from another process was not.
        let kept = try Self.entry("myapp://vault", for: machine).waitingOnCheck(until: late)
        #expect(kept.released().keptEndHere)
        #expect(!(try Self.entry("myapp://vault", for: machine).keptEndHere))
    }

    @Test("Once a check passes, every barrier is evaluated again from the first, and no check is shown twice")
    func barriersAgainAfterCheck() throws {
        var machine = try Self.machine()
        _ = Self.open(.main, in: &machine)
        let arrived = Self.describe(
            machine.linkArrived(try Self.entry("myapp://vault", for: machine), now: 0, date: Self.start).actions
        )
        #expect(arrived.last == "evaluate auth in main")
        #expect(Self.step(.evaluated(.finished(.passed)), &machine).last == "evaluate verify in main")
        #expect(Self.step(.evaluated(.finished(.needsCheck)), &machine).last == "check verify in main")
        // The second factor's check may take an hour: the login that passed before it is asked again.
        #expect(Self.step(.checked(.finished(true)), &machine) == ["evaluate auth in main"])
        #expect(Self.step(.evaluated(.finished(.passed)), &machine).last == "evaluate verify in main")
        #expect(Self.step(.evaluated(.finished(.passed)), &machine).last == "handle vault in main")
        _ = Self.step(.handled(.cancelled), &machine)

        // The person logged out meanwhile: the login's check is shown, then both are asked again; a
        // check that undoes the other (the second factor needs its check again) fails the link.
        _ = machine.linkArrived(try Self.entry("myapp://vault", now: 1, for: machine), now: 1, date: Self.start)
        _ = Self.step(.evaluated(.finished(.passed)), &machine)
        _ = Self.step(.evaluated(.finished(.needsCheck)), &machine)
        #expect(Self.step(.checked(.finished(true)), &machine) == ["evaluate auth in main"])
        #expect(Self.step(.evaluated(.finished(.needsCheck)), &machine).last == "check auth in main")
        #expect(Self.step(.checked(.finished(true)), &machine) == ["evaluate auth in main"])
        #expect(Self.step(.evaluated(.finished(.passed)), &machine).last == "evaluate verify in main")
        #expect(
            Self.step(.evaluated(.finished(.needsCheck)), &machine).contains(
                "finished barrierFailed(barrier: \"verify\") myapp://vault"
            )
        )
    }

    @Test("A handler's redirect runs its target in the link's place, and the outcome names it")
    func redirectRunsItsTarget() throws {
        var machine = try Self.machine()
        _ = Self.open(.main, in: &machine)
        _ = machine.linkArrived(try Self.entry("myapp://legacy/3", for: machine), now: 0, date: Self.start)
        #expect(
            Self.step(.handled(.finished(.success(.redirect(to: "/open/7")))), &machine)
                == [
                    "redirected(route: \"legacy\", to: \"/open/7\") myapp://legacy/3",
                    "matched(route: \"open\") myapp://legacy/3", "dispatched(route: \"open\") myapp://legacy/3",
                    "handle open in main",
                ]
        )
        #expect(
            Self.step(.handled(.finished(.success(.handled(.push("open 7"))))), &machine) == ["show open 7 in main"]
        )
        #expect(
            Self.step(.shown, &machine)
                == [
                    "end main",
                    "finished redirected /open/7 → handled open open 7 myapp://legacy/3",
                    "forget myapp://legacy/3",
                ]
        )
    }

    @Test("A window that closes while its link runs stops the step; the link runs again in another window")
    func closedWindowMovesItsLink() throws {
        var machine = try Self.machine()
        _ = Self.open(Self.second, in: &machine)
        _ = Self.open(.main, in: &machine)
        let arrived = machine.linkArrived(
            try Self.entry("myapp://open/1", scene: .main, for: machine),
            now: 0,
            date: Self.start
        ).actions
        #expect(Self.describe(arrived).last == "handle open in main")
        #expect(Self.describe(machine.sceneDisconnected(.main, now: 1, date: Self.start)) == ["stop main"])
        #expect(
            Self.step(.handled(.cancelled), &machine, now: 1)
                == [
                    "end main", "sceneDisconnected(scene: main) myapp://open/1", "keep myapp://open/1",
                    "matched(route: \"open\") myapp://open/1", "dispatched(route: \"open\") myapp://open/1",
                    "handle open in second",
                ]
        )
        #expect(machine.running[Self.second]?.entry.pending.scene == nil)
    }

    @Test("A link policy refuses at receipt runs its fallback once; a duplicate of a waiting link runs none")
    func refusalFallbackOnce() throws {
        var machine = try Self.machine()
        let refused = machine.linkArrived(try Self.entry("evil://open/1", for: machine), now: 0, date: Self.start)
        #expect(!refused.taken)
        #expect(Self.describe(refused.actions).contains { $0.hasPrefix("fallback forbidden") })
        // A refused link is not under way, so the same text again is refused again, not a duplicate.
        _ = machine.linkArrived(try Self.entry("myapp://open/1", for: machine), now: 0, date: Self.start)
        let duplicate = machine.linkArrived(try Self.entry("myapp://open/1", for: machine), now: 0, date: Self.start)
        #expect(!duplicate.taken)
        #expect(
            Self.describe(duplicate.actions) == ["received myapp://open/1", "finished deduplicated myapp://open/1"]
        )
    }

    @Test("A window that closes while a redirect's target runs moves the link, which runs again from the start")
    func closedWindowDuringRedirect() throws {
        var machine = try Self.machine()
        _ = Self.open(Self.second, in: &machine)
        _ = Self.open(.main, in: &machine)
        _ = machine.linkArrived(
            try Self.entry("myapp://legacy/3", scene: .main, for: machine),
            now: 0,
            date: Self.start
        )
        _ = Self.step(.handled(.finished(.success(.redirect(to: "/open/7")))), &machine)
        #expect(Self.describe(machine.sceneDisconnected(.main, now: 1, date: Self.start)) == ["stop main"])
        #expect(
            Self.step(.handled(.cancelled), &machine, now: 1)
                == [
                    "end main", "sceneDisconnected(scene: main) myapp://legacy/3", "keep myapp://legacy/3",
                    "matched(route: \"legacy\") myapp://legacy/3", "dispatched(route: \"legacy\") myapp://legacy/3",
                    "handle legacy in second",
                ]
        )
    }

    @Test("A moved link starts in an idle window at once, even when its old window, back again, runs its next")
    func movedLinkStartsWhileItsWindowGoesOn() throws {
        var machine = try Self.machine()
        _ = Self.open(Self.second, in: &machine)
        _ = Self.open(.main, in: &machine)
        _ = machine.linkArrived(try Self.entry("myapp://open/1", scene: .main, for: machine), now: 0, date: Self.start)
        _ = machine.sceneDisconnected(.main, now: 1, date: Self.start)
        // The window comes back (same identifier) before the stopped step reports; the other is the latest.
        _ = Self.open(.main, in: &machine, now: 1)
        _ = machine.sceneActivated(Self.second, now: 1, date: Self.start)
        _ = machine.linkArrived(try Self.entry("myapp://open/2", scene: .main, for: machine), now: 1, date: Self.start)
        let ended = Self.step(.handled(.cancelled), &machine, now: 1)
        #expect(ended.contains("handle open in main"))  // its own next link
        #expect(ended.contains("handle open in second"))  // and the moved one, at once
        #expect(machine.queue.isEmpty)
    }

    @Test(
        "A link the app cancels ends cancelled whether its window closes before or after: the app's word wins",
        arguments: [false, true]
    )
    func cancelAndClose(closesFirst: Bool) throws {
        var machine = try Self.machine()
        _ = Self.open(Self.second, in: &machine)
        _ = Self.open(.main, in: &machine)
        let entry = try Self.entry("myapp://open/1", scene: .main, for: machine)
        _ = machine.linkArrived(entry, now: 0, date: Self.start)
        // Only the first of the two stops the step; the second finds it stopped already.
        func close() -> [String] { Self.describe(machine.sceneDisconnected(.main, now: 1, date: Self.start)) }
        if closesFirst { #expect(close() == ["stop main"]) }
        let (stop, found) = machine.cancel(entry.pending.id)
        #expect(found && Self.describe(stop) == ["stop main"])
        if !closesFirst { #expect(close().isEmpty) }
        #expect(
            Self.step(.handled(.cancelled), &machine, now: 1)
                == ["end main", "finished cancelled myapp://open/1", "forget myapp://open/1"]
        )
        #expect(machine.running[Self.second] == nil)
    }

    @Test("A link that waited past the maximum age ends as expired when it would run, and is forgotten")
    func expiresWhenItWouldRun() throws {
        var machine = try Self.machine(DispatcherConfiguration(maximumPendingAge: 60))
        _ = machine.linkArrived(try Self.entry("myapp://open/1", for: machine), now: 0, date: Self.start)
        #expect(
            Self.open(.main, in: &machine, now: 61)
                == ["finished expired(age: 61.0) myapp://open/1", "forget myapp://open/1"]
        )
    }

    /// A result the dispatcher could report for the step `action` asked for.
    static func result(for action: Machine.Action, _ random: inout SeededRandom) -> Machine.StepResult {
        let roll = Int.random(in: 0..<6, using: &random)
        switch action {
        case .evaluate:
            let decisions: [RaceOutcome<BarrierDecision>] = [
                .finished(.passed), .finished(.passed), .finished(.needsCheck), .finished(.rejected("no")), .timedOut,
                .cancelled,
            ]
            return .evaluated(decisions[roll])
        case .check:
            let answers: [RaceOutcome<Bool>] = [
                .finished(true), .finished(true), .finished(false), .timedOut, .cancelled, .cancelled,
            ]
            return .checked(answers[roll])
        case .handle:
            let results: [RaceOutcome<Result<HandlerResult<String>, any Error>>] = [
                .finished(.success(.handled(.push("shown")))), .finished(.success(.declined)),
                .finished(.success(.redirect(to: "/legacy/1"))), .finished(.success(.redirect(to: "/open/2"))),
                .timedOut,
                .cancelled,
            ]
            return .handled(results[roll])
        case .report:
            return .reported(roll < 4 ? .finished(()) : roll == 4 ? .timedOut : .cancelled)
        default:
            return .shown
        }
    }

    /// Random events and step results against the rules every state must keep, for both ways
    /// windows share the work.
    @Test(
        "Random events keep the rules: one outcome per link, one step at a time per window, runs only where they may",
        arguments: [false, true]
    )
    func randomEventsKeepTheRules(independent: Bool) throws {
        var random = SeededRandom(seed: independent ? 37 : 73)
        let scenes = [SceneID.main, Self.second]
        let texts = ["myapp://open/1", "myapp://secure/2", "myapp://legacy/3", "myapp://nowhere", "evil://open/1"]
        for _ in 0..<300 {
            var machine = try Self.machine(
                DispatcherConfiguration(
                    queuePolicy: Bool.random(using: &random) ? .latestWins : .firstInFirstOut(limit: 3),
                    maximumPendingAge: 100,
                    scenesRunIndependently: independent
                )
            )
            var now: TimeInterval = 0
            var arrived: Set<UUID> = []
            var finished: [UUID: Int] = [:]
            /// The step each window's run waits for.
            var pendingStep: [SceneID: Machine.Action] = [:]
            /// Which link each window ran after the previous event.
            var runningBefore: [SceneID: UUID] = [:]
            var steps: [String] = []

            func check(_ actions: [Machine.Action]) {
                for action in actions {
                    switch action {
                    case .emit(.finished, let entry?):
                        finished[entry.pending.id, default: 0] += 1
                        #expect(finished[entry.pending.id] == 1, "a second outcome after \(steps)")
                    case .end(let scene):
                        pendingStep[scene] = nil
                    default:
                        if let scene = action.stepScene {
                            #expect(pendingStep[scene] == nil, "two steps at once in a window after \(steps)")
                            pendingStep[scene] = action
                        }
                    }
                }
                #expect(independent || machine.running.count <= 1, "two runs at once after \(steps)")
                for (scene, run) in machine.running where runningBefore[scene] != run.entry.pending.id {
                    #expect(machine.scenes.canRun(scene), "a run started where none may run after \(steps)")
                }
                runningBefore = machine.running.mapValues(\.entry.pending.id)
                for (scene, run) in machine.running {
                    #expect(
                        run.entry.pending.scene == nil || run.entry.pending.scene == scene,
                        "a run in another window"
                    )
                    #expect(pendingStep[scene] != nil, "a run waiting for nothing after \(steps)")
                }
            }

            for _ in 0..<Int.random(in: 1...30, using: &random) {
                let scene = scenes.randomElement(using: &random) ?? .main
                let date = Self.start.addingTimeInterval(now)
                switch Int.random(in: 0..<10, using: &random) {
                case 0, 1:
                    let text = texts.randomElement(using: &random) ?? "myapp://open/1"
                    let entry = try Self.entry(
                        text,
                        scene: Bool.random(using: &random) ? scene : nil,
                        now: now,
                        for: machine
                    )
                    steps.append("arrive \(text)")
                    arrived.insert(entry.pending.id)
                    check(machine.linkArrived(entry, now: now, date: date).actions)
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
                case 7, 8:
                    guard let (running, action) = pendingStep.randomElement(using: &random) else { continue }
                    let result = Self.result(for: action, &random)
                    steps.append("step \(running.rawValue) \(result)")
                    pendingStep[running] = nil
                    check(machine.stepEnded(in: running, result, now: now, date: date))
                default:
                    let seconds = Double(Int.random(in: 1...60, using: &random))
                    steps.append("wait \(seconds)")
                    now += seconds
                    if let id = arrived.randomElement(using: &random), Bool.random(using: &random) {
                        steps.append("cancel")
                        let underWay = machine.isUnderWay(id)
                        let (actions, found) = machine.cancel(id)
                        #expect(found == underWay, "cancel misjudged a link after \(steps)")
                        check(actions)
                    }
                }
            }
            // Everything can run now, and every step answers: each link that arrived has one outcome.
            for scene in scenes {
                let date = Self.start.addingTimeInterval(now)
                check(
                    machine.sceneChanged(scene, now: now, date: date) {
                        $0.isReady = true
                        $0.navigator = Self.navigator
                    }
                )
                check(machine.sceneActivated(scene, now: now, date: date))
            }
            var rounds = 0
            while let (running, action) = pendingStep.first, rounds < 1_000 {
                rounds += 1
                pendingStep[running] = nil
                let result = Self.result(for: action, &random)
                check(machine.stepEnded(in: running, result, now: now, date: Self.start.addingTimeInterval(now)))
            }
            #expect(machine.queue.isEmpty && machine.running.isEmpty, "links left over after \(steps)")
            for id in arrived {
                #expect(finished[id] == 1, "a link without its one outcome after \(steps)")
            }
        }
    }
}
