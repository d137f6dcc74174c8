#!/usr/bin/env bash
# Schemathesis against the live service: builds waypoint-links, starts it on loopback (port 18082;
# a fresh SQLite file, or the database named by the first argument, such as a postgres:// URL) with
# its rate limits off, so that the generated requests reach the handlers rather than a 429, and runs
# every schemathesis check on Server/openapi.yaml but one (why: below), as the short-link domain
# (Host: links.read.example.com, so the association files are served). Any 5xx fails it.
set -euo pipefail
source "$(dirname "$0")/service.sh"
port="${WAYPOINT_LINKS_PORT:-18082}"
examples="${SCHEMATHESIS_EXAMPLES:-100}"

# schemathesis from PyPI, pinned, in a virtual environment of its own (kept between runs). A lock,
# since CI runs this script on both engines at once and only one may install.
venv="${XDG_CACHE_HOME:-$HOME/.cache}/waypoint-links-schemathesis-4.32.5"
mkdir -p "$(dirname "$venv")"
(
    flock 9
    if [ ! -x "$venv/bin/schemathesis" ]; then
        python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet "schemathesis==4.32.5"
    fi
) 9>"$venv.lock"

database="${1:-$work/links.sqlite}"
token="$("$binary" token create --name "schemathesis-$$-$RANDOM" --database "$database")"
start_service "$port" "$database" --admin-limit 0 --unknown-code-limit 0 --claim-limit 0 \
    --long-links --long-link-host www.example.com

# Left out: positive_data_acceptance, since a schema-valid deep link must also resolve to a route
# of the manifest (a 422 the schema cannot express: it is the point of the service).
status=0
"$venv/bin/schemathesis" run Server/openapi.yaml \
    --url "http://127.0.0.1:$port" \
    --header "Authorization: Bearer $token" --header "Host: links.read.example.com" \
    --checks all --exclude-checks positive_data_acceptance \
    --max-examples "$examples" --seed 20261125 --workers 1 \
    --request-timeout 10 --no-color \
    >"$work/schemathesis.txt" 2>&1 || status=$?
# Each failure, then the summary.
grep -A 14 '^- ST' "$work/schemathesis.txt" | head -n 80 || true
tail -n 30 "$work/schemathesis.txt"
if grep -q '\[5[0-9][0-9]\]' "$work/schemathesis.txt"; then
    echo "FAIL  a 5xx answer:"
    grep -n -B2 -A8 '\[5[0-9][0-9]\]' "$work/schemathesis.txt" | head -n 60
    status=1
fi
if grep -qi 'error\|critical' "$work/server.log"; then
    echo "the service logged errors:"
    grep -i 'error\|critical' "$work/server.log" | head -n 20
fi
kill -TERM "$server"
wait "$server" || status=$?
server=""
[ "$status" = "0" ] || { echo "schemathesis found failures (exit $status)"; exit 1; }
echo "schemathesis passed ($([ -n "${1:-}" ] && echo "${1%%://*}" || echo sqlite)): $examples examples an operation, no 5xx, every check but one"
