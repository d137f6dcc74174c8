// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "Waypoint",
    platforms: [
        .iOS(.v15),
        .macOS(.v12),
        .tvOS(.v15),
        .watchOS(.v8),
        .visionOS(.v1),
    ],
    products: [
        .executable(name: "waypoint", targets: ["waypoint"]),
        .library(name: "Waypoint", targets: ["Waypoint"]),
        .library(name: "WaypointCore", targets: ["WaypointCore"]),
        .library(name: "WaypointTesting", targets: ["WaypointTesting"]),
        .library(name: "WaypointManifest", targets: ["WaypointManifest"]),
        .library(name: "WaypointUIKit", targets: ["WaypointUIKit"]),
        .library(name: "WaypointSwiftUI", targets: ["WaypointSwiftUI"]),
        .library(name: "WaypointLinksClient", targets: ["WaypointLinksClient"]),
        .plugin(name: "WaypointGenerator", targets: ["WaypointGenerator"]),
        .plugin(name: "WaypointCommand", targets: ["WaypointCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        // The core: Foundation only, no third-party dependency (iOS teams weigh every dependency).
        // WaypointCore is links, patterns, the router and the policy: what an app that only resolves
        // links needs, and pays for. Waypoint adds intake, the dispatcher, navigation plans, stores
        // and catalogs, and re-exports WaypointCore, so `import Waypoint` is the whole library.
        .target(name: "WaypointCore"),
        .target(name: "Waypoint", dependencies: ["WaypointCore"]),
        // Thin adapters: Apple types in, core calls out. Empty on Linux (everything is under
        // `canImport`); `Scripts/check-adapters.sh` type-checks them against stubs of the SDKs.
        .target(name: "WaypointUIKit", dependencies: ["Waypoint"]),
        .target(name: "WaypointSwiftUI", dependencies: ["Waypoint"]),
        // The app side of a Waypoint Links service: claims deferred links. Foundation and URLSession
        // only, apart from the core, so an app without the service builds none of it.
        .target(name: "WaypointLinksClient", dependencies: ["Waypoint"]),
        // Helpers for testing code that uses Waypoint: a clock that moves only when told.
        .target(name: "WaypointTesting", dependencies: ["Waypoint"]),
        // The route manifest and everything generated from it; YAML lives here, not in the core.
        .target(name: "WaypointManifest", dependencies: ["Waypoint", .product(name: "Yams", package: "Yams")]),
        .executableTarget(
            name: "waypoint",
            dependencies: ["WaypointManifest", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "waypoint-example",
            // Routing only: it shows that WaypointCore alone resolves an app's links.
            dependencies: ["WaypointCore"],
            path: "Examples/ApartmentRoutes"
        ),
        // Typed routes generated from a target's waypoint.yaml at build time, and the tool's lint and
        // aasa generate as `swift package waypoint …`. Only a target that names a plugin builds the tool.
        .plugin(name: "WaypointGenerator", capability: .buildTool(), dependencies: ["waypoint"]),
        .plugin(
            name: "WaypointCommand",
            capability: .command(
                intent: .custom(
                    verb: "waypoint",
                    description: "Lint the package's waypoint.yaml, or print its apple-app-site-association."
                )
            ),
            dependencies: ["waypoint"]
        ),
        .testTarget(
            name: "WaypointTests",
            dependencies: ["Waypoint", "WaypointCore", "WaypointTesting"],
            exclude: ["Fixtures"]
        ),
        // Only WaypointCore: proves the product an app that only resolves links depends on stands alone.
        .testTarget(name: "WaypointCoreTests", dependencies: ["WaypointCore"]),
        .testTarget(name: "WaypointLinksClientTests", dependencies: ["WaypointLinksClient", "Waypoint"]),
        .testTarget(
            name: "WaypointManifestTests",
            dependencies: ["Waypoint", "WaypointManifest", "WaypointTesting", "waypoint"],
            exclude: ["Snapshots", "Fixtures"]
        ),
    ]
)

// One list of settings for every target, so no module drifts from the language mode the package promises.
for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    // https://github.com/swiftlang/swift-evolution/blob/main/proposals/0335-existential-any.md
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    // https://github.com/swiftlang/swift-evolution/blob/main/proposals/0444-member-import-visibility.md
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
