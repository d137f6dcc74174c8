import Foundation
import Testing

@testable import Waypoint

/// Push providers' payloads, as their documentation and SDK sources show them (shapes and keys
/// only; values made up), read by the presets.
@Suite("Push providers' payloads resolve out of the box", .timeLimit(.minutes(1)))
struct NotificationProviderTests {
    /// One push of a provider's, copied from its documentation or SDK tests, or, where the provider
    /// publishes no whole payload, built key by key from its SDK source (each file's `source` says
    /// which; the links changed to the app's), and what it must do.
    struct DocumentedPush: Decodable {
        var name: String
        var payload: PayloadValue
        var action: String?
        var opens: String?
        var ownPush: Bool?
        var opensNothing: Bool?
    }

    /// A provider's documented pushes: `Fixtures/Pushes/<preset>.json`, with where they come from.
    struct DocumentedPushes: Decodable {
        var provider: String
        var source: String
        var cases: [DocumentedPush]
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Pushes")

    static func documented(_ name: String) throws -> DocumentedPushes {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("\(name).json"))
        return try JSONDecoder().decode(DocumentedPushes.self, from: data)
    }

    static let policy = LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"])

    static func resolver() throws -> LinkResolver<String> {
        var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("book", "/books/{id:int}", value: "book")
        return LinkResolver(router: try builder.build(), policy: policy)
    }

    static func intake(_ providers: [NotificationProvider], rules: [NotificationRule] = []) -> LinkIntake {
        LinkIntake(policy: policy, notificationProviders: providers, notificationRules: rules)
    }

    static func tap(
        _ payload: PayloadValue,
        action: String = NotificationActionIdentifier.default
    )
        -> NotificationResponseSnapshot
    {
        NotificationResponseSnapshot(actionIdentifier: action, requestIdentifier: "n1", userInfo: payload)
    }

    /// The payload without the value at `path`.
    static func removing(_ path: [String], from payload: PayloadValue) -> PayloadValue {
        guard let first = path.first, case .object(var members) = payload else { return payload }
        if path.count == 1 {
            members[first] = nil
        } else if let inner = members[first] {
            members[first] = removing(Array(path.dropFirst()), from: inner)
        }
        return .object(members)
    }

    @Test("Each provider's documented pushes do what its SDK does", arguments: NotificationProvider.presets.map(\.name))
    func documentedPushes(name: String) throws {
        let provider = try #require(NotificationProvider.preset(named: name))
        let pushes = try Self.documented(name)
        #expect(pushes.provider == name)
        #expect(!pushes.source.isEmpty)
        let resolver = try Self.resolver()
        for push in pushes.cases {
            let what = "\(name): \(push.name)"
            let tap = Self.tap(push.payload, action: push.action ?? NotificationActionIdentifier.default)
            let reading = Self.intake([provider]).readNotification(tap)
            switch (push.opens, push.ownPush, push.opensNothing) {
            case (let link?, nil, nil):
                let opened = try #require(reading.result.link, "\(what): \(reading.result)")
                #expect(opened.string == link, "\(what)")
                #expect(opened.source == .notification, "\(what)")
                #expect(resolver.resolve(opened).match?.route.name == "book", "\(what)")
                // Read by the preset (or by the app's default key at the same place: Klaviyo's `url`).
                switch reading.reader {
                case .provider(let reader, _)?, .button(let reader, _, _)?: #expect(reader == provider, "\(what)")
                case .linkKey(let key)? where provider.links.contains { $0.path.keys == [key] }: break
                default: Issue.record("\(what): read by \(String(describing: reading.reader))")
                }
            case (nil, true?, nil):
                let error = try #require(reading.result.error, "\(what): \(reading.result)")
                #expect(error.code == .notForRouting, "\(what)")
                #expect(error.message.hasPrefix("The notification is \(provider.title)'s own push ("), "\(what)")
            case (nil, nil, true?):
                switch reading.result {
                case .link(let link, _): Issue.record("\(what) must open nothing, opened \(link)")
                case .action(let invocation):
                    // A button the provider sent without a link: the app's action, reported.
                    #expect(invocation.providerButton == provider.title, "\(what)")
                case .failure(let error): #expect(error.code == .noLink, "\(what): \(error.message)")
                case .dismissed: Issue.record("\(what) was read as a dismissal")
                }
            default:
                Issue.record("\(what): a case says one of opens, ownPush or opensNothing")
            }
        }
    }

    @Test(
        "Each preset's documented pushes cover its tap, its buttons and its own pushes",
        arguments: NotificationProvider.presets.map(\.name)
    )
    func documentedCoverage(name: String) throws {
        let provider = try #require(NotificationProvider.preset(named: name))
        let cases = try Self.documented(name).cases
        let taps = cases.filter { $0.action == nil }
        let buttons = cases.filter { $0.action != nil }
        if !provider.links.isEmpty { #expect(taps.contains { $0.opens != nil }, "\(name): a tap that opens its link") }
        if provider.buttons != nil {
            #expect(buttons.contains { $0.opens != nil }, "\(name): a button that opens a link")
            #expect(buttons.contains { $0.opensNothing == true }, "\(name): a button without a link")
        }
        for marker in provider.internalMarkers {
            let marked = cases.contains { $0.ownPush == true && marker.marks($0.payload) }
            #expect(marked, "\(name): a documented push with \(marker)")
        }
        #expect(cases.contains { $0.opens == nil }, "\(name): a push that must not route")
    }

    @Test(
        "A documented tap without the preset's places says which preset looked where",
        arguments: NotificationProvider.presets.map(\.name)
    )
    func documentedTapWithoutLink(name: String) throws {
        let provider = try #require(NotificationProvider.preset(named: name))
        for push in try Self.documented(name).cases where push.action == nil && push.opens != nil {
            var payload = push.payload
            for place in provider.links { payload = Self.removing(place.path.keys, from: payload) }
            let error = try #require(Self.intake([provider, .braze]).notification(Self.tap(payload)).error)
            #expect(error.code == .noLink, "\(name): \(push.name)")
            #expect(error.message.contains(provider.places), "\(error.message)")
            #expect(error.message.contains("Braze: ab_uri"))
        }
        // Each preset's own sample, what `waypoint payload --provider` prints, opens its link.
        if !provider.links.isEmpty {
            #expect(
                Self.intake([provider]).notification(Self.tap(provider.samplePayload("myapp://books/7"))).link?.string
                    == "myapp://books/7",
                "\(name)"
            )
        }
    }

    @Test("A provider's own pushes are not for routing, and the dispatcher runs no fallback for them")
    func internalPushes() async throws {
        let silent = try #require(try Self.documented("braze").cases.first { $0.ownPush == true }?.payload)
        // An ordinary Iterable push says isGhostPush: false; it is not internal.
        #expect(
            Self.intake([.iterable]).notification(
                Self.tap(NotificationProvider.iterable.samplePayload("myapp://books/1"))
            )
            .link != nil
        )

        let invalid = Locked<[String]>([])
        let dispatcher = try LinkDispatcher<String>(
            routes: [LinkRoute("book", "/books/{id:int}") { _ in .push("book") }],
            policy: Self.policy,
            router: RouterConfiguration(linkScheme: "myapp"),
            fallbacks: LinkFallbacks(invalid: { input, _ in invalid.update { $0.append(input) } })
        )
        let events = Locked<[DispatchEvent<String>.Kind]>([])
        await dispatcher.observe { event in events.update { $0.append(event.kind) } }
        #expect(await dispatcher.receive(Self.intake([.braze]).notification(Self.tap(silent))) == nil)
        #expect(await eventually { !events.current.isEmpty })
        try await Task.sleep(for: .milliseconds(20))  // time for a second event, which must not come
        #expect(events.current.count == 1)
        if case .finished(.notForRouting(let message)) = events.current.first {
            #expect(message.contains("appboy_uninstall_tracking"))
        } else {
            Issue.record("expected a not-for-routing event, got \(events.current)")
        }
        #expect(invalid.current.isEmpty)
    }

    @Test("Buttons sent with the push open their link with no category declared; one without a link is reported")
    func buttons() async throws {
        let iterable = NotificationProvider.iterable.samplePayload("myapp://books/5")
        #expect(
            Self.intake([.iterable]).notification(Self.tap(iterable, action: "read")).link?.string
                == "myapp://books/5"
        )
        let airship = NotificationProvider.airship.samplePayload("myapp://books/6")
        #expect(
            Self.intake([.airship]).notification(Self.tap(airship, action: "read")).link?.string == "myapp://books/6"
        )
        // A button the payload does not describe is still an unmapped action, and says where it looked.
        let unmapped = try #require(Self.intake([.airship]).notification(Self.tap(airship, action: "other")).error)
        #expect(unmapped.code == .unmappedAction)
        #expect(unmapped.message.contains("the payload has no such button (Airship's buttons at"))
        // Numbered buttons take digits only: no sign, and no number that overflows.
        let countly = try #require(try Self.documented("countly").cases.first { $0.action != nil }?.payload)
        for action in [
            "CountlyActionIdentifier-9223372036854775808", "CountlyActionIdentifier+1",
            "CountlyActionIdentifier", "CountlyActionIdentifier99999999999999999999", "CountlyActionIdentifier0",
        ] {
            #expect(
                Self.intake([.countly]).notification(Self.tap(countly, action: action)).error?.code == .unmappedAction
            )
        }
        // A marker stops the provider's link and buttons, not an action the app declared: a Batch
        // landing is a visible push, and its buttons are the app's.
        let landing: PayloadValue = [
            "aps": ["alert": "Hi", "category": "offer"], "com.batch": ["l": "myapp://books/1", "ld": ["id": "l1"]],
        ]
        var withCategory = Self.intake([.batch])
        withCategory.notificationCategories = NotificationCategoryCatalog([
            NotificationCategory(
                id: "offer",
                actions: [NotificationAction(id: "save", title: "Save", target: .handler)]
            )
        ])
        guard case .action = withCategory.notification(Self.tap(landing, action: "save")) else {
            Issue.record("the app's handler action runs on a push with a provider's marker")
            return
        }
        #expect(withCategory.notification(Self.tap(landing)).error?.code == .notForRouting)
        // A link that fails to parse still says which preset read it.
        let broken = Self.intake([.braze]).readNotification(Self.tap(["ab_uri": "myapp://books/\u{202E}1"]))
        #expect(broken.result.error?.code == .invalidLink)
        guard case .provider(let reader, _)? = broken.reader else {
            Issue.record("no reader for a link that fails: \(String(describing: broken.reader))")
            return
        }
        #expect(reader == .braze)
        // An app action handler for the button runs; without one, the dispatcher reports the tap.
        let klaviyo = try #require(
            try Self.documented("klaviyo").cases.first { $0.action != nil && $0.opensNothing == true }
        )
        let result = Self.intake([.klaviyo]).notification(Self.tap(klaviyo.payload, action: klaviyo.action ?? ""))
        let handled = Locked<[String]>([])
        let events = Locked<[DispatchEvent<String>.Kind]>([])
        typealias Actions = [String: @Sendable (NotificationActionInvocation) async -> Void]
        let handler: Actions = [
            "someOtherId": { invocation in handled.update { $0.append(invocation.actionIdentifier) } }
        ]
        for actions in [Actions(), handler] {
            let dispatcher = try LinkDispatcher<String>(
                routes: [LinkRoute("book", "/books/{id:int}") { _ in .push("book") }],
                policy: Self.policy,
                router: RouterConfiguration(linkScheme: "myapp"),
                fallbacks: LinkFallbacks(actions: actions)
            )
            await dispatcher.observe { event in events.update { $0.append(event.kind) } }
            #expect(await dispatcher.receive(result) == nil)
        }
        func reported() -> [String] {
            events.current.compactMap { kind -> String? in
                if case .finished(.notForRouting(let message)) = kind { return message }
                return nil
            }
        }
        #expect(await eventually { !handled.current.isEmpty && !reported().isEmpty })
        try await Task.sleep(for: .milliseconds(20))  // time for a second run or report, which must not come
        #expect(handled.current == ["someOtherId"])
        // Only the dispatcher with a handler says it ran one; the other says only what became of the tap.
        #expect(events.current.filter { $0 == .actionInvoked(action: "someOtherId") }.count == 1)
        #expect(events.current.count == 2)
        #expect(
            reported() == [
                "Klaviyo's button 'someOtherId' opens no link, and no action handler is given for it: the app opens "
                    + "where it was."
            ]
        )
    }

    @Test("The app's keys come first, then the providers as listed, then the rules")
    func order() throws {
        let payload: PayloadValue = [
            "deeplink": "myapp://books/1", "ab_uri": "myapp://books/2", "wzrk_dl": "myapp://books/3", "x": "4",
        ]
        let rule = NotificationRule(.present("x"), link: "/books/{x}")
        #expect(
            Self.intake([.braze, .cleverTap], rules: [rule]).notification(Self.tap(payload)).link?.string
                == "myapp://books/1"
        )
        let withoutKey = Self.removing(["deeplink"], from: payload)
        #expect(
            Self.intake([.cleverTap, .braze], rules: [rule]).notification(Self.tap(withoutKey)).link?.string
                == "myapp://books/3"
        )
        let onlyRule = Self.removing(["wzrk_dl"], from: Self.removing(["ab_uri"], from: withoutKey))
        #expect(
            Self.intake([.cleverTap, .braze], rules: [rule]).notification(Self.tap(onlyRule)).link?.string
                == "/books/4"
        )
    }

    @Test("Every preset cites its source and reads its own sample; names are unique")
    func presets() {
        #expect(Set(NotificationProvider.presets.map(\.name)).count == NotificationProvider.presets.count)
        for preset in NotificationProvider.presets {
            #expect(!preset.reference.isEmpty)
            #expect(NotificationProvider.preset(named: preset.name.uppercased()) == preset)
            let sample = preset.samplePayload("myapp://books/9")
            if preset.links.isEmpty {
                #expect(
                    preset.internalMarker(in: sample) != nil,
                    "\(preset): a link-less preset exists for its markers"
                )
            } else {
                #expect(preset.link(in: sample) == "myapp://books/9", "\(preset)")
                #expect(preset.internalMarker(in: sample) == nil, "\(preset)")
            }
        }
        #expect(PayloadPath("com.batch", "l").description == #""com.batch".l"#)
        // A place is read as a key path is: a key with dots of its own is found unquoted too.
        let fcm: PayloadValue = ["gcm.message_id": "m1", "google.c.a.c_l": "Spring", "a": ["b": 1]]
        #expect(PayloadPath("gcm", "message_id").value(in: fcm) == "m1")
        #expect(PayloadPath(dotted: "google.c.a.c_l")?.value(in: fcm) == fcm["google.c.a.c_l"])
        #expect(PayloadPath("gcm.message_id").value(in: fcm) == "m1")
        #expect(PayloadPath("a", "b").value(in: fcm) == 1)
        #expect(PayloadPath("a.b").value(in: fcm) == nil)
    }

    static let falsyMarkerValues: [PayloadValue] = [
        false, 0, .double(0), "", " ", "False", "false", "FALSE", "0", "0.0", "off", "no", "null", "nil", .null,
    ]

    /// Hostile input, round 3: a visible push whose marker holds a falsy value was taken as the
    /// provider's own silent push, and its link dropped.
    @Test("A marker marks a push only in its documented form; a falsy value at its place routes the link")
    func markerForms() {
        for preset in NotificationProvider.presets {
            for marker in preset.internalMarkers {
                let documented: [PayloadValue] =
                    switch (marker.form, marker.equals) {
                    case (_, let value?): [.string(value)]
                    case (.flag, nil): [true, 1, "true", "1"]
                    case (.value, nil): ["5b1c0d2e-id", ["type": "interstitial"], 7]
                    }
                for value in documented {
                    #expect(marker.marks(Self.setting(marker.path, to: value)), "\(preset) \(marker) \(value)")
                }
                for value in Self.falsyMarkerValues {
                    #expect(!marker.marks(Self.setting(marker.path, to: value)), "\(preset) \(marker) \(value)")
                }
                if marker.form == .flag {
                    for value: PayloadValue in ["yes", "on", 2, -1, ["x": 1], ["true"]] {
                        #expect(!marker.marks(Self.setting(marker.path, to: value)), "\(preset) \(marker) \(value)")
                    }
                }
            }
        }
        // Through the intake: a Braze push with a falsy uninstall-tracking flag opens its link.
        for value in Self.falsyMarkerValues {
            let payload: PayloadValue = [
                "aps": ["alert": "Hi"], "ab": ["c": "x"], "ab_uri": "myapp://books/5",
                "appboy_uninstall_tracking": value,
            ]
            let result = Self.intake([.braze]).notification(
                Self.tap(payload)
            )
            #expect(result.link?.string == "myapp://books/5", "\(value)")
        }
        let silent: PayloadValue = ["aps": ["content-available": 1], "appboy_uninstall_tracking": true]
        #expect(
            Self.intake([.braze]).notification(Self.tap(silent))
                .error?.code == .notForRouting
        )
    }

    /// A visible push with `value` at `path`.
    static func setting(_ path: PayloadPath, to value: PayloadValue) -> PayloadValue {
        path.setting(value, in: ["aps": ["alert": "Hi"]])
    }
}
