import Foundation
import Waypoint
import WaypointManifest

// `AppRoute` is not written anywhere in this package: the WaypointGenerator plugin generates it
// from waypoint.yaml on every build.
guard let path = Bundle.module.path(forResource: "waypoint", ofType: "yaml") else {
    print("waypoint.yaml is missing from the bundle")
    exit(1)
}
let router = try ManifestLoader.load(file: path).makeRouter()

for route in [AppRoute.home, .book(id: 7, chapter: "第一章"), .messagesDetail(id: 42)] {
    let link = try route.link(in: router)
    // Back from the link to the same typed route: the generated code and the manifest agree.
    guard let match = router.match(link), AppRoute(match) == route else {
        print("\(link) did not come back as \(route)")
        exit(1)
    }
    print("\(route.name): \(link)")
}
