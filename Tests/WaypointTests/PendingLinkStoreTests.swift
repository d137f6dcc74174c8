import Foundation
import Testing
import WaypointTesting

@testable import Waypoint

@Suite("The file store keeps pending links across processes and sets damage aside", .timeLimit(.minutes(2)))
struct PendingLinkStoreTests {
    func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("waypoint-\(UUID().uuidString).json")
    }

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

    @Test("A damaged file is reported, moved aside, and the next load starts clean")
    func damaged() throws {
        let url = temporaryFile()
        try Data("{not json".utf8).write(to: url)
        let store = FilePendingLinkStore(url: url)
        do {
            _ = try store.load()
            Issue.record("expected an error")
        } catch let error as PendingLinkStoreError {
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
        await app.launch(ConnectionOptions(urls: ["myapp://open/1"]))
        await app.installRootUI()
        await app.becomeActive()
        await app.settle()
        #expect(app.screens == [.open(1)])
        let problems = app.events.read { events in
            events.compactMap { event -> String? in
                if case .storeProblem(let message) = event.kind { return message }
                return nil
            }
        }
        #expect(problems.count == 1)
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
        let entries = try #require(try JSONSerialization.jsonObject(with: stored) as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first.map { Set($0.keys) } == ["id", "identity", "link", "receivedAt", "source"])
        #expect(entries.first?["link"] as? String == "/messages/7")
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
        #expect(app.outcomes == [.expired, .handled(route: "chat", plan: .pushOverRoot(.chat(1)))])
        let kinds = app.events.read { $0.map(\.kind) }
        #expect(kinds.contains(.restored(count: 1)))
        #expect(kinds.contains { if case .expired(let age) = $0 { age >= 3600 } else { false } })
        #expect(try store.load().isEmpty)
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
        await dispatcher.waitUntilIdle()
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
        await dispatcher.waitUntilIdle()
        #expect(shown.current == ["open 3"])
        #expect(await dispatcher.restorePendingLinks() == 0)  // asking again restores nothing twice
        await dispatcher.waitUntilIdle()
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
                        "Link 'myapp://a b' has a space at byte 9; percent-encode it, or parse text from people with DeepLink(text:)."
                )
            ]
        )
    }
}
