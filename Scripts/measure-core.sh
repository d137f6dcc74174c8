#!/usr/bin/env bash
# Measures what the Waypoint core costs an app and a reader: machine code (`__text`) compiled for a
# device from a real iPhoneOS SDK, per source file and in total, at -Osize and -O; the public
# declarations, counted from the symbol graph; and the lines of source. Each figure is given for
# `import WaypointCore` (links, patterns, router, policy) and for `import Waypoint` (WaypointCore
# and the Waypoint module on top of it).
#
#   bash Scripts/measure-core.sh SDK_PATH          # every figure, the folders and files by size
#   bash Scripts/measure-core.sh SDK_PATH --brief  # the totals only
#
# Every compile is whole-module (-wmo), so the optimiser sees the module at once, into one object, as
# an app's build makes it. The shares by file come from the same compile with debug info (-g): each
# function goes to the file whose lines it is made of (Scripts/lib/text-by-source.py), so they add up
# to the total. Nothing is linked.
set -euo pipefail
cd "$(dirname "$0")/.."

sdk=${1:-${WAYPOINT_IOS_SDK:-}}
brief=${2:-}
if [[ -z "$sdk" || ! -f "$sdk/SDKSettings.json" ]]; then
    echo "usage: bash Scripts/measure-core.sh SDK_PATH [--brief]" >&2
    exit 2
fi
sdk=$(cd "$sdk" && pwd)
source Scripts/lib/package-settings.sh
minimum=$(package_ios_minimum)
language=()
while read -r flag; do language+=("$flag"); done < <(package_swift_flags)

out=$PWD/.build/core-size
rm -rf "$out/obj-"* "$out/symbols"
mkdir -p "$out/symbols"
# The SDK's modules, built once: the same cache the real-SDK check fills.
cache=$PWD/.build/apple-sdk/module-cache
mkdir -p "$out" "$cache"
resource_flags=$(sdk_resource_flags "$out")
resource=()
while read -r flag; do [[ -z "$flag" ]] || resource+=("$flag"); done <<<"$resource_flags"
core_sources=($(find "$PWD/Sources/WaypointCore" -name '*.swift' | sort))
sources=(${core_sources[@]} $(find "$PWD/Sources/Waypoint" -name '*.swift' | sort))

compile() { # OPTIMIZATION [-g]: one object a module under $out/objOPTIMIZATION[-g]/MODULE
    local dir="$out/obj$1${2:-}" module output=() files=()
    mkdir -p "$dir"
    for module in WaypointCore Waypoint; do
        # The object without debug info also gives the module's symbol graph, for the public count.
        output=(-o "$module.o")
        [[ -z "${2:-}" ]] && output+=(-emit-symbol-graph -emit-symbol-graph-dir "$out/symbols/$module")
        files=($(find "$PWD/Sources/$module" -name '*.swift' | sort))
        mkdir -p "$dir/$module" "$out/symbols/$module"
        (cd "$dir/$module" && swiftc -target "arm64-apple-ios$minimum" -sdk "$sdk" ${resource[@]+"${resource[@]}"} \
            -module-cache-path "$cache" "${language[@]}" -parse-as-library -module-name "$module" -I "$dir" \
            -emit-module -emit-module-path "$dir/$module.swiftmodule" \
            "$1" ${2:+"$2"} -wmo -c "${files[@]}" "${output[@]}") >"$out/compile$1${2:-}-$module.log" 2>&1 || {
            grep -E ': error:' "$out/compile$1${2:-}-$module.log" | head -n 20 >&2
            echo "$module did not compile at $1 ${2:-} (full output: $out/compile$1${2:-}-$module.log)" >&2
            exit 1
        }
    done
}

text_size() { # OBJECT…: bytes of __text, summed
    llvm-objdump --section-headers "$@" | python3 -c '
import sys
print(sum(int(f[2], 16) for f in (line.split() for line in sys.stdin) if len(f) > 2 and f[1] == "__text"))'
}

# The totals: one object, as an app's build makes it.
for optimization in -Osize -O; do
    compile "$optimization"
    core=$(text_size "$out/obj$optimization/WaypointCore"/*.o)
    total=$(text_size "$out/obj$optimization"/*/*.o)
    printf '__text %-6s %7d bytes (%d KB) import Waypoint; %7d bytes (%d KB) import WaypointCore\n' \
        "$optimization" "$total" $((total / 1024)) "$core" $((core / 1024))
done

# Where the bytes go: the same -Osize compile with debug info, each function given to the file its
# lines come from. Debug info moves about a kilobyte of code, so these totals differ by that much.
if [[ "$brief" != --brief ]]; then
    compile -Osize -g
    for module in WaypointCore Waypoint; do
        echo "__text -Osize of $module by folder, then by file (from debug info; they add up):"
        python3 Scripts/lib/text-by-source.py "$out/obj-Osize-g/$module/$module.o" "Sources/$module" --folders
        python3 Scripts/lib/text-by-source.py "$out/obj-Osize-g/$module/$module.o" "Sources/$module"
    done
fi

# Public declarations, from the symbol graph the single -Osize compile wrote.
# Waypoint's graph has what it re-exports from WaypointCore: its count is the whole API.
read -r declared with_synthesized < <(python3 Scripts/lib/public-declarations.py "$out/symbols/Waypoint" Waypoint)
read -r core_declared _ < <(python3 Scripts/lib/public-declarations.py "$out/symbols/WaypointCore" WaypointCore)
echo "public declarations (symbol graph): $declared import Waypoint ($with_synthesized with synthesized members); $core_declared import WaypointCore"
echo "declarations marked public: $(cat "${sources[@]}" | grep -cE '^\s*(@[A-Za-z]+ )*(nonisolated )?(public|open) ')"
echo "lines: $(cat "${sources[@]}" | wc -l) in Sources/WaypointCore and Sources/Waypoint; $(cat "${core_sources[@]}" | wc -l) in Sources/WaypointCore"
