import Foundation
import Testing
import Waypoint

@testable import WaypointManifest

/// The generated enums (committed beside these tests and compiled with them) work with a router
/// built from the same manifest.
@Suite("Generated route code")
struct GeneratedCodeTests {
    @Test("Every case builds its link, and the match gives the same case back")
    func roundTrip() throws {
        let manifest = try ManifestLoader.load(
            file: ToolRunner.root.appendingPathComponent("Tests/WaypointManifestTests/Snapshots/codegen.yaml").path
        )
        let router = try manifest.makeRouter()
        let uuid = try #require(UUID(uuidString: "9F3C2B4E-1D2A-4C3B-8E4F-5A6B7C8D9E0F"))
        let routes: [CodegenRoute] = [
            .home, .userProfile(id: 42), .item(id: uuid, price: 9.5, visible: true),
            .files(wildcards: ["a", "b c", "d"]),
            .required(a: "x", b: nil, c: 3), .required(a: "x", b: "y", c: nil), .keyword(default: "z"), .route2faSetup,
            .search(q: "a b&c", page: 2, sort: "old", exact: true, near: uuid),
            .search(q: "x", page: nil, sort: "new \"first\"", exact: false, near: nil),
            .owner(self: "me"),
        ]
        for route in routes {
            let link = try route.link(in: router)
            let match = try #require(router.match(try DeepLink(link.string)), "\(link)")
            #expect(CodegenRoute(match) == route, "\(link)")
        }
        // Query parameters: typed, optional ones nil when absent or not of their type, defaults filled in,
        // and a required one missing makes no case.
        let search = try CodegenRoute.search(q: "x", page: 2, sort: "new", exact: true, near: nil).link(in: router)
        #expect(search.string == "gen://search?exact=true&page=2&q=x&sort=new")
        // Optional and defaulted values may be left out of a case, and take their defaults.
        #expect(
            CodegenRoute.search(q: "x") == .search(q: "x", page: nil, sort: "new \"first\"", exact: false, near: nil)
        )
        #expect(CodegenRoute.required(a: "x") == .required(a: "x", b: nil, c: nil))
        let sparse = try #require(try router.match("gen://search?q=hi&page=two&utm_source=mail"))
        #expect(CodegenRoute(sparse) == .search(q: "hi", page: nil, sort: "new \"first\"", exact: false, near: nil))
        #expect(CodegenRoute(try #require(try router.match("gen://search?page=2"))) == nil)

        let web = try CodegenRoute.webOnly(slug: "a b").link(in: router)
        #expect(web.string == "https://gen.example.com/web/a%20b")
        #expect(router.match(web).flatMap(CodegenRoute.init) == .webOnly(slug: "a b"))
    }
}
