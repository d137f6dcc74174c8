import Testing

@testable import Waypoint

@Suite("Ten thousand routes of wide fan-out")
struct RouterScaleTests {
    /// 50 sections × 200 subroutes, with literal, typed and untyped positions mixed.
    static func table() -> [(String, String)] {
        (0..<10_000).map { index in
            let section = index % 50
            let item = index / 50
            switch index % 4 {
            case 0: return ("r\(index)", "/s\(section)/item\(item)/{id:int}")
            case 1: return ("r\(index)", "/s\(section)/item\(item)/{slug}/detail")
            case 2: return ("r\(index)", "/s\(section)/item\(item)/{id:uuid}/x/{n:int}")
            default: return ("r\(index)", "/s\(section)/item\(item)")
            }
        }
    }

    @Test("Every route is found by its own link, and misses of every kind are misses")
    func everyRouteFound() throws {
        var builder = RouterBuilder<Int>()
        for (index, (name, pattern)) in Self.table().enumerated() { try builder.add(name, pattern, value: index) }
        let router = try builder.build()
        let uuid = "9F3C2B4E-1D2A-4C3B-8E4F-5A6B7C8D9E0F"
        for index in 0..<10_000 {
            let section = index % 50
            let item = index / 50
            let path: String
            switch index % 4 {
            case 0: path = "s\(section)/item\(item)/\(index)"
            case 1: path = "s\(section)/item\(item)/slug-\(index)/detail"
            case 2: path = "s\(section)/item\(item)/\(uuid)/x/\(index)"
            default: path = "s\(section)/item\(item)"
            }
            let match = try router.match("app://" + path)
            #expect(match?.route.value == index, "\(path)")
        }
        for miss in ["app://s99/item1", "app://s1/item1/1/extra/more", "app://s1/itme1/1", "app://s1"] {
            #expect(try router.match(miss) == nil, "\(miss)")
        }
    }
}
