import Foundation
import Testing

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
            payload: ["data": ["messageId": "1"]],
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

    @Test("A restored link that no longer parses is reported invalid, not dropped")
    func restoredInvalid() async throws {
        let store = InMemoryPendingLinkStore([
            PendingLink(
                id: UUID(),
                link: "myapp://a b",
                source: .urlScheme,
                payload: nil,
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
