import Foundation
import Testing
import Waypoint

@testable import WaypointManifest

@Suite("The manifest loads into the core's runtime types, and says where it is wrong")
struct ManifestLoaderTests {
    @Test("The minimal manifest works")
    func minimal() throws {
        let manifest = try ManifestLoader.parse(
            """
            schemes: [myapp]
            domains: [example.com]
            routes: [{name: messages.detail, pattern: "/messages/{id:int}"}]
            """
        )
        let resolver = try manifest.makeResolver()
        #expect(resolver.resolve("myapp://messages/1").match?.route.name == "messages.detail")
        #expect(resolver.resolve("https://example.com/messages/2").match?.parameters.int("id") == 2)
    }

    @Test("JSON is accepted, being YAML")
    func json() throws {
        let manifest = try ManifestLoader.parse(#"{"schemes": ["myapp"], "routes": [{"name": "a", "pattern": "/a"}]}"#)
        #expect(manifest.routes.map(\.name) == ["a"])
    }

    @Test("Every example manifest loads and builds")
    func examples() throws {
        for name in ["apartments", "payments", "reading", "tutoring", "notifications"] {
            let manifest = try ManifestLoader.load(file: ToolRunner.manifest("\(name).yaml"))
            _ = try manifest.makeResolver()
        }
    }

    @Test(
        "Errors name the file, line and column and what was expected",
        arguments: [
            (
                "schemes: [myapp]\nrotues: []\n",
                "m.yaml:2:1: Unknown key 'rotues'. Did you mean 'routes'? Expected one of: schemes, domains, appIDs, android, routes, barriers, notifications, quickActions, quickActionLimit, activities, webView, policy, universalLinks, shortLinks."
            ),
            ("schemes: [myapp]\n", "m.yaml:1:1: The manifest needs 'routes', a list of {name, pattern}."),
            (
                "routes:\n  - name: a\n    pattern: /a/{id:integer}\n",
                "m.yaml:3:14: Pattern '/a/{id:integer}': unknown parameter type 'integer' (known: int, uuid, bool, double, string) (offset 3)."
            ),
            ("routes:\n  - name: a\n", "m.yaml:2:5: The route 'a' needs 'pattern'."),
            ("schemes: {a: b}\nroutes: []\n", "m.yaml:1:10: 'schemes' must be a list of strings."),
            (
                "routes:\n  - {name: a, pattern: /a, priority: high}\n",
                "m.yaml:2:38: 'routes[0].priority' must be a whole number."
            ),
            (
                "routes:\n  - {name: a, pattern: /a, sources: [email]}\n",
                "m.yaml:2:37: Unknown source 'email'; expected one of: urlScheme, universalLink, notification, shortcut, userActivity, webMessage, webNavigation, text, deferred, web."
            ),
            ("routes: [\n", "m.yaml:2:1: Invalid YAML: did not find expected node content."),
            (
                "domains: [https://example.com]\nroutes: []\n",
                "m.yaml:1:10: 'https://example.com' is not a domain; write 'example.com' or '*.example.com'."
            ),
            (
                "schemes: [\"myapp://\"]\nroutes: []\n",
                "m.yaml:1:10: 'myapp://' is not a scheme; write 'myapp' (no ':' or '//'): a scheme is a letter, then letters, digits, '+', '-' and '.'."
            ),
            (
                "policy: {passThroughHosts: [blog.example.com/]}\nroutes: []\n",
                "m.yaml:1:28: 'blog.example.com/' is not a domain; write 'example.com' or '*.example.com'."
            ),
            (
                "policy: {denySchemes: [\"tel:\"]}\nroutes: []\n",
                "m.yaml:1:23: 'tel:' is not a scheme; write 'tel' (no ':' or '//'): a scheme is a letter, then letters, digits, '+', '-' and '.'."
            ),
            (
                "webView: {origins: [https://example.com]}\nroutes: []\n",
                "m.yaml:1:20: 'https://example.com' is not a domain; write 'example.com' or '*.example.com'."
            ),
            (
                "schemes: [https, myapp]\nroutes: []\n",
                "m.yaml:1:10: 'https' is no custom scheme; an app's links are its own scheme's (myapp://…), or https on one of its domains."
            ),
            (
                "domains: [example.com, \"*.com\"]\nroutes: []\n",
                "m.yaml:1:10: '*.com' claims every site under '.com'; list the domains the app serves, such as '*.example.com'."
            ),
            (
                "webView: {origins: [\"*.net\"]}\nroutes: []\n",
                "m.yaml:1:20: '*.net' claims every site under '.net'; list the domains the app serves, such as '*.example.com'."
            ),
        ]
    )
    func errors(text: String, message: String) {
        do {
            _ = try ManifestLoader.parse(text, file: "m.yaml")
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("A policy may deny or pass on a whole top-level domain; the app claims none")
    func topLevelHosts() throws {
        let manifest = try ManifestLoader.parse(
            "policy: {denyHosts: [\"*.tk\"], passThroughHosts: [\"*.gov\"]}\nroutes: []\n",
            file: "m.yaml"
        )
        #expect(manifest.policy.denyHosts == ["*.tk"])
        #expect(manifest.policy.passThroughHosts == ["*.gov"])
    }

    @Test("Duplicate routes fail when the router is built, at the later route's line")
    func duplicates() throws {
        let manifest = try ManifestLoader.parse(
            "routes:\n  - {name: a, pattern: \"/u/{id}\"}\n  - {name: b, pattern: \"/u/{x}\"}\n",
            file: "m.yaml"
        )
        do {
            _ = try manifest.makeRouter()
            Issue.record("expected an error")
        } catch {
            #expect(error.location?.line == 3)
        }
    }

    @Test("Quick actions follow the state; the limit applies")
    func quickActions() throws {
        let manifest = try ManifestLoader.load(file: ToolRunner.manifest("apartments.yaml"))
        #expect(manifest.quickActionItems(for: ["profile": "guest"]).map(\.title) == ["Recent activity", "Messages"])
        #expect(
            manifest.quickActionItems(for: ["profile": "host"]).map(\.title) == [
                "Recent activity", "Messages", "New listing",
            ]
        )
    }

    @Test("The intake reads the manifest's notification rules, categories and web messages")
    func intake() throws {
        let manifest = try ManifestLoader.load(file: ToolRunner.manifest("reading.yaml"))
        let intake = manifest.makeIntake()
        let payload: PayloadValue = ["aps": ["category": "bookDetail"], "book_id": "42"]
        #expect(intake.notification(NotificationResponseSnapshot(userInfo: payload)).link?.string == "/books/42")
        let message = WebMessageSnapshot(name: "openBook", body: ["id": 3], origin: "https://read.example.com")
        #expect(intake.webMessage(message).link?.string == "/books/3")
    }

    @Test(
        "A query parameter's type and default are checked when the manifest is read, at their line, with a suggestion",
        arguments: [
            (
                "{q: integer}",
                ":3:46: Unknown type 'integer'. Did you mean 'int'? The types are: int, uuid, bool, double, string."
            ),
            ("{q: strng}", "Did you mean 'string'?"),
            ("{page: {type: int, default: two}}", "The default 'two' of 'page' is not a int."),
            ("{page: {type: int, optional: true, default: 1}}", "is optional or has a default, not both."),
            ("{near: {type: uuid, default: x}}", "A uuid query parameter has no default; make it optional."),
            ("{utm-source: string}", "The query parameter 'utm-source' must be a Swift name"),
            ("{id: int}", "The route 'a' has 'id' in its pattern already; name the query one otherwise."),
            ("{page: {optional: true}}", "'routes[0].query.page' needs a 'type'."),
            ("{x: {type: double, default: inf}}", "The default 'inf' of 'x' is not a double."),
            ("{match: string}", "The query parameter 'match' would clash in typed route code"),
            ("{_: string}", "The query parameter '_' must be a Swift name"),
        ]
    )
    func queryMistakes(query: String, message: String) {
        let text = "schemes: [myapp]\nroutes:\n  - {name: a, pattern: \"/a/{id}\", query: \(query)}\n"
        #expect {
            _ = try ManifestLoader.parse(text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
    @Test(
        "A link template whose braces do not pair is refused at its line, by the rule the app's intake checks",
        arguments: [
            (
                "rules: [{present: data.id, link: \"/a/{data.id\"}]",
                ":5:36: The link template '/a/{data.id': a '{' is never closed"
            ),
            ("settings: \"/a/}\"", ":5:13: The link template '/a/}': a '}' closes no placeholder"),
        ]
    )
    func templateBraces(notifications: String, message: String) {
        let text =
            "schemes: [myapp]\nroutes:\n  - {name: a, pattern: \"/a/{id}\"}\nnotifications:\n  \(notifications)\n"
        #expect {
            _ = try ManifestLoader.parse(text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
