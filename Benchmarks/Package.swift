// swift-tools-version:6.1

import PackageDescription

// Benchmarks live in their own package so users of Waypoint never download the peers it is
// measured against.
let package = Package(
    name: "WaypointBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Waypoint", path: ".."),
        .package(url: "https://github.com/vapor/routing-kit.git", exact: "4.9.3"),
        // Only the router trie is used; no traits, so no swift-configuration and no full Foundation.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1", traits: []),
    ],
    targets: [
        // Counts heap allocations and live bytes by interposing malloc inside the benchmark binary.
        .target(name: "MallocCounter"),
        // Restoring pending links after a kill: the sealed log against a whole-file rewrite.
        .executableTarget(
            name: "pending-bench",
            dependencies: [.product(name: "Waypoint", package: "Waypoint")]
        ),
        .executableTarget(
            name: "waypoint-bench",
            dependencies: [
                "MallocCounter",
                .product(name: "Waypoint", package: "Waypoint"),
                .product(name: "RoutingKit", package: "routing-kit"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ]
)
