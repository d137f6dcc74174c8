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
            (0..<Int.random(in: 1...8, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" }
                .joined()
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
