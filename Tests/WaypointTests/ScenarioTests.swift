import Foundation
import Testing
import WaypointTesting

@testable import Waypoint

/// The five scenarios of Examples/README.md, end to end, on the simulated app host.
@Suite("Scenarios, end to end", .timeLimit(.minutes(2)))
struct ScenarioTests {
    @Test("1: apartments: quick actions per profile, chat and request links, a push that opens the chat")
    func apartments() async throws {
        let store = InMemoryPendingLinkStore()
        let app = try SimulatedApp(
            routes: [
                ("activity", "/activity", .activity, []),
                ("messages", "/messages", .messages, []),
                ("messages.detail", "/messages/{id:int}", nil, []),
                ("request.detail", "/request/{id:int}", nil, []),
                ("listing.new", "/listings/new", .newListing, []),
            ],
            intake: {
                $0.notificationRules = [
                    NotificationRule(.present("data.messageId"), link: "/messages/{data.messageId}")
                ]
            },
            policy: LinkPolicy(schemes: ["deeplinkTutorial"]),
            store: store,
            quickActions: QuickActionCatalog([
                QuickAction(type: "activity", title: "Recent activity", link: "/activity"),
                QuickAction(type: "messages", title: "Messages", link: "/messages"),
                QuickAction(type: "listing.new", title: "New listing", link: "/listings/new") { $0 == .host },
            ])
        )
        app.handlers["messages.detail"] = { match in
            .handled(.pushOverRoot(.chat(match.parameters.int("id") ?? 0)))
        }
        app.handlers["request.detail"] = { match in
            .handled(.pushOverRoot(.request(match.parameters.int("id") ?? 0)))
        }
        await app.launch()
        #expect(app.installedQuickActions.map(\.title) == ["Recent activity", "Messages"])
        app.switchProfile(to: .host)
        #expect(app.installedQuickActions.map(\.title) == ["Recent activity", "Messages", "New listing"])

        await app.installRootUI()
        await app.enterBackground()
        await app.open("deeplinkTutorial://messages/1")
        #expect(try store.load().count == 1)  // checked when the app becomes active
        await app.becomeActive()
        await app.settle()
        await app.open("deeplinkTutorial://request/1")
        await app.settle()
        await app.deliver(
            NotificationResponseSnapshot(
                requestIdentifier: "p1",
                userInfo: ["aps": ["alert": "Hi"], "data": ["messageId": "1"]]
            )
        )
        await app.settle()
        await app.perform(ShortcutItemSnapshot(type: "listing.new"))
        await app.settle()
        #expect(app.screens == [.chat(1), .request(1), .chat(1), .newListing])
        #expect(try store.load().isEmpty)  // cleared after handling
    }

    @Test("2: a payment link behind authentication: log in, then pay")
    func payment() async throws {
        let app = try SimulatedApp(routes: [("pay", "/pay", nil, ["auth"])], policy: LinkPolicy(schemes: ["app"]))
        struct Payment: Decodable { let order_id: String }
        app.handlers["pay"] = { match in
            .handled(.present(.pay(order: try match.decode(Payment.self).order_id)))
        }
        await app.launch(ConnectionOptions(urls: ["app:///pay?order_id=123"]))
        await app.installRootUI()
        await app.becomeActive()
        await app.settle()
        #expect(app.loginPresentations.current == 1)
        #expect(app.isLoggedIn.current)
        #expect(app.screens == [.pay(order: "123")])
        #expect(app.navigations.current.first?.presentation == .present)
    }

    @Test("3: reading app: every source, tab first then the deep link, own domain in app and others outside")
    func readingApp() async throws {
        let app = try SimulatedApp(
            routes: [
                ("book", "/books/{book_id:int}", nil, []),
                ("web.book", "https://read.example.com/b/{book_id:int}", nil, []),
                ("tab", "/tab/{tab}", nil, []),
                ("search", "/search", nil, []),
            ],
            intake: {
                $0.notificationRules = [
                    NotificationRule(.equals("aps.category", "bookDetail"), link: "/books/{book_id}"),
                    NotificationRule(.present("tab"), link: "/tab/{tab}"),
                ]
                $0.webMessages = [WebMessageRoute(name: "openLink")]
            },
            policy: LinkPolicy(schemes: ["readapp"], associatedDomains: ["read.example.com"])
        )
        let book: LinkRoute<Screen>.Handler = { match in
            // A payload may name the tab to select before the book is shown.
            let tab = match.link.payload?["tab"]?.text ?? "library"
            return .handled(.pushOverRoot(.book(match.parameters.int("book_id") ?? 0), tab: tab))
        }
        app.handlers["book"] = book
        app.handlers["web.book"] = book
        app.handlers["tab"] = { match in
            .handled(.replaceStack(.tab(match.parameters.string("tab") ?? "")))
        }
        app.handlers["search"] = { match in
            .handled(.push(.tab("search:" + (match.link.queryValue("q") ?? ""))))
        }
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        let steps: [(SimulatedApp) async -> Void] = [
            { await $0.open("readapp://books/1") },
            { await $0.open("https://read.example.com/b/2") },
            { await $0.open("https://news.example.org/story") },
            {
                await $0.deliver(
                    NotificationResponseSnapshot(
                        requestIdentifier: "a",
                        userInfo: ["deeplink": "readapp://books/3", "tab": "store"]
                    )
                )
            },
            {
                await $0.deliver(
                    NotificationResponseSnapshot(
                        requestIdentifier: "b",
                        userInfo: ["url": "https://read.example.com/b/4"]
                    )
                )
            },
            {
                await $0.deliver(
                    NotificationResponseSnapshot(
                        requestIdentifier: "c",
                        userInfo: ["aps": ["category": "bookDetail"], "book_id": "5"]
                    )
                )
            },
            { await $0.deliver(NotificationResponseSnapshot(requestIdentifier: "d", userInfo: ["tab": "mine"])) },
            { await $0.openText("readapp://search?q=三体 第二部") },
            {
                await $0.webMessage(
                    WebMessageSnapshot(name: "openLink", body: "readapp://books/6", origin: "https://read.example.com")
                )
            },
            {
                await $0.webMessage(
                    WebMessageSnapshot(name: "openLink", body: "readapp://books/7", origin: "https://ads.example.net")
                )
            },
        ]
        for step in steps {
            await step(app)
            await app.settle()
        }
        #expect(
            app.screens == [
                .book(1), .book(2), .book(3), .book(4), .book(5), .tab("mine"), .tab("search:三体 第二部"), .book(6),
            ]
        )
        #expect(app.navigations.current[2].tab == "store")
        #expect(app.passedThrough.current == ["https://news.example.org/story"])
        #expect(
            app.outcomes.last
                == .invalid(
                    message:
                        "A web message 'openLink' came from https://ads.example.net, which is not an allowed https origin at the default port."
                )
        )
    }

    @Test("4: tutoring: from a push on a killed app, home first then the order; a background link waits for active")
    func tutoring() async throws {
        let app = try SimulatedApp(
            routes: [("home", "/", .home, []), ("order.detail", "/order_detail", nil, [])],
            policy: LinkPolicy(schemes: ["wenxiaoyou"])
        )
        struct Order: Decodable { let order_id: Int }
        app.handlers["order.detail"] = { match in
            .handled(.pushOverRoot(.order(try match.decode(Order.self).order_id), tab: "home"))
        }
        let push = NotificationResponseSnapshot(
            requestIdentifier: "o1",
            userInfo: ["aps": [:], "url": "wenxiaoyou://order_detail?order_id=1234"]
        )
        await app.launch(ConnectionOptions(notificationResponse: push))
        await app.deliver(push)
        await app.installRootUI()
        await app.becomeActive()
        await app.settle()
        let plan = try #require(app.navigations.current.first)
        #expect(plan.tab == "home")
        #expect(plan.path(from: []) == [.order(1234)])  // over the home root: Back returns home
        #expect(app.navigations.current.count == 1)

        await app.enterBackground()
        await app.open("wenxiaoyou://order_detail?order_id=99")
        await app.settle()
        #expect(app.navigations.current.count == 1)
        await app.becomeActive()
        await app.settle()
        #expect(app.screens == [.order(1234), .order(99)])
    }

    @Test("5: notification actions like, open app and dismiss; open notification settings from Settings")
    func notificationActions() async throws {
        let app = try SimulatedApp(
            routes: [("post", "/posts/{id:int}", nil, []), ("settings", "/settings/notifications", .settings, [])],
            intake: {
                $0.notificationCategories = NotificationCategoryCatalog([
                    NotificationCategory(
                        id: "post",
                        actions: [
                            NotificationAction(id: "like", title: "Like", target: .handler),
                            NotificationAction(
                                id: "open",
                                title: "Open app",
                                options: .foreground,
                                target: .payloadLink
                            ),
                            NotificationAction(
                                id: "dismiss",
                                title: "Dismiss",
                                options: .destructive,
                                target: .handler
                            ),
                        ],
                        reportsDismiss: true
                    )
                ])
                $0.notificationSettingsLink = "/settings/notifications"
            },
            policy: LinkPolicy(schemes: ["myapp"])
        )
        app.handlers["post"] = { match in .handled(.pushOverRoot(.post(match.parameters.int("id") ?? 0))) }
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        let payload: PayloadValue = ["aps": ["category": "post"], "postId": "8", "deeplink": "myapp://posts/8"]
        for action in ["like", "open", NotificationActionIdentifier.dismiss] {
            await app.deliver(
                NotificationResponseSnapshot(actionIdentifier: action, requestIdentifier: "p8", userInfo: payload)
            )
            await app.settle()
        }
        await app.openNotificationSettings()
        await app.settle()
        #expect(await eventually { !app.actions.current.isEmpty })
        #expect(app.actions.current == ["like:8"])
        #expect(app.screens == [.post(8), .settings])
        #expect(app.events.read { $0.map(\.kind) }.contains(.dismissed(action: NotificationActionIdentifier.dismiss)))
    }
}
