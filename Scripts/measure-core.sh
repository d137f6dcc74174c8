#!/usr/bin/env bash
# Measures what the Waypoint core costs an app and a reader: machine code (`__text`) compiled for a
# device from a real iPhoneOS SDK, per source file and in total, at -Osize and -O; the public
# declarations, counted from the symbol graph; and the lines of Sources/Waypoint.
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
sources=($(find "$PWD/Sources/Waypoint" -name '*.swift' | sort))

compile() { # OPTIMIZATION THREADS: objects under $out/objOPTIMIZATION-THREADS (one a file when THREADS > 0)
    local dir="$out/obj$1-$2" status=0 output=()
    mkdir -p "$dir"
    # The single object also gives the module and its symbol graph, for the public count below.
    [[ $2 -eq 0 ]] && output=(-o Waypoint.o -emit-module -emit-module-path Waypoint.swiftmodule
        -emit-symbol-graph -emit-symbol-graph-dir "$out/symbols")
    (cd "$dir" && swiftc -target "arm64-apple-ios$minimum" -sdk "$sdk" ${resource[@]+"${resource[@]}"} \
        -module-cache-path "$cache" "${language[@]}" -parse-as-library -module-name Waypoint \
        "$1" -wmo -num-threads "$2" -c "${sources[@]}" ${output[@]+"${output[@]}"}) >"$out/compile$1-$2.log" 2>&1 || status=$?
    if [[ $status -ne 0 ]]; then
        grep -E ': error:' "$out/compile$1-$2.log" | head -n 20 >&2
        echo "the core did not compile at $1 (full output: $out/compile$1-$2.log)" >&2
        exit 1
    fi
}

text_size() { # OBJECT…: bytes of __text, summed
    llvm-objdump --section-headers "$@" | python3 -c '
import sys
print(sum(int(f[2], 16) for f in (line.split() for line in sys.stdin) if len(f) > 2 and f[1] == "__text"))'
}

# The totals: one object, as an app's build makes it.
for optimization in -Osize -O; do
    compile "$optimization" 0
    total=$(text_size "$out/obj$optimization-0"/*.o)
    printf '__text %-6s %7d bytes (%d KB)\n' "$optimization" "$total" $((total / 1024))
done

# Where the bytes go: one object a file. Each object carries its own copy of helpers that several
# files use (outlined copies, thunks, specialisations), so the shares add up to more than the total.
if [[ "$brief" != --brief ]]; then
    compile -Osize 4
    echo "__text -Osize by file (each file's own object):"
    for object in "$out/obj-Osize-4"/*.o; do
        echo "$(text_size "$object") $(basename "$object" .o)"
    done | sort -rn | awk '{ printf "    %7d  %s\n", $1, $2 }'
fi

# Public declarations, from the symbol graph the single -Osize compile wrote.
read -r declared with_synthesized < <(python3 Scripts/lib/public-declarations.py "$out/symbols")
echo "public declarations (symbol graph): $declared, $with_synthesized with synthesized members"
echo "declarations marked public: $(cat "${sources[@]}" | grep -cE '^\s*(@[A-Za-z]+ )*(nonisolated )?(public|open) ')"
echo "lines in Sources/Waypoint: $(cat "${sources[@]}" | wc -l)"
