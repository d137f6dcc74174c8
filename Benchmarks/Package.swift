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
