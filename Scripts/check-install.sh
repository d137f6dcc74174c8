#!/usr/bin/env bash
# Does README's install line work for a new user? Makes a new package that depends on Waypoint with
# exactly the `.package(…)` line README shows (its URL pointed at a clone of this commit), builds it,
# runs it, and checks the app built none of the tool's dependencies and resolved none of the link
# service's. Two apps: one on the `WaypointCore` product alone (README's "only resolves links"),
# which must compile neither the `Waypoint` module nor the tool's dependencies, then one on
# `Waypoint`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

line="$(grep -E '^\s*\.package\(url: "https://github.com/waypoint-routing/waypoint.git"' "$root/README.md" |
    head -n 1 || true)"
[ -n "$line" ] || { echo "README.md shows no .package(url: …) line for Waypoint"; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The clone's folder name is the package identity README's `package: "waypoint"` refers to.
git clone -q "$root" "$work/waypoint"
git -C "$work/waypoint" checkout -q -B main "$(git -C "$root" rev-parse HEAD)"
dependency="${line//https:\/\/github.com\/waypoint-routing\/waypoint.git/file://$work/waypoint}"

mkdir -p "$work/MyApp/Sources/MyApp" "$work/MyApp/Sources/MyCoreApp"
cat >"$work/MyApp/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "MyApp",
    dependencies: [
$dependency
    ],
    targets: [
        .executableTarget(name: "MyApp", dependencies: [.product(name: "Waypoint", package: "waypoint")]),
        .executableTarget(name: "MyCoreApp", dependencies: [.product(name: "WaypointCore", package: "waypoint")]),
    ]
)
SWIFT
cat >"$work/MyApp/Sources/MyApp/main.swift" <<'SWIFT'
import Waypoint

var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "myapp"))
try builder.add("messages.detail", "/messages/{id:int}", value: "chat")
let router = try builder.build()
print(router.match(try DeepLink("myapp://messages/1"))?.parameters.int("id") ?? -1)
SWIFT

cat >"$work/MyApp/Sources/MyCoreApp/main.swift" <<'SWIFT'
import WaypointCore

var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "myapp"))
try builder.add("pay", "/pay", sources: [.universalLink], value: "pay")
let resolver = LinkResolver(
    router: try builder.build(),
    policy: LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"])
)
print(
    resolver.resolve("https://example.com/pay", source: .universalLink).status,
    resolver.resolve("myapp://pay").status
)
SWIFT

compiled() { # FOLDER…: those of the app's build folders that hold object files
    # SwiftPM plans every target (each gets a folder); only compiled ones hold object files.
    local folder
    for folder in "$@"; do
        if compgen -G "$work/MyApp/.build/debug/$folder/*.o" >/dev/null; then echo "$folder"; fi
    done
}
tool_dependencies=(Yams.build CYaml.build ArgumentParser.build WaypointManifest.build)

echo "README's line: $(echo "$line" | sed 's/^ *//')"
output="$(swift run --package-path "$work/MyApp" -q MyCoreApp 2>"$work/build.log")" || { cat "$work/build.log"; exit 1; }
[ "$output" = "matched forbidden" ] || { echo "the WaypointCore app: expected 'matched forbidden', got: $output"; exit 1; }
# The control: were the build's folders not where this looks, every check below would pass.
[ -n "$(compiled WaypointCore.build)" ] ||
    { echo "no object files in .build/debug/WaypointCore.build: where did SwiftPM build?"; exit 1; }
built="$(compiled Waypoint.build "${tool_dependencies[@]}")"
[ -z "$built" ] || { echo "the app on WaypointCore alone compiled more than WaypointCore: $built"; exit 1; }
output="$(swift run --package-path "$work/MyApp" -q MyApp 2>"$work/build.log")" || { cat "$work/build.log"; exit 1; }
[ "$output" = "1" ] || { echo "expected 1, got: $output"; exit 1; }
built="$(compiled "${tool_dependencies[@]}")"
[ -z "$built" ] || { echo "the app built the tool's dependencies: $built"; exit 1; }
# The link service (Server/) is a package of its own: the app must not even resolve its dependencies.
resolved="$(ls "$work/MyApp/.build/checkouts" 2>/dev/null || true)"
for server_dependency in hummingbird sqlite-nio swift-mustache async-http-client swift-crypto postgres-nio; do
    if echo "$resolved" | grep -qx "$server_dependency"; then
        echo "the app resolved the link service's dependency $server_dependency"
        exit 1
    fi
done
echo "install check passed: a new package resolved Waypoint from README's line, built an app on WaypointCore alone and one on Waypoint, and each resolved its links"
