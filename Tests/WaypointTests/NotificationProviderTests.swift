import Foundation
import Testing

@testable import Waypoint

/// Push providers' payloads, as their documentation and SDK sources show them (shapes and keys
/// only; values made up), read by the presets.
@Suite("Push providers' payloads resolve out of the box")
struct NotificationProviderTests {
    /// One payload per provider whose tap opens `myapp://books/42`, written from the provider's
    /// documentation and SDK source (the preset's `reference`), not from the preset's own sample.
    static let fixtures: [(provider: String, json: String, linkPath: [String])] = [
        (
            "braze", #"{"aps":{"alert":{"title":"T","body":"B"}},"ab":{"c":"x"},"ab_uri":"myapp://books/42"}"#,
            ["ab_uri"]
        ),
        (
            "oneSignal",
            #"{"aps":{"alert":{"title":"T","body":"B"},"mutable-content":1},"custom":{"i":"9f1c","u":"myapp://books/42","a":{"k":"v"}},"buttons":[{"i":"read","n":"Read"}]}"#,
            ["custom", "u"]
        ),
        (
            "airship",
            #"{"aps":{"alert":"B","category":"my_cat"},"_":"send-id","^d":"myapp://books/42"}"#,
            ["^d"]
        ),
        (
            "cleverTap",
            #"{"aps":{"alert":{"title":"T","body":"B"}},"wzrk_id":"1700000000_20240101","wzrk_pivot":"wzrk_default","wzrk_dl":"myapp://books/42"}"#,
            ["wzrk_dl"]
        ),
        (
            "iterable",
            #"{"aps":{"alert":{"title":"T","body":"B"}},"itbl":{"campaignId":123,"templateId":456,"messageId":"m1","isGhostPush":false,"defaultAction":{"type":"openUrl","data":"myapp://books/42"}}}"#,
            ["itbl", "defaultAction", "data"]
        ),
        (
            "customerIO",
            #"{"aps":{"alert":{"title":"T","body":"B"}},"CIO-Delivery-ID":"d1","CIO-Delivery-Token":"tok","CIO":{"push":{"link":"myapp://books/42"}}}"#,
            ["CIO", "push", "link"]
        ),
        (
            "batch",
            #"{"aps":{"alert":{"title":"T","body":"B"}},"com.batch":{"i":"c1","l":"myapp://books/42","t":"t"}}"#,
            ["com.batch", "l"]
        ),
        (
            "firebase",
            #"{"aps":{"alert":{"title":"T","body":"B"}},"gcm.message_id":"1234","google.c.sender.id":"5678","gcm.app_link":"myapp://books/42"}"#,
            ["gcm.app_link"]
        ),
        (
            "pinpoint",
            #"{"aps":{"alert":"B"},"data":{"pinpoint":{"deeplink":"myapp://books/42","campaign":{"campaign_id":"c1"}}}}"#,
            ["data", "pinpoint", "deeplink"]
        ),
    ]

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

    @Test("Each provider's documented payload resolves to the route", arguments: fixtures.map(\.provider))
    func fixtureResolves(name: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.provider == name })
        let provider = try #require(NotificationProvider.preset(named: name))
        let payload = try PayloadValue(json: fixture.json)
        let link = try #require(Self.intake([provider]).notification(Self.tap(payload)).link)
        #expect(link.string == "myapp://books/42")
        #expect(link.source == .notification)
        #expect(try Self.resolver().resolve(link).match?.route.name == "book")
        // Without the preset the payload has no link the app reads.
        #expect(Self.intake([]).notification(Self.tap(payload)).error?.code == .noLink)
        // The preset's own sample, what `waypoint payload --provider` prints, resolves too.
        #expect(
            Self.intake([provider]).notification(Self.tap(provider.samplePayload("myapp://books/7"))).link?.string
                == "myapp://books/7"
        )
    }

    @Test("The same payload with the link removed says which preset looked where", arguments: fixtures.map(\.provider))
    func fixtureWithoutLink(name: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.provider == name })
        let provider = try #require(NotificationProvider.preset(named: name))
        let payload = Self.removing(fixture.linkPath, from: try PayloadValue(json: fixture.json))
        let error = try #require(Self.intake([provider, .braze]).notification(Self.tap(payload)).error)
        #expect(error.code == .noLink)
        #expect(error.message.contains(provider.places), "\(error.message)")
        #expect(error.message.contains("Braze: ab_uri"))
    }

    @Test("A provider's own pushes are not for routing, and the dispatcher runs no fallback for them")
    func internalPushes() async throws {
        let ownPushes: [(NotificationProvider, String)] = [
            (.braze, #"{"aps":{"content-available":1},"ab":{"c":"x"},"appboy_uninstall_tracking":"true"}"#),
            (
                .iterable,
                #"{"aps":{"content-available":1},"itbl":{"isGhostPush":true},"notificationType":"InAppUpdate"}"#
            ),
            (.airship, #"{"aps":{"content-available":1},"com.urbanairship.remote-data.update":true}"#),
            (.moEngage, #"{"aps":{"content-available":1},"moengage":{"silentPush":1}}"#),
            (.cleverTap, #"{"aps":{"alert":"B"},"wzrk_inapp":{"type":"interstitial"}}"#),
            (.oneSignal, #"{"aps":{"alert":"B"},"custom":{"i":"x","a":{"os_in_app_message_preview_id":"p1"}}}"#),
        ]
        for (provider, json) in ownPushes {
            let error = try #require(Self.intake([provider]).notification(Self.tap(try PayloadValue(json: json))).error)
            #expect(error.code == .notForRouting, "\(provider)")
            #expect(error.message.hasPrefix("The notification is \(provider.title)'s own push ("))
        }
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
        let silent = try PayloadValue(json: ownPushes[0].1)
        #expect(await dispatcher.receive(Self.intake([.braze]).notification(Self.tap(silent))) == nil)
        try await Task.sleep(nanoseconds: 20_000_000)
        #expect(events.current.count == 1)
        if case .finished(.notForRouting(let message)) = events.current.first {
            #expect(message.contains("appboy_uninstall_tracking"))
        } else {
            Issue.record("expected a not-for-routing event, got \(events.current)")
        }
        #expect(invalid.current.isEmpty)
    }

    @Test("Action buttons: a provider's own button opens its link")
    func buttons() throws {
        let iterable = NotificationProvider.iterable.samplePayload("myapp://books/5")
        #expect(
            Self.intake([.iterable]).notification(Self.tap(iterable, action: "read")).link?.string
                == "myapp://books/5"
        )
        let airship = NotificationProvider.airship.samplePayload("myapp://books/6")
        #expect(
            Self.intake([.airship]).notification(Self.tap(airship, action: "read")).link?.string == "myapp://books/6"
        )
        // A button the payload does not describe is still an unmapped action.
        #expect(Self.intake([.airship]).notification(Self.tap(airship, action: "other")).error?.code == .unmappedAction)
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
                    switch marker.form {
                    case .flag: [true, 1, "true", "1"]
                    case .value: ["5b1c0d2e-id", ["type": "interstitial"], 7]
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

    /// `payload` with `value` at `path`, objects made on the way.
    static func setting(_ path: PayloadPath, to value: PayloadValue) -> PayloadValue {
        func set(_ keys: ArraySlice<String>, in object: PayloadValue?) -> PayloadValue {
            guard let key = keys.first else { return value }
            var fields: [String: PayloadValue] = [:]
            if case .object(let existing) = object { fields = existing }
            fields[key] = set(keys.dropFirst(), in: fields[key])
            return .object(fields)
        }
        return set(ArraySlice(path.keys), in: ["aps": ["alert": "Hi"]])
    }
}
