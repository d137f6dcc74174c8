// swift-tools-version:6.2

import PackageDescription

// The baseline Server/Scripts/benchmark.sh measures waypoint-links against: a Hummingbird
// hello-world built the same way (same Hummingbird, no traits, release), so the ratio shows what
// the service's own work costs.
let package = Package(
    name: "WaypointLinksBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: [])
    ],
    targets: [
        .executableTarget(
            name: "hello-world",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")]
        )
    ]
)
