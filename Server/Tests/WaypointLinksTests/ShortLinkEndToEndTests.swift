import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import Testing
import Waypoint
import WaypointLinks
import WaypointLinksClient
import WaypointManifest

/// Someone with the app taps a shared short link: iOS opens the app with it, the app asks the
/// service for the deep link behind it, and the screen opens through the app's own dispatcher.
@Suite("A short link that opens the installed app, end to end")
struct ShortLinkEndToEndTests {
    /// What the app shows, in order.
    final class Screens: Sendable {
        let shown = NIOLockedValueBox<[String]>([])
        var all: [String] { shown.withLockedValue { $0 } }
    }

    @Test(
        "The tapped link's screen opens with the query it was opened with; a code nobody made, or an expired one, is reported"
    )
    func tapped() async throws {
        let fixture = try await ServiceFixture.make()
        do {
            try await Application(
                router: fixture.service.router(),
                configuration: .init(address: .hostname("127.0.0.1", port: 0))
            )
            .test(.live) { client in
                try await run(fixture, port: try #require(client.port))
            }
        } catch {
            Issue.record(error)
        }
        await fixture.store.close()
    }

    func run(_ fixture: ServiceFixture, port: Int) async throws {
        #expect(
            try await fixture.store.insert(ShortLink(code: "spring", deepLink: "readapp://books/42", route: "book"))
        )
        #expect(
            try await fixture.store.insert(
                ShortLink(code: "close", deepLink: "https://read.example.com/account/delete", route: "account.delete")
            )
        )
        #expect(
            try await fixture.store.insert(
                ShortLink(
                    code: "old",
                    deepLink: "readapp://books/7",
                    route: "book",
                    expiresAt: Fixtures.now.addingTimeInterval(-60)
                )
            )
        )

        // A code that is also a page of the app on the short-link domain: the app's page wins.
        #expect(try await fixture.store.insert(ShortLink(code: "help", deepLink: "readapp://books/9", route: "book")))

        // The app's own wiring, with the manifest it ships (one page of its own on the short-link
        // domain more than the service's) and the service in place of links.example.com.
        let manifest = try ManifestLoader.parse(
            Fixtures.manifestText + "\n  - name: help\n    pattern: https://links.example.com/help"
        )
        let intake = manifest.makeIntake()
        let screens = Screens()
        let dispatcher: LinkDispatcher<String> = try manifest.makeDispatcher(
            destinations: [
                "book": { "book \($0.parameters.int("book_id") ?? 0) \($0.link.string)" },
                "web.book": { "book \($0.parameters.int("book_id") ?? 0)" },
                "account.delete": { _ in "delete account" },
                "help": { _ in "help" },
            ]
        )
        await dispatcher.setNavigator { plan, _ in screens.shown.withLockedValue { $0.append(plan.destination) } }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        let opening = try ShortLinkResolvingDispatcher(
            dispatcher,
            service: LinkServiceClient(
                domain: "links.example.com",
                serviceURL: URL(string: "http://127.0.0.1:\(port)")
            ),
            retries: 0
        )

        // 1. Tapped in Messages: iOS opens the app with the short link, as a universal link.
        let tapped = intake.url("https://links.example.com/Spring?utm_source=news")
        #expect(tapped.link?.source == .universalLink)
        let id = try #require(await opening.receive(tapped))
        #expect(await dispatcher.isHandled(id))
        #expect(screens.all == ["book 42 readapp://books/42?utm_source=news"])
        // The service counts it as the app's visit.
        try await fixture.service.clicks.flush()
        let clicks = try await fixture.store.clicks(code: "spring")
        #expect(clicks.map(\.key.outcome) == [.app] && clicks.map(\.count) == [1])

        // 2. The deep link keeps the short link's source: a route only universal links reach opens
        //    for the tapped link, not for the same short link in a push.
        let close = try #require(await opening.receive(intake.url("https://links.example.com/close")))
        #expect(await dispatcher.isHandled(close))
        #expect(screens.all.last == "delete account")
        let pushed = intake.notification(
            NotificationResponseSnapshot(userInfo: ["aps": [:], "url": "https://links.example.com/close"])
        )
        let push = try #require(await opening.receive(pushed))
        guard case .forbidden(let reason) = await dispatcher.outcome(of: push) else {
            Issue.record(
                "the pushed short link was not refused: \(String(describing: await dispatcher.outcome(of: push)))"
            )
            return
        }
        #expect(reason.contains("not from notification"))

        // 3. A code nobody made goes on as it came: the app reports it as not found, as before.
        let unknown = try #require(await opening.receive(intake.url("https://links.example.com/nothing")))
        #expect(await dispatcher.outcome(of: unknown) == .notFound)

        // 4. An expired link is a failure naming the short link, not a silent nothing.
        let expired = await opening.resolved(intake.url("https://links.example.com/old"))
        let error = try #require(expired.error)
        #expect(error.code == .providerFailed)
        #expect(error.input == "https://links.example.com/old")
        #expect(error.message.contains("has expired"))
        #expect(await opening.receive(expired) == nil)

        // 5. A page of the app's own on the short-link domain opens as it did, without asking.
        let page = try #require(await opening.receive(intake.url("https://links.example.com/help")))
        #expect(await dispatcher.isHandled(page))
        #expect(screens.all.last == "help")
        try await fixture.service.clicks.flush()
        #expect(try await fixture.store.clicks(code: "help").isEmpty)
        #expect(screens.all.count == 3)
    }
}
