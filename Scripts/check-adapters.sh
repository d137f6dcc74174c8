#!/usr/bin/env bash
# Checks the Apple adapters and the example app on Linux, against stubs of exactly the SDK
# declarations they use (Tools/AppleStubs, shapes as the real iPhoneOS SDK declares them):
#   1. type-checks WaypointUIKit, WaypointSwiftUI and Examples/ApartmentApp (UIKit and SwiftUI)
#      with Package.swift's language mode and upcoming features, warnings as errors, at the
#      package's minimum (each example at the minimum it declares) and at iOS 17, with the stubs'
#      simulated availability for each, and checks that every public declaration of the adapters
#      has a doc comment;
#   2. builds and runs Tools/AdapterCheck, which drives the UIKit adapters as the system would.
# A core change that breaks an adapter fails here. What this does and does not prove:
# Tools/AppleStubs/README.md. `--typecheck-only` skips step 2; WAYPOINT_CORE_BIN names a SwiftPM
# bin folder whose Waypoint module to use instead of building it (Tools/AppleStubs/self-test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/lib/package-settings.sh

typecheck_only=false
[[ "${1:-}" == --typecheck-only ]] && typecheck_only=true

if [[ -n "${WAYPOINT_CORE_BIN:-}" ]]; then
    bin=$WAYPOINT_CORE_BIN
else
    swift build --target Waypoint >/dev/null
    bin="$(swift build --show-bin-path)"
fi
minimum=$(package_ios_minimum)
language=() # read line by line: macOS's bash 3.2 has no mapfile
while read -r flag; do language+=("$flag"); done < <(package_swift_flags)
out=.build/apple-stubs
rm -rf "$out" && mkdir -p "$out"

# Each simulated deployment target gets its own build of the stubs: the conditions IOS_16 and
# IOS_17 turn on what those versions introduced and deprecated (see Tools/AppleStubs/SwiftUI.swift).
conditions() { # IOS_VERSION
    local major=${1%%.*}
    ((major >= 16)) && echo -D IOS_16
    ((major >= 17)) && echo -D IOS_17
    return 0
}

flags() { # IOS_VERSION
    local modules="$out/ios$1"
    printf '%s\n' "${language[@]}" -parse-as-library -I "$modules" -I "$bin/Modules" $(conditions "$1")
}

library() { # IOS_VERSION NAME SOURCES…: a static library and its module, for later steps to import and link
    local version=$1 name=$2
    shift 2
    local modules="$out/ios$version"
    mkdir -p "$modules"
    swiftc -emit-library -static $(flags "$version") -module-name "$name" \
        -emit-module -emit-module-path "$modules/$name.swiftmodule" -o "$modules/lib$name.a" "$@"
}

ours() { # IOS_VERSION NAME: an adapter module from Sources/NAME, where a warning (a deprecation) is an error
    local version=$1 name=$2
    library "$version" "$name" -warnings-as-errors -emit-symbol-graph \
        -emit-symbol-graph-dir "$out/ios$version/symbols/$name" "Sources/$name"/*.swift
    echo "type-checked at iOS $version: $name"
}

checked_versions=" "
version_checked() { # IOS_VERSION: stubs and adapters once per simulated version
    local version=$1
    [[ "$checked_versions" == *" $version "* ]] && return
    checked_versions+="$version "
    local stub
    for stub in Combine UserNotifications UIKit WebKit SwiftUI; do
        library "$version" "$stub" "Tools/AppleStubs/$stub.swift"
    done
    ours "$version" WaypointUIKit
    ours "$version" WaypointSwiftUI
}

latest=17.0 # the last version whose introductions and deprecations the stubs simulate
for version in "$minimum" "$latest"; do version_checked "$version"; done
for app in UIKit SwiftUI; do
    for version in $(distinct_versions "$(example_ios_minimum "Examples/ApartmentApp/$app")" "$latest"); do
        version_checked "$version"
        swiftc -typecheck $(flags "$version") -warnings-as-errors -module-name "Apartment$app" \
            Examples/ApartmentApp/Shared/*.swift "Examples/ApartmentApp/$app"/*.swift
        echo "type-checked at iOS $version: Examples/ApartmentApp ($app)"
    done
done

# Every public declaration of the adapters has a doc comment (Scripts/check-apple-sdk.sh checks the
# same against the real SDK, with the links client's pasteboard source, which only iOS builds).
python3 Scripts/check-public-docs.py "$out/ios$latest/symbols" WaypointUIKit WaypointSwiftUI

# The documentation's UIKit and SwiftUI blocks, with what they assume (Scripts/check-docs.py).
mkdir -p "$out/doc-blocks"
python3 Scripts/check-docs.py --apple-blocks-only "$out/doc-blocks/DocBlocks.swift" >/dev/null
swiftc -typecheck $(flags "$latest") -module-name DocBlocks Examples/ApartmentApp/Shared/*.swift \
    Scripts/doc-check/AppleContext.swift "$out/doc-blocks/DocBlocks.swift"
echo "type-checked at iOS $latest: the documentation's UIKit and SwiftUI blocks"
$typecheck_only && exit 0

# The adapter check links the core's objects as SwiftPM built them, and the libraries at the minimum;
# it also builds the example app's links (ApartmentLinks), which the type-check alone never runs.
modules="$out/ios$minimum"
swiftc "${language[@]}" -I "$modules" -I "$bin/Modules" -module-name AdapterCheck Tools/AdapterCheck/main.swift \
    Examples/ApartmentApp/Shared/ApartmentLinks.swift Examples/ApartmentApp/Shared/WaypointRoutes.swift \
    "$bin"/WaypointCore.build/*.o "$bin"/Waypoint.build/*.o -L "$modules" -lWaypointUIKit -lWaypointSwiftUI -lUIKit -lWebKit -lSwiftUI \
    -lUserNotifications -lCombine -o "$out/adapter-check"
"$out/adapter-check"
