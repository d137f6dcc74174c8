#!/usr/bin/env bash
# Holds the Waypoint core to its budget (.ci/core-budget): the machine code an app pays for and the
# public declarations a newcomer reads. Compiles the core for this machine the way an app's release
# build does (-Osize, whole module), sums its machine code and counts its public declarations from
# the symbol graph; fails when either is over its budget.
#
#   bash Scripts/check-core-size.sh
#
# The budget's bytes are for one host and compiler (the CI machine's): the same code compiles to
# other sizes elsewhere, so on another host the bytes are printed and not judged, except under CI
# (CI=true), where a host without a figure fails: a new CI host or compiler needs its own line. The
# public declarations are the same everywhere, and judged everywhere. The device
# figures (arm64 iOS, by file) come from `bash Scripts/measure-core.sh SDK_PATH`.
#
# The core grew by a third in a few releases, one reasonable feature at a time, and nothing said
# so. A figure goes up only in a commit that raises it here and says in BENCHMARKS.md what the
# bytes or the declarations buy; one that goes down is locked in the same way.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/lib/package-settings.sh

language=()
while read -r flag; do language+=("$flag"); done < <(package_swift_flags)
host="$(uname -m)-$(uname -s | tr '[:upper:]' '[:lower:]') swift-$(swiftc --version 2>&1 |
    sed -nE 's/.*Swift version ([0-9]+\.[0-9]+).*/\1/p' | head -n 1)"

out=.build/core-budget
rm -rf "$out"
mkdir -p "$out"

# The toolchain's own llvm-objdump; on a Mac, swiftc is a shim and xcrun finds it.
objdump=$(dirname "$(command -v swiftc)")/llvm-objdump
[[ -x "$objdump" ]] || objdump=$(xcrun --find llvm-objdump 2>/dev/null || command -v llvm-objdump || true)
[[ -n "$objdump" ]] || { echo "no llvm-objdump found beside swiftc, through xcrun or on PATH" >&2; exit 2; }

measure() { # MODULE: compiles Sources/MODULE; sets text and declared to its bytes and declarations
    local module=$1 sources=() file
    mkdir -p "$out/symbols/$module"
    while IFS= read -r file; do sources+=("$file"); done < <(find "$PWD/Sources/$module" -name '*.swift' | LC_ALL=C sort)
    swiftc "${language[@]}" -parse-as-library -module-name "$module" -Osize -wmo -c "${sources[@]}" -I "$out" \
        -o "$out/$module.o" -emit-module -emit-module-path "$out/$module.swiftmodule" \
        -emit-symbol-graph -emit-symbol-graph-dir "$out/symbols/$module" >"$out/$module.log" 2>&1 ||
        { cat "$out/$module.log" >&2; exit 1; }
    # ELF puts each function in a section of its own (.text.NAME); Mach-O has one __text.
    text=$("$objdump" --section-headers "$out/$module.o" | python3 -c '
import sys
sizes = [line.split() for line in sys.stdin]
print(sum(int(f[2], 16) for f in sizes
          if len(f) > 2 and (f[1] in (".text", "__text") or f[1].startswith(".text."))))')
    read -r declared _ < <(python3 Scripts/lib/public-declarations.py "$out/symbols/$module" "$module")
    # A figure of 0 means the measuring broke (an objdump whose output changed, no symbol graph), not
    # a module that costs nothing.
    if ((text == 0 || declared == 0)); then
        echo "$module: measured $text bytes and $declared public declarations: the measurement failed" >&2
        exit 2
    fi
}
# WaypointCore first: Waypoint imports it. `import Waypoint` costs both; `import WaypointCore`, one.
measure WaypointCore
core_text=$text core_declared=$declared
measure Waypoint
# Waypoint's symbol graph has the declarations it re-exports: its count is already the whole API.
text=$((core_text + text))

budget() { # KEY: the budget's figure for KEY (the first line for it), or nothing
    awk -v key="$1" '!/^#/ && NF >= 2 { figure = $NF; $NF = ""; sub(/ +$/, ""); if ($0 == key) print figure }' \
        .ci/core-budget | head -n 1
}
status=0
judge() { # WHAT FIGURE BUDGET
    if [[ -z "$3" && -n "${CI:-}" ]]; then
        # CI's host or compiler changed: the budget must be measured anew there, not skipped.
        printf '%s: %d, and .ci/core-budget has no figure for this host: add one\n' "$1" "$2"
        status=1
    elif [[ -z "$3" ]]; then
        printf '%s: %d (no budget for this host: not judged)\n' "$1" "$2"
    elif (($2 > $3)); then
        printf '%s: %d, over the budget of %d by %d\n' "$1" "$2" "$3" $(($2 - $3))
        status=1
    else
        printf '%s: %d, budget %d (%d to spare)\n' "$1" "$2" "$3" $(($3 - $2))
    fi
}
judge "import Waypoint, machine code at -Osize, bytes ($host)" "$text" "$(budget "text-osize $host")"
judge "import Waypoint, public declarations (symbol graph)" "$declared" "$(budget public-declarations)"
judge "import WaypointCore alone, machine code at -Osize, bytes ($host)" "$core_text" "$(budget "core text-osize $host")"
judge "import WaypointCore alone, public declarations" "$core_declared" "$(budget "core public-declarations")"
if ((status != 0)); then
    cat >&2 <<'MSG'
The core is over its budget (.ci/core-budget). Make the change smaller, or raise the budget in the
same commit and say in BENCHMARKS.md what the added bytes or declarations buy an app.
MSG
fi
exit $status
