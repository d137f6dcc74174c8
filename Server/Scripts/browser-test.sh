#!/usr/bin/env bash
# The admin page in a real browser: starts the service on loopback (port 18083, a fresh SQLite
# file), creates a token, and drives headless Chromium through Selenium (Server/BrowserTests).
# Needs Debian's chromium and chromium-driver (.ci/run installs them). With a folder as the first
# argument, saves screenshots there (Server/Docs holds the committed ones).
set -euo pipefail
source "$(dirname "$0")/service.sh"
port="${WAYPOINT_LINKS_PORT:-18083}"
shots="${1:-}"
[ -n "$shots" ] && shots="$(cd "$shots" && pwd)"

# Selenium from PyPI, pinned, in a virtual environment of its own (kept between runs).
venv="${XDG_CACHE_HOME:-$HOME/.cache}/waypoint-links-selenium-4.51.0"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "selenium==4.51.0"
fi

database="$work/links.sqlite"
token="$("$binary" token create --name browser --database "$database")"
start_service "$port" "$database"
status=0
# Selenium Manager must not try to download a driver: the Debian one is named.
SE_OFFLINE=true timeout 120 "$venv/bin/python" Server/BrowserTests/admin_test.py "http://127.0.0.1:$port" "$token" $shots || status=$?
kill -TERM "$server"
wait "$server" || true
server=""
if [ "$status" != "0" ]; then
    echo "the browser test failed (exit $status); the service's log:"
    tail -n 30 "$work/server.log"
    exit 1
fi
