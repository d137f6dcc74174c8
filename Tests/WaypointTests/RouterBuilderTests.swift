import Testing

@testable import Waypoint

@Suite("RouterBuilder refuses duplicate and ambiguous tables with errors people can act on")
struct RouterBuilderTests {
    func buildError(_ routes: [(String, String, Int)]) -> RouterBuildError? {
        var builder = RouterBuilder<Void>()
        do {
            for (name, pattern, priority) in routes { try builder.add(name, pattern, priority: priority) }
            _ = try builder.build()
            return nil
        } catch let error as RouterBuildError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test("Same shape, different parameter names: a duplicate")
    func duplicateShape() {
        let error = buildError([("a", "/users/{id}", 0), ("b", "/users/{name}", 5)])
        #expect(error?.code == .duplicateRoute)
        #expect(error?.routes == ["a", "b"])
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

    @Test("Case-insensitive routers treat literals differing by case as one shape")
    func caseInsensitiveDuplicates() throws {
        var builder = RouterBuilder<Void>(configuration: RouterConfiguration(caseSensitive: false))
        try builder.add("a", "/About")
        try builder.add("b", "/about")
        #expect(throws: RouterBuildError.self) { try builder.build() }
    }
}
