import Foundation
import Testing

@testable import Waypoint

@Suite("Intake turns every source into one link, and reports what it cannot")
struct IntakeTests {
    let intake: LinkIntake = {
        var intake = LinkIntake(policy: LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"]))
        intake.notificationRules = [
            NotificationRule(.equals("aps.category", "bookDetail"), link: "/books/{book_id}"),
            NotificationRule(.present("data.messageId"), link: "/messages/{data.messageId}"),
        ]
        intake.notificationCategories = NotificationCategoryCatalog([
            NotificationCategory(
                id: "post",
                actions: [
                    NotificationAction(id: "like", title: "Like", target: .handler),
                    NotificationAction(id: "open", title: "Open", options: .foreground, target: .payloadLink),
                    NotificationAction(
                        id: "report",
                        title: "Report",
                        options: .destructive,
                        target: .link("/posts/{postId}/report")
                    ),
                ]
            )
        ])
        intake.notificationSettingsLink = "/settings/notifications"
        intake.shortcutRoutes = ["com.example.chat": "/messages/{id}", "com.example.activity": "/activity"]
        intake.activityRoutes = ["com.example.reading": "/books/{bookID}"]
        intake.webMessages = [
            WebMessageRoute(name: "openLink"), WebMessageRoute(name: "openBook", link: "/books/{id}"),
        ]
        return intake
    }()

    @Test("URLs: a custom scheme, a universal link, a web link")
    func urls() {
        #expect(intake.url("myapp://messages/1").link?.source == .urlScheme)
        #expect(intake.url("https://example.com/books/42").link?.source == .universalLink)
        #expect(intake.url("https://elsewhere.org/").link?.source == .web)
        #expect(intake.url("myapp://a b").error?.code == .invalidLink)
        #expect(intake.url("myapp://a b").error?.underlyingCode == .invalidCharacter)
        if case .link(_, let identity) = intake.url("myapp://messages/1") {
            #expect(identity == "url:myapp://messages/1")
        }
    }

    @Test("A push payload under data maps through a rule, with the original payload kept")
    func pushRule() throws {
        let payload: PayloadValue = ["aps": ["alert": "New message"], "data": ["messageId": "1"]]
        let link = try #require(
            intake.notification(NotificationResponseSnapshot(requestIdentifier: "n1", userInfo: payload)).link
        )
        #expect(link.string == "/messages/1")
        #expect(link.source == .notification)
        #expect(link.payload == payload)
    }

    @Test("A category rule reads top-level keys")
    func categoryRule() {
        let payload: PayloadValue = ["aps": ["category": "bookDetail"], "book_id": "42"]
        #expect(intake.notification(NotificationResponseSnapshot(userInfo: payload)).link?.string == "/books/42")
    }

    @Test("A link under deeplink, url or link, at the top level or under data, parsed leniently")
    func linkKeys() {
        for payload: PayloadValue in [
            ["deeplink": "myapp://books/7"], ["url": "myapp://books/7"], ["data": ["link": "myapp://books/7"]],
        ] {
            #expect(
                intake.notification(NotificationResponseSnapshot(userInfo: payload)).link?.string == "myapp://books/7"
            )
        }
        let chinese = intake.notification(NotificationResponseSnapshot(userInfo: ["deeplink": "myapp://search?q=三体"]))
        #expect(chinese.link?.queryValue("q") == "三体")
    }

    @Test("An explicit link in the payload wins over a rule that also applies")
    func keysBeforeRules() {
        let payload: PayloadValue = ["deeplink": "myapp://books/3", "data": ["messageId": "1"]]
        #expect(intake.notification(NotificationResponseSnapshot(userInfo: payload)).link?.string == "myapp://books/3")
    }

    @Test("A payload with no link is a failure carrying the payload")
    func noLink() {
        let error = intake.notification(NotificationResponseSnapshot(userInfo: ["aps": ["alert": "hi"]])).error
        #expect(error?.code == .noLink)
        #expect(error?.input == #"{"aps":{"alert":"hi"}}"#)
    }

    @Test("Template values are encoded, so a value cannot add segments")
    func templateEncoding() {
        let payload: PayloadValue = ["data": ["messageId": "1/../../admin?x=1"]]
        #expect(
            intake.notification(NotificationResponseSnapshot(userInfo: payload)).link?.pathSegments == [
                "messages", "1/../../admin?x=1",
            ]
        )
    }

    @Test("Default, custom and dismiss actions are told apart")
    func actions() {
        let payload: PayloadValue = ["aps": ["category": "post"], "postId": "9", "deeplink": "myapp://posts/9"]
        func response(_ action: String) -> NotificationResponseSnapshot {
            NotificationResponseSnapshot(actionIdentifier: action, requestIdentifier: "n9", userInfo: payload)
        }
        guard case .action(let like) = intake.notification(response("like")) else {
            Issue.record("like runs a handler")
            return
        }
        #expect(like.actionIdentifier == "like")
        #expect(like.payload["postId"] == "9")
        #expect(intake.notification(response("open")).link?.string == "myapp://posts/9")
        #expect(intake.notification(response("report")).link?.string == "/posts/9/report")
        guard case .dismissed = intake.notification(response(NotificationActionIdentifier.dismiss)) else {
            Issue.record("dismiss is a dismissal")
            return
        }
        #expect(intake.notification(response("unknown")).error?.code == .unmappedAction)
        if case .link(_, let identity) = intake.notification(response("open")) {
            // The request, the action, and the content (a collapsed push keeps its request's identifier).
            #expect(identity == "notification:n9:open:" + DeliveryIdentity.digest(payload.description))
            #expect(DeliveryIdentity.digest("a") != DeliveryIdentity.digest("b"))
            // Pinned: a link a previous build kept pending carries its identity, so the digest
            // (64-bit FNV-1a, hex) never changes with the router's hash tables.
            #expect(DeliveryIdentity.digest("") == "cbf29ce484222325")
            #expect(DeliveryIdentity.digest("a") == "af63dc4c8601ec8c")
        }
    }

    @Test("Open notification settings leads to the configured route")
    func settings() {
        #expect(intake.notificationSettings().link?.string == "/settings/notifications")
        #expect(LinkIntake(policy: LinkPolicy()).notificationSettings().error?.code == .noLink)
    }

    @Test("Quick actions: type to route, userInfo values to parameters and query items")
    func shortcuts() {
        let chat = intake.shortcut(
            ShortcutItemSnapshot(type: "com.example.chat", userInfo: ["id": "1", "ref": "home"])
        )
        #expect(chat.link?.string == "/messages/1?ref=home")
        #expect(chat.link?.source == .shortcut)
        #expect(intake.shortcut(ShortcutItemSnapshot(type: "com.example.activity")).link?.string == "/activity")
        let unknown = intake.shortcut(ShortcutItemSnapshot(type: "com.example.gone"))
        #expect(unknown.error?.description == "No route is mapped for the quick action type 'com.example.gone'.")
        #expect(intake.shortcut(ShortcutItemSnapshot(type: "com.example.chat")).error?.code == .missingValue)
    }

    @Test("User activities: browsing-web, Spotlight, the app's own types")
    func activities() throws {
        let web = UserActivitySnapshot(
            activityType: UserActivityType.browsingWeb,
            webpageURL: URL(string: "https://example.com/books/42")
        )
        #expect(intake.userActivity(web).link?.source == .universalLink)
        let spotlight = UserActivitySnapshot(
            activityType: UserActivityType.spotlightItem,
            userInfo: [UserActivityType.spotlightIdentifierKey: "myapp://books/42"]
        )
        #expect(intake.userActivity(spotlight).link?.string == "myapp://books/42")
        #expect(
            intake.userActivity(UserActivitySnapshot(activityType: "com.example.reading", userInfo: ["bookID": 42]))
                .link?.string == "/books/42"
        )
        #expect(
            intake.userActivity(UserActivitySnapshot(activityType: "com.example.other")).error?.code
                == .unmappedActivity
        )
        #expect(
            intake.userActivity(UserActivitySnapshot(activityType: UserActivityType.browsingWeb)).error?.code == .noLink
        )
    }

    @Test("Web messages only from the main frame of an allowed https origin, under an accepted name")
    func webMessages() {
        let good = WebMessageSnapshot(name: "openLink", body: "/books/42", origin: "https://example.com")
        #expect(intake.webMessage(good).link?.string == "/books/42")
        #expect(intake.webMessage(good).link?.source == .webMessage)
        let object = WebMessageSnapshot(
            name: "openLink",
            body: ["url": "myapp://books/1"],
            origin: "https://example.com"
        )
        #expect(intake.webMessage(object).link?.string == "myapp://books/1")
        let templated = WebMessageSnapshot(name: "openBook", body: ["id": 7], origin: "https://example.com")
        #expect(intake.webMessage(templated).link?.string == "/books/7")
        let frame = WebMessageSnapshot(
            name: "openLink",
            body: "/books/42",
            origin: "https://example.com",
            isMainFrame: false
        )
        #expect(intake.webMessage(frame).error?.code == .notMainFrame)
        let evil = WebMessageSnapshot(name: "openLink", body: "/books/42", origin: "https://evil.com")
        #expect(intake.webMessage(evil).error?.code == .untrustedOrigin)
        let plain = WebMessageSnapshot(name: "openLink", body: "/books/42", origin: "http://example.com")
        #expect(intake.webMessage(plain).error?.code == .untrustedOrigin)
        let unknown = WebMessageSnapshot(name: "runScript", body: "/x", origin: "https://example.com")
        #expect(intake.webMessage(unknown).error?.code == .unknownMessage)
    }

    @Test("A page on a host the policy denies or leaves to the system may not post links, whatever domain allows it")
    func webMessageOriginsHonourThePolicy() {
        var intake = LinkIntake(
            policy: LinkPolicy(
                schemes: ["myapp"],
                associatedDomains: ["*.example.com"],
                deniedHosts: ["evil.example.com"],
                passThroughHosts: ["blog.example.com"]
            )
        )
        intake.webMessages = [WebMessageRoute(name: "openLink")]
        func post(from origin: String) -> IntakeResult {
            intake.webMessage(WebMessageSnapshot(name: "openLink", body: "myapp://admin", origin: origin))
        }
        #expect(post(from: "https://shop.example.com").link?.string == "myapp://admin")
        for origin in ["https://evil.example.com", "https://EVIL.example.com", "https://blog.example.com"] {
            #expect(post(from: origin).error?.code == .untrustedOrigin, "\(origin)")
        }
        #expect(
            post(from: "https://evil.example.com").error?.message
                == "A web message 'openLink' came from https://evil.example.com, and the policy denies the host "
                + "'evil.example.com': it may not post links."
        )
        // Origins the app lists itself are held to the same policy.
        intake.webOrigins = ["example.com", "blog.example.com"]
        #expect(post(from: "https://example.com").link != nil)
        #expect(post(from: "https://blog.example.com").error?.code == .untrustedOrigin)
    }

    @Test("Rules and templates read keys that have dots of their own, as FCM writes them")
    func dottedKeys() throws {
        var intake = intake
        intake.notificationRules = [
            NotificationRule(.equals("google.c.a.c_l", "promo"), link: "/promos/{gcm.message_id}"),
            NotificationRule(.present("gcm.message_id"), link: "/messages/{gcm.message_id}"),
        ]
        let promo: PayloadValue = ["aps": ["alert": "hi"], "gcm.message_id": "123", "google.c.a.c_l": "promo"]
        #expect(
            intake.notification(NotificationResponseSnapshot(requestIdentifier: "f1", userInfo: promo)).link?.string
                == "/promos/123"
        )
        let plain: PayloadValue = ["aps": ["alert": "hi"], "gcm.message_id": "124"]
        #expect(
            intake.notification(NotificationResponseSnapshot(requestIdentifier: "f2", userInfo: plain)).link?.string
                == "/messages/124"
        )
        // A path split at its dots comes first; the whole key only when that leads nowhere.
        let both: PayloadValue = ["a": ["b": 1], "a.b": 2, "items": [["id": "x"]], "c": ["d.e": true]]
        #expect(both["a.b"] == 1)
        #expect(both["items.0.id"] == "x")
        #expect(both["c.d.e"] == true)
        #expect(both["a.c"] == nil && both["x.y"] == nil && both["items.1.id"] == nil)
    }

    @Test("An empty or blank link key counts as absent: a provider's place or a rule still opens the push")
    func blankLinkKeys() throws {
        var intake = intake
        intake.notificationProviders = [.braze]
        let braze: PayloadValue = ["aps": ["alert": "hi"], "deeplink": "", "ab_uri": "myapp://books/3"]
        let opened = intake.notification(NotificationResponseSnapshot(requestIdentifier: "n1", userInfo: braze))
        #expect(opened.link?.string == "myapp://books/3")
        let ruled: PayloadValue = ["aps": ["alert": "hi"], "data": ["deeplink": " \n", "messageId": "7"]]
        let mapped = intake.notification(NotificationResponseSnapshot(requestIdentifier: "n2", userInfo: ruled))
        #expect(mapped.link?.string == "/messages/7")
        let nothing: PayloadValue = ["aps": ["alert": "hi"], "deeplink": "  "]
        let none = intake.notification(NotificationResponseSnapshot(requestIdentifier: "n3", userInfo: nothing))
        #expect(none.error?.code == .noLink)
    }

    /// A notification tap as UIKit gives it: `userInfo` with Foundation values, not yet converted.
    struct RawTap: NotificationResponseRepresentable {
        var actionIdentifier = NotificationActionIdentifier.default
        var requestIdentifier = "n1"
        var categoryIdentifier = ""
        var userInfo: [AnyHashable: Any]
    }

    @Test("A rule's key that holds empty text counts as absent, as a link key's does, so the next rule applies")
    func blankRuleKey() {
        let payload: [AnyHashable: Any] = [
            "aps": ["category": "bookDetail"], "book_id": "42", "data": ["messageId": ""],
        ]
        var intake = intake
        intake.notificationRules = [
            NotificationRule(.present("data.messageId"), link: "/messages/{data.messageId}"),
            NotificationRule(.equals("aps.category", "bookDetail"), link: "/books/{book_id}"),
        ]
        let result = intake.notification(RawTap(userInfo: payload))
        #expect(result.link?.string == "/books/42", "\(result.error?.message ?? "")")
        #expect(!NotificationRule(.present("data.messageId"), link: "/m").matches(["data": ["messageId": " "]]))
        #expect(NotificationRule(.present("data.messageId"), link: "/m").matches(["data": ["messageId": 0]]))
    }

    @Test("A rule whose link lacks a value gives way to the next of its condition, never to another rule's screen")
    func unfilledRuleGivesWay() {
        var intake = intake
        intake.notificationRules = [
            NotificationRule(.present("book_id"), link: "/books/{book_id}?tab={tab}"),
            NotificationRule(.present("book_id"), link: "/books/{book_id}"),
            NotificationRule(.present("tab"), link: "/tabs/{tab}/{section}"),
        ]
        let both = intake.notification(RawTap(userInfo: ["aps": [:], "book_id": "42", "tab": "reviews"]))
        #expect(both.link?.string == "/books/42?tab=reviews")
        let book = intake.readNotification(RawTap(userInfo: ["aps": [:], "book_id": "42"]))
        #expect(book.result.link?.string == "/books/42", "\(book.result.error?.message ?? "")")
        #expect(book.reader?.description == "the notification rule for '/books/{book_id}' (book_id is present)")
        let none = intake.readNotification(RawTap(userInfo: ["aps": [:], "tab": "library"]))
        #expect(none.result.error?.code == .missingValue)
        #expect(none.result.error?.message.contains("'/tabs/{tab}/{section}' needs a value at 'section'") == true)
        #expect(none.reader?.description.contains("/tabs/{tab}/{section}") == true)

        // Of two rules of one condition that both lack a value, the first one's is the error.
        intake.notificationRules = [
            NotificationRule(.present("book_id"), link: "/books/{book_id}/{x}"),
            NotificationRule(.present("book_id"), link: "/books/{book_id}?tab={tab}"),
        ]
        let neither = intake.readNotification(RawTap(userInfo: ["book_id": "42"]))
        #expect(neither.result.error?.message.contains("'/books/{book_id}/{x}' needs a value at 'x'") == true)
        #expect(neither.reader?.description.contains("/books/{book_id}/{x}") == true)

        // A chat push its category claims, with a blank chat id, opens nothing: not the order rule's screen.
        intake.notificationRules = [
            NotificationRule(.equals("aps.category", "chat"), link: "/chats/{chat_id}"),
            NotificationRule(.present("id"), link: "/orders/{id}"),
            NotificationRule(.equals("aps.category", "chat"), link: "/chats/{channel}"),
        ]
        let channel = intake.notification(
            RawTap(userInfo: ["aps": ["category": "chat"], "channel": "general", "id": "9001"])
        )
        #expect(channel.link?.string == "/chats/general", "the chat rule after the order rule: \(channel)")
        let chat = intake.readNotification(
            RawTap(userInfo: ["aps": ["category": "chat"], "chat_id": "", "id": "9001"])
        )
        #expect(chat.result.error?.code == .missingValue, "\(chat.result)")
        #expect(chat.reader?.description.contains("/chats/{chat_id}") == true)

        // A rule whose link cannot be made for another reason stops there, naming itself: the app's mistake shows.
        intake.notificationRules = [
            NotificationRule(.present("book_id"), link: "/books/{book_id"),
            NotificationRule(.present("book_id"), link: "/books/{book_id}"),
        ]
        let broken = intake.readNotification(RawTap(userInfo: ["book_id": "42"]))
        #expect(broken.result.error?.code == .invalidConfiguration)
        #expect(broken.reader?.description.contains("/books/{book_id") == true)
    }

    @Test("A link key that is there but holds no link text is named, not reported as absent")
    func unreadableLinkKey() {
        for (value, said) in [(42, "a number"), (["myapp://x"], "a list"), (NSNull(), "null")] as [(Any, String)] {
            let error = intake.notification(RawTap(userInfo: ["deeplink": value])).error
            #expect(error?.code == .noLink)
            #expect(
                error?.message.contains("'deeplink' holds \(said), not a link's text") == true,
                "\(error?.message ?? "")"
            )
            #expect(error?.message.contains("none of the app's keys") == false)
        }
        let blank = intake.notification(RawTap(userInfo: ["data": ["url": "  "]])).error
        #expect(blank?.message.contains("'data.url' holds blank text") == true, "\(blank?.message ?? "")")
    }

    @Test("Data is a property-list value: a tap, an activity or a quick action carrying it still opens its link")
    func dataInPayloads() throws {
        let tap = intake.notification(RawTap(userInfo: ["deeplink": "myapp://books/1", "thumb": Data([0xFF, 0xD8])]))
        #expect(tap.link?.string == "myapp://books/1", "\(tap.error?.message ?? "")")
        #expect(tap.link?.payload?["thumb"] == "/9g=")
        struct Activity: UserActivityRepresentable {
            var activityType = "com.example.reading"
            var webpageURL: URL? = nil
            var userInfo: [AnyHashable: Any]? = ["bookID": "7", "state": Data([1, 2, 3])]
        }
        let handoff = intake.userActivity(Activity())
        #expect(handoff.link?.string == "/books/7", "\(handoff.error?.message ?? "")")
        struct Shortcut: ShortcutItemRepresentable {
            var type = "com.example.chat"
            var shortcutUserInfo: [String: Any]? = ["id": "3", "avatar": Data([9])]
        }
        let shortcut = intake.shortcut(Shortcut())
        // Its other members are query items, as any quick action's: the data as its Base64 text.
        #expect(shortcut.link?.string == "/messages/3?avatar=CQ%3D%3D", "\(shortcut.error?.message ?? "")")
    }

    @Test("A value or key no payload can hold is named where it is")
    func foreignValuesNamed() {
        let key = intake.notification(RawTap(userInfo: [1: "x", "deeplink": "myapp://x"])).error
        #expect(key?.code == .unsupportedPayload)
        #expect(
            key?.message.contains("a key that is not text at the top level: 1 (Int)") == true,
            "\(key?.message ?? "")"
        )
        #expect(key?.input == "a dictionary of 2 entries", "\(key?.input ?? "")")
        let value = intake.notification(RawTap(userInfo: ["data": ["thing": NSObject()]])).error
        #expect(value?.message.contains("at 'data.thing', which is no property-list or JSON value") == true)
    }

    @Test("A payload with NaN or an infinity is still reported in full, and two such taps stay two")
    func nonFiniteNumbers() {
        let error = intake.notification(RawTap(userInfo: ["aps": [:], "score": Double.nan, "campaign": "c42"])).error
        #expect(error?.code == .noLink)
        #expect(error?.input == #"{"aps":{},"campaign":"c42","score":"nan"}"#, "\(error?.input ?? "")")
        #expect(PayloadValue.array([.double(.infinity), .double(-.infinity)]).description == #"["inf","-inf"]"#)
        func identity(_ link: String) -> String? {
            let tap = RawTap(requestIdentifier: "", userInfo: ["deeplink": link, "x": Double.nan])
            if case .link(_, let identity) = intake.notification(tap) { return identity }
            return nil
        }
        #expect(identity("myapp://a") != nil)
        #expect(identity("myapp://a") != identity("myapp://b"))
    }

    @Test("A web message says what body it expected when it carries no link")
    func webMessageWithoutLink() {
        let error = intake.webMessage(
            WebMessageSnapshot(name: "openLink", body: ["page": 2], origin: "https://example.com")
        ).error
        #expect(error?.code == .noLink)
        #expect(error?.message.contains("its body is an object; post the link's text, or an object whose") == true)
        let list = intake.webMessage(
            WebMessageSnapshot(name: "openLink", body: ["url": ["myapp://x"]], origin: "https://example.com")
        ).error
        #expect(list?.message.contains("its body is an object, its 'url' a list;") == true, "\(list?.message ?? "")")
        let number = intake.webMessage(WebMessageSnapshot(name: "openLink", body: 3, origin: "https://example.com"))
        // The body as posted, as a device gives it: a number is named a number, not an empty object.
        #expect(number.error?.message.contains("its body is a number; post the link's text") == true, "\(number)")
    }

    @Test("A web message is a script's, never a tap: a link the policy leaves to the system is forbidden, not opened")
    func webMessageMayNotLeave() async throws {
        let policy = LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"], passThroughSchemes: ["tel"])
        let opened = Locked<[String]>([])
        let forbidden = Locked<[String]>([])
        let dispatcher = try LinkDispatcher<String>(
            routes: [LinkRoute("book", "/books/{id}") { _ in .push("book") }],
            policy: policy,
            fallbacks: LinkFallbacks(
                passThrough: { link in opened.update { $0.append(link.string) } },
                forbidden: { link, reason in forbidden.update { $0.append("\(link): \(reason)") } }
            )
        )
        await dispatcher.setNavigator { _, _ in }
        await dispatcher.appDidBecomeReady()
        await dispatcher.appDidBecomeActive()
        let intake = LinkIntake(policy: policy, webMessages: [WebMessageRoute(name: "openLink")])
        for body in ["https://evil.example.net/login", "tel:+15555550100"] {
            let message = WebMessageSnapshot(name: "openLink", body: .string(body), origin: "https://example.com")
            // Refused by policy as it arrives, like a denied scheme: no id, the forbidden handler told.
            #expect(await dispatcher.receive(intake.webMessage(message)) == nil)
        }
        // The same link tapped in an in-app message still passes through.
        let tapped = try #require(await dispatcher.receive(DeepLink("https://evil.example.net/login", source: .text)))
        #expect(await dispatcher.outcome(of: tapped, timeout: 5) == .passThrough)
        // An in-app route still opens from a web message.
        let book = WebMessageSnapshot(name: "openLink", body: "/books/4", origin: "https://example.com")
        let routed = try #require(await dispatcher.receive(intake.webMessage(book)))
        #expect(await dispatcher.outcome(of: routed, timeout: 5)?.isHandled == true)
        #expect(await eventually { forbidden.current.count == 2 && opened.current.count == 1 })
        #expect(opened.current == ["https://evil.example.net/login"])
        #expect(
            forbidden.current.allSatisfy { $0.contains("a web page's script may not open") },
            "\(forbidden.current)"
        )
        let resolver = LinkResolver(router: try RouterBuilder<Int>().build(), policy: policy)
        #expect(resolver.resolve("https://evil.example.net/login", source: .webMessage).status == .forbidden)
        #expect(resolver.resolve("https://evil.example.net/login", source: .text).status == .passThrough)
    }

    @Test("In a category the app did not declare, the provider's button wins over an app action of the same id")
    func providerButtonBeforeOtherCategories() throws {
        var intake = intake
        intake.notificationProviders = [.klaviyo]
        let payload: PayloadValue = [
            "aps": ["alert": "promo", "category": "com.klaviyo.dynamic.n1"], "postId": "8",
            "body": ["_k": "n1", "action_buttons": [["id": "report", "label": "Report", "url": "myapp://books/9"]]],
        ]
        func tap(_ action: String, category: String) -> IntakeResult {
            intake.notification(
                NotificationResponseSnapshot(
                    actionIdentifier: action,
                    requestIdentifier: "k-\(action)-\(category)",
                    categoryIdentifier: category,
                    userInfo: payload
                )
            )
        }
        #expect(tap("report", category: "com.klaviyo.dynamic.n1").link?.string == "myapp://books/9")
        // In the app's own category its action is the one, as before.
        #expect(tap("report", category: "post").link?.string == "/posts/8/report")
        // With no such button in the payload, an unknown category still finds the app's action.
        guard case .action(let invocation) = tap("like", category: "com.klaviyo.dynamic.n1") else {
            Issue.record("the app's 'like' action did not run")
            return
        }
        #expect(invocation.providerButton == nil)
    }

    @Test("In-app text is parsed leniently")
    func text() {
        #expect(intake.text(" myapp://search?q=三体 小说 ").link?.queryValue("q") == "三体 小说")
        #expect(intake.text("myapp://a\\b").error?.code == .invalidLink)
        // Brackets are a host's only right after the link's own scheme: a link in the query keeps them as text.
        #expect(intake.text("myapp://open?next=https://[::1]/x").link?.queryValue("next") == "https://[::1]/x")
        #expect(intake.text("https://[::1]/x").link != nil)
    }

    @Test("The invisible marks a composer puts around a link are trimmed; inside it, or reordering, they are refused")
    func directionMarks() throws {
        for text in [
            "\u{200F}https://example.com/books/1", "https://example.com/books/1\u{200E}", "\u{FEFF}myapp://books/1 ",
        ] {
            #expect(
                intake.text(text).link != nil,
                "\(text.debugDescription): \(intake.text(text).error?.message ?? "")"
            )
        }
        for text in [
            "\u{202E}https://example.com/books/1", "https://example.com/bo\u{200F}oks/1", "myapp://x/\u{2066}y",
        ] {
            let error = try #require(intake.text(text).error, "\(text.debugDescription)")
            #expect(error.message.contains("bidirectional formatting character"), "\(error.message)")
            #expect(error.input.contains(text))
        }
        let error = try #require(intake.text(" \u{200F}myapp://a/\u{202E}b").error)
        #expect(error.offset == 14, "the RLO's first byte, counted in the text as given")
    }

    @Test("Payloads: Foundation values convert; too deep or foreign values are typed errors")
    func payloads() throws {
        let json = try JSONSerialization.jsonObject(with: Data(#"{"a":1,"b":true,"c":1.5,"d":[null,"x"]}"#.utf8))
        let payload = try PayloadValue(any: json)
        #expect(payload == ["a": 1, "b": true, "c": .double(1.5), "d": [.null, "x"]])
        var deep: Any = "leaf"
        for _ in 0..<40 { deep = ["k": deep] }
        #expect(throws: WaypointError.self) { try PayloadValue(any: deep) }
        #expect(throws: WaypointError.self) { try PayloadValue(any: ["k": NSObject()]) }
        #expect(throws: WaypointError.self) { try PayloadValue(json: "{not json") }
    }

    /// Runs `body` on a thread with a 512 KB stack, as small as the threads a push can arrive on.
    static func onSmallStack(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
    }

    @Test("A payload nested 100,000 levels deep is a typed error naming where, on a 512 KB stack, from any form")
    func deepPayloadOnSmallStack() {
        let messages = Locked<[String]>([])
        Self.onSmallStack {
            var deep: Any = "leaf"
            for _ in 0..<100_000 { deep = ["k": deep] }
            var record: [String] = []
            do {
                _ = try PayloadValue(any: deep)
            } catch let error as WaypointError {
                record.append(error.message)
                record.append(error.input)
            } catch {}
            var nested: Any = ["leaf"]
            for _ in 0..<100_000 { nested = [nested] }
            do {
                _ = try PayloadValue(any: nested)
            } catch let error as WaypointError {
                record.append(error.message)
            } catch {}
            // Freed a level at a time: releasing the whole tree at once recurses as deep as it
            // nests, in the runtime, not in Waypoint; the system that made a payload frees it.
            while let level = deep as? [String: Any], let inner = level["k"] { deep = inner }
            while let level = nested as? [Any], let inner = level.first { nested = inner }
            let json = String(repeating: #"{"k":"#, count: 1_000) + "1" + String(repeating: "}", count: 1_000)
            do {
                _ = try PayloadValue(json: json)
            } catch let error as WaypointError {
                record.append(error.code.description)
            } catch {}
            messages.update { $0 = record }
        }
        let path = Array(repeating: "k", count: 17).joined(separator: ".")
        #expect(
            messages.current.prefix(2) == [
                "The payload nests deeper than 16 levels at '\(path)'.", "a dictionary of 1 entries",
            ]
        )
        #expect(
            messages.current.dropFirst(2).first?.hasPrefix("The payload nests deeper than 16 levels at '[0]") == true
        )
        #expect(messages.current.count == 4)
    }

    @Test("Integers past 2^53 keep their value; past Int's range they keep their digits")
    func largeIntegers() throws {
        let payload = try PayloadValue(
            json: #"""
                {"data":{"id":1234567890123456789},"max":9223372036854775807,"huge":18446744073709551615,
                 "huger":123456789012345678901234567890,"low":-9223372036854775809,"min":-9223372036854775808,
                 "fraction":12.5}
                """#
        )
        #expect(payload["huger"]?.text == "123456789012345678901234567890")
        #expect(payload["low"]?.text == "-9223372036854775809")
        #expect(payload["min"] == .int(Int.min))
        #expect(payload["fraction"] == .double(12.5))
        #expect(payload["data.id"] == .int(1_234_567_890_123_456_789))
        #expect(payload["max"] == .int(Int.max))
        #expect(payload["huge"]?.text == "18446744073709551615")
        let intake = LinkIntake(
            policy: LinkPolicy(schemes: ["myapp"]),
            notificationRules: [
                NotificationRule(.present("data.id"), link: "/items/{data.id}")
            ]
        )
        let tap = NotificationResponseSnapshot(userInfo: payload)
        #expect(intake.notification(tap).link?.string == "/items/1234567890123456789")
    }

    struct FixedProvider: DeferredLinkProvider {
        let text: String?
        func deferredLink() async throws -> String? { text }
    }

    final class MemoryRecord: DeferredLinkRecord, Sendable {
        private let state = Locked(DeferredLinkState.unsettled(attempts: 0))
        func load() -> DeferredLinkState { state.current }
        func save(_ state: DeferredLinkState) { self.state.update { $0 = state } }
    }

    /// A provider that is offline for the first `failures` calls, then answers.
    final class FlakyProvider: DeferredLinkProvider, Sendable {
        struct Offline: Error {}
        private let counts: Locked<(failures: Int, calls: Int)>
        var calls: Int { counts.current.calls }
        let answer: String?
        init(failures: Int, answer: String?) {
            counts = Locked((failures, 0))
            self.answer = answer
        }
        func deferredLink() async throws -> String? {
            let succeeds = counts.update { counts -> Bool in
                counts.calls += 1
                guard counts.failures > 0 else { return true }
                counts.failures -= 1
                return false
            }
            guard succeeds else { throw Offline() }
            return answer
        }
    }

    @Test("A deferred link is asked for until a definite answer, then never again, and marked untrusted")
    func deferred() async {
        let record = MemoryRecord()
        let first = await intake.deferredLink(from: FixedProvider(text: "myapp://promo/spring"), record: record)
        #expect(first?.link?.source == .deferred)
        #expect(record.load() == .settled)
        #expect(await intake.deferredLink(from: FixedProvider(text: "myapp://promo/spring"), record: record) == nil)
        // "No link" is an answer too.
        let none = MemoryRecord()
        #expect(await intake.deferredLink(from: FixedProvider(text: nil), record: none) == nil)
        #expect(none.load() == .settled)
        let bad = await intake.deferredLink(from: FixedProvider(text: "javascript:alert(1)"), record: MemoryRecord())
        #expect(bad?.link?.source == .deferred)  // parsed, then refused by policy like any link
    }

    @Test(
        "The deferred provider failing on the first launch and answering on the second: the link arrives on the second"
    )
    func deferredRetriedAfterFailure() async {
        let record = MemoryRecord()
        let provider = FlakyProvider(failures: 1, answer: "myapp://promo/spring")
        let firstLaunch = await intake.deferredLink(from: provider, record: record)
        #expect(firstLaunch?.error?.code == .providerFailed)
        #expect(
            firstLaunch?.error?.message
                == "The deferred-link provider failed (Offline()); it is asked again on the next launch."
        )
        #expect(record.load() == .unsettled(attempts: 1))
        let secondLaunch = await intake.deferredLink(from: provider, record: record)
        #expect(secondLaunch?.link?.string == "myapp://promo/spring")
        #expect(record.load() == .settled)
        #expect(await intake.deferredLink(from: provider, record: record) == nil)
        #expect(provider.calls == 2)
    }

    @Test("A provider that never answers is asked on five launches, then no more")
    func deferredAttemptsBounded() async {
        let record = MemoryRecord()
        let provider = FlakyProvider(failures: 100, answer: nil)
        var failures = 0
        for _ in 0..<8 where await intake.deferredLink(from: provider, record: record)?.error != nil { failures += 1 }
        #expect(failures == DeferredLinkState.maximumAttempts)
        #expect(provider.calls == 5)
        #expect(record.load() == .settled)
    }

    @Test("The file record starts unsettled, keeps attempts across launches, and settles")
    func fileRecord() throws {
        // In a folder that does not exist yet, as Application Support on a new install.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waypoint-\(UUID())")
        let url = folder.appendingPathComponent("deferred.json")
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = FileDeferredLinkRecord(url: url)
        #expect(record.load() == .unsettled(attempts: 0))
        record.save(.unsettled(attempts: 2))
        #expect(FileDeferredLinkRecord(url: url).load() == .unsettled(attempts: 2))
        record.save(.settled)
        #expect(FileDeferredLinkRecord(url: url).load() == .settled)
        try Data("garbage".utf8).write(to: url)
        #expect(record.load() == .settled)  // unreadable: never ask again rather than for ever
    }
}
