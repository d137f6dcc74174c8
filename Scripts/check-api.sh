#!/usr/bin/env bash
# Fails when the public API of the libraries an app links breaks in a way CHANGELOG.md does not
# record. Compares against the baseline in .ci/api-baseline (the last release's tag or commit) with
# `swift package diagnose-api-breaking-changes`; every break it may report is listed, word for word,
# in .ci/api-breaks.txt, and described for people under "Changed" in CHANGELOG.md.
#
#   bash Scripts/check-api.sh
#
# The build's progress lines are left out; with pipefail the digester's own status decides.
#
# When a release is tagged: put its tag in .ci/api-baseline and empty .ci/api-breaks.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

baseline=$(grep -vE '^\s*(#|$)' .ci/api-baseline | head -n 1)
if ! git rev-parse --verify --quiet "$baseline^{commit}" >/dev/null; then
    echo "the API baseline '$baseline' (.ci/api-baseline) is not in this clone's history" >&2
    exit 2
fi
echo "API baseline: $baseline"
# The baseline's API, dumped once into .ci/api-baseline-dumps/COMMIT/, so CI does not build the
# baseline again each run (a minute). For a new baseline the tool builds it and writes its dumps
# there: commit them with the new .ci/api-baseline.
swift package diagnose-api-breaking-changes "$baseline" --baseline-dir .ci/api-baseline-dumps \
    --products Waypoint WaypointTesting WaypointLinksClient WaypointManifest \
    --breakage-allowlist-path .ci/api-breaks.txt 2>&1 |
    { grep -vE '^\[[0-9]+/[0-9]+\]|^Building|^Build complete|^Compiling|^Write' || true; }
