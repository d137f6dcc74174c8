import Foundation
import Testing

@testable import Waypoint

@Suite("Routes build their own links, and parsing a built link gives the same match")
struct ReverseRoutingTests {
    let router: Router<String>

    init() throws {
        var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("messages.detail", "/messages/{id:int}", value: "chat")
        try builder.add("pay", "/pay", value: "pay")
        try builder.add("user", "/user/view/{userID}", value: "user")
        try builder.add("files", "/files/*/**", value: "files")
        try builder.add("required", "/required/{a}(/optional/{b})(/more/{c})", value: "required")
        try builder.add("book", "https://example.com/books/{id:int}", value: "book")
        try builder.add("wildHost", "https://*.example.org/x/{id}", value: "wild")
        try builder.add("typed", "/t/{u:uuid}/{d:double}/{b:bool}", value: "typed")
        router = try builder.build()
    }

    @Test("Custom-scheme and universal forms")
    func forms() throws {
        #expect(try router.link(for: "messages.detail", ["id": 42]).string == "myapp://messages/42")
        #expect(
            try router.link(for: "messages.detail", ["id": 42], style: .universal(host: "example.com")).string
                == "https://example.com/messages/42"
        )
        #expect(try router.link(for: "book", ["id": 7]).string == "https://example.com/books/7")
        #expect(
            try router.link(for: "wildHost", ["id": "a"], style: .universal(host: "www.example.org")).string
                == "https://www.example.org/x/a"
        )
    }

    @Test("Unused values become sorted query items; values are encoded")
    func queryAndEncoding() throws {
        #expect(
            try router.link(for: "pay", ["order_id": 123, "coupon": "a&b"]).string
                == "myapp://pay?coupon=a%26b&order_id=123"
        )
        #expect(
            try router.link(for: "user", ["userID": "joel levin/ü"]).string == "myapp://user/view/joel%20levin%2F%C3%BC"
        )
        #expect(try router.link(for: "files", wildcards: ["a", "b c", "d"]).string == "myapp://files/a/b%20c/d")
    }

    @Test("Optional groups: the longest shape whose values are all given")
    func optionalGroups() throws {
        #expect(try router.link(for: "required", ["a": "x"]).string == "myapp://required/x")
        #expect(try router.link(for: "required", ["a": "x", "c": "z"]).string == "myapp://required/x/more/z")
        #expect(
            try router.link(for: "required", ["a": "x", "b": "y", "c": "z"]).string
                == "myapp://required/x/optional/y/more/z"
        )
    }

    @Test(
        "Missing, mistyped and unknown values are typed errors",
        arguments: [
            ("messages.detail", [:], "Route 'messages.detail' ('/messages/{id:int}') needs a value for 'id'."),
            (
                "messages.detail", ["id": "abc"],
                "Route 'messages.detail' ('/messages/{id:int}') needs a value of type int for 'id', got 'abc'."
            ),
            (
                "user", ["userID": ""],
                "Route 'user' ('/user/view/{userID}') needs a non-empty value for 'userID', got ''."
            ),
            ("nowhere", [:], "No route is named 'nowhere'."),
            (
                "wildHost", ["id": "a"],
                "Route 'wildHost' ('https://*.example.org/x/{id}') accepts any subdomain of example.org; pass style: .universal(host:)."
            ),
        ] as [(String, [String: ParameterValue], String)]
    )
    func errors(name: String, values: [String: ParameterValue], message: String) {
        #expect(throws: WaypointError.self) { try router.link(for: name, values) }
        do {
            _ = try router.link(for: name, values)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("A typed value is built only when the router reads its text back as that type")
    func typedValuesRoundTrip() throws {
        let uuid = "9F3C2B4E-1D2A-4C3B-8E4F-5A6B7C8D9E0F"
        for number in [1.5, -0.25, 1e20, 42] as [Double] {
            let link = try router.link(for: "typed", ["u": .string(uuid), "d": .double(number), "b": true])
            #expect(try router.match(link.string)?.parameters.double("d") == number, "\(link)")
        }
        // Swift's Double reads and writes these, the router does not: refused where the link is built.
        for value in [ParameterValue.double(.infinity), .double(-.infinity), .double(.nan), "0x1p3", "nan", " 1"] {
            do {
                let link = try router.link(for: "typed", ["u": .string(uuid), "d": value, "b": true])
                Issue.record("\(value) built \(link), which no route matches")
            } catch {
                #expect(error.code == .invalidParameter)
                #expect(error.description.contains("needs a value of type double for 'd'"))
            }
        }
        #expect(throws: WaypointError.self) { try router.link(for: "messages.detail", ["id": "%34%32"]) }
    }

    @Test("A link another route would take is refused, naming the route that takes it")
    func shadowedLinks() throws {
        var builder = RouterBuilder<Void>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("users.new", "/users/new")
        try builder.add("user", "/users/{name}")
        try builder.add("items.id", "/items/{id:int}")
        try builder.add("items.slug", "/items/{slug}")
        try builder.add("pay", "/pay")
        try builder.add("section", "/{section}")
        let router = try builder.build()
        let shadowed: [(String, [String: ParameterValue], String)] = [
            ("user", ["name": "new"], "myapp://users/new opens route 'users.new' ('/users/new')"),
            ("items.slug", ["slug": "42"], "myapp://items/42 opens route 'items.id' ('/items/{id:int}')"),
            ("items.slug", ["slug": "+42"], "myapp://items/+42 opens route 'items.id' ('/items/{id:int}')"),
            ("items.slug", ["slug": "0042"], "myapp://items/0042 opens route 'items.id' ('/items/{id:int}')"),
            ("section", ["section": "PAY"], "myapp://PAY opens route 'pay' ('/pay')"),
        ]
        for (name, values, opens) in shadowed {
            do {
                let link = try router.link(for: name, values)
                Issue.record("\(name) \(values) built \(link)")
            } catch {
                #expect(error.code == .shadowedRoute)
                #expect(error.names == [name])
                #expect(error.message.hasSuffix("cannot be reached with these values: \(opens)."), "\(error.message)")
            }
        }
        // The same routes with values only they take build, and open what they were built for.
        for (name, values) in [
            ("user", ["name": "joel"]), ("items.slug", ["slug": "shoes"]), ("section", ["section": "help"]),
        ]
            as [(String, [String: ParameterValue])]
        {
            let link = try router.link(for: name, values)
            #expect(router.match(link)?.route.name == name, "\(link)")
        }
    }

    @Test("A route counts as taking a built link only if the link can reach both by one source")
    func shadowingBySource() throws {
        var builder = RouterBuilder<Void>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("users.new", "/users/new", sources: [.universalLink])
        try builder.add("user", "/users/{name}")
        try builder.add("docs", "/docs(/{lang})/**")
        let router = try builder.build()
        // A custom-scheme link never arrives as a universal link, so `users.new` cannot take it.
        #expect(try router.link(for: "user", ["name": "new"]).string == "myapp://users/new")
        do {
            let link = try router.link(for: "user", ["name": "new"], style: .universal(host: "example.com"))
            Issue.record("built \(link), which opens users.new as a universal link")
        } catch {
            #expect(error.code == .shadowedRoute)
        }
        // Only a web link arrives as `.web`: a custom-scheme link to `/w/{x}` with `new` builds.
        var web = RouterBuilder<Void>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try web.add("w.new", "/w/new", sources: [.web])
        try web.add("w", "/w/{x}")
        #expect(try web.build().link(for: "w", ["x": "new"]).string == "myapp://w/new")
        // The route itself, in another shape: `a` would be read as the language.
        do {
            let link = try router.link(for: "docs", wildcards: ["a", "b"])
            Issue.record("built \(link)")
        } catch {
            #expect(error.message.hasSuffix("opens the route in another of its shapes, with other values."))
        }
        #expect(try router.link(for: "docs", ["lang": "en"], wildcards: ["a", "b"]).string == "myapp://docs/en/a/b")
    }

    @Test("A segment of '.' or '..' is refused: browsers remove it and would open another address")
    func dotSegments() throws {
        for value in [".", ".."] {
            let attempts: [(name: String, parameters: [String: ParameterValue], wildcards: [String])] = [
                ("user", ["userID": .string(value)], []),
                ("files", [:], [value, "b"]),
                ("files", [:], ["a", "b", value]),
            ]
            for attempt in attempts {
                do {
                    let link = try router.link(for: attempt.name, attempt.parameters, wildcards: attempt.wildcards)
                    Issue.record("built \(link)")
                } catch {
                    #expect(error.code == .invalidParameter)
                    #expect(error.message.contains("cannot put '\(value)' in a segment"), "\(error.message)")
                }
            }
        }
        // Dots inside a value, and in the query, are text like any other.
        #expect(try router.link(for: "user", ["userID": "...", "q": ".."]).string == "myapp://user/view/...?q=..")
        #expect(try router.link(for: "files", wildcards: [".a", "b."]).string == "myapp://files/.a/b.")
    }

    @Test("A route that takes universal links only is built only as a web link")
    func universalOnly() throws {
        var builder = RouterBuilder<Void>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("promo", "/promo/{code}", sources: [.universalLink])
        try builder.add("open", "/open/{code}", sources: [.web, .notification])
        let router = try builder.build()
        do {
            let link = try router.link(for: "promo", ["code": "SPRING"])
            Issue.record("built \(link), which every way in refuses")
        } catch {
            #expect(error.code == .originMismatch)
            #expect(
                error.message
                    == "Route 'promo' ('/promo/{code}') takes links only from universalLink, which a myapp link never "
                    + "arrives as: pass style: .universal(host:) with one of the app's domains."
            )
        }
        #expect(
            try router.link(for: "promo", ["code": "SPRING"], style: .universal(host: "example.com")).string
                == "https://example.com/promo/SPRING"
        )
        // A route that takes another source too builds a custom-scheme link (a push may carry it).
        #expect(try router.link(for: "open", ["code": "x"]).string == "myapp://open/x")
    }

    @Test("A path parameter is never moved to the query: its optional group needs its other values")
    func strandedPathParameter() throws {
        var builder = RouterBuilder<Void>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("optional", "/a(/{b}/*)")
        let router = try builder.build()
        do {
            let link = try router.link(for: "optional", ["b": "x"])
            Issue.record("built \(link), where 'b' is a query item the route does not read")
        } catch {
            #expect(error.code == .missingParameter)
            #expect(error.message.contains("puts 'b' in its path only with the rest of its optional group"))
        }
        let link = try router.link(for: "optional", ["b": "x"], wildcards: ["w"])
        #expect(link.string == "myapp://a/x/w")
        #expect(router.match(link)?.parameters.string("b") == "x")
        #expect(try router.link(for: "optional", ["other": "y"]).string == "myapp://a?other=y")
    }

    @Test("A style's scheme is the app's own and its host a host name")
    func styleChecked() throws {
        for scheme in ["javascript", "DATA", "https", "my app", "myapp://"] {
            do {
                let link = try router.link(for: "pay", style: .scheme(scheme))
                Issue.record("built \(link)")
            } catch {
                #expect(error.code == .invalidScheme, "\(scheme)")
            }
        }
        for host in ["good.com@evil.com", "example.com/evil", "example.com:8443", "*.example.com", "", "a..b"] {
            do {
                let link = try router.link(for: "pay", style: .universal(host: host))
                Issue.record("built \(link)")
            } catch {
                #expect(error.code == .invalidLink, "\(host)")
                #expect(error.message.contains("is not a host name"), "\(error.message)")
            }
        }
        #expect(
            try router.link(for: "pay", style: .universal(host: "my_host.example.com")).string
                == "https://my_host.example.com/pay"
        )
        #expect(try router.link(for: "pay", style: .scheme("com.example.App")).string == "com.example.app://pay")
        // A fully qualified name keeps its dot; only ASCII letters are lowered, so the Kelvin sign is no 'k'.
        #expect(
            try router.link(for: "pay", style: .universal(host: "A.Example.com.")).string
                == "https://a.example.com./pay"
        )
        #expect(throws: WaypointError.self) { try router.link(for: "pay", style: .universal(host: "ex\u{212A}.com")) }
    }

    @Test("A style the route does not accept is refused")
    func originMismatch() {
        do {
            _ = try router.link(for: "book", ["id": 1], style: .scheme("myapp"))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .originMismatch)
        }
    }

    @Test("Without a scheme anywhere, building says where to set one")
    func missingScheme() throws {
        var builder = RouterBuilder<Void>()
        try builder.add("a", "/a")
        let router = try builder.build()
        do {
            _ = try router.link(for: "a")
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "Route 'a' ('/a') names no scheme; pass a style or set RouterConfiguration.linkScheme."
            )
        }
    }

    @Test("Property: random values round-trip through build, parse and match", arguments: [1, 2, 3, 4] as [UInt64])
    func roundTrip(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let alphabet: [String] = [
            "a", "Z", "0", "/", "%", "+", " ", "?", "#", "&", "=", ".", "~", "😀", "中", "文", "é", ":", "@", "\\",
        ]
        func randomText() -> String {
            let text = (0..<Int.random(in: 1...8, using: &random)).map { _ in
                alphabet.randomElement(using: &random) ?? "a"
            }.joined()
            // `.` and `..` alone are refused (the next test): browsers remove them from a path.
            return text == "." || text == ".." ? text + "a" : text
        }
        for _ in 0..<500 {
            let userID = randomText()
            let extra = randomText()
            let id = Int.random(in: Int.min...Int.max, using: &random)
            let uuid = UUID()
            let double = Double(Int.random(in: -10_000...10_000, using: &random)) / 8
            let flag = Bool.random(using: &random)
            let wildcards = (0..<Int.random(in: 1...4, using: &random)).map { _ in randomText() }

            let user = try router.link(for: "user", ["userID": .string(userID), "extra": .string(extra)])
            let userMatch = try #require(router.match(DeepLink(user.string)), "\(user)")
            #expect(userMatch.parameters["userID"] == .string(userID))
            #expect(userMatch.link.queryValue("extra") == extra)

            let chat = try router.link(for: "messages.detail", ["id": .int(id)])
            #expect(router.match(try DeepLink(chat.string))?.parameters["id"] == .int(id))

            let typed = try router.link(for: "typed", ["u": .uuid(uuid), "d": .double(double), "b": .bool(flag)])
            let typedMatch = try #require(router.match(try DeepLink(typed.string)))
            #expect(typedMatch.parameters.dictionary == ["u": .uuid(uuid), "d": .double(double), "b": .bool(flag)])

            let files = try router.link(for: "files", wildcards: wildcards)
            #expect(router.match(try DeepLink(files.string))?.wildcards == wildcards)
        }
    }
}
