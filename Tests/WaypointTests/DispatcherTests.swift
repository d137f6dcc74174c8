import Foundation
import Testing
import WaypointTesting

@testable import Waypoint
@testable import WaypointCore

/// An app with open, protected and declining routes, used by the named cases.
func makeApp(
    configuration: DispatcherConfiguration = DispatcherConfiguration(),
    store: any PendingLinkStore = InMemoryPendingLinkStore(),
    quickActions: QuickActionCatalog<SimulatedApp.Profile> = QuickActionCatalog([])
) throws -> SimulatedApp {
    try SimulatedApp(
        routes: [
            ("open", "/open/{id:int}", .open(1), []),
            ("secure", "/secure/{id:int}", .secure(1), ["auth"]),
            ("pay", "/pay", .pay(order: "?"), ["auth"]),
            ("chat", "/messages/{id:int}", .chat(1), []),
            ("legacy", "/legacy/{id:int}", nil, []),
        ],
        intake: {
            $0.notificationRules = [NotificationRule(.present("data.messageId"), link: "/messages/{data.messageId}")]
        },
        policy: LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"]),
        configuration: configuration,
        store: store,
        quickActions: quickActions
    )
}

@Suite("The dispatcher hands each link over exactly once, when the app can take it", .timeLimit(.minutes(1)))
struct DispatcherTests {
    @Test("A notification delivered through both cold-start callbacks is handled once")
    func coldStartDuplicate() async throws {
        let app = try makeApp()
        let tap = NotificationResponseSnapshot(
            requestIdentifier: "push-1",
            userInfo: ["aps": [:], "data": ["messageId": "7"]]
        )
        await app.launch(ConnectionOptions(notificationResponse: tap))
        await app.deliver(tap)  // userNotificationCenter(_:didReceive:) fires too
        await app.installRootUI()
        await app.becomeActive()
        await app.settle()
        #expect(app.screens == [.chat(1)])
        #expect(app.outcomes == [.deduplicated, .handled(route: "chat", plan: .pushOverRoot(.chat(1)))])
    }

    @Test("A link before the app is ready is held, then runs once it is ready and active")
    func heldUntilReady() async throws {
        let app = try makeApp()
        await app.launch(ConnectionOptions(urls: ["myapp://open/1"]))
        await app.settle()
        #expect(app.screens.isEmpty)
        await app.installRootUI()
        await app.settle()
        #expect(app.screens.isEmpty)  // ready, but still launching in the background
        await app.becomeActive()
        await app.settle()
        #expect(app.screens == [.open(1)])
        let kinds = app.events.read { $0.map(\.kind) }
        #expect(kinds.contains(.heldUntilReady))
    }

    @Test("A link that arrives before the navigator is set waits for it: never handled with nothing shown")
    func heldUntilNavigator() async throws {
        let dispatcher = try LinkDispatcher<String>(
            routes: [LinkRoute("open", "/open/{id:int}") { match in .push("open \(match.parameters.int("id") ?? 0)") }],
            policy: LinkPolicy(schemes: ["myapp"])
        )
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        let id = try #require(await dispatcher.receive(try DeepLink("myapp://open/5")))
        await settle(dispatcher)
        #expect(await dispatcher.pendingLinks.map(\.id) == [id])
        let shown = Locked<[String]>([])
        await dispatcher.setNavigator { plan, _ in shown.update { $0.append(plan.destination) } }
        #expect(await dispatcher.outcome(of: id)?.isHandled == true)
        #expect(shown.current == ["open 5"])
    }

    /// A dispatcher whose handlers redirect: short and legacy links, a loop, a protected target.
    /// `book` replaces the book route's handler.
    static func redirectingDispatcher(
        configuration: DispatcherConfiguration = DispatcherConfiguration(),
        book: LinkRoute<String>.Handler? = nil
    ) async throws -> (LinkDispatcher<String>, Locked<[String]>) {
        let dispatcher = try LinkDispatcher<String>(
            routes: [
                LinkRoute("short", "/s/{code}") { _ in .redirect(to: "/legacy/7") },
                LinkRoute("legacy", "/legacy/{id:int}") { match in
                    .redirect(to: "/books/\(match.parameters.int("id") ?? 0)")
                },
                LinkRoute(
                    "book",
                    "/books/{id:int}",
                    handler: book ?? { match in .handled(.push("book \(match.parameters.int("id") ?? 0)")) }
                ),
                LinkRoute("ping", "/ping") { _ in .redirect(to: "/pong") },
                LinkRoute("pong", "/pong") { _ in .redirect(to: "/ping") },
                LinkRoute("vault", "/vault", sources: [.universalLink]) { _ in .push("vault") },
                LinkRoute("pay", "/pay", barriers: ["auth"]) { _ in .push("pay") },
            ],
            policy: LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"]),
            barriers: [Barrier("auth") { _ in .rejected("logged out") }],
            configuration: configuration
        )
        let shown = Locked<[String]>([])
        await dispatcher.setNavigator { plan, _ in shown.update { $0.append(plan.destination) } }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        return (dispatcher, shown)
    }

    static func run(
        _ text: String,
        on dispatcher: LinkDispatcher<String>
    ) async throws -> DispatchOutcome<String>? {
        let id = try #require(await dispatcher.receive(try DeepLink(text, source: .urlScheme)))
        return await dispatcher.outcome(of: id)
    }

    @Test("A redirect chain of 2 resolves, and the outcome names every link")
    func redirectChain() async throws {
        let (dispatcher, shown) = try await Self.redirectingDispatcher()
        let outcome = try await Self.run("myapp://s/abc", on: dispatcher)
        #expect(
            outcome
                == .redirected(
                    to: "/legacy/7",
                    outcome: .redirected(to: "/books/7", outcome: .handled(route: "book", plan: .push("book 7")))
                )
        )
        #expect(outcome?.isHandled == true)
        #expect(shown.current == ["book 7"])
    }

    @Test("A redirect loop is stopped with a typed outcome naming the chain; so is a chain past the bound")
    func redirectLoop() async throws {
        let (dispatcher, shown) = try await Self.redirectingDispatcher()
        let loop = try await Self.run("myapp://ping", on: dispatcher)
        #expect(loop?.final == .redirectFailed(reason: "a redirect loop: myapp://ping → /pong → /ping → /pong"))
        #expect(loop?.isHandled == false)
        let (bounded, _) = try await Self.redirectingDispatcher(
            configuration: DispatcherConfiguration(maximumRedirects: 1)
        )
        let long = try await Self.run("myapp://s/abc", on: bounded)
        #expect(long?.final == .redirectFailed(reason: "more than 1 redirects: myapp://s/abc → /legacy/7 → /books/7"))
        #expect(shown.current.isEmpty)
    }

    @Test("A redirect keeps the original source and meets the target's barriers")
    func redirectIsCheckedAgain() async throws {
        let (toVault, shown) = try await Self.redirectingDispatcher(book: { _ in
            .redirect(to: "https://example.com/vault")
        })
        let vault = try await Self.run("myapp://books/1", on: toVault)
        // A custom-scheme link does not become a universal link by redirecting to one.
        if case .redirected(_, .forbidden(let reason)) = vault {
            #expect(reason.contains("universalLink"))
        } else {
            Issue.record("expected a forbidden redirect, got \(String(describing: vault))")
        }
        let (toPay, paid) = try await Self.redirectingDispatcher(book: { _ in .redirect(to: "/pay") })
        let pay = try await Self.run("myapp://books/2", on: toPay)
        #expect(pay?.final == .barrierRejected(barrier: "auth", reason: "logged out"))
        #expect(shown.current.isEmpty)
        #expect(paid.current.isEmpty)
    }

    @Test("A redirect to another site is never followed, however the target is spelled")
    func redirectToAnotherSite() async throws {
        let targets = [
            "https://evil.com/", "//evil.com", "/%09/evil.com", "https://example.com:8443/books/1", "otherapp://x",
            "https://a%2F.example.com/",
        ]
        for target in targets {
            let (dispatcher, shown) = try await Self.redirectingDispatcher(book: { _ in .redirect(to: target) })
            let outcome = try await Self.run("myapp://books/1", on: dispatcher)
            if case .redirectFailed(let reason) = outcome {
                #expect(
                    reason.hasPrefix("the route 'book' redirected, but") || reason.contains("not a link"),
                    "\(reason)"
                )
            } else {
                Issue.record("\(target): expected a failed redirect, got \(String(describing: outcome))")
            }
            #expect(shown.current.isEmpty)
        }
    }

    @Test("A link that arrives in the background runs when the app becomes active")
    func background() async throws {
        let app = try makeApp()
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        await app.enterBackground()
        await app.open("myapp://open/2")
        await app.settle()
        #expect(app.screens.isEmpty)
        await app.becomeActive()
        await app.settle()
        #expect(app.screens == [.open(1)])
    }

    @Test("Log in first, then the same link continues")
    func loginThenContinue() async throws {
        let app = try makeApp()
        await app.launch(ConnectionOptions(urls: ["myapp:///pay?order_id=123"]))
        await app.installRootUI()
        await app.becomeActive()
        await app.settle()
        #expect(app.loginPresentations.current == 1)
        #expect(app.screens == [.pay(order: "?")])
        let kinds = app.events.read { $0.map(\.kind) }
        #expect(kinds.contains(.waitingOnBarrier(barrier: "auth")))
        #expect(kinds.contains(.barrierPassed(barrier: "auth")))
    }

    @Test("Cancelling the login drops the link and reports it; nothing protected is shown")
    func loginCancelled() async throws {
        let app = try makeApp()
        app.loginAnswer.update { $0 = false }
        await app.launch(ConnectionOptions(urls: ["myapp://secure/1"]))
        await app.installRootUI()
        await app.becomeActive()
        await app.settle()
        #expect(app.screens.isEmpty)
        #expect(app.outcomes == [.barrierFailed(barrier: "auth")])
    }

    @Test("Logging out between receipt and dispatch puts the barrier back in front of the link")
    func logoutBetweenReceiptAndDispatch() async throws {
        let app = try makeApp()
        app.login()
        app.loginAnswer.update { $0 = false }
        await app.launch(ConnectionOptions(urls: ["myapp://secure/1"]))  // received while logged in
        app.logout()
        await app.installRootUI()
        await app.becomeActive()
        await app.settle()
        #expect(app.loginPresentations.current == 1)
        #expect(app.screens.isEmpty)
    }

    @Test("A link arriving during a barrier check waits, then runs after it")
    func linkDuringBarrierCheck() async throws {
        let app = try makeApp(configuration: DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 4)))
        app.loginGate.close()
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        await app.open("myapp://secure/1")
        #expect(await app.loginPresented())
        await app.open("myapp://open/2")
        #expect(app.screens.isEmpty)
        app.loginGate.open()  // the user logs in
        await app.settle()
        #expect(app.screens == [.secure(1), .open(1)])
    }

    @Test("A barrier check that never answers times out, is reported, and stalls nothing behind it")
    func barrierNeverAnswers() async throws {
        let app = try makeApp(
            configuration: DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 4), barrierCheckTimeout: 60)
        )
        app.loginGate.close()
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        await app.open("myapp://secure/1")
        await app.open("myapp://open/2")
        // Only once the check runs is its timer the clock's one sleeper (the evaluation's is gone).
        #expect(await app.loginPresented())
        await app.clock.waitForSleepers(1)
        app.clock.advance(by: 61)
        await app.settle()
        #expect(app.outcomes.first == .barrierTimedOut(barrier: "auth"))
        #expect(app.screens == [.open(1)])
        app.loginGate.open()
    }

    @Test("A login slower than the check timeout still lands when its barrier's wait is longer; past it, reported")
    func barrierWaitOutlastsTheCheckTimeout() async throws {
        /// An app whose login check (waiting up to an hour) is showing for `myapp://secure/1`.
        func loggingIn() async throws -> SimulatedApp {
            let app = try makeApp(configuration: DispatcherConfiguration(barrierCheckTimeout: 300))
            app.authWait = 3600
            app.loginGate.close()
            await app.launch()
            await app.installRootUI()
            await app.becomeActive()
            await app.open("myapp://secure/1")
            #expect(await app.loginPresented())
            await app.clock.waitForSleepers(1)
            return app
        }
        let app = try await loggingIn()
        app.clock.advance(by: 360)  // six minutes: past the dispatcher's timeout, within the barrier's wait
        #expect(app.outcomes.isEmpty)
        app.loginGate.open()  // the user finishes signing in
        await app.settle()
        #expect(app.screens == [.secure(1)])
        #expect(app.outcomes == [.handled(route: "secure", plan: .pushOverRoot(.secure(1)))])

        let slow = try await loggingIn()
        slow.clock.advance(by: 3599)
        #expect(slow.outcomes.isEmpty)
        slow.clock.advance(by: 1)
        await slow.settle()
        #expect(slow.outcomes == [.barrierTimedOut(barrier: "auth")])
        slow.loginGate.open()
    }

    @Test("Two links racing: latest-wins keeps the newest waiting one; FIFO runs both in order")
    func racing() async throws {
        let latest = try makeApp()
        await latest.launch()
        async let first: Void = latest.open("myapp://messages/1")
        async let second: Void = latest.open("myapp://open/2")
        _ = await (first, second)
        await latest.installRootUI()
        await latest.becomeActive()
        await latest.settle()
        #expect(latest.navigations.current.count == 1)
        #expect(latest.outcomes.filter { $0 == .superseded }.count == 1)

        let fifo = try makeApp(configuration: DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 1)))
        await fifo.launch()
        await fifo.open("myapp://messages/1")
        await fifo.open("myapp://open/2")  // the queue holds one: dropped and reported
        await fifo.installRootUI()
        await fifo.becomeActive()
        await fifo.settle()
        #expect(fifo.outcomes == [.dropped, .handled(route: "chat", plan: .pushOverRoot(.chat(1)))])
    }

    @Test("Process death with a pending link: a new dispatcher over the same store runs it once")
    func processDeath() async throws {
        let store = InMemoryPendingLinkStore()
        let app = try makeApp(store: store)
        await app.launch(ConnectionOptions(urls: ["myapp://open/5"]))
        #expect(try store.load().map(\.link) == ["myapp://open/5"])
        app.terminate()
        await app.launch()  // the next launch restores it
        await app.installRootUI()
        await app.becomeActive()
        await app.settle()
        #expect(app.screens == [.open(1)])
        #expect(try store.load().isEmpty)
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        await app.settle()
        #expect(app.screens == [.open(1)])  // not twice
    }

    @Test("A handler timeout, then a late completion that is ignored and touches no other link")
    func handlerTimeoutAndLateCompletion() async throws {
        let app = try makeApp(
            configuration: DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 4), handlerTimeout: 5)
        )
        let release = Gate()
        release.close()
        app.handlers["open"] = { _ in
            await release.pass()  // ignores cancellation on purpose
            return .handled(.push(.open(99)))
        }
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        await app.open("myapp://open/1")
        await app.open("myapp://messages/2")
        await app.clock.waitForSleepers(1)
        app.clock.advance(by: 6)
        #expect(await eventually { !app.navigations.current.isEmpty })
        release.open()  // the late completion
        await app.settle()
        try await Task.sleep(nanoseconds: 20_000_000)
        #expect(app.outcomes == [.timedOut(route: "open"), .handled(route: "chat", plan: .pushOverRoot(.chat(1)))])
        #expect(app.screens == [.chat(1)])
    }

    @Test("A handler that declines passes the link to the next candidate in precedence order")
    func declineTriesNext() async throws {
        let app = try SimulatedApp(
            routes: [("typed", "/items/{id:int}", nil, []), ("any", "/items/{slug}", .home, [])],
            policy: LinkPolicy(schemes: ["myapp"])
        )
        app.handlers["typed"] = { _ in .declined }
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        await app.open("myapp://items/3")
        await app.settle()
        #expect(app.screens == [.home])
        let kinds = app.events.read { $0.map(\.kind) }
        #expect(kinds.contains(.declined(route: "typed")))
        #expect(app.outcomes == [.handled(route: "any", plan: .pushOverRoot(.home))])
    }

    @Test("Every candidate declining is reported as declined, not handled; no handler at all likewise")
    func allDecline() async throws {
        let app = try SimulatedApp(routes: [("bare", "/bare", nil, [])], policy: LinkPolicy(schemes: ["myapp"]))
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        await app.open("myapp://bare")
        await app.settle()
        #expect(app.outcomes == [.declined])
        #expect(app.outcomes.allSatisfy { !$0.isHandled })
    }

    @Test("Not found, forbidden, pass-through and invalid each reach their own handler and are never handled")
    func distinctOutcomes() async throws {
        let app = try makeApp()
        let forbidden = Locked<[String]>([])
        app.onForbidden = { _, reason in forbidden.update { $0.append(reason) } }
        let invalid = Locked<[String]>([])
        app.onInvalid = { input, _ in invalid.update { $0.append(input) } }
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        await app.open("myapp://nowhere")
        await app.settle()
        await app.open("https://elsewhere.org/page")
        await app.settle()
        await app.open("evil://open/1")
        await app.open("myapp://a b")
        await app.settle()
        #expect(await eventually { !forbidden.current.isEmpty && !invalid.current.isEmpty })
        #expect(app.notFound.current == ["myapp://nowhere"])
        #expect(app.passedThrough.current == ["https://elsewhere.org/page"])
        #expect(forbidden.current == ["the scheme 'evil' is not one of the app's schemes (myapp)"])
        #expect(invalid.current == ["myapp://a b"])
        #expect(app.outcomes.allSatisfy { !$0.isHandled })
        #expect(app.screens.isEmpty)
    }

    @Test("Cancelling a held link and a running one")
    func cancellation() async throws {
        let app = try makeApp()
        await app.launch()
        let held = try #require(await app.dispatcher.receive(try DeepLink("myapp://open/1")))
        #expect(await app.dispatcher.cancel(held))
        #expect(await app.dispatcher.pendingLinks.isEmpty)

        app.loginGate.close()
        await app.installRootUI()
        await app.becomeActive()
        let running = try #require(await app.dispatcher.receive(try DeepLink("myapp://secure/1")))
        #expect(await app.loginPresented())
        #expect(await app.dispatcher.cancel(running))
        await app.settle()
        #expect(app.outcomes == [.cancelled, .cancelled])
        #expect(await app.dispatcher.cancel(running) == false)
        app.loginGate.open()
    }

    @Test("A mandatory barrier applies to every link it names")
    func mandatoryBarrier() async throws {
        let app = try makeApp()
        app.mandatoryBarriers = [
            MandatoryBarrier(Barrier("maintenance") { _ in .rejected("down for maintenance") }) { context in
                context.pathSegments.first == "open"
            }
        ]
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        await app.open("myapp://open/1")
        await app.settle()
        await app.open("myapp://messages/1")
        await app.settle()
        #expect(
            app.outcomes == [
                .barrierRejected(barrier: "maintenance", reason: "down for maintenance"),
                .handled(route: "chat", plan: .pushOverRoot(.chat(1))),
            ]
        )
    }

    @Test(
        "A mandatory barrier decides on the matched route: no spelling of the link gets past it",
        arguments: [
            "myapp://open/1", "myapp://OPEN/1", "myapp://%4FPEN/1", "myapp://%6fpen/1", "myapp:////open/1",
            "myapp://open/1/", "myapp://open//1",
        ]
    )
    func mandatoryBarrierSpellings(text: String) async throws {
        let rejectEverything = Barrier("staff") { _ in .rejected("staff only") }
        for rule: @Sendable (BarrierContext) -> Bool in [
            { $0.pattern.text.hasPrefix("/open") }, { $0.route == "open" }, { $0.pathSegments.first == "open" },
        ] {
            let app = try makeApp()
            app.mandatoryBarriers = [MandatoryBarrier(rejectEverything, appliesTo: rule)]
            await app.launch()
            await app.installRootUI()
            await app.becomeActive()
            await app.open(text)
            await app.settle()
            #expect(app.outcomes == [.barrierRejected(barrier: "staff", reason: "staff only")], "\(text)")
        }
    }

    @Test(
        "Links delivered from many tasks at once while held: every distinct link runs once, every repeat is a duplicate"
    )
    func concurrentDelivery() async throws {
        let app = try makeApp(configuration: DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 1000)))
        await app.launch()
        let intake = app.intake
        let dispatcher = app.dispatcher
        // 50 distinct links, each delivered by four tasks racing each other, all before the app can
        // navigate: the copies are deliveries of the same link, not new taps.
        await withTaskGroup(of: Void.self) { group in
            for copy in 0..<4 {
                for id in 0..<50 {
                    group.addTask {
                        let url = URL(string: "myapp://open/\((id * 7 + copy * 13) % 50)")
                        if let url { await dispatcher.receive(intake.url(url)) }
                    }
                }
            }
        }
        await app.installRootUI()
        await app.becomeActive()
        await app.settle()
        let handled = app.events.read { events in
            events.compactMap { event -> String? in
                guard case .finished(let outcome) = event.kind, outcome.isHandled else { return nil }
                return event.link?.string
            }
        }
        #expect(handled.count == 50)
        #expect(Set(handled) == Set((0..<50).map { "myapp://open/\($0)" }))
        #expect(app.screens.count == 50)
        #expect(app.outcomes.filter { $0 == .deduplicated }.count == 150)
    }

    @Test("The same universal link tapped twice, 2 seconds apart, after the first opened: two navigations")
    func repeatedTapRunsAgain() async throws {
        let app = try makeApp()
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        await app.open("https://example.com/open/1")
        await app.settle()
        app.clock.advance(by: 2)
        await app.open("https://example.com/open/1")
        await app.settle()
        #expect(app.screens == [.open(1), .open(1)])
        #expect(!app.outcomes.contains(.deduplicated))
    }

    @Test("The same quick action performed again after the first finished runs again; while it waits, once")
    func repeatedQuickAction() async throws {
        let app = try makeApp(
            quickActions: QuickActionCatalog([QuickAction(type: "messages", title: "Messages", link: "/messages/{id}")])
        )
        let item = ShortcutItemSnapshot(type: "messages", userInfo: ["id": 3])
        await app.launch(ConnectionOptions(shortcut: item))
        await app.perform(item)  // the same cold-start action delivered again before anything runs
        await app.installRootUI()
        await app.becomeActive()
        await app.settle()
        await app.perform(item)  // a new tap on the home screen
        await app.settle()
        #expect(app.screens == [.chat(1), .chat(1)])
        #expect(app.outcomes.filter { $0 == .deduplicated }.count == 1)
    }

    @Test("A notification request runs once even when its second delivery comes after the first finished")
    func notificationRequestOnce() async throws {
        let app = try makeApp()
        let tap = NotificationResponseSnapshot(requestIdentifier: "push-9", userInfo: ["data": ["messageId": "4"]])
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        await app.deliver(tap)
        await app.settle()
        app.clock.advance(by: 60)
        await app.deliver(tap)  // a second callback with the same request, late
        await app.settle()
        #expect(app.screens == [.chat(1)])
        #expect(app.outcomes.filter { $0 == .deduplicated }.count == 1)
        // Another push with the same content but its own request is a new tap.
        await app.deliver(
            NotificationResponseSnapshot(requestIdentifier: "push-10", userInfo: ["data": ["messageId": "4"]])
        )
        await app.settle()
        #expect(app.screens == [.chat(1), .chat(1)])
        // A push that replaces push-9 (its apns-collapse-id, so the same request identifier) with new
        // content is a new tap too.
        await app.deliver(
            NotificationResponseSnapshot(requestIdentifier: "push-9", userInfo: ["data": ["messageId": "5"]])
        )
        await app.settle()
        #expect(app.screens == [.chat(1), .chat(1), .chat(1)])
        #expect(app.outcomes.filter { $0 == .deduplicated }.count == 1)
    }

    @Test("A link that waited longer than the maximum pending age is not run, and an event says so")
    func expiredWhileWaiting() async throws {
        let app = try makeApp(configuration: DispatcherConfiguration(maximumPendingAge: 600))
        await app.launch(ConnectionOptions(urls: ["myapp://open/1"]))
        await app.installRootUI()
        app.clock.advance(by: 601)  // the app stayed in the background for ten minutes
        await app.becomeActive()
        await app.settle()
        #expect(app.screens.isEmpty)
        #expect(app.outcomes == [.expired(age: 601)])
        #expect(try app.store.load().isEmpty)
        // One that waited less runs.
        await app.enterBackground()
        await app.open("myapp://open/2")
        app.clock.advance(by: 599)
        await app.becomeActive()
        await app.settle()
        #expect(app.outcomes.last == .handled(route: "open", plan: .pushOverRoot(.open(1))))
    }

    @Test("A not-found handler that never returns times out like a route handler and stalls nothing")
    func outcomeHandlerTimeout() async throws {
        let app = try makeApp(configuration: DispatcherConfiguration(handlerTimeout: 5))
        app.onNotFound = { _ in try? await Task.sleep(nanoseconds: 3_600_000_000_000) }
        await app.launch()
        await app.installRootUI()
        await app.becomeActive()
        await app.open("myapp://nowhere")
        await app.open("myapp://open/1")
        await app.clock.waitForSleepers(1)  // the timeout of the not-found handler
        app.clock.advance(by: 5)
        await app.settle()
        #expect(app.screens == [.open(1)])
        #expect(app.outcomes == [.notFound, .handled(route: "open", plan: .pushOverRoot(.open(1)))])
        let kinds = app.events.read { $0.map(\.kind) }
        #expect(kinds.contains(.outcomeHandlerTimedOut(outcome: "notFound")))
    }

    @Test("Every link's events carry the link, its source and durations; the stream sees them too")
    func events() async throws {
        let app = try makeApp()
        await app.launch()
        let stream = await app.dispatcher.events()
        await app.installRootUI()
        await app.becomeActive()
        await app.open("myapp://open/1")
        await app.settle()
        var seen: [DispatchEvent<Screen>.Kind] = []
        for await event in stream {
            seen.append(event.kind)
            #expect(event.link?.string == "myapp://open/1")
            #expect(event.source == .urlScheme)
            #expect(event.elapsed >= 0)
            if case .finished = event.kind { break }
        }
        #expect(
            seen == [
                .received, .matched(route: "open"), .dispatched(route: "open"),
                .finished(.handled(route: "open", plan: .pushOverRoot(.open(1)))),
            ]
        )
    }

    @Test("Notification actions run their handler without routing; dismissals are reported")
    func notificationActions() async throws {
        let app = try SimulatedApp(
            routes: [("post", "/posts/{id:int}", .post(1), [])],
            intake: {
                $0.notificationCategories = NotificationCategoryCatalog([
                    NotificationCategory(
                        id: "post",
                        actions: [NotificationAction(id: "like", title: "Like", target: .handler)],
                        reportsDismiss: true
                    )
                ])
            },
            policy: LinkPolicy(schemes: ["myapp"])
        )
        await app.launch()  // not active: a background action still runs
        let payload: PayloadValue = ["aps": ["category": "post"], "postId": "4", "deeplink": "myapp://posts/4"]
        await app.deliver(
            NotificationResponseSnapshot(actionIdentifier: "like", requestIdentifier: "p4", userInfo: payload)
        )
        await app.deliver(
            NotificationResponseSnapshot(actionIdentifier: NotificationActionIdentifier.dismiss, userInfo: payload)
        )
        #expect(await eventually { !app.actions.current.isEmpty })
        #expect(app.actions.current == ["like:4"])
        #expect(app.events.read { $0.map(\.kind) }.contains(.dismissed(action: NotificationActionIdentifier.dismiss)))
        #expect(app.events.read { $0.map(\.kind) }.contains(.actionInvoked(action: "like")))
        #expect(app.screens.isEmpty)
    }

    @Test("Policy and routing run once per link, and once per redirect target: never again at run time")
    func resolvedOncePerLink() async throws {
        let probe = ResolutionProbe()
        // A link restored from a previous process is resolved when it is restored, not again.
        let restored = PendingLink(
            id: UUID(),
            link: "myapp://items/9",
            source: .urlScheme,
            identity: "url:myapp://items/9",
            receivedAt: Date()
        )
        let dispatcher = try LinkDispatcher<String>(
            routes: [
                LinkRoute("item", "/items/{id:int}") { match in
                    let id = match.parameters.int("id") ?? 0
                    return id == 2 ? .declined : .handled(.push("item \(id)"))
                },
                LinkRoute("named", "/items/{name}") { match in .push("named \(match.parameters.string("name") ?? "")")
                },
                LinkRoute("old", "/old") { _ in .redirect(to: "/items/1") },
                LinkRoute("vault", "/vault", sources: [.universalLink]) { _ in .push("vault") },
            ],
            policy: LinkPolicy(schemes: ["myapp"]),
            router: RouterConfiguration(),
            barriers: [],
            mandatoryBarriers: [],
            fallbacks: LinkFallbacks(),
            configuration: DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 8)),
            store: InMemoryPendingLinkStore([restored]),
            clock: SystemDispatchClock(),
            probe: probe
        )
        // Held first: a held link is resolved at receipt and not again when it runs.
        var ids: [UUID] = []
        for text in ["myapp://items/1", "myapp://items/2", "myapp://old", "myapp://nowhere", "myapp://vault"] {
            ids.append(try #require(await dispatcher.receive(try DeepLink(text, source: .urlScheme))))
        }
        #expect(await dispatcher.receive(try DeepLink("evil://items/1", source: .urlScheme)) == nil)
        #expect(probe.total == 7)  // the restored link, five held, one refused at receipt
        let shown = Locked<[String]>([])
        await dispatcher.setNavigator { plan, _ in shown.update { $0.append(plan.destination) } }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        await settle(dispatcher)
        // The declined link fell through to the next route without routing again; the redirect's
        // target was resolved once, as a link of its own.
        #expect(shown.current == ["item 9", "item 1", "named 2", "item 1"])
        #expect(await dispatcher.outcome(of: ids[3]) == .notFound)
        #expect(await dispatcher.outcome(of: ids[4]).map { if case .forbidden = $0 { true } else { false } } == true)
        #expect(probe.total == 8)
    }

    @Test("receive names every link it took, a dropped one too, so outcome(of:) can follow it; a refusal has no name")
    func receiveNamesWhatItTook() async throws {
        let dispatcher = try LinkDispatcher<String>(
            routes: [LinkRoute("open", "/open/{id:int}") { _ in .push("open") }],
            policy: LinkPolicy(schemes: ["myapp"]),
            configuration: DispatcherConfiguration(queuePolicy: .firstInFirstOut(limit: 1))
        )
        let first = await dispatcher.receive(try DeepLink("myapp://open/1", source: .urlScheme))
        let dropped = try #require(await dispatcher.receive(try DeepLink("myapp://open/2", source: .urlScheme)))
        #expect(first != nil)
        #expect(await dispatcher.outcome(of: dropped) == .dropped)
        #expect(await dispatcher.receive(try DeepLink("evil://open/1", source: .urlScheme)) == nil)
        #expect(await dispatcher.receive(try DeepLink("myapp://open/1", source: .urlScheme)) == nil)  // a duplicate
    }

    @Test("Restored links are reported as restored before any of them runs")
    func restoredBeforeRun() async throws {
        let store = PendingLinkStoreTests.leftBehind("myapp://open/1")
        let dispatcher = try LinkDispatcher<String>(
            routes: [LinkRoute("open", "/open/{id:int}") { _ in .push("open") }],
            policy: LinkPolicy(schemes: ["myapp"]),
            store: store
        )
        let kinds = Locked<[DispatchEvent<String>.Kind]>([])
        await dispatcher.observe { event in kinds.update { $0.append(event.kind) } }
        await dispatcher.setNavigator { _, _ in }
        await dispatcher.appDidBecomeActive()
        await dispatcher.appDidBecomeReady()
        await settle(dispatcher)
        let restored = try #require(kinds.current.firstIndex(of: .restored(count: 1)))
        let matched = try #require(kinds.current.firstIndex(of: .matched(route: "open")))
        #expect(restored < matched)
    }
}
