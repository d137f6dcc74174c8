#!/usr/bin/env bash
# Checks the Apple adapters and the example app on Linux, against stubs of exactly the SDK
# declarations they use (Tools/AppleStubs, shapes from Apple's documentation):
#   1. type-checks WaypointUIKit, WaypointSwiftUI and Examples/ApartmentApp (UIKit and SwiftUI);
#   2. builds and runs Tools/AdapterCheck, which drives the UIKit adapters as the system would.
# A core change that breaks an adapter fails here. What this does and does not prove:
# Tools/AppleStubs/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --target Waypoint >/dev/null
bin="$(swift build --show-bin-path)"
out=.build/apple-stubs
rm -rf "$out" && mkdir -p "$out"
flags=(-swift-version 6 -parse-as-library -enable-upcoming-feature ExistentialAny -I "$out" -I "$bin/Modules")

library() { # NAME SOURCES…: a static library and its module, for the next steps to import and link
    local name=$1
    shift
    swiftc -emit-library -static "${flags[@]}" -module-name "$name" \
        -emit-module -emit-module-path "$out/$name.swiftmodule" -o "$out/lib$name.a" "$@"
}

library UserNotifications Tools/AppleStubs/UserNotifications.swift
library UIKit Tools/AppleStubs/UIKit.swift
library WebKit Tools/AppleStubs/WebKit.swift
library SwiftUI Tools/AppleStubs/SwiftUI.swift
echo "stubs: UserNotifications, UIKit, WebKit, SwiftUI"

library WaypointUIKit Sources/WaypointUIKit/*.swift
echo "type-checked: WaypointUIKit"
library WaypointSwiftUI Sources/WaypointSwiftUI/*.swift
echo "type-checked: WaypointSwiftUI"

swiftc -typecheck "${flags[@]}" -module-name ApartmentApp Examples/ApartmentApp/Shared/*.swift Examples/ApartmentApp/UIKit/*.swift
echo "type-checked: Examples/ApartmentApp (UIKit)"
swiftc -typecheck "${flags[@]}" -module-name ApartmentSwiftUIApp Examples/ApartmentApp/Shared/*.swift Examples/ApartmentApp/SwiftUI/*.swift
echo "type-checked: Examples/ApartmentApp (SwiftUI)"

# The adapter check links the core's objects as SwiftPM built them, and the libraries above.
swiftc -swift-version 6 -I "$out" -I "$bin/Modules" -module-name AdapterCheck Tools/AdapterCheck/main.swift \
    "$bin"/Waypoint.build/*.o -L "$out" -lWaypointUIKit -lWaypointSwiftUI -lUIKit -lWebKit -lSwiftUI \
    -lUserNotifications -o "$out/adapter-check"
"$out/adapter-check"
