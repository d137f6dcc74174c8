import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import Testing
import Waypoint
import WaypointLinks
import WaypointLinksClient
import WaypointManifest

/// Someone without the app taps a shared link, installs the app and opens it: the app lands on
/// the linked screen, once, through the same policy, routes and barriers as any other link.
@Suite("A deferred link, end to end")
struct DeferredLinkEndToEndTests {
    /// The service's manifest, with a barrier on the book route, as the app's own would have.
    static let manifestText = Fixtures.manifestText.replacingOccurrences(
        of: "pattern: /books/{book_id:int}",
        with: "pattern: /books/{book_id:int}\n    barriers: [login]"
    )

    @Test("Click, store, first launch: the dispatcher shows the book once; the token gives nothing twice")
    func clickInstallOpen() async throws {
        let manifest = try ManifestLoader.parse(Self.manifestText)
        let store = try await SQLiteLinkStore.open(path: Fixtures.databasePath())
        let token = APIToken.makeSecret()
        #expect(try await store.addToken(name: "tests", secretHash: APIToken.hash(token), createdAt: Date()))
        let service = try LinkService(manifest: manifest, store: store, configuration: .init(appStoreID: "1234567890"))

        // The store is closed however the test ends: a SQLite connection left open traps when freed.
        do {
            try await run(service: service, manifest: manifest, store: store, token: token)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    func run(service: LinkService, manifest: Manifest, store: SQLiteLinkStore, token: String) async throws {
        try await Application(router: service.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { client in
                let port = try #require(client.port)
                // 1. The marketing team creates the link.
                let created = try await client.execute(
                    uri: "/api/links",
                    method: .post,
                    headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                    body: ByteBuffer(string: #"{"code": "spring", "deepLink": "readapp://books/42"}"#)
                ) { $0.status }
                #expect(created == .created)

                // 2. On an iPhone without the app, the link opens the landing page; "Get the app"
                //    copies its claim URL to the pasteboard (replaced here by a double) and opens the store.
                let claimURL = try await ClaimTests.claimURL(from: client)
                let pasteboard = PastedClaimURL(claimURL)

                // 3. First launch: the app's own wiring, with the manifest it ships.
                let loggedIn = NIOLockedValueBox(false)
                let shown = NIOLockedValueBox<[String]>([])
                let intake = manifest.makeIntake()
                let dispatcher: LinkDispatcher<String> = try manifest.makeDispatcher(
                    destinations: [
                        "book": { "book \($0.parameters.int("book_id") ?? 0)" },
                        "web.book": { "book \($0.parameters.int("book_id") ?? 0)" },
                        "account.delete": { _ in "delete account" },
                    ],
                    barriers: [
                        Barrier("login") { _ in
                            loggedIn.withLockedValue { $0 } ? .passed : .needsCheck
                        } check: { _ in
                            // The login screen: the person signs in.
                            shown.withLockedValue { $0.append("login") }
                            loggedIn.withLockedValue { $0 = true }
                            return true
                        }
                    ]
                )
                await dispatcher.setNavigator { plan, _ in shown.withLockedValue { $0.append(plan.destination) } }
                let reports = NIOLockedValueBox<[DeferredLinkReport]>([])
                let provider = ClaimingDeferredLinkProvider(
                    service: LinkServiceClient(
                        domain: "links.example.com",
                        serviceURL: URL(string: "http://127.0.0.1:\(port)")
                    ),
                    source: pasteboard
                ) { report in reports.withLockedValue { $0.append(report) } }
                let record = FileDeferredLinkRecord(
                    url: URL(fileURLWithPath: Fixtures.databasePath()).deletingLastPathComponent()
                        .appendingPathComponent("deferred.json")
                )
                let result = try #require(await intake.deferredLink(from: provider, record: record))
                #expect(result.link?.source == .deferred)
                let id = try #require(await dispatcher.receive(result))
                await dispatcher.appDidBecomeReady()
                await dispatcher.appDidBecomeActive()
                await dispatcher.waitUntilIdle()
                // Login first: a deferred link skips no barrier.
                #expect(shown.withLockedValue { $0 } == ["login", "book 42"])
                #expect(await dispatcher.outcome(of: id)?.isHandled == true)

                // 4. The next launch does not ask again; another install with the same URL gets nothing.
                #expect(await intake.deferredLink(from: provider, record: record) == nil)
                let again = ClaimingDeferredLinkProvider(
                    service: provider.service,
                    source: pasteboard
                ) { report in reports.withLockedValue { $0.append(report) } }
                #expect(try await again.deferredLink() == nil)
                let all = reports.withLockedValue { $0 }
                #expect(all.count == 2)
                #expect(
                    all.first
                        == .claimed(
                            ClaimedLink(code: "spring", deepLink: "readapp://books/42", route: "book", platform: "iOS")
                        )
                )
                guard case .refused(.alreadyClaimed, _) = all.last else {
                    Issue.record("the second claim reported \(String(describing: all.last))")
                    return
                }
                #expect(shown.withLockedValue { $0 } == ["login", "book 42"])
                let installs = try await store.installs(code: "spring")
                #expect(installs.map(\.count) == [1])
            }
    }
}
