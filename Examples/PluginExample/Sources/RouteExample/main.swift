import Foundation
import Waypoint

// `AppRoute` and its link setup are not written anywhere in this package: the WaypointGenerator
// plugin generates them from waypoint.yaml on every build. No YAML is read at run time.
enum Screen: Hashable, Sendable {
    case home
    case book(id: Int, chapter: String?)
    case chat(Int)
}

// The one handler: each route's screen. A route added to the manifest without one does not compile.
let dispatcher: LinkDispatcher<Screen> = try AppRoute.makeDispatcher { route in
    switch route {
    case .home: .home
    case .book(let id, let chapter): .book(id: id, chapter: chapter)
    case .messagesDetail(let id): .chat(id)
    }
}
await dispatcher.setNavigator { _, _ in }
await dispatcher.appDidBecomeReady()
await dispatcher.appDidBecomeActive()

let router = dispatcher.resolver.router
for route in [AppRoute.home, .book(id: 7, chapter: "第一章"), .messagesDetail(id: 42)] {
    let link = try route.link(in: router)
    // Back from the link to the same typed route, and to its screen through the dispatcher.
    guard let match = router.match(link), AppRoute(match) == route,
        let id = await dispatcher.receive(AppRoute.intake.url(link.string)),
        case .handled(_, let plan) = await dispatcher.outcome(of: id)
    else {
        print("\(link) did not come back as \(route)")
        exit(1)
    }
    print("\(route.name): \(link) → \(plan.destination)")
}
