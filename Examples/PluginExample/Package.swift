// swift-tools-version:6.1

import PackageDescription

// An app target whose typed routes are generated from its waypoint.yaml at build time by the
// WaypointGenerator plugin. CI builds and runs it: `swift run --package-path Examples/PluginExample`.
let package = Package(
    name: "PluginExample",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        // In an app: .package(url: "https://github.com/waypoint-routing/waypoint.git", branch: "main")
        .package(name: "Waypoint", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "RouteExample",
            dependencies: [.product(name: "Waypoint", package: "Waypoint")],
            plugins: [.plugin(name: "WaypointGenerator", package: "Waypoint")]
        )
    ],
    swiftLanguageModes: [.v6]
)
