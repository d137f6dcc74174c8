import Foundation
import Testing
import Waypoint

@testable import WaypointManifest

/// The `waypoint` tool behaves like swift-argument-parser's own examples: a version, suggestions
/// for a misspelled command, one line for a failure while running, no option a command ignores.
@Suite("The waypoint command line")
struct CommandLineTests {
    let apartments = ToolRunner.manifest("apartments.yaml")

    @Test("--version prints the one version constant, which is CHANGELOG.md's newest release")
    func version() throws {
        let output = try ToolRunner.run(["--version"])
        #expect(output.status == 0)
        #expect(output.stdout == WaypointRelease.version + "\n")
        let changelog = try String(
            contentsOf: ToolRunner.root.appendingPathComponent("CHANGELOG.md"),
            encoding: .utf8
        )
        let releases = changelog.split(separator: "\n").filter {
            $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]")
        }
        #expect(releases.first?.hasPrefix("## [\(WaypointRelease.version)]") == true, "\(releases.first ?? "none")")
    }

    @Test("A misspelled command is named, with the nearest one")
    func misspelledCommand() throws {
        let root = try ToolRunner.run(["reslove", "--manifest", apartments, "x"])
        #expect(root.status == 2)
        #expect(
            root.stderr
                == "error: 'reslove' is not a waypoint command. Did you mean 'resolve'? The commands are: resolve, lint, "
                + "aasa, assetlinks, plist, payload, codegen.\n"
        )
        let nested = try ToolRunner.run(["aasa", "chek", "file.json"])
        #expect(nested.stderr.hasPrefix("error: 'chek' is not a waypoint aasa command. Did you mean 'check'?"))
        // Nothing close: no guess, the list only.
        let far = try ToolRunner.run(["deploy"])
        #expect(
            far.stderr == "error: 'deploy' is not a waypoint command. The commands are: resolve, lint, aasa, "
                + "assetlinks, plist, payload, codegen.\n"
        )
        #expect(try ToolRunner.run(["help"]).status == 0)
        // A word for what a command does, or a command one level down, is named with where it lives.
        let generate = try ToolRunner.run(["generate"])
        #expect(
            generate.stderr.hasPrefix(
                "error: 'generate' is not a waypoint command. Did you mean 'codegen' (typed routes), 'aasa generate' or "
                    + "'assetlinks generate'?"
            ),
            "\(generate.stderr)"
        )
    }

    @Test("A failure while running prints one line and exits 2, without the usage text")
    func runtimeFailures() throws {
        let missing = try ToolRunner.run(["aasa", "check", "/nonexistent/file.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: Cannot read '/nonexistent/file.json'.\n")
        #expect(missing.stdout.isEmpty)
        let lint = try ToolRunner.run(["lint", "--manifest", apartments, "--aasa", "/nonexistent"])
        #expect(lint.stderr == "error: Cannot read '/nonexistent'.\n")
        let manifest = try ToolRunner.run(["resolve", "--manifest", "/nonexistent.yaml", "x"])
        #expect(!manifest.stderr.contains("Usage:"))
    }

    @Test(
        "Commands whose output has one form do not offer --format",
        arguments: [
            ["codegen"], ["aasa", "generate"], ["assetlinks", "generate"],
        ]
    )
    func noIgnoredFormat(command: [String]) throws {
        let output = try ToolRunner.run(
            command + ["--manifest", ToolRunner.manifest("apartments.yaml"), "--format", "json"]
        )
        #expect(output.status == 2)
        #expect(output.stderr.hasPrefix("Error: Unknown option '--format'"))
    }

    @Test("Every value the user passes is checked, with a message that says what is expected")
    func validatedValues() throws {
        let typeName = try ToolRunner.run(["codegen", "--manifest", apartments, "--type-name", "my route"])
        #expect(typeName.status == 2)
        #expect(typeName.stderr.hasPrefix("error: 'my route' cannot name the generated enum"))
        #expect(try ToolRunner.run(["codegen", "--manifest", apartments, "--type-name", "class"]).status == 2)
        #expect(try ToolRunner.run(["codegen", "--manifest", apartments, "--type-name", "Route_2"]).status == 0)
        // A parameter the pattern does not name is a query item, never dropped: a rule-shaped
        // payload cannot carry it, so the whole link goes under the link key.
        let parameter = try ToolRunner.run(
            [
                "payload", "messages.detail", "--manifest", apartments, "--param", "id=1", "--param", "foo=bar",
                "--format", "json",
            ]
        )
        #expect(parameter.status == 0)
        #expect(parameter.stdout.contains("messages/1?foo=bar"))
        // A slip of a parameter's name is said as one, not only as a value missing.
        let slip = try ToolRunner.run(["payload", "messages.detail", "--manifest", apartments, "--param", "ID=1"])
        #expect(slip.status == 2)
        #expect(
            slip.stderr.hasSuffix(
                "Route 'messages.detail' ('/messages/{id:int}') needs a value for 'id'. "
                    + "The parameter 'ID' was given: did you mean 'id'?\n"
            ),
            "\(slip.stderr)"
        )
        // A short name two edits away is no slip of it.
        let unrelated = try ToolRunner.run(["payload", "messages.detail", "--manifest", apartments, "--param", "q=1"])
        #expect(unrelated.status == 2)
        #expect(!unrelated.stderr.contains("did you mean"), "\(unrelated.stderr)")
        let resolved = try ToolRunner.run(
            ["resolve", "--manifest", apartments, "--notification", "-", "--format", "json"],
            stdin: parameter.stdout
        )
        #expect(resolved.stdout.contains(#""query":{"foo":["bar"]}"#), "\(resolved.stdout)")
        let body = try ToolRunner.run([
            "resolve", "--manifest", apartments, "--web-message", "openLink", "--body", "/products/5",
        ])
        #expect(body.status == 2)
        #expect(body.stderr.hasPrefix("Error: --body takes the message body as JSON: a string in quotes"))
        #expect(body.stderr.contains("'/products/5' is not JSON."))
        let userInfo = try ToolRunner.run([
            "resolve", "--manifest", apartments, "--shortcut", "x", "--user-info", "[1]",
        ])
        #expect(userInfo.stderr.hasPrefix("Error: --user-info takes the quick action's userInfo as a JSON object"))
    }

    @Test("A domain and an origin on the command line are checked by the manifest's own rule")
    func domainsAndOrigins() throws {
        let domain = try ToolRunner.run([
            "aasa", "generate", "--manifest", apartments, "--domain", "https://example.com",
        ])
        #expect(domain.status == 2)
        #expect(
            domain.stderr == "error: 'https://example.com' is not a domain; write 'example.com' or '*.example.com'.\n"
        )
        let wildcard = try ToolRunner.temporaryManifest(
            "domains: [\"*.example.com\"]\nappIDs: [ABCDE12345.com.example.app]\nroutes: []\n"
        )
        #expect(
            try ToolRunner.run(["aasa", "generate", "--manifest", wildcard, "--domain", "*.example.com"]).status == 0
        )
        let origin = try ToolRunner.run([
            "resolve", "--manifest", apartments, "--web-message", "openLink", "--body", "\"/x\"", "--origin",
            "example.com",
        ])
        #expect(origin.status == 2)
        #expect(origin.stderr.hasPrefix("Error: --origin takes the origin of the frame that posts the message"))
        #expect(DomainPattern.problem("a_b.example.com") != nil)
        #expect(DomainPattern.problem("example..com") != nil)
        #expect(DomainPattern.problem("xn--exmple-4nf.com") == nil)
    }

    @Test("A notification payload that is not JSON says where it breaks, and one that is no object says so")
    func payloadJSONMessage() throws {
        let output = try ToolRunner.run(
            ["resolve", "--manifest", apartments, "--notification", "-"],
            stdin: "{\"aps\": "
        )
        #expect(output.status == 1)
        #expect(output.stdout.contains("The payload is not valid JSON"))
        #expect(!output.stdout.contains("The data is not in the correct format"))
        // JSON that is no object is said to be so, not read as a payload without a link.
        let array = try ToolRunner.run(["resolve", "--manifest", apartments, "--notification", "-"], stdin: "[1,2]")
        #expect(array.status == 1)
        #expect(array.stdout.contains("A notification payload is a JSON object ({\"aps\": …}); this is an array."))
    }

    @Test("lint makes quick action links from their userInfo (a missing placeholder is a runtime value), and rules'")
    func lintQuickActionsAndRules() throws {
        let manifest = try ToolRunner.temporaryManifest(
            """
            schemes: [myapp]
            routes:
              - {name: listing, pattern: "/listings/{id:int}"}
              - {name: tab, pattern: "/tabs/{index:int}"}
              - {name: order, pattern: "/order/{id:int}/{ref:uuid}"}
              - {name: twice, pattern: "/twice/{a:int}/{b:int}"}
            notifications:
              rules:
                - equals: {tab: inbox}
                  link: /tabs/{tab}
            quickActions:
              - {type: listing.open, title: Open, link: "/listings/{id}", userInfo: {id: 7}}
              - {type: listing.runtime, title: Runtime, link: "/listings/{id}"}
              - {type: listing.static, title: Static, link: "/tabs/2"}
              - {type: order.mixed, title: Mixed, link: "/order/{id}/{ref}"}
              - {type: twice, title: Twice, link: "/twice/{n}/{n}"}
              - {type: listing.nowhere, title: Nowhere, link: "/nowhere/{id}"}
              - {type: listing.text, title: Text, link: "/listings/{id}", userInfo: {id: seven}}
            """
        )
        let output = try ToolRunner.run(["lint", "--manifest", manifest])
        #expect(output.status == 1)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        for clean in ["'listing.open'", "'listing.runtime'", "'listing.static'", "'order.mixed'", "'twice'"] {
            #expect(!lines.contains { $0.contains(clean) }, "\(clean): \(output.stdout)")
        }
        #expect(
            lines.contains {
                $0.contains(
                    "'listing.nowhere' leads to '/nowhere/{id}', which no route matches whatever value the app gives "
                        + "'id' when it sets the shortcut."
                )
            }
        )
        #expect(
            lines.contains {
                $0.contains(
                    "'listing.text' leads to '/listings/{id}', made from its userInfo as '/listings/seven', which no route "
                        + "matches (userInfo: id)."
                )
            }
        )
        #expect(
            lines.contains {
                $0.contains("The notification rule leads to '/tabs/{tab}', which no route matches with tab = 'inbox'")
            }
        )
    }

    @Test("codegen lints first: an error generates nothing and fails, a warning is printed at its line")
    func codegenLints() throws {
        let routes = """
            schemes: [shop]
            routes:
              - {name: account, pattern: /account, barriers: [logn]}
            barriers:
              login: {wait: 30m}

            """
        let warned = try ToolRunner.temporaryManifest(routes)
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("waypoint-\(UUID().uuidString).swift")
        defer { try? FileManager.default.removeItem(at: output) }
        let generated = try ToolRunner.run(["codegen", "--manifest", warned, "--output", output.path])
        #expect(generated.status == 0)
        #expect(FileManager.default.fileExists(atPath: output.path))
        #expect(
            generated.stderr == "\(warned):5:10: warning: The barrier 'login' has a wait, but no route names it; "
                + "the route 'account' names 'logn', which has none. One of the two names is misspelled. [unused-barrier]\n"
        )
        // A rule that leads to no route would only show at run time, as a push that opens nothing.
        let broken = try ToolRunner.temporaryManifest(
            routes + "notifications:\n  rules:\n    - {present: data.x, link: \"/nowhere/{data.x}\"}\n"
        )
        try FileManager.default.removeItem(at: output)
        let refused = try ToolRunner.run(["codegen", "--manifest", broken, "--output", output.path])
        #expect(refused.status == 1)
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("\(broken):8:7: error: The notification rule leads to '/nowhere/{data.x}'"))
        #expect(
            refused.stderr.hasSuffix("error: \(broken): nothing generated; `waypoint lint` lists the same findings.\n")
        )
    }

    @Test("resolve names a route that has a link's shape but not its types, and the values its types refused")
    func typeMismatchHint() throws {
        let manifest = try ToolRunner.temporaryManifest(
            """
            schemes: [shop]
            routes:
              - {name: order.number, pattern: "/orders/{n:int}(/items/{item:int})"}
              - {name: order.id, pattern: "/orders/{id:uuid}"}
              - {name: cart, pattern: /cart}
              - {name: push.only, pattern: "/push/{n:int}", sources: [notification]}

            """
        )
        let output = try ToolRunner.run([
            "resolve", "--manifest", manifest, "--format", "json", "shop://orders/x/items/y", "shop://orders/5/items/y",
            "shop://carts/1", "shop://push/x",
        ])
        #expect(output.status == 1)
        let reasons = output.stdout.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["reason"] as? String
        }
        // The two order routes are one shape untyped: the first is named.
        #expect(
            reasons == [
                "No route matches /orders/x/items/y. The route 'order.number' (/orders/{n:int}(/items/{item:int})) "
                    + "has its shape but not its types: the link gives 'x' for {n:int}, 'y' for {item:int}.",
                // Only the value its type refused is named.
                "No route matches /orders/5/items/y. The route 'order.number' (/orders/{n:int}(/items/{item:int})) "
                    + "has its shape but not its types: the link gives 'y' for {item:int}.",
                "No route matches /carts/1.",
                // A route that takes no link from this source is no hint.
                "No route matches /push/x.",
            ]
        )
    }

    @Test("A newcomer's slips in a manifest or an association file are errors that say what to write")
    func newcomerSlips() throws {
        // An Android package name Android would refuse, and a fingerprint in another form, at their lines.
        let android = try ToolRunner.temporaryManifest(
            """
            domains: [shop.example.com]
            android:
              package: com.acme.shop-app
            routes: []
            """
        )
        let package = try ToolRunner.run(["assetlinks", "generate", "--manifest", android])
        #expect(package.status == 2)
        #expect(
            package.stderr.hasPrefix("error: \(android):3:12: 'com.acme.shop-app' is not an Android package name"),
            "\(package.stderr)"
        )
        let hexOnly = try ToolRunner.temporaryManifest(
            "domains: [shop.example.com]\nandroid:\n  package: com.acme.shop\n  fingerprints: [\"146de983\"]\nroutes: []\n"
        )
        let fingerprint = try ToolRunner.run(["assetlinks", "generate", "--manifest", hexOnly])
        #expect(fingerprint.stderr.hasPrefix("error: \(hexOnly):4:18: '146de983' is not a SHA-256 fingerprint"))

        // A file for a host the manifest does not list would never be fetched; a wildcard's is served per host.
        let shop = try ToolRunner.temporaryManifest(
            """
            domains: [shop.example.com, "*.shop.example.com"]
            appIDs: [ABCDE12345.com.acme.shop]
            routes:
              - {name: cart.view, pattern: /cart}
              - {name: cart-view, pattern: /cart/view}
              - {name: sale, pattern: /sale}
            """
        )
        let foreign = try ToolRunner.run(["aasa", "generate", "--domain", "evil.com", "--manifest", shop])
        #expect(foreign.status == 2)
        #expect(foreign.stderr.hasPrefix("error: 'evil.com' is not one of the manifest's domains"))
        let subdomain = try ToolRunner.run(["aasa", "generate", "--domain", "www.shop.example.com", "--manifest", shop])
        #expect(subdomain.status == 0 && subdomain.stderr.isEmpty, "\(subdomain.stderr)")
        let wildcard = try ToolRunner.run(["aasa", "generate", "--domain", "*.shop.example.com", "--manifest", shop])
        #expect(wildcard.status == 0)
        #expect(wildcard.stderr.hasPrefix("warning: iOS fetches a file from each host"))

        // lint passes only what codegen builds: two routes that make one Swift case.
        let lint = try ToolRunner.run(["lint", "--manifest", shop])
        #expect(lint.status == 1)
        #expect(
            lint.stdout.contains(
                "\(shop):5:5: error: Two routes make the same Swift case 'cartView'; rename one. [typed-routes]"
            ),
            "\(lint.stdout)"
        )

        // A slip of a key iOS reads is an error with the key meant, and a component left with no
        // pattern says it matches every URL.
        let file = try ToolRunner.temporaryManifest(
            ##"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.acme.shop"], "##
                + ##""components": [{"/": "/checkout/*", "excluded": true}, {"path": "/p/*"}]}]}}"##
        )
        let check = try ToolRunner.run(["aasa", "check", file, "--url", "https://shop.example.com/checkout/pay"])
        #expect(check.status == 1)
        #expect(
            check.stdout.contains(
                "error: applinks.details[0].components[0]: iOS ignores the key 'excluded': did you mean 'exclude'?"
            ),
            "\(check.stdout)"
        )
        #expect(
            check.stdout.contains(
                "error: applinks.details[0].components[1]: has none of '/', '?' and '#' (only keys iOS ignores), so it "
                    + "matches every URL: it opens the app for every link."
            )
        )

        // A barrier name one route slips on, with no barriers section to compare with, and a route on a
        // host the domains do not list.
        let routes = try ToolRunner.temporaryManifest(
            """
            schemes: [shop]
            domains: [shop.example.com, "*.shop.example.com"]
            appIDs: [ABCDE12345.com.acme.shop]
            routes:
              - {name: faq, pattern: "https://help.example.org/faq"}
              - {name: mobile, pattern: "https://m.shop.example.com/x"}
              - {name: orders, pattern: /orders, barriers: [login]}
              - {name: account, pattern: /account, barriers: [login]}
              - {name: pay, pattern: /pay, barriers: [logni]}
            """
        )
        let warned = try ToolRunner.run(["lint", "--manifest", routes])
        #expect(
            warned.stdout.contains(
                "\(routes):5:5: warning: The route 'faq' is on help.example.org, which 'domains' does not list"
            ),
            "\(warned.stdout)"
        )
        #expect(!warned.stdout.contains("'mobile'"))
        #expect(
            warned.stdout.contains(
                "\(routes):9:5: warning: The route 'pay' names the barrier 'logni', which no other route does; 2 routes "
                    + "name 'login'."
            )
        )
        #expect(warned.stdout.hasSuffix("0 error(s), 2 warning(s) in 5 routes.\n"))

        // A space in a pattern is a space in the path, and a tab in YAML is the editor's.
        let spaced = try ToolRunner.temporaryManifest(
            "schemes: [s]\nroutes:\n  - {name: sale, pattern: \"/sale items\"}\n"
        )
        #expect(
            try ToolRunner.run(["lint", "--manifest", spaced]).stderr.contains(
                "' ' has no place in a pattern: write a space in a path as %20"
            )
        )
        let tabbed = try ToolRunner.temporaryManifest("schemes: [s]\nroutes:\n\t- {name: a, pattern: /a}\n")
        #expect(
            try ToolRunner.run(["lint", "--manifest", tabbed]).stderr.hasSuffix(
                "Indent with spaces: YAML does not take tabs.\n"
            )
        )
    }

    @Test("The new checks stay quiet on sound manifests and files: typed query items, the tool's own association file")
    func newChecksWithoutFalseAlarms() throws {
        // Four typed query items filled from a push: each placeholder takes its item's type.
        let typed = try ToolRunner.temporaryManifest(
            """
            schemes: [shop]
            domains: [shop.example.com]
            appIDs: [ABCDE12345.com.acme.shop]
            routes:
              - {name: list, pattern: /list, query: {a1: bool, a2: int, a3: uuid, a4: bool}}
              - {name: product, pattern: "/products/{id:int}"}
              - {name: tab, pattern: "/products/{id:int}/{tab}"}
            notifications:
              rules:
                - {present: data.p1, link: "/list?a1={data.p1}&a2={data.p2}&a3={data.p3}&a4={data.p4}"}
            webView:
              origins: [shop.example.com, help.other.com]
            policy:
              passThroughHosts: ["*.other.com"]
            """
        )
        let lint = try ToolRunner.run(["lint", "--manifest", typed])
        #expect(!lint.stdout.contains("mapping-leads-nowhere"), "\(lint.stdout)")
        // An origin the policy always refuses is the one finding.
        #expect(
            lint.stdout.contains(
                "warning: The web-view origin 'help.other.com' may never post links: the policy leaves the host "
                    + "'help.other.com' to the system. Remove one of the two. [web-origin-refused]"
            ),
            "\(lint.stdout)"
        )
        // The tool's own association file, read back as a deployed one, opens nothing no route handles.
        let generated = try ToolRunner.run(["aasa", "generate", "--manifest", typed])
        let file = try ToolRunner.temporaryManifest(generated.stdout)
        let deployed = try ToolRunner.run(["lint", "--manifest", typed, "--aasa", file])
        #expect(!deployed.stdout.contains("component-without-route"), "\(deployed.stdout)")
        // A file that opens a deeper path than the routes take is reported at its component.
        let wide = try ToolRunner.temporaryManifest(
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.acme.shop"], "components": [{"/": "/list/*"}]}]}}"#
        )
        let drift = try ToolRunner.run(["lint", "--manifest", typed, "--aasa", wide])
        #expect(drift.stdout.contains("component 0 of details 0 ('/list/*') opens the app for links like /list/"))

        // A provider's payload has its alert: no warning (apartments.yaml lists firebase).
        let firebase = try ToolRunner.run([
            "payload", "messages.detail", "--param", "id=1", "--provider", "firebase", "--manifest", apartments,
        ])
        #expect(firebase.status == 0 && firebase.stderr.isEmpty, "\(firebase.stderr)")
        // One the manifest does not list is built, with a warning that the app does not read it yet.
        let braze = try ToolRunner.run([
            "payload", "messages.detail", "--param", "id=1", "--provider", "braze", "--manifest", apartments,
        ])
        #expect(braze.status == 0)
        #expect(
            braze.stderr
                == "warning: The manifest's notifications.providers does not list braze, so the app does not read "
                + "this payload: add it there (`waypoint resolve --provider braze` reads it meanwhile).\n",
            "\(braze.stderr)"
        )

        // A comment's slip has no effect to lose: a warning. `path` is '/' by another name, and defaults
        // are read for slips too.
        let keys = try ToolRunner.temporaryManifest(
            #"{"applinks": {"defaults": {"caseSensitve": false}, "details": [{"appIDs": ["ABCDE12345.com.acme.shop"], "#
                + #""components": [{"/": "/x", "comments": "c"}, {"path": "/p/*"}]}]}}"#
        )
        let check = try ToolRunner.run(["aasa", "check", keys])
        #expect(check.stdout.contains("warning: applinks.details[0].components[0]: iOS ignores the key 'comments';"))
        #expect(
            check.stdout.contains(
                "error: applinks.details[0].components[1]: iOS ignores the key 'path': did you mean '/'?"
            )
        )
        #expect(
            check.stdout.contains(
                "error: applinks.defaults: iOS ignores the key 'caseSensitve': did you mean 'caseSensitive'?"
            )
        )
    }
}
