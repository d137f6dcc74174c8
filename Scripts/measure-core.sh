#!/usr/bin/env bash
# Measures what the Waypoint core costs an app and a reader: machine code (`__text`) compiled for a
# device from a real iPhoneOS SDK, per source file and in total, at -Osize and -O; the public
# declarations, counted from the symbol graph; and the lines of source. Each figure is given for
# `import WaypointCore` (links, patterns, router, policy) and for `import Waypoint` (WaypointCore
# and the Waypoint module on top of it).
#
#   bash Scripts/measure-core.sh SDK_PATH          # every figure, the files by size
#   bash Scripts/measure-core.sh SDK_PATH --brief  # the totals only
#
# Every compile is whole-module (-wmo), so the optimiser sees the module at once: the totals from one
# object, as an app's build makes it; the shares by file from one object per source file
# (-num-threads), which each carry their own copy of shared helpers. Nothing is linked.
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

compile() { # OPTIMIZATION THREADS: objects under $out/objOPTIMIZATION-THREADS (one a file when THREADS > 0)
    local dir="$out/obj$1-$2" module output=() files=()
    mkdir -p "$dir"
    for module in WaypointCore Waypoint; do
        # The single object also gives the module and its symbol graph, for the public count below.
        [[ $2 -eq 0 ]] && output=(-o "$module.o" -emit-symbol-graph -emit-symbol-graph-dir "$out/symbols/$module")
        files=($(find "$PWD/Sources/$module" -name '*.swift' | sort))
        mkdir -p "$dir/$module" "$out/symbols/$module"
        (cd "$dir/$module" && swiftc -target "arm64-apple-ios$minimum" -sdk "$sdk" ${resource[@]+"${resource[@]}"} \
            -module-cache-path "$cache" "${language[@]}" -parse-as-library -module-name "$module" -I "$dir" \
            -emit-module -emit-module-path "$dir/$module.swiftmodule" \
            "$1" -wmo -num-threads "$2" -c "${files[@]}" ${output[@]+"${output[@]}"}) >"$out/compile$1-$2-$module.log" 2>&1 || {
            grep -E ': error:' "$out/compile$1-$2-$module.log" | head -n 20 >&2
            echo "$module did not compile at $1 (full output: $out/compile$1-$2-$module.log)" >&2
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
    compile "$optimization" 0
    core=$(text_size "$out/obj$optimization-0/WaypointCore"/*.o)
    total=$(text_size "$out/obj$optimization-0"/*/*.o)
    printf '__text %-6s %7d bytes (%d KB) import Waypoint; %7d bytes (%d KB) import WaypointCore\n' \
        "$optimization" "$total" $((total / 1024)) "$core" $((core / 1024))
done

# Where the bytes go: one object a file. Each object carries its own copy of helpers that several
# files use (outlined copies, thunks, specialisations), so the shares add up to more than the total.
if [[ "$brief" != --brief ]]; then
    compile -Osize 4
    echo "__text -Osize by file (each file's own object):"
    for object in "$out/obj-Osize-4"/*/*.o; do
        echo "$(text_size "$object") $(basename "$(dirname "$object")")/$(basename "$object" .o)"
    done | sort -rn | awk '{ printf "    %7d  %s\n", $1, $2 }'
fi

# Public declarations, from the symbol graph the single -Osize compile wrote.
# Waypoint's graph has what it re-exports from WaypointCore: its count is the whole API.
read -r declared with_synthesized < <(python3 Scripts/lib/public-declarations.py "$out/symbols/Waypoint" Waypoint)
read -r core_declared _ < <(python3 Scripts/lib/public-declarations.py "$out/symbols/WaypointCore" WaypointCore)
echo "public declarations (symbol graph): $declared import Waypoint ($with_synthesized with synthesized members); $core_declared import WaypointCore"
echo "declarations marked public: $(cat "${sources[@]}" | grep -cE '^\s*(@[A-Za-z]+ )*(nonisolated )?(public|open) ')"
echo "lines: $(cat "${sources[@]}" | wc -l) in Sources/WaypointCore and Sources/Waypoint; $(cat "${core_sources[@]}" | wc -l) in Sources/WaypointCore"
