import Testing

@testable import Waypoint
@testable import WaypointCore

@Suite("RouterBuilder refuses duplicate and ambiguous tables with errors people can act on")
struct RouterBuilderTests {
    func buildError(_ routes: [(String, String, Int)]) -> WaypointError? {
        var builder = RouterBuilder<Void>()
        do {
            for (name, pattern, priority) in routes { try builder.add(name, pattern, priority: priority) }
            _ = try builder.build()
            return nil
        } catch {
            return error
        }
    }

    @Test("A link scheme that is no scheme fails the build, not every link built later")
    func linkScheme() throws {
        for written in ["myapp://", "myapp:", "my app", "", "https", "HTTP", "javascript"] {
            var builder = RouterBuilder<Void>(configuration: RouterConfiguration(linkScheme: written))
            try builder.add("pay", "/pay")
            do {
                _ = try builder.build()
                Issue.record("'\(written)' built")
            } catch {
                #expect(error.code == .invalidScheme, "\(written)")
                let problem =
                    ["https", "HTTP", "javascript"].contains(written) ? "is no custom scheme;" : "is not a scheme;"
                #expect(error.message.hasPrefix("The router's linkScheme: '\(written)' \(problem)"), "\(written)")
            }
        }
        var builder = RouterBuilder<Void>(configuration: RouterConfiguration(linkScheme: "com.example.app"))
        try builder.add("pay", "/pay")
        #expect(try builder.build().link(for: "pay").string == "com.example.app://pay")
    }

    @Test("Same shape, different parameter names: a duplicate")
    func duplicateShape() {
        let error = buildError([("a", "/users/{id}", 0), ("b", "/users/{name}", 5)])
        #expect(error?.code == .duplicateRoute)
        #expect(error?.names == ["a", "b"])
        #expect(
            error?.description
                == "Routes 'a' ('/users/{id}') and 'b' ('/users/{name}') are duplicates: both have the shape /users/{}."
        )
    }

    @Test("An optional group that repeats another route's shape is a duplicate")
    func duplicateThroughGroup() {
        #expect(buildError([("a", "/a/b", 0), ("b", "/a(/b)", 0)])?.code == .duplicateRoute)
    }

    @Test("Overlapping restrictions at one priority are ambiguous; a priority settles it")
    func ambiguity() {
        let error = buildError([("any", "/books/{id}", 0), ("mine", "myapp://books/{id}", 0)])
        #expect(error?.code == .ambiguousRoutes)
        #expect(
            error?.description
                == "Routes 'any' ('/books/{id}') and 'mine' ('myapp://books/{id}') are ambiguous: "
                + "both match /books/{} at priority 0; give one a higher priority."
        )
        #expect(buildError([("any", "/books/{id}", 0), ("mine", "myapp://books/{id}", 1)]) == nil)
        #expect(buildError([("mine", "myapp://books/{id}", 0), ("web", "https://example.com/books/{id}", 0)]) == nil)
        #expect(
            buildError([("wild", "https://*.example.com/b", 0), ("www", "https://www.example.com/b", 0)])?.code
                == .ambiguousRoutes
        )
    }

    @Test("Different types at one position are not duplicates")
    func typesAreDistinct() {
        #expect(buildError([("int", "/a/{id:int}", 0), ("string", "/a/{id}", 0), ("uuid", "/a/{id:uuid}", 0)]) == nil)
    }

    @Test("Two routes with one name")
    func duplicateName() {
        let error = buildError([("a", "/x", 0), ("a", "/y", 0)])
        #expect(error?.code == .duplicateName)
        #expect(error?.description == "Two routes are named 'a' ('/x' and '/y'); route names must be unique.")
    }

    @Test("Every one of 3,000 routes is found by name; a name taken late is still refused")
    func namesAtScale() throws {
        var builder = RouterBuilder<Int>()
        for index in 0..<3_000 { try builder.add("route.\(index)", "/r\(index)", value: index) }
        let router = try builder.build()
        for index in 0..<3_000 { #expect(router.route(named: "route.\(index)")?.value == index) }
        #expect(router.route(named: "route.3000") == nil)
        #expect(router.route(named: "") == nil)
        try builder.add("route.2999", "/other", value: -1)
        #expect(throws: WaypointError.self) { try builder.build() }
    }

    @Test("Case-sensitive routers refuse first literals differing only by case when a link can match both")
    func hostPositionCase() throws {
        let error = buildError([("upper", "/Settings", 0), ("lower", "/settings", 5)])
        #expect(error?.code == .ambiguousRoutes)
        #expect(error?.names == ["upper", "lower"])
        #expect(
            error?.message
                == "Routes 'upper' ('/Settings') and 'lower' ('/settings') are ambiguous: a link can match both, as "
                + "their first segments differ only in case and a custom-scheme link carries that segment in its host "
                + "(myapp://settings), where case does not count; rename one."
        )
        // In the host the walk takes whichever literal leads to a route first, so any overlap is
        // ambiguous: the same shape, a typed and an untyped parameter, a literal a parameter takes,
        // `*` and `**`, an optional group.
        let ambiguous = [
            ("/Foo/{id:int}", "/foo/{x:int}"), ("myapp://Foo", "/foo"), ("/Foo(/bar)", "/foo(/baz)"),
            ("/Foo/{id:int}", "/foo/{name}"), ("/Foo/a", "/foo/{x}"), ("/Foo/**", "/foo/{x}"), ("/Foo/*", "/foo/{x}"),
            ("myapp://Foo/{id:int}", "/foo/{n}"), ("/Foo/{n:int}", "/foo/{d:double}"), ("/Foo/**", "/foo"),
            ("/Foo/7", "/foo/{n:int}"),
        ]
        for (upper, lower) in ambiguous {
            #expect(buildError([("upper", upper, 0), ("lower", lower, 10)])?.code == .ambiguousRoutes, "\(upper)")
        }
        // An earlier route of another spelling and scheme hides no later pair.
        #expect(
            buildError([("a", "myapp://foo", 1), ("b", "other://Foo", 0), ("c", "/foo", 0)])?.names == ["b", "c"]
        )
        #expect(
            buildError([("a", "myapp://Foo", 0), ("b", "other://foo", 0), ("c", "other://FOO", 0)])?.names == [
                "b", "c",
            ]
        )
        // Shapes no link matches both of are told apart: the walk backtracks.
        var builder = RouterBuilder<Void>(configuration: RouterConfiguration(linkScheme: "myapp"))
        try builder.add("help", "/Help")
        try builder.add("topic", "/help/{topic}")
        try builder.add("a", "/Foo/a")
        try builder.add("b", "/foo/b")
        try builder.add("flag", "/Bar/{on:bool}")
        try builder.add("count", "/bar/{n:int}")
        let router = try builder.build()
        #expect(try router.match("myapp://help")?.route.name == "help")
        #expect(try router.match("myapp://HELP/x")?.route.name == "topic")
        #expect(try router.match("myapp://foo/a")?.route.name == "a")
        #expect(try router.match("myapp://Foo/b")?.route.name == "b")
        #expect(try router.match("myapp://bar/2")?.route.name == "count")
        // Where the first segment is never a host, or the schemes differ, case tells them apart; one
        // route's own shapes never clash.
        #expect(buildError([("upper", "https://example.com/Foo", 0), ("lower", "https://example.com/foo", 0)]) == nil)
        #expect(buildError([("upper", "/x/Foo", 0), ("lower", "/x/foo", 0)]) == nil)
        #expect(buildError([("upper", "myapp://Foo", 0), ("lower", "other://foo", 0)]) == nil)
        #expect(buildError([("both", "(/Foo)(/foo)", 0)]) == nil)
    }

    @Test("Case-insensitive routers treat literals differing by case as one shape")
    func caseInsensitiveDuplicates() throws {
        var builder = RouterBuilder<Void>(configuration: RouterConfiguration(caseSensitive: false))
        try builder.add("a", "/About")
        try builder.add("b", "/about")
        #expect(throws: WaypointError.self) { try builder.build() }
    }
}

@Suite("Literal edges are ordered case-folded first, then by exact bytes")
struct LiteralOrderTests {
    /// The order as defined: folded bytes lexicographically, then exact bytes.
    static func reference(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        let fold = { (byte: UInt8) in (65...90).contains(byte) ? byte | 0x20 : byte }
        if lhs.map(fold).lexicographicallyPrecedes(rhs.map(fold)) { return true }
        if rhs.map(fold).lexicographicallyPrecedes(lhs.map(fold)) { return false }
        return lhs.lexicographicallyPrecedes(rhs)
    }

    @Test("The one-pass comparison agrees with the definition on 20,000 random pairs")
    func agreesWithDefinition() {
        var random = SeededRandom(seed: 7)
        let alphabet = Array("aAbB_%é".utf8)
        for _ in 0..<20_000 {
            let lhs = (0..<Int.random(in: 0...4, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? 0
            }
            let rhs = (0..<Int.random(in: 0...4, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? 0
            }
            #expect(SegmentMatching.literalOrder(lhs, rhs) == Self.reference(lhs, rhs), "\(lhs) vs \(rhs)")
        }
        #expect(SegmentMatching.literalOrder(Array("Abc".utf8), Array("abd".utf8)))
        #expect(SegmentMatching.literalOrder(Array("ABC".utf8), Array("abc".utf8)))
        #expect(!SegmentMatching.literalOrder(Array("abc".utf8), Array("abc".utf8)))
        #expect(SegmentMatching.literalOrder(Array("ab".utf8), Array("ABC".utf8)))
    }
}
