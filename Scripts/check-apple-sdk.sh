#!/usr/bin/env bash
# Type-checks the core, the Apple adapters and the example apps against a real iPhoneOS SDK, at
# the package's iOS minimum and at the SDK's own iOS version, with the package's language mode and
# upcoming features. Fails on any error, and on any warning (deprecations included) in our code.
#
#   bash Scripts/check-apple-sdk.sh SDK_PATH
#   bash Scripts/check-apple-sdk.sh "$(xcrun --sdk iphoneos --show-sdk-path)"   # on a Mac
#
# On Linux the SDK is a folder (an iPhoneOS*.sdk); nothing is linked, so no Apple linker is needed.
# The first run builds the SDK's Clang and Swift modules into .build/apple-sdk/module-cache (about
# two minutes on two cores); later runs reuse them.
set -euo pipefail
cd "$(dirname "$0")/.."

sdk=${1:-${WAYPOINT_IOS_SDK:-}}
if [[ -z "$sdk" || ! -f "$sdk/SDKSettings.json" ]]; then
    echo "usage: bash Scripts/check-apple-sdk.sh SDK_PATH (an iPhoneOS SDK folder with SDKSettings.json)" >&2
    exit 2
fi
sdk=$(cd "$sdk" && pwd)

source Scripts/lib/package-settings.sh
minimum=$(package_ios_minimum)
language=() # read line by line: macOS's bash 3.2 has no mapfile
while read -r flag; do language+=("$flag"); done < <(package_swift_flags)
current=$(sed -nE 's/.*"Version" *: *"([0-9.]+)".*/\1/p' "$sdk/SDKSettings.json" | head -n 1)
if [[ -z "$minimum" || -z "$current" ]]; then
    echo "could not read the iOS minimum from Package.swift or the version from $sdk/SDKSettings.json" >&2
    exit 2
fi

out=.build/apple-sdk
rm -rf "$out"/ios*
mkdir -p "$out/module-cache"
resource_flags=$(sdk_resource_flags "$out")
resource=()
while read -r flag; do [[ -z "$flag" ]] || resource+=("$flag"); done <<<"$resource_flags"

log="$out/check.log"
: >"$log"
failed=0

swift_for() { # IOS_VERSION ARGS…: swiftc for the SDK at that deployment target
    local version=$1
    shift
    swiftc -target "arm64-apple-ios$version" -sdk "$sdk" ${resource[@]+"${resource[@]}"} \
        -module-cache-path "$out/module-cache" "${language[@]}" -parse-as-library "$@"
}

step() { # LABEL IOS_VERSION ARGS…: runs one compile, records its diagnostics
    local label=$1 version=$2
    shift 2
    local output status=0
    output=$(swift_for "$version" "$@" 2>&1) || status=$?
    printf '%s\n' "$output" >>"$log"
    # Diagnostics in our files only: the SDK's own headers may warn about themselves.
    local ours
    ours=$(printf '%s\n' "$output" | grep -E "^$PWD/|^(Sources|Examples|Tests)/" | grep -E ': (error|warning):' || true)
    if [[ $status -ne 0 || -n "$ours" ]]; then
        failed=1
        echo "FAIL  iOS $version  $label"
        if [[ -n "$ours" ]]; then
            printf '%s\n' "$ours" | sed "s|^$PWD/||" | sed 's/^/      /'
        else
            printf '%s\n' "$output" | tail -n 20 | sed 's/^/      /'
        fi
    else
        echo "ok    iOS $version  $label"
    fi
}

module() { # IOS_VERSION NAME: emits the library NAME's module from Sources/NAME (type-checking every body)
    local version=$1 name=$2
    local modules="$out/ios$version"
    mkdir -p "$modules"
    step "$name" "$version" -I "$modules" -module-name "$name" -emit-module \
        -emit-module-path "$modules/$name.swiftmodule" -emit-symbol-graph \
        -emit-symbol-graph-dir "$modules/symbols/$name" $(find "Sources/$name" -name '*.swift' | sort)
}

checked_versions=" "
libraries() { # IOS_VERSION: the core, the testing helpers, both adapters and the links client, once per version
    [[ "$checked_versions" == *" $1 "* ]] && return
    checked_versions+="$1 "
    local name
    for name in WaypointCore Waypoint WaypointTesting WaypointUIKit WaypointSwiftUI WaypointLinksClient; do module "$1" "$name"; done
}

example() { # IOS_VERSION LABEL MODULE FOLDER…: type-checks an example app at that deployment target
    local version=$1 label=$2 name=$3
    shift 3
    local sources=() folder
    for folder in "$@"; do sources+=($(find "$folder" -name '*.swift' | sort)); done
    libraries "$version"
    step "$label" "$version" -I "$out/ios$version" -module-name "$name" -typecheck "${sources[@]}"
}

echo "SDK: $sdk (iOS $current); package minimum: iOS $minimum; flags: ${language[*]}"
for version in $(distinct_versions "$minimum" "$current"); do libraries "$version"; done
# Each example app at the minimum it declares and at the SDK's version.
for app in UIKit SwiftUI; do
    for version in $(distinct_versions "$(example_ios_minimum "Examples/ApartmentApp/$app")" "$current"); do
        example "$version" "Examples/ApartmentApp ($app)" "Apartment$app" \
            Examples/ApartmentApp/Shared "Examples/ApartmentApp/$app"
    done
done

# The documentation's UIKit and SwiftUI blocks, with what they assume (Scripts/check-docs.py).
mkdir -p "$out/doc-blocks"
python3 Scripts/check-docs.py --apple-blocks-only "$out/doc-blocks/DocBlocks.swift" >/dev/null
example "$current" "the documentation's UIKit and SwiftUI blocks" DocBlocks Examples/ApartmentApp/Shared \
    Scripts/doc-check "$out/doc-blocks"

# Every public declaration of what only an Apple SDK builds has a doc comment, as Scripts/check-docs.py
# asks of the libraries Linux builds.
if python3 Scripts/check-public-docs.py "$out/ios$current/symbols" WaypointUIKit WaypointSwiftUI \
    WaypointLinksClient >"$out/public-docs.log"; then
    echo "ok    iOS $current  doc comments of the adapters' and the links client's public declarations"
else
    failed=1
    echo "FAIL  iOS $current  public declarations without a doc comment:"
    sed 's/^/      /' "$out/public-docs.log"
fi

if [[ $failed -ne 0 ]]; then
    echo "real-SDK check failed (full compiler output: $log)"
    exit 1
fi
echo "real-SDK check passed: no error and no warning in our code"
