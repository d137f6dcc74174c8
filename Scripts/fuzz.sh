#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/) with the address sanitizer and runs each for SECONDS
# (default 30), starting from the committed seeds in Fuzz/Corpus/TARGET. A crash, a leak or a broken
# rule stops with the input saved in Fuzz/Findings/ and exits 1. Prints each target's executions.
#
#   bash Scripts/fuzz.sh [SECONDS] [TARGET…]     targets: link pattern router manifest aasa payload
#   FUZZ_CONFIG=debug bash Scripts/fuzz.sh 10    a debug build (slower, quicker to build)
#   FUZZ_SANITIZE=fuzzer bash Scripts/fuzz.sh 3600 without the address sanitizer: several times
#                                                 more executions a second, for long runs
#   FUZZ_RUNS=10000000 bash Scripts/fuzz.sh 0 link stop after that many executions (0 s: no time limit)
# The working corpus, which grows as targets run, is kept in .build-fuzz/corpus/TARGET.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(link pattern router manifest aasa payload)
config=${FUZZ_CONFIG:-release}
sanitize=${FUZZ_SANITIZE:-fuzzer,address}
scratch=.build-fuzz
[ "$sanitize" = fuzzer,address ] || scratch=".build-fuzz-${sanitize//,/-}"

echo "building the fuzz targets ($config, -sanitize=$sanitize)"
mkdir -p "$scratch"
# SwiftPM keeps the build plan of a path dependency (this package) until its manifest changes, so a
# source file added since the last run would be missing: plan again every time (objects are kept).
rm -f "$scratch/$config.yaml"
if ! swift build -c "$config" --package-path Fuzz --scratch-path "$scratch" --target FuzzTargets \
    -Xswiftc -sanitize="$sanitize" -Xswiftc -g -Xswiftc -enable-testing >"$scratch/build.log" 2>&1; then
    echo "building the fuzz targets failed:"
    tail -n 40 "$scratch/build.log"
    exit 1
fi
bin="$(swift build -c "$config" --package-path Fuzz --scratch-path "$scratch" --show-bin-path)"
# SwiftPM gives every executable a `main` of its own; libFuzzer brings its own, so link by hand.
swiftc -sanitize="$sanitize" "$bin"/WaypointCore.build/*.o "$bin"/Waypoint.build/*.o "$bin"/WaypointManifest.build/*.o \
    "$bin"/Yams.build/*.o $(find "$bin/CYaml.build" -name '*.o') "$bin"/FuzzTargets.build/*.o \
    -o "$bin/waypoint-fuzz" 2> >(grep -v "Cannot export local symbol" >&2)

mkdir -p Fuzz/Findings
status=0
printf '%-10s %12s %8s %s\n' target executions seconds result
for target in "${targets[@]}"; do
    work=".build-fuzz/corpus/$target"
    mkdir -p "$work"
    log="$scratch/fuzz-$target.log"
    if WAYPOINT_FUZZ_TARGET=$target "$bin/waypoint-fuzz" "$work" "Fuzz/Corpus/$target" \
        -max_total_time="$seconds" -runs="${FUZZ_RUNS:--1}" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="Fuzz/Findings/$target-" >"$log" 2>&1; then
        result=ok
    else
        result="FINDING (see $log and Fuzz/Findings/)"
        status=1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    printf '%-10s %12s %8s %s\n' "$target" "${runs:-?}" "${took:-$seconds}" "$result"
    [ "$result" = ok ] || tail -n 30 "$log"
done
exit $status
