import Foundation
import Testing
import Waypoint

@testable import WaypointManifest

/// The `waypoint` binary, run as people and CI run it: output, errors and exit status.
@Suite("The waypoint tool")
struct ToolTests {
    let apartments = ToolRunner.manifest("apartments.yaml")

    @Test("resolve --format json prints one object per input with exactly the keys that apply")
    func resolveJSON() throws {
        let output = try ToolRunner.run([
            "resolve", "--manifest", apartments, "--format", "json",
            "deeplinkTutorial://messages/1?ref=push&ref=mail#top", "deeplinkTutorial://messages/one", "other://x",
            "https://elsewhere.org/", "deeplinkTutorial://a\\b", "https://apartments.example.com/listings/new",
        ])
        #expect(output.status == 1)
        #expect(
            output.stdout.split(separator: "\n") == [
                #"{"destination":"chat","fragment":"top","input":"deeplinkTutorial://messages/1?ref=push&ref=mail#top","parameters":{"id":1},"pattern":"/messages/{id:int}","query":{"ref":["push","mail"]},"route":"messages.detail","source":"urlScheme","status":"matched"}"#,
                #"{"input":"deeplinkTutorial://messages/one","reason":"No route matches /messages/one. The route 'messages.detail' (/messages/{id:int}) has its shape but not its types: the link gives 'one' for {id:int}.","source":"urlScheme","status":"notFound"}"#,
                #"{"input":"other://x","reason":"the scheme 'other' is not one of the app's schemes (deeplinktutorial)","source":"urlScheme","status":"forbidden"}"#,
                #"{"input":"https://elsewhere.org/","reason":"Not the app's link: the system opens it.","source":"web","status":"passThrough"}"#,
                #"{"input":"deeplinkTutorial://a\\b","reason":"Link 'deeplinkTutorial://a\\b' has a backslash at byte 20; it cannot be part of a link.","status":"invalid"}"#,
                #"{"barriers":["host"],"destination":"newListing","input":"https://apartments.example.com/listings/new","parameters":{},"pattern":"/listings/new","presentation":"fullScreenCover","route":"listing.new","source":"universalLink","status":"matched"}"#,
            ]
        )
    }

    @Test("resolve exits 0 when every input matched; text from people is read leniently")
    func resolveAllMatched() throws {
        let reading = ToolRunner.manifest("reading.yaml")
        let output = try ToolRunner.run(["resolve", "--manifest", reading, "readapp://books/7/chapters/第一章 开始"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("parameter:  chapter = 第一章 开始"))
        #expect(output.stdout.contains("source:     text"))
    }

    @Test("resolve reads notifications, quick actions, activities and web messages")
    func resolveSources() throws {
        let payload = #"{"aps":{"alert":"Hi"},"data":{"messageId":"1"}}"#
        let notification = try ToolRunner.run(
            ["resolve", "--manifest", apartments, "--format", "json", "--notification", "-"],
            stdin: payload
        )
        #expect(notification.status == 0)
        #expect(notification.stdout.contains(#""route":"messages.detail","source":"notification","status":"matched""#))

        let shortcut = try ToolRunner.run([
            "resolve", "--manifest", apartments, "--format", "json", "--shortcut", "com.example.apartments.messages",
        ])
        #expect(shortcut.stdout.contains(#""route":"messages","source":"shortcut","status":"matched""#))

        let reading = ToolRunner.manifest("reading.yaml")
        let activity = try ToolRunner.run([
            "resolve", "--manifest", reading, "--format", "json", "--activity", "NSUserActivityTypeBrowsingWeb",
            "--webpage", "https://read.example.com/b/9",
        ])
        #expect(
            activity.stdout.contains(
                #""parameters":{"book_id":9},"pattern":"https://read.example.com/b/{book_id:int}""#
            )
        )

        let message = try ToolRunner.run([
            "resolve", "--manifest", reading, "--format", "json", "--web-message", "openBook", "--body", #"{"id": 4}"#,
        ])
        #expect(message.stdout.contains(#""route":"book","source":"webMessage","status":"matched""#))

        let untrusted = try ToolRunner.run([
            "resolve", "--manifest", reading, "--format", "json", "--web-message", "openBook", "--body", #"{"id": 4}"#,
            "--origin", "https://evil.example.net",
        ])
        #expect(untrusted.status == 1)
        #expect(untrusted.stdout.contains("not an allowed https origin"))
    }

    @Test("Open notification settings leads to the configured route")
    func notificationSettings() throws {
        let output = try ToolRunner.run([
            "resolve", "--manifest", ToolRunner.manifest("notifications.yaml"), "--format", "json",
            "--notification-settings",
        ])
        #expect(output.status == 0)
        #expect(output.stdout.contains(#""route":"settings.notifications""#))
    }

    @Test("A route that accepts only universal links refuses the same path from a custom scheme")
    func sourcesRestriction() throws {
        let reading = ToolRunner.manifest("reading.yaml")
        let output = try ToolRunner.run([
            "resolve", "--manifest", reading, "--format", "json", "readapp://account/delete",
            "https://read.example.com/account/delete",
        ])
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.first?.contains(#""status":"forbidden""#) == true)
        #expect(lines.first?.contains("accepts links only from universalLink, not from urlScheme") == true)
        #expect(lines.last?.contains(#""status":"matched""#) == true)
    }

    @Test("Usage and manifest errors exit 2 with a message")
    func usageErrors() throws {
        let missing = try ToolRunner.run(["resolve", "--manifest", "/nonexistent.yaml", "x://y"])
        #expect(missing.status == 2)
        #expect(
            missing.stderr == "error: Cannot read the manifest '/nonexistent.yaml' (no such file, or not readable).\n"
        )
        let nothing = try ToolRunner.run(["resolve", "--manifest", apartments])
        #expect(nothing.status == 2)
        #expect(
            nothing.stderr.contains(
                "Give a URL or text, or one of --notification, --notification-settings, --shortcut, --activity, --web-message."
            )
        )
        let bad = try ToolRunner.temporaryManifest("routes:\n  - name: a\n    pattern: /a/(b\n")
        let badOutput = try ToolRunner.run(["lint", "--manifest", bad])
        #expect(badOutput.status == 2)
        #expect(badOutput.stderr == "error: \(bad):3:14: Pattern '/a/(b': '(' is never closed (offset 3).\n")
    }

    @Test("The default manifest is waypoint.yaml in the current directory")
    func defaultManifest() throws {
        let output = try ToolRunner.run(["lint"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("Cannot read the manifest 'waypoint.yaml'"))
    }

    @Test("lint reports every kind of finding with severity, and exits 1 on errors")
    func lint() throws {
        let manifest = try ToolRunner.temporaryManifest(
            """
            schemes: [myapp]
            domains: [example.com]
            routes:
              - {name: a, pattern: "/users/{id}"}
              - {name: b, pattern: "/users/{name}"}
              - {name: c, pattern: "/items/{id:int}"}
              - {name: d, pattern: "/items/{id:uuid}/edit"}
              - {name: e, pattern: "/books/{id}", priority: 1}
              - {name: f, pattern: "https://example.com/books/{id}"}
            notifications:
              rules:
                - present: data.x
                  link: /nowhere/{data.x}
            quickActions:
              - {type: a, title: A, link: /users/1}
              - {type: b, title: B, link: /users/1}
              - {type: c, title: C, link: /users/1}
              - {type: d, title: D, link: /users/1, when: {profile: host}}
              - {type: e, title: E, link: /users/1, when: {profile: host}}
            universalLinks:
              exclude: ["/items/*"]
            """
        )
        let output = try ToolRunner.run(["lint", "--manifest", manifest, "--format", "json"])
        #expect(output.status == 1)
        let findings = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: String]]
        )
        #expect(
            findings.map { "\($0["severity"] ?? "") \($0["code"] ?? "")" } == [
                "error duplicate-route", "error mapping-leads-nowhere", "warning universal-link-not-covered",
                "warning parameter-type-conflict", "warning universal-link-not-covered", "warning shadowed-route",
                "warning too-many-quick-actions",
            ]
        )
        #expect(findings[0]["location"] == "\(manifest):5:5")
        #expect(
            findings.last?["message"]
                == "For profile=host, 5 quick actions qualify but the system shows 4; not shown: e."
        )
    }

    @Test("A mapping to a route that refuses its source is reported with the reason")
    func mappingToRefusingRoute() throws {
        let manifest = try ManifestLoader.parse(
            """
            schemes: [myapp]
            domains: [example.com]
            routes:
              - {name: pay, pattern: "/pay/{id}", sources: [universalLink]}
              - {name: chat, pattern: "/chat/{id}", sources: [notification]}
            notifications:
              rules:
                - {present: data.chat, link: "/chat/{data.chat}"}
                - {present: data.pay, link: "/pay/{data.pay}"}
            quickActions:
              - {type: chat, title: Chat, link: /chat/1}
            """
        )
        let findings = ManifestLinter(manifest: manifest).lint().filter { $0.code == "mapping-leads-nowhere" }
        #expect(
            findings.map(\.message) == [
                "The notification rule leads to '/pay/{data.pay}', which is refused: the route 'pay' accepts links only from universalLink, not from notification.",
                "The quick action 'chat' leads to '/chat/1', which is refused: the route 'chat' accepts links only from notification, not from shortcut.",
            ]
        )
    }

    @Test("Every example manifest lints clean")
    func examplesLintClean() throws {
        for name in ["apartments", "payments", "reading", "tutoring", "notifications"] {
            let output = try ToolRunner.run(["lint", "--manifest", ToolRunner.manifest("\(name).yaml")])
            #expect(output.status == 0, "\(name): \(output.stdout)")
            #expect(output.stdout.hasPrefix("0 error(s), 0 warning(s)"), "\(name): \(output.stdout)")
        }
    }

    @Test("Generated files match their committed snapshots")
    func snapshots() throws {
        let cases: [([String], String)] = [
            (["aasa", "generate"], "apartments.aasa.json"),
            (["assetlinks", "generate"], "apartments.assetlinks.json"),
            (["plist"], "apartments.Info.plist"),
            (["plist", "--entitlements"], "apartments.entitlements.plist"),
        ]
        for (arguments, snapshot) in cases {
            let output = try ToolRunner.run(arguments + ["--manifest", apartments])
            #expect(output.status == 0)
            #expect(output.stdout == (try ToolRunner.snapshot(snapshot)), "\(snapshot)")
        }
    }

    @Test("The generated property lists pass plutil -lint")
    func plutilLint() throws {
        let plutil = ["/opt/swift/usr/bin/plutil", "/usr/bin/plutil"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let path = try #require(plutil, "plutil ships with the Swift toolchain")
        for snapshot in ["apartments.Info.plist", "apartments.entitlements.plist"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = [
                "-lint",
                ToolRunner.root.appendingPathComponent("Tests/WaypointManifestTests/Snapshots/\(snapshot)").path,
            ]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(snapshot)")
        }
    }

    @Test("codegen output matches the generated code compiled into these tests")
    func codegenSnapshot() throws {
        // The example app's is committed because its sources are type-checked outside SwiftPM, where
        // the plugin does not run.
        let cases = [
            (
                "Tests/WaypointManifestTests/Snapshots/codegen.yaml", "CodegenRoute",
                "Tests/WaypointManifestTests/Generated"
            ),
            ("Examples/Manifests/apartments.yaml", "AppRoute", "Examples/ApartmentApp/Shared"),
        ]
        for (manifest, typeName, folder) in cases {
            let output = try ToolRunner.run(["codegen", "--manifest", manifest, "--type-name", typeName])
            #expect(output.status == 0)
            let file = typeName == "AppRoute" ? "WaypointRoutes.swift" : "\(typeName).swift"
            let committed = try String(
                contentsOf: ToolRunner.root.appendingPathComponent(folder).appendingPathComponent(file),
                encoding: .utf8
            )
            #expect(output.stdout == committed, "\(typeName): run `waypoint codegen` again and commit the result")
        }
    }

    @Test("codegen --output writes through a symbolic link, and never replaces what is not a regular file")
    func codegenOutputInPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("Routes.swift").path
        let link = folder.appendingPathComponent("link.swift").path
        try "old".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let output = try ToolRunner.run([
            "codegen", "--manifest", "Examples/Manifests/reading.yaml", "--output", link,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        // A rename over the path would have left a regular file where the link was (and, run as
        // root with --output /dev/null, a regular file in place of the device).
        let type = try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType
        #expect(type == .typeSymbolicLink)
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("enum AppRoute"))
    }

    @Test(
        "payload → resolve --notification gives back the route and parameters",
        arguments: [
            ("apartments.yaml", "messages.detail", ["id=1"], "messages.detail", #""parameters":{"id":1}"#),
            ("reading.yaml", "book", ["book_id=5"], "book", #""parameters":{"book_id":5}"#),
            ("tutoring.yaml", "order.detail", ["order_id=1234"], "order.detail", #""query":{"order_id":["1234"]}"#),
            ("notifications.yaml", "post", ["id=8"], "post", #""parameters":{"id":8}"#),
        ]
    )
    func payloadRoundTrip(
        manifest: String,
        route: String,
        parameters: [String],
        expectedRoute: String,
        expected: String
    ) throws {
        let path = ToolRunner.manifest(manifest)
        let payload = try ToolRunner.run(
            [
                "payload", route, "--manifest", path, "--title", "Hello", "--thread-id", "t1", "--target-content-id",
                "w2",
            ]
                + parameters.flatMap { ["--param", $0] }
        )
        #expect(payload.status == 0)
        #expect(payload.stdout.contains(#""thread-id" : "t1""#))
        #expect(payload.stdout.contains(#""target-content-id" : "w2""#))
        let resolved = try ToolRunner.run(
            ["resolve", "--manifest", path, "--format", "json", "--notification", "-"],
            stdin: payload.stdout
        )
        #expect(resolved.status == 0, "\(resolved.stdout)")
        #expect(resolved.stdout.contains(#""route":"\#(expectedRoute)""#))
        #expect(resolved.stdout.contains(expected))
        #expect(resolved.stdout.contains(#""targetContentIdentifier":"w2""#))
    }

    @Test("payload types a route's declared query items, and refuses a name the route has neither way")
    func payloadQuery() throws {
        let path = try ToolRunner.temporaryManifest(
            """
            schemes: [myapp]
            routes:
              - name: search
                pattern: /search
                query: {q: string, page: {type: int, optional: true}}
              - {name: order, pattern: /order}
            """
        )
        let payload = try ToolRunner.run(
            ["payload", "search", "--param", "q=books", "--param", "page=2", "--manifest", path]
        )
        #expect(payload.status == 0, "\(payload.stderr)")
        #expect(payload.stdout.contains(#""deeplink" : "myapp://search?page=2&q=books""#), "\(payload.stdout)")
        let slip = try ToolRunner.run(["payload", "search", "--param", "pgae=2", "--manifest", path])
        #expect(slip.status != 0)
        #expect(
            slip.stderr.contains(
                "'pgae' is neither a parameter nor a query item of the route 'search' (it has page, q). "
                    + "Did you mean 'page'?"
            ),
            "\(slip.stderr)"
        )
        let mistyped = try ToolRunner.run(["payload", "search", "--param", "page=two", "--manifest", path])
        #expect(mistyped.stderr.contains("'page' must be an int, got 'two'."), "\(mistyped.stderr)")
        // Wildcards are given in order, one for each '*', then the segments for '**'.
        let wild = try ToolRunner.temporaryManifest(
            "schemes: [myapp]\nroutes:\n  - {name: tags, pattern: \"/tags/*\"}\n  - {name: files, pattern: \"/files/**\"}\n"
        )
        let tags = try ToolRunner.run(["payload", "tags", "--wildcard", "summer", "--title", "T", "--manifest", wild])
        #expect(tags.stdout.contains(#""deeplink" : "myapp://tags/summer""#), "\(tags.stdout) \(tags.stderr)")
        let files = try ToolRunner.run(
            ["payload", "files", "--wildcard", "a", "--wildcard", "b", "--title", "T", "--manifest", wild]
        )
        #expect(files.stdout.contains(#""deeplink" : "myapp://files/a/b""#), "\(files.stdout) \(files.stderr)")
        let none = try ToolRunner.run(["payload", "tags", "--title", "T", "--manifest", wild])
        #expect(
            none.stderr.contains("needs 1 wildcard value(s), got 0. Give one --wildcard VALUE for each '*'"),
            "\(none.stderr)"
        )
        // A route that declares no query items takes any name as one, as the scenario's order link does.
        let order = try ToolRunner.run(["payload", "order", "--param", "order_id=1234", "--manifest", path])
        #expect(order.stdout.contains(#""deeplink" : "myapp://order?order_id=1234""#), "\(order.stdout)")
    }

    @Test("A link without a query item its route needs opens nothing: resolve, payload and lint say so")
    func requiredQueryItems() throws {
        let path = try ToolRunner.temporaryManifest(
            """
            schemes: [myapp]
            routes:
              - name: search
                pattern: /search
                query: {q: string, page: {type: int, optional: true}, sort: {type: string, default: new}}
              - {name: pay, pattern: "/pay/{id:int}", sources: [universalLink]}
            quickActions:
              - {type: com.example.search, title: Search, link: /search}
              - {type: com.example.find, title: Find, link: "/search?q=shoes"}

            """
        )
        // Typed route code makes no route from the link, so resolve does not call it a match.
        let bare = try ToolRunner.run(["resolve", "myapp://search", "--manifest", path])
        #expect(bare.status == 1)
        #expect(bare.stdout.contains("status:     invalid"), "\(bare.stdout)")
        #expect(
            bare.stdout.contains(
                "the route 'search' needs a string value for the query item 'q', and the link carries"
            ),
            "\(bare.stdout)"
        )
        let given = try ToolRunner.run(["resolve", "myapp://search?q=&page=2", "--manifest", path])
        #expect(given.status == 0, "\(given.stdout)")
        let payload = try ToolRunner.run(["payload", "search", "--title", "Hi", "--manifest", path])
        #expect(payload.status == 2)
        #expect(
            payload.stderr
                == "error: The payload's link would open nothing: the route 'search' needs a string value for the "
                + "query item 'q'. Give it with --param q=….\n"
        )
        // The quick action without q is an error at its line; the one that carries it is not.
        let lint = try ToolRunner.run(["lint", "--manifest", path])
        #expect(lint.status == 1)
        #expect(
            lint.stdout.contains(
                "\(path):8:5: error: The quick action 'com.example.search' leads to '/search', which opens nothing: "
                    + "the route 'search' needs a string value for the query item 'q', and the link does not carry one."
            ),
            "\(lint.stdout)"
        )
        #expect(!lint.stdout.contains("com.example.find"), "\(lint.stdout)")
        // A redirect to the route is held to the same rule: the link it becomes must carry q.
        let redirected = try ToolRunner.temporaryManifest(
            """
            schemes: [myapp]
            routes:
              - {name: search, pattern: /search, query: {q: string}}
              - {name: search.legacy, pattern: /s, redirect: /search}
              - {name: find.legacy, pattern: "/find/{term}", redirect: "/search?q={term}"}
            quickActions:
              - {type: com.example.search, title: Search, link: /s}
            """
        )
        let old = try ToolRunner.run(["resolve", "myapp://s", "--manifest", redirected])
        #expect(old.status == 1 && old.stdout.contains("it redirects to '/search', where the route 'search' needs"))
        #expect(try ToolRunner.run(["resolve", "myapp://find/shoes", "--manifest", redirected]).status == 0)
        #expect(
            try ToolRunner.run(["lint", "--manifest", redirected]).stdout.contains("which opens nothing: it redirects")
        )
        // A route that takes no links from notifications can have no payload that opens it.
        let universal = try ToolRunner.run(["payload", "pay", "--param", "id=3", "--title", "Pay", "--manifest", path])
        #expect(universal.status == 2)
        #expect(
            universal.stderr
                == "error: \(path):6:5: A tap on this payload would not open the route 'pay': the route 'pay' accepts "
                + "links only from universalLink, not from notification.\n"
        )
    }

    @Test(
        "payload --provider builds the provider's shape, and resolve --provider reads it back",
        arguments: [
            "braze", "oneSignal", "airship", "cleverTap", "iterable", "customerIO", "batch", "firebase", "pinpoint",
        ]
    )
    func providerRoundTrip(provider: String) throws {
        let path = ToolRunner.manifest("reading.yaml")
        let payload = try ToolRunner.run(
            ["payload", "book", "--param", "book_id=5", "--provider", provider, "--title", "Hi", "--manifest", path]
        )
        #expect(payload.status == 0, "\(payload.stderr)")
        let resolved = try ToolRunner.run(
            ["resolve", "--manifest", path, "--format", "json", "--provider", provider, "--notification", "-"],
            stdin: payload.stdout
        )
        #expect(resolved.status == 0, "\(resolved.stdout)")
        #expect(resolved.stdout.contains(#""route":"book""#))
        // Without the preset, the manifest's own keys find nothing there.
        let unread = try ToolRunner.run(
            ["resolve", "--manifest", path, "--format", "json", "--notification", "-"],
            stdin: payload.stdout
        )
        #expect(unread.status == 1)
    }

    @Test("A provider's own push resolves as not for routing; an unknown provider is a usage error")
    func providerInternalPush() throws {
        let silent = try ToolRunner.run(
            ["resolve", "--manifest", apartments, "--format", "json", "--provider", "braze", "--notification", "-"],
            stdin: #"{"aps":{"content-available":1},"ab":{"c":"x"},"appboy_uninstall_tracking":"true"}"#
        )
        #expect(silent.status == 1)
        #expect(silent.stdout.contains(#""status":"notForRouting""#))
        let unknown = try ToolRunner.run([
            "payload", "messages.detail", "--param", "id=1", "--provider", "pusher", "--manifest", apartments,
        ])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("Unknown push provider 'pusher'. The providers are: braze, oneSignal"))
        let former = try ToolRunner.run([
            "payload", "messages.detail", "--param", "id=1", "--provider", "fcm", "--manifest", apartments,
        ])
        #expect(former.status == 2)
        #expect(former.stderr.contains("Unknown push provider 'fcm'. Did you mean 'firebase'? The providers are:"))
        let linkless = try ToolRunner.run([
            "payload", "messages.detail", "--param", "id=1", "--provider", "sendbird", "--manifest", apartments,
        ])
        #expect(linkless.stderr.hasPrefix("error: Sendbird documents no place for a push's link on iOS"))
    }

    @Test("The manifest names providers; lint warns when a provider's payload can be read another way")
    func manifestProviders() throws {
        let manifest = try ManifestLoader.parse(
            """
            schemes: [myapp]
            routes:
              - {name: book, pattern: "/books/{id:int}"}
            notifications:
              providers: [iterable, braze]
              rules:
                - {present: itbl.messageId, link: "/books/1"}
            """
        )
        #expect(manifest.notifications.providers.map(\.name) == ["iterable", "braze"])
        #expect(manifest.makeIntake().notificationProviders.map(\.name) == ["iterable", "braze"])
        let overlaps = ManifestLinter(manifest: manifest).lint().filter { $0.code == "provider-overlap" }
        #expect(overlaps.count == 1)
        // Hostile input, round 3: two enabled presets that one push can match both of; order decides.
        let order = ManifestLinter(manifest: manifest).lint().filter { $0.code == "provider-order" }
        #expect(
            order.map(\.message) == [
                "iterable and braze are both enabled: a push with a link at both Iterable's and Braze's places "
                    + "opens Iterable's, as it is listed first; a push carrying Iterable's marker "
                    + "(itbl.isGhostPush (flag)) is not routed, whatever link of Braze's it holds; a push carrying "
                    + "Braze's marker (appboy_uninstall_tracking (flag), ab_push_fetch_test_triggers_key (flag)) is "
                    + "not routed, whatever link of Iterable's it holds. List only the providers the app's pushes "
                    + "come from, or first the one whose link must win."
            ]
        )
        // And the intake does what the warning says: Iterable's link wins, Braze's marker stops both.
        let both = NotificationProvider.iterable.samplePayload("myapp://books/1")
        guard case .object(var fields) = both else { return }
        fields["ab_uri"] = "myapp://books/2"
        let intake = manifest.makeIntake()
        #expect(
            intake.notification(NotificationResponseSnapshot(userInfo: .object(fields))).link?.string
                == "myapp://books/1"
        )
        fields["appboy_uninstall_tracking"] = true
        #expect(
            intake.notification(NotificationResponseSnapshot(userInfo: .object(fields))).error?.code == .notForRouting
        )
        #expect(overlaps.first?.message.hasPrefix("A push in Iterable's shape") == true)
        #expect(overlaps.first?.message.contains("the rule for '/books/1'") == true)
        #expect {
            try ManifestLoader.parse("routes: []\nnotifications: {providers: [brazee]}\n")
        } throws: { error in
            "\(error)".contains(
                "Unknown push provider 'brazee'. Did you mean 'braze'? The providers are: braze, oneSignal"
            )
        }
    }

    @Test("payload uses the manifest's rule shape, and refuses what APNs would")
    func payloadShapeAndLimits() throws {
        let shaped = try ToolRunner.run([
            "payload", "messages.detail", "--param", "id=1", "--manifest", apartments, "--format", "json",
        ])
        #expect(shaped.stdout == #"{"aps":{},"data":{"messageId":"1"}}"# + "\n")
        let large = try ToolRunner.run([
            "payload", "messages.detail", "--param", "id=1", "--manifest", apartments, "--body",
            String(repeating: "x", count: 5000),
        ])
        #expect(large.status == 2)
        #expect(large.stderr.hasPrefix("error: The payload is "))
        #expect(large.stderr.hasSuffix("bytes; APNs accepts at most 4096.\n"))
        // What is printed is what people paste: spaced out it would be over the limit, so it is not.
        let body = String(repeating: "x", count: 4030)
        let nearly = try ToolRunner.run([
            "payload", "messages.detail", "--param", "id=1", "--manifest", apartments, "--body", body,
        ])
        #expect(nearly.status == 0, "\(nearly.stderr)")
        #expect(nearly.stdout.utf8.count <= 4097, "\(nearly.stdout.utf8.count) bytes")  // and the newline
        #expect(nearly.stdout.hasPrefix(#"{"aps":{"alert":{"body":"xxx"#))
        #expect(nearly.stderr.hasPrefix("warning: Printed without spaces: spaced out, the payload is "))
        // With no alert there is nothing to tap, and only a tap opens the route.
        #expect(
            shaped.stderr
                == "warning: The payload has no alert (--title or --body): iOS shows nothing to tap, so it opens "
                + "no route.\n"
        )
        let typo = try ToolRunner.run(["payload", "messages.detail", "--param", "id=abc", "--manifest", apartments])
        #expect(typo.stderr == "error: 'id' must be an int, got 'abc'.\n")
        let unknown = try ToolRunner.run(["payload", "nowhere", "--manifest", apartments])
        #expect(unknown.stderr.hasPrefix("error: No route is named 'nowhere'"))
        let slip = try ToolRunner.run(["payload", "messages.detial", "--manifest", apartments])
        #expect(slip.stderr.hasSuffix(" Did you mean 'messages.detail'?\n"), "\(slip.stderr)")
    }

    @Test("aasa check: valid files, every verdict, and exit statuses")
    func aasaCheck() throws {
        let file = ToolRunner.root.appendingPathComponent("Tests/WaypointManifestTests/Snapshots/apartments.aasa.json")
            .path
        let output = try ToolRunner.run([
            "aasa", "check", file, "--format", "json", "--url", "https://apartments.example.com/messages/3",
            "--url", "https://apartments.example.com/admin/x",
        ])
        #expect(output.status == 1)
        #expect(
            output.stdout
                == #"{"bytes":1629,"problems":[],"services":["applinks"],"urls":[{"appID":"ABCDE12345.com.example.apartments","excluded":false,"location":"applinks.details[0].components[2]","opensApp":true,"pattern":"{\"/\":\"/messages/?*\",\"comment\":\"messages.detail\"}","reason":"the component {\"/\":\"/messages/?*\",\"comment\":\"messages.detail\"} matches it","url":"https://apartments.example.com/messages/3"},{"appID":"ABCDE12345.com.example.apartments","excluded":true,"location":"applinks.details[0].components[0]","opensApp":false,"pattern":"{\"/\":\"/admin/*\",\"comment\":\"excluded\",\"exclude\":true}","reason":"the component {\"/\":\"/admin/*\",\"comment\":\"excluded\",\"exclude\":true} excludes it","url":"https://apartments.example.com/admin/x"}],"valid":true}"#
                + "\n"
        )
        let broken = try ToolRunner.run(
            ["aasa", "check", "-", "--format", "json"],
            stdin: #"{"applinks": {"details": [{"components": [{"/": 3, "$(x)": 1}]}]}}"#
        )
        #expect(broken.status == 1)
        #expect(broken.stdout.contains(#""valid":false"#))
        #expect(broken.stdout.contains("has neither 'appID' nor 'appIDs'"))
        #expect(
            broken.stdout.contains(
                #"{"message":"must be a string.","path":"applinks.details[0].components[0]./","severity":"error"}"#
            )
        )
    }

    @Test("aasa check's text: the services, each problem at its JSON path, and per URL the app, the entry and why")
    func aasaCheckText() throws {
        let file =
            #"{"version": 2, "applinks": {"details": [{"appIDs": ["Q4NR7XW2LM.com.example.app"], "#
            + #""components": [{"/": "/search", "?": {"q": "?*"}, "note": "x"}, {"/": "/help/*"}]}]}, "#
            + #""webcredentials": {"apps": ["com.example.app"]}}"#
        let output = try ToolRunner.run(
            [
                "aasa", "check", "-", "--url", "https://example.com/help/faq", "--url",
                "http://example.com/search?q=a&q=",
            ],
            stdin: file
        )
        #expect(output.status == 1)
        let expected = """
            invalid (\(file.utf8.count) bytes; 1 error, 2 warnings); services: applinks, webcredentials
              warning: version: iOS ignores the key 'version'; a file declares 'applinks', 'webcredentials', 'appclips', 'activitycontinuation'.
              error: webcredentials.apps[0]: 'com.example.app' has no team ID: write TEAMID.com.example.app, with your 10-character team ID.
              warning: applinks.details[0].components[0]: iOS ignores the key 'note'; it reads '#', '/', '?', 'caseSensitive', 'comment', 'exclude', 'percentEncoded' here.
            https://example.com/help/faq
              opens Q4NR7XW2LM.com.example.app
              why: the component {"/":"/help/*"} matches it (applinks.details[0].components[1])
            http://example.com/search?q=a&q=
              does not open the app
              why: no component matches; nearest: applinks.details[0].components[0] {"/":"/search","?":{"q":"?*"}} matches the path, but not the query item 'q': '' does not match '?*'

            """
        #expect(output.stdout == expected)
    }

    @Test("lint --aasa reads the deployed file with the same reader: its problems, then the routes it would not open")
    func lintDeployedAssociationFile() throws {
        let manifest = ToolRunner.manifest("apartments.yaml")
        let snapshot = ToolRunner.root.appendingPathComponent(
            "Tests/WaypointManifestTests/Snapshots/apartments.aasa.json"
        )
        let served = try String(contentsOf: snapshot, encoding: .utf8)
        // A comment key the author added: a warning, and the routes are still checked.
        let annotated = served.replacingOccurrences(of: #""comment" : "excluded""#, with: #""note" : "excluded""#)
        #expect(annotated != served)
        let warned = try ToolRunner.run(["lint", "--manifest", manifest, "--aasa", "-"], stdin: annotated)
        #expect(warned.status == 0, "\(warned.stdout)")
        #expect(
            warned.stdout.contains(
                "warning: The association file: applinks.details[0].components[0]: iOS ignores the key 'note'"
            )
        )
        // A file serving only part of the routes: the routes it would not open.
        let partial = served.replacingOccurrences(of: #""/messages/?*""#, with: #""/inbox/?*""#)
        let uncovered = try ToolRunner.run(["lint", "--manifest", manifest, "--aasa", "-"], stdin: partial)
        #expect(uncovered.stdout.contains("[universal-link-not-covered]"))
        // An app ID without its team: an error, exit 1.
        let noTeam = served.replacingOccurrences(
            of: "ABCDE12345.com.example.apartments",
            with: "com.example.apartments"
        )
        let refused = try ToolRunner.run(["lint", "--manifest", manifest, "--aasa", "-"], stdin: noTeam)
        #expect(refused.status == 1)
        #expect(
            refused.stdout.contains(
                "error: The association file: applinks.details[0].appIDs[0]: 'com.example.apartments' has no team ID"
            )
        )
        // An unreadable file is reported as such, not replaced by the generated one.
        let broken = try ToolRunner.run(["lint", "--manifest", manifest, "--aasa", "-"], stdin: "{")
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("The association file: The file is not valid JSON"))
        #expect(!broken.stdout.contains("universal-link-not-covered"))
    }
}
