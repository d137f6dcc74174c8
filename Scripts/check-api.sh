#!/usr/bin/env bash
# Fails when the public API of the libraries an app links breaks in a way CHANGELOG.md does not
# record. Compares against the baseline in .ci/api-baseline (the last release's tag or commit) with
# `swift package diagnose-api-breaking-changes`; every break it may report is listed, word for word,
# in .ci/api-breaks.txt, and described for people under "Changed" in CHANGELOG.md.
#
#   bash Scripts/check-api.sh            # judge
#   bash Scripts/check-api.sh --update   # write the current public declarations to .ci/public-api.txt
#
# The digester dumps `package` declarations beside `public` ones, so it does not see a public
# declaration made `package`. The second half catches that: the public declarations, read from the
# symbol graph (which knows access levels), must be the list in .ci/public-api.txt, line for line. A
# change to the public API changes that list in the same commit, where a review sees it, and a line
# that goes is a break that CHANGELOG.md records.
#
# The build's progress lines are left out; with pipefail the digester's own status decides.
#
# When a release is tagged: put its tag in .ci/api-baseline and empty .ci/api-breaks.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
products=(WaypointCore Waypoint WaypointTesting WaypointLinksClient WaypointManifest)
# The digester compares only the products the baseline has: for one it lacks, SwiftPM builds the
# whole baseline on every run (its dumps never gain the module) and then skips it anyway. WaypointCore
# came after 9696e3f, so until a release has it, the list below judges its declarations alone.
compared=(Waypoint WaypointTesting WaypointLinksClient WaypointManifest)
update=${1:-}

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
    --products "${compared[@]}" \
    --breakage-allowlist-path .ci/api-breaks.txt 2>&1 |
    { grep -vE '^\[[0-9]+/[0-9]+\]|^Building|^Build complete|^Compiling|^Write' || true; }

# The public declarations, line for line (Scripts/lib/public-api.py says what a line holds).
log=.build/public-api-symbol-graphs.log
swift package dump-symbol-graph --minimum-access-level public >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
# SwiftPM prints where it wrote them ("Files written to DIR").
written=$(sed -nE 's/^Files written to (.*)$/\1/p' "$log" | tail -n 1)
[[ -d "$written" ]] || { cat "$log" >&2; echo "no symbol graphs found (see $log)" >&2; exit 1; }
current=$(python3 Scripts/lib/public-api.py "$written" "${products[@]}")
if [[ "$update" == --update ]]; then
    printf '%s\n' "$current" >.ci/public-api.txt
    echo "wrote $(wc -l <.ci/public-api.txt) public declarations to .ci/public-api.txt"
    exit 0
fi
gone=$(comm -23 <(LC_ALL=C sort .ci/public-api.txt) <(printf '%s\n' "$current" | LC_ALL=C sort))
new=$(comm -13 <(LC_ALL=C sort .ci/public-api.txt) <(printf '%s\n' "$current" | LC_ALL=C sort))
if [[ -z "$gone" && -z "$new" ]]; then
    echo "Public declarations: $(printf '%s\n' "$current" | wc -l), as .ci/public-api.txt lists them"
    exit 0
fi
if [[ -n "$gone" ]]; then
    echo "Public declarations no longer public (removed, renamed, changed or made package):"
    printf '%s\n' "$gone" | sed 's/^/    /'
fi
if [[ -n "$new" ]]; then
    echo "Public declarations .ci/public-api.txt does not list:"
    printf '%s\n' "$new" | sed 's/^/    /'
fi
cat >&2 <<'MSG'
The public API differs from .ci/public-api.txt. If that is meant, run `bash Scripts/check-api.sh
--update` and commit the list with the change; a declaration that is no longer public is a break, so
CHANGELOG.md says under "Changed" what replaces it.
MSG
exit 1
