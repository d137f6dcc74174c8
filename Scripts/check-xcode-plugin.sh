#!/usr/bin/env bash
# Type-checks WaypointGenerator both ways it is built: as SwiftPM builds it for a package target,
# and with its Xcode entry point (`XcodeBuildToolPlugin`, for an app target of an Xcode project),
# which only Xcode compiles, against Tools/XcodePluginStub. Needs the toolchain's PackagePlugin
# module only; nothing is run.
set -euo pipefail
cd "$(dirname "$0")/.."

# The toolchain's own folder, through any link or shim (swiftly's) in front of `swift`.
api=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/swift/pm/PluginAPI
if [[ ! -e "$api/PackagePlugin.swiftmodule" ]]; then
    echo "no PackagePlugin module under $api" >&2
    exit 1
fi
tools=$(sed -n 's|^// swift-tools-version:||p' Package.swift)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
check() {
    swiftc -typecheck -parse-as-library -swift-version 6 -package-description-version "$tools" \
        -warnings-as-errors -I "$api" "$@" Plugins/WaypointGenerator/WaypointGenerator.swift
}
check
echo "WaypointGenerator: type-checks for package targets (PackagePlugin, tools $tools)"
(cd "$out" && swiftc -parse-as-library -swift-version 6 -package-description-version "$tools" -emit-module \
    -module-name XcodeProjectPlugin -I "$api" "$OLDPWD/Tools/XcodePluginStub/XcodeProjectPlugin.swift")
check -I "$out"
echo "WaypointGenerator: its Xcode entry point type-checks against Tools/XcodePluginStub"
