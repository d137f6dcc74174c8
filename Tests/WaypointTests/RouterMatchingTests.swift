import Foundation
import Testing

@testable import Waypoint

/// Builds a router whose route values are their names, for short assertions.
func makeRouter(
    _ routes: [(String, String)],
    configuration: RouterConfiguration = RouterConfiguration()
) throws -> Router<String> {
    var builder = RouterBuilder<String>(configuration: configuration)
    for (name, pattern) in routes { try builder.add(name, pattern, value: name) }
    return try builder.build()
}

@Suite("Router matches links with deterministic precedence")
struct RouterMatchingTests {
    @Test("A path parameter is decoded; the path wins over a query item of the same name; a trailing slash matches")
    func userView() throws {
        let router = try makeRouter([("user", "/user/view/{userID}")])
        let spaced = try #require(try router.match("tests://user/view/joel%20levin"))
        #expect(spaced.parameters["userID"] == .string("joel levin"))
        let evil = try #require(try router.match("tests://user/view/joeldev?userID=evilPerson"))
        #expect(evil.parameters["userID"] == .string("joeldev"))
        #expect(evil.link.queryValue("userID") == "evilPerson")
        #expect(try router.match("tests://user/view/joeldev/")?.parameters["userID"] == .string("joeldev"))
    }

    @Test("'**' captures the rest of the path")
    func catchAll() throws {
        let router = try makeRouter([("route", "/route/{param}/**")])
        let match = try #require(try router.match("tests://route/matches/with/wildcard"))
        #expect(match.parameters["param"] == .string("matches"))
        #expect(match.wildcards == ["with", "wildcard"])
        #expect(try router.match("tests://route/matches")?.wildcards == [])
    }

    @Test("Optional groups: present parts are set, absent ones are missing")
    func optionalParameters() throws {
        let router = try makeRouter([
            ("required", "/required/{requiredParam}(/optional/{optionalParam})(/moreOptional/{moreOptionalParam})")
        ])
        let match = try #require(try router.match("tests://required/mustExist/optional/mightExist"))
        #expect(match.parameters["requiredParam"] == .string("mustExist"))
        #expect(match.parameters["optionalParam"] == .string("mightExist"))
        #expect(match.parameters["moreOptionalParam"] == nil)
        let skipping = try #require(try router.match("tests://required/x/moreOptional/z"))
        #expect(skipping.parameters.dictionary == ["requiredParam": "x", "moreOptionalParam": "z"])
        #expect(try router.match("tests://required") == nil)
    }

    @Test("Repeated query names keep every value in order")
    func repeatedQuery() throws {
        let router = try makeRouter([("list", "/list")])
        #expect(try router.match("tests://list?key=1&key=2&key=3")?.link.queryValues("key") == ["1", "2", "3"])
    }

    @Test("myapp:///pay and myapp://pay both match /pay")
    func payBothForms() throws {
        let router = try makeRouter([("pay", "/pay")])
        for text in ["myapp:///pay?order_id=123", "myapp://pay?order_id=123", "MYAPP://PAY?order_id=123"] {
            let match = try #require(try router.match(text), "\(text)")
            #expect(match.route.name == "pay")
            #expect(match.link.queryValue("order_id") == "123")
        }
    }

    @Test("Precedence: static > typed > parameter > '*' > '**', at every position")
    func precedence() throws {
        let router = try makeRouter([
            ("rest", "/users/**"),
            ("star", "/users/*"),
            ("name", "/users/{name}"),
            ("double", "/users/{value:double}"),
            ("id", "/users/{id:int}"),
            ("uuid", "/users/{id:uuid}"),
            ("flag", "/users/{flag:bool}"),
            ("new", "/users/new"),
        ])
        func winner(_ path: String) throws -> String? { try router.match("app://" + path)?.route.value }
        #expect(try winner("users/new") == "new")
        #expect(try winner("users/42") == "id")
        #expect(try winner("users/4.5") == "double")
        #expect(try winner("users/TRUE") == "flag")
        #expect(try winner("users/9F3C2B4E-1D2A-4C3B-8E4F-5A6B7C8D9E0F") == "uuid")
        #expect(try winner("users/joel") == "name")
        #expect(try winner("users/joel/x") == "rest")
        #expect(try winner("users") == "rest")
        let order = try router.candidates(for: DeepLink("app://users/42")).map(\.route.value)
        #expect(order == ["id", "double", "name", "star", "rest"])
    }

    @Test("An int that overflows is not an int")
    func intOverflow() throws {
        let router = try makeRouter([("id", "/n/{id:int}"), ("other", "/n/{text}")])
        #expect(try router.match("app://n/9223372036854775807")?.route.value == "id")
        #expect(try router.match("app://n/9223372036854775808")?.route.value == "other")
        #expect(try router.match("app://n/-9223372036854775808")?.parameters.int("id") == Int.min)
    }

    @Test("An exact route beats '**' capturing nothing")
    func exactBeatsEmptyCatchAll() throws {
        let router = try makeRouter([("rest", "/a/**"), ("exact", "/a")])
        #expect(try router.match("app://a")?.route.value == "exact")
        #expect(try router.match("app://a/b")?.route.value == "rest")
    }

    @Test("Matching backtracks when a static branch fails further down")
    func backtracking() throws {
        let router = try makeRouter([("new", "/users/new"), ("edit", "/users/{id}/edit")])
        let match = try #require(try router.match("app://users/new/edit"))
        #expect(match.route.value == "edit")
        #expect(match.parameters["id"] == .string("new"))
        #expect(try router.match("app://users/new")?.route.value == "new")
        #expect(try router.match("app://users/new/delete") == nil)
    }

    @Test(
        "Priority breaks a tie between a restricted and an unrestricted route; registration order is never a coin flip"
    )
    func priorityBreaksTies() throws {
        var builder = RouterBuilder<String>()
        try builder.add("general", "/books/{id}", value: "general")
        try builder.add("web", "https://example.com/books/{id}", priority: 1, value: "web")
        let router = try builder.build()
        #expect(try router.match("https://example.com/books/1")?.route.value == "web")
        #expect(try router.match("myapp://books/1")?.route.value == "general")
        #expect(
            try router.candidates(for: DeepLink("https://example.com/books/1")).map(\.route.value) == [
                "web", "general",
            ]
        )
    }

    @Test("Scheme and host prefixes restrict a route")
    func prefixes() throws {
        let router = try makeRouter([
            ("custom", "myapp://messages/{id}"),
            ("web", "https://*.example.com/messages/{id}"),
        ])
        #expect(try router.match("myapp://messages/1")?.route.value == "custom")
        #expect(try router.match("otherapp://messages/1") == nil)
        #expect(try router.match("https://www.example.com/messages/1")?.route.value == "web")
        #expect(try router.match("https://example.com/messages/1") == nil)
        #expect(try router.match("https://wwwexample.com/messages/1") == nil)
        #expect(try router.match("/messages/1") == nil)
    }

    @Test("The host-derived segment compares case-insensitively; other segments by configuration")
    func caseSensitivity() throws {
        let sensitive = try makeRouter([("messages", "/messages/inbox")])
        #expect(try sensitive.match("myapp://MESSAGES/inbox") != nil)
        #expect(try sensitive.match("myapp:///MESSAGES/inbox") == nil)
        #expect(try sensitive.match("myapp://messages/INBOX") == nil)
        let insensitive = try makeRouter(
            [("messages", "/messages/inbox")],
            configuration: RouterConfiguration(caseSensitive: false)
        )
        #expect(try insensitive.match("myapp:///MESSAGES/Inbox") != nil)
    }

    @Test("Percent-encoded input matches decoded literals and typed parameters")
    func encodedInput() throws {
        let router = try makeRouter([("cafe", "/caf%C3%A9/{id:int}"), ("plus", "/c++")])
        let match = try #require(try router.match("app://caf%C3%A9/%34%32"))
        #expect(match.parameters.int("id") == 42)
        #expect(try router.match("app://c%2B%2B") != nil)
        #expect(try router.match("app://c++") != nil)
    }

    @Test("Typed accessors and match metadata")
    func typedAccessors() throws {
        let router = try makeRouter([
            ("item", "/items/{id:uuid}/{price:double}/{visible:bool}/{count:int}/*")
        ])
        let link = try DeepLink(
            "https://example.com/items/9f3c2b4e-1d2a-4c3b-8e4f-5a6b7c8d9e0f/9.5/false/3/x?a=1#frag",
            source: .universalLink
        )
        let match = try #require(router.match(link))
        #expect(match.parameters.uuid("id") == UUID(uuidString: "9F3C2B4E-1D2A-4C3B-8E4F-5A6B7C8D9E0F"))
        #expect(match.parameters.double("price") == 9.5)
        #expect(match.parameters.bool("visible") == false)
        #expect(match.parameters.int("count") == 3)
        #expect(match.wildcards == ["x"])
        #expect(match.fragment == "frag")
        #expect(match.source == .universalLink)
        #expect(match.queryItems == [QueryItem(name: "a", value: "1")])
        #expect(match.route.pattern.text.hasPrefix("/items"))
    }

    @Test("No route, no match; an empty router matches nothing")
    func misses() throws {
        let router = try makeRouter([("a", "/a/{id:int}")])
        #expect(try router.match("app://a/x") == nil)
        #expect(try router.match("app://b/1") == nil)
        #expect(try router.match("app://a/1/2") == nil)
        #expect(try makeRouter([]).match("app://a") == nil)
    }

    @Test("The root route matches links with no path")
    func rootRoute() throws {
        let router = try makeRouter([("home", "/")])
        #expect(try router.match("myapp://")?.route.value == "home")
        #expect(try router.match("https://example.com")?.route.value == "home")
        #expect(try router.match("https://example.com/x") == nil)
    }

    @Test("A router is Sendable and matches from many tasks at once")
    func concurrentMatching() async throws {
        let router = try makeRouter((0..<200).map { ("r\($0)", "/section\($0 % 20)/item\($0)/{id:int}") })
        let results = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    (0..<500).allSatisfy { index in
                        let route = (index + task) % 200
                        let link = try? DeepLink("app://section\(route % 20)/item\(route)/\(index)")
                        let match = link.flatMap { router.match($0) }
                        return match?.route.value == "r\(route)" && match?.parameters.int("id") == index
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}
