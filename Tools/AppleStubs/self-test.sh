#!/usr/bin/env bash
# Proves the stubs are honest where the real iPhoneOS SDK once disagreed with them: each mistake
# the real SDK caught is put back, in a copy of the tree, and Scripts/check-adapters.sh must fail
# on it with the SDK's own complaint. The unchanged copy must pass first, so a failure below is the
# mistake's doing and nothing else's. The core calling API newer than its minimums is
# Scripts/check-availability.py's to catch; its --self-test puts that call back the same way.
set -euo pipefail
cd "$(dirname "$0")/../.."

swift build --target Waypoint >/dev/null
export WAYPOINT_CORE_BIN="$(swift build --show-bin-path)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

copy() { # a fresh copy of what the adapter check reads
    rm -rf "$work/tree" && mkdir -p "$work/tree"
    cp -R Package.swift README.md Sources Examples Tools Scripts "$work/tree/"
}

failures=0
expect_failure() { # LABEL EXPECTED_TEXT FILE PYTHON_EXPRESSION_ON_s
    local label=$1 expected=$2 file=$3 edit=$4
    copy
    python3 - "$work/tree/$file" "$edit" <<'EOF'
import sys
path, edit = sys.argv[1], sys.argv[2]
s = open(path).read()
changed = eval(edit)
if changed == s:
    sys.exit(f"the edit changed nothing in {path}")
open(path, "w").write(changed)
EOF
    local output
    if output=$(bash "$work/tree/Scripts/check-adapters.sh" --typecheck-only 2>&1); then
        echo "NOT CAUGHT  $label"
        failures=$((failures + 1))
    elif grep -qF -- "$expected" <<<"$output"; then
        echo "caught      $label: $(grep -F -m 1 -- "$expected" <<<"$output" | sed 's/^.*error: //')"
    else
        echo "WRONG ERROR $label (expected '$expected'):"
        grep -E 'error:' <<<"$output" | head -n 5 | sed 's/^/    /'
        failures=$((failures + 1))
    fi
}

copy
bash "$work/tree/Scripts/check-adapters.sh" --typecheck-only >/dev/null
echo "unchanged copy passes"

expect_failure "NavigationModel without 'import Combine'" \
    "missing import of defining module 'Combine'" \
    Sources/WaypointSwiftUI/NavigationModel.swift \
    's.replace("import Combine", "", 1)'
expect_failure "a UIViewController subclass without init(coder:)" \
    "'required' initializer 'init(coder:)' must be provided by subclass of 'UIViewController'" \
    Examples/ApartmentApp/UIKit/SceneDelegate.swift \
    's.replace("required init?(coder: NSCoder) { nil }", "")'
expect_failure "the SwiftUI example's ObservableObject without 'import Combine'" \
    "does not conform to protocol 'ObservableObject'" \
    Examples/ApartmentApp/SwiftUI/ApartmentApp.swift \
    's.replace("import Combine\n", "", 1)'
expect_failure "the SwiftUI example declared for iOS 15 while it uses NavigationStack" \
    "introduced in iOS 16.0" \
    Examples/ApartmentApp/SwiftUI/ApartmentApp.swift \
    's.replace("// Deployment target: iOS 16", "// Deployment target: iOS 15", 1)'
expect_failure "onChange(of:perform:), deprecated in iOS 17" \
    "deprecated in iOS 17.0" \
    Sources/WaypointSwiftUI/View+WaypointLinks.swift \
    's.replace(".task(id: scenePhase) {", ".onChange(of: scenePhase) { scenePhase in", 1)'

if ((failures > 0)); then
    echo "stub self-test: $failures disagreement(s) not caught"
    exit 1
fi
echo "stub self-test: every disagreement the real SDK found is caught"
