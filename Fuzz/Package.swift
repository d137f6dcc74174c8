// swift-tools-version:6.1

import PackageDescription

// libFuzzer targets for every parser that input reaches. Their own package, so the fuzzer flags
// never touch the main build and users never see it. Built and run by Scripts/fuzz.sh.
let package = Package(
    name: "WaypointFuzz",
    dependencies: [
        .package(name: "Waypoint", path: "..")
    ],
    targets: [
        // The targets, as a library: Scripts/fuzz.sh links it with libFuzzer's own `main`, which an
        // executable target cannot have (SwiftPM gives every executable a `main` of its own).
        .target(
            name: "FuzzTargets",
            dependencies: [
                .product(name: "Waypoint", package: "Waypoint"),
                .product(name: "WaypointManifest", package: "Waypoint"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
