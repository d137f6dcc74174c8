import Foundation
import Testing
import WaypointTesting

@testable import Waypoint

@Suite("The file store keeps pending links across processes and sets damage aside", .timeLimit(.minutes(2)))
struct PendingLinkStoreTests {
    func temporaryFile() -> URL {
        Self.scratchFolder.appendingPathComponent("\(UUID().uuidString).json")
    }

    /// One folder for the files these tests write, removed when the process exits.
    static let scratchFolder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waypoint-store-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: PendingLinkStoreTests.scratchFolder) }
        return folder
    }()

    @Test("Saved links load back; saving none removes the file")
    func roundTrip() throws {
        let url = temporaryFile()
        let store = FilePendingLinkStore(url: url)
        #expect(try store.load().isEmpty)
        let link = PendingLink(
            id: UUID(),
            link: "myapp://open/1",
            source: .notification,
            identity: "notification:n1:default",
            receivedAt: Date(timeIntervalSince1970: 1_700_000_000)
        )
        try store.save([link])
        #expect(try store.load() == [link])
        try store.save([])
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("A store whose folder does not exist yet (a new install's Application Support) makes it on its first write")
    func makesItsFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("waypoint-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let link = Self.pending("myapp://open/1")
        // The first change appends to a file that is not there yet: it is created, folder and all.
        let key = PendingLinkKey.random()
        let sealed = root.appendingPathComponent("Library/Application Support/waypoint-pending")
        try FilePendingLinkStore(url: sealed, key: key).put(link)
        #expect(try FilePendingLinkStore(url: sealed, key: key).restore() == StoredPendingLinks(links: [link]))
        // A whole rewrite (save) makes its folder too.
        let saved = root.appendingPathComponent("saved/waypoint-pending")
        try FilePendingLinkStore(url: saved).save([link])
        #expect(try FilePendingLinkStore(url: saved).load() == [link])
    }

    @Test("A damaged file is reported, moved aside, and the next load starts clean")
    func damaged() throws {
        let url = temporaryFile()
        try Data("{not json".utf8).write(to: url)
        let store = FilePendingLinkStore(url: url)
        do {
            _ = try store.load()
            Issue.record("expected an error")
        } catch let error as WaypointError {
            #expect(error.description.contains("is damaged"))
            #expect(error.description.contains(url.path + ".damaged"))
        }
        #expect(FileManager.default.fileExists(atPath: url.path + ".damaged"))
        #expect(try store.load().isEmpty)
        try? FileManager.default.removeItem(atPath: url.path + ".damaged")
    }

    @Test("A dispatcher over a damaged store reports it and carries on")
    func dispatcherOverDamagedStore() async throws {
        let url = temporaryFile()
        try Data("[{\"id\": 3}]".utf8).write(to: url)
        let app = try makeApp(store: FilePendingLinkStore(url: url))
        #expect(
            try await Self.storeProblems(launching: app, with: ConnectionOptions(urls: ["myapp://open/1"])).count == 1
        )
        #expect(app.screens == [.open(1)])
        try? FileManager.default.removeItem(atPath: url.path + ".damaged")
    }

    @Test("A pending push is stored as its link only: no payload, no alert text")
    func storesOnlyTheLink() async throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let app = try makeApp(store: FilePendingLinkStore(url: url))
        await app.launch(
            ConnectionOptions(
                notificationResponse: NotificationResponseSnapshot(
                    requestIdentifier: "push-1",
                    userInfo: ["aps": ["alert": "Your test results are in"], "data": ["messageId": "7"]]
                )
            )
        )
        let stored = try Data(contentsOf: url)
        // One line: "<seal> {"put":{"link":{…}}}".
        let lines = String(decoding: stored, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 1)
        let body = try #require(lines.first?.split(separator: " ", maxSplits: 1).last)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let entry = try #require((record["put"] as? [String: Any])?["link"] as? [String: Any])
        #expect(Set(entry.keys) == ["id", "identity", "link", "receivedAt", "source"])
        #expect(entry["link"] as? String == "/messages/7")
        #expect(!String(decoding: stored, as: UTF8.self).contains("test results"))
    }

    @Test("A link left pending by a process that died an hour ago is not run: it expired, and an event says so")
    func restoredExpired() async throws {
        let store = InMemoryPendingLinkStore([
            PendingLink(
                id: UUID(),
                link: "myapp://open/1",
                source: .urlScheme,
                identity: "url:myapp://open/1",
                receivedAt: Date().addingTimeInterval(-3600)
            ),
            PendingLink(
                id: UUID(),
                link: "myapp://messages/2",
                source: .urlScheme,
                identity: "url:myapp://messages/2",
                receivedAt: Date().addingTimeInterval(-60)
            ),
        ])
        let app = try makeApp(
            configuration: DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 8)),
            store: store
        )
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        await app.settle()
        #expect(app.outcomes.last == .handled(route: "chat", plan: .pushOverRoot(.chat(1))))
        #expect(app.outcomes.first.map { if case .expired(let age) = $0 { age >= 3600 } else { false } } == true)
        let kinds = app.events.read { $0.map(\.kind) }
        #expect(kinds.contains(.restored(count: 1)))
        #expect(try store.load().isEmpty)
    }

    @Test("A link waiting on an hour's login outlives a process that dies meanwhile, and runs once logged in")
    func longCheckOutlivesTheProcess() async throws {
        let store = InMemoryPendingLinkStore()
        let loggedIn = Locked(false)
        let checks = Locked(0)
        let shown = Locked<[String]>([])
        func dispatcher(
            over store: InMemoryPendingLinkStore,
            clock: any DispatchClock = SystemDispatchClock()
        ) throws -> LinkDispatcher<String> {
            var configuration = DispatcherConfiguration()
            configuration.barrierWaits = ["login": 3600]  // the manifest's `login: {wait: 1h}`
            return try LinkDispatcher<String>(
                routes: [LinkRoute("pay", "/pay", barriers: ["login"]) { _ in .push("pay") }],
                policy: LinkPolicy(schemes: ["myapp"]),
                barriers: [
                    Barrier("login") { _ in
                        loggedIn.current ? .passed : .needsCheck
                    } check: { _ in
                        checks.update { $0 += 1 }
                        // The login screen stays up: the person went to their mail for a code.
                        try? await Task.sleep(nanoseconds: 60_000_000_000)
                        return false
                    }
                ],
                configuration: configuration,
                store: store,
                clock: clock
            )
        }
        /// The app launched with `dispatcher`: its navigator set, ready and active.
        func launch(_ dispatcher: LinkDispatcher<String>) async {
            await dispatcher.setNavigator { plan, _ in shown.update { $0.append(plan.destination) } }
            await dispatcher.appDidBecomeReady()
            await dispatcher.appDidBecomeActive()
        }
        let first = try dispatcher(over: store)
        await launch(first)
        let id = try #require(await first.receive(try DeepLink("myapp://pay")))
        // The link is kept until the check gives up, an hour on, past the ten minutes a link waits.
        #expect(await eventually { (try? store.load().first?.checkDeadline) != nil })
        let kept = try #require(try store.load().first)
        let deadline = try #require(kept.checkDeadline)
        #expect(abs(deadline.timeIntervalSince(kept.receivedAt) - 3600) < 60)
        await first.cancel(id)

        /// `kept` as the last process left it, received `age` seconds ago, with the hour's check
        /// deadline when `waitedOnCheck`.
        func left(receivedAgo age: TimeInterval, waitedOnCheck: Bool = true) -> PendingLink {
            let received = Date().addingTimeInterval(-age)
            var link = PendingLink(
                id: UUID(),
                link: kept.link,
                source: kept.source,
                identity: kept.identity,
                receivedAt: received
            )
            if waitedOnCheck { link.checkDeadline = received.addingTimeInterval(3600) }
            return link
        }

        // The process died twenty minutes into the login; the person logs in on the next launch.
        loggedIn.update { $0 = true }
        let next = try dispatcher(over: InMemoryPendingLinkStore([left(receivedAgo: 1200)]))
        await launch(next)
        await settle(next)
        #expect(shown.current == ["pay"])

        // Without the deadline (a link that never waited on a check), twenty minutes is too old.
        shown.update { $0 = [] }
        let plain = try dispatcher(over: InMemoryPendingLinkStore([left(receivedAgo: 1200, waitedOnCheck: false)]))
        await launch(plain)
        await settle(plain)
        #expect(shown.current.isEmpty)

        // Relaunched with the login still not done, the check is shown again for what is left of
        // the hour, not for another hour: the kept end does not move, so relaunching never keeps a
        // link for ever.
        loggedIn.update { $0 = false }
        let almostOver = left(receivedAgo: 3597)
        let clock = ManualClock()
        let relaunched = InMemoryPendingLinkStore([almostOver])
        let again = try dispatcher(over: relaunched, clock: clock)
        await launch(again)
        let checksBefore = checks.current
        #expect(await eventually { checks.current > checksBefore })
        #expect(try relaunched.load().first?.checkDeadline == almostOver.checkDeadline)
        // About 3 s were left of the hour: the check gives up within 10 s of the dispatcher's clock.
        var outcome: DispatchOutcome<String>?
        for _ in 0..<20 where outcome == nil {
            clock.advance(by: 0.5)
            try await Task.sleep(nanoseconds: 20_000_000)
            outcome = await again.outcome(of: almostOver.id, timeout: 0)
        }
        #expect(outcome == .barrierTimedOut(barrier: "login"))
        #expect(shown.current.isEmpty)

        // Past the kept end, a restored link is old, as any other.
        loggedIn.update { $0 = true }
        let over = left(receivedAgo: 7200)
        let late = try dispatcher(over: InMemoryPendingLinkStore([over]))
        await launch(late)
        await settle(late)
        #expect(shown.current.isEmpty)
        let expired = await late.outcome(of: over.id)
        #expect(expired.map { if case .expired = $0 { true } else { false } } == true)
    }

    @Test("A sealed file keeps a link's check deadline across processes; a line without one reads as none")
    func checkDeadlineInTheFile() throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let key = try PendingLinkKey(bytes: Array(repeating: 7, count: 32))
        var waiting = Self.pending("myapp://pay")
        waiting.checkDeadline = Date(timeIntervalSince1970: 1_900_000_000)
        let plain = Self.pending("myapp://open/1")
        try FilePendingLinkStore(url: url, key: key).put(waiting)
        try FilePendingLinkStore(url: url, key: key).put(plain)
        let restored = try FilePendingLinkStore(url: url, key: key).restore()
        #expect(restored.refused.isEmpty)
        #expect(restored.links.map(\.checkDeadline) == [Date(timeIntervalSince1970: 1_900_000_000), nil])
        #expect(restored.links.map(\.link) == ["myapp://pay", "myapp://open/1"])
    }

    /// A store holding the link `text` that a previous process left, received just now.
    static func leftBehind(_ text: String) -> InMemoryPendingLinkStore {
        InMemoryPendingLinkStore([
            PendingLink(id: UUID(), link: text, source: .urlScheme, identity: "url:" + text, receivedAt: Date())
        ])
    }

    /// A dispatcher whose one route shows `open N`, over `store`, first in first out.
    static func openDispatcher(store: InMemoryPendingLinkStore) throws -> LinkDispatcher<String> {
        try LinkDispatcher<String>(
            routes: [
                LinkRoute("open", "/open/{id:int}") { match in .push("open \(match.parameters.int("id") ?? 0)") }
            ],
            policy: LinkPolicy(schemes: ["myapp"]),
            configuration: DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 4)),
            store: store
        )
    }

    @Test("A link received before restorePendingLinks() is called does not overwrite what the last process left")
    func receiveBeforeRestore() async throws {
        let store = Self.leftBehind("myapp://open/1")
        let dispatcher = try Self.openDispatcher(store: store)
        await dispatcher.receive(try DeepLink("myapp://open/2"))
        #expect(try store.load().map(\.link) == ["myapp://open/1", "myapp://open/2"])
        let shown = Locked<[String]>([])
        await dispatcher.setNavigator { plan, _ in shown.update { $0.append(plan.destination) } }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        await settle(dispatcher)
        #expect(shown.current == ["open 1", "open 2"])
        #expect(try store.load().isEmpty)
    }

    @Test("Links a previous process left run once the app is ready, with no call to restore them")
    func restoredWhenReady() async throws {
        let dispatcher = try Self.openDispatcher(store: Self.leftBehind("myapp://open/3"))
        let shown = Locked<[String]>([])
        await dispatcher.setNavigator { plan, _ in shown.update { $0.append(plan.destination) } }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        await settle(dispatcher)
        #expect(shown.current == ["open 3"])
        #expect(await dispatcher.restorePendingLinks() == 0)  // asking again restores nothing twice
        await settle(dispatcher)
        #expect(shown.current == ["open 3"])
    }

    @Test("A restored link that no longer parses is reported invalid, not dropped")
    func restoredInvalid() async throws {
        let store = InMemoryPendingLinkStore([
            PendingLink(
                id: UUID(),
                link: "myapp://a b",
                source: .urlScheme,
                identity: "x",
                receivedAt: Date()
            )
        ])
        let app = try makeApp(store: store)
        await app.launch()
        #expect(
            app.outcomes == [
                .invalid(
                    message:
                        "Link 'myapp://a b' has a space at byte 9; percent-encode it, or read text from people leniently (LinkIntake.text(_:), DeepLink(text:))."
                )
            ]
        )
    }

    /// Launches `app`, makes it ready and active, waits for it to settle, and returns the store
    /// problems its dispatcher reported.
    static func storeProblems(
        launching app: SimulatedApp,
        with options: ConnectionOptions = ConnectionOptions()
    ) async throws -> [String] {
        await app.launch(options)
        await app.installRootUI()
        await app.becomeActive()
        await app.settle()
        return app.events.read { events in
            events.compactMap { event -> String? in
                if case .storeProblem(let message) = event.kind { return message }
                return nil
            }
        }
    }

    static func pending(_ text: String, source: LinkSource = .urlScheme) -> PendingLink {
        // Whole seconds: the store keeps dates as ISO 8601, to the second.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        return PendingLink(id: UUID(), link: text, source: source, identity: "url:" + text, receivedAt: now)
    }

    /// Hostile input, round 3: a hand-edited store could claim any source and pass a route's `sources`.
    @Test("A sealed store refuses a record edited by hand, reports it, and restores the rest")
    func sealedRecords() async throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let key = PendingLinkKey.random()
        let store = FilePendingLinkStore(url: url, key: key)
        let honest = Self.pending("myapp://open/1")
        let relabelled = Self.pending("myapp://open/2")
        try store.put(honest)
        try store.put(relabelled)
        // Someone edits the file: the second link now claims to be a universal link.
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(
            of: #""source":"urlScheme""#,
            with: #""source":"universalLink""#,
            options: [],
            range: text.range(of: relabelled.id.uuidString).map { $0.lowerBound..<text.endIndex }
        )
        try Data(text.utf8).write(to: url)
        // Reading the links first does not swallow what was refused: restore() still reports it.
        let reader = FilePendingLinkStore(url: url, key: key)
        #expect(try reader.load() == [honest])
        let restored = try reader.restore()
        #expect(restored.links == [honest])
        #expect(restored.refused.count == 1)
        #expect(restored.refused.first?.contains("does not carry this store's seal") == true)
        #expect(restored.refused.first?.contains(relabelled.id.uuidString) == true)
        // Another key, or a line added without one, is refused the same way.
        #expect(try FilePendingLinkStore(url: url, key: .random()).restore().links.isEmpty)

        // Through a dispatcher: the refused record is a store problem, the honest link runs.
        let app = try makeApp(store: FilePendingLinkStore(url: url, key: key))
        #expect(try await Self.storeProblems(launching: app).count == 1)
        #expect(app.screens == [.open(1)])
    }

    @Test("The log grows a line per change, is compacted past twice its live links, and goes with the last")
    func logGrowsByALine() throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let store = FilePendingLinkStore(url: url, key: .random())
        func lines() throws -> Int {
            guard FileManager.default.fileExists(atPath: url.path) else { return 0 }
            return String(decoding: try Data(contentsOf: url), as: UTF8.self).split(separator: "\n").count
        }
        let links = (0..<200).map { Self.pending("myapp://open/\($0)") }
        for (index, link) in links.enumerated() {
            try store.put(link)
            #expect(try lines() == index + 1)
        }
        for link in links.prefix(150) { try store.remove(link.id) }
        // 350 changes, 50 live: compacted to at most twice the live links plus 64.
        #expect(try lines() <= 2 * 50 + 64)
        #expect(try FilePendingLinkStore(url: url, key: nil).load().count == 50)
        let reopened = FilePendingLinkStore(url: url, key: .random())
        #expect(try reopened.restore().links.isEmpty)  // another key refuses every line
        for link in links.suffix(50) { try store.remove(link.id) }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("A store from before the log (one JSON array) is read once and rewritten; a sealed store refuses it")
    func oldFormat() throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let link = Self.pending("myapp://open/3")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let old = try encoder.encode([link])
        try old.write(to: url)
        let sealed = try FilePendingLinkStore(url: url, key: .random()).restore()
        #expect(sealed.links.isEmpty)
        #expect(
            sealed.refused == ["1 pending link(s) in \(url.path) were written without a seal; they were not restored."]
        )
        try old.write(to: url)
        #expect(try FilePendingLinkStore(url: url).load() == [link])
        #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self).hasPrefix("- {"))
    }

    @Test("SHA-256 and HMAC-SHA256 give RFC 4231's and FIPS 180's results")
    func sha256Vectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        #expect(
            hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        )
        // RFC 4231, test cases 1, 2 and 6 (a key longer than a block).
        #expect(
            hex(SHA256.hmac(key: Array(repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        )
        #expect(
            hex(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        )
        #expect(
            hex(
                SHA256.hmac(
                    key: Array(repeating: 0xaa, count: 131),
                    message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
                )
            ) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        )
        #expect(throws: WaypointError.self) { try PendingLinkKey(bytes: Array(repeating: 1, count: 31)) }
    }

    @Test(
        "A sealed line copied again after its link was removed is refused; a line cut short is dropped, not glued to the next"
    )
    func replayedAndTornLines() throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let key = PendingLinkKey.random()
        let store = FilePendingLinkStore(url: url, key: key)
        let first = Self.pending("myapp://open/1")
        let second = Self.pending("myapp://open/2")
        try store.put(first)
        try store.put(second)
        let firstLine = try #require(
            String(decoding: try Data(contentsOf: url), as: UTF8.self).split(separator: "\n").first
        )
        try store.remove(first.id)
        // The first link's sealed line, appended again by hand.
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((firstLine + "\n").utf8))
        try handle.close()
        let replayed = try FilePendingLinkStore(url: url, key: key).restore()
        #expect(replayed.links == [second])
        #expect(replayed.refused.count == 1)
        #expect(replayed.refused.first?.contains("keeps a link removed before it") == true)

        // A crash in the middle of a line: that line is dropped, and the next change starts afresh.
        let torn = temporaryFile()
        defer { try? FileManager.default.removeItem(at: torn) }
        let writer = FilePendingLinkStore(url: torn, key: key)
        try writer.put(first)
        try writer.put(second)
        var data = try Data(contentsOf: torn)
        data.removeLast(12)
        try data.write(to: torn)
        let reader = FilePendingLinkStore(url: torn, key: key)
        let restored = try reader.restore()
        #expect(restored.links == [first])
        #expect(restored.refused == ["The last line of \(torn.path) was cut short; it was dropped."])
        let third = Self.pending("myapp://open/3")
        try reader.put(third)
        #expect(try FilePendingLinkStore(url: torn, key: key).restore() == StoredPendingLinks(links: [first, third]))
    }

    @Test("A link superseded before it ran leaves the store: it does not run again at the next launch")
    func supersededLeavesTheStore() async throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let store = FilePendingLinkStore(url: url, key: .random())
        let dispatcher = try LinkDispatcher<String>(
            routes: [LinkRoute("open", "/open/{id:int}") { match in .push("open \(match.parameters.int("id") ?? 0)") }],
            policy: LinkPolicy(schemes: ["myapp"]),
            configuration: DispatcherConfiguration(queuePolicy: .latestWins),
            store: store
        )
        let shown = Locked<[String]>([])
        await dispatcher.setNavigator { plan, _ in shown.update { $0.append("\(plan)") } }
        await dispatcher.receive(LinkIntake(policy: LinkPolicy(schemes: ["myapp"])).url("myapp://open/1"))
        await dispatcher.receive(LinkIntake(policy: LinkPolicy(schemes: ["myapp"])).url("myapp://open/2"))
        #expect(try store.load().map(\.link) == ["myapp://open/2"])
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        await settle(dispatcher)
        #expect(shown.current.count == 1)
        #expect(try store.load().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
