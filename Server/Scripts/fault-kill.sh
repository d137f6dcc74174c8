#!/usr/bin/env bash
# The service's promises under mixed load, on one engine: links are created and visited at the same
# time (mixed_load.py: 4 creators, 8 visitors), and in the middle the service is stopped, once with
# kill -9 and once with SIGTERM. Then it is started again on the same database and every promise is
# counted through the API:
#   - no answer under load was a 5xx (or anything but 201 and 302);
#   - kill -9: every link answered 201 is stored whole; visits lost are at most those acknowledged
#     in the last --click-window seconds (1 by default, plus 0.25 s for the write under way; a third
#     run with --click-window 0 loses none);
#   - SIGTERM: the process exits within 10 seconds and loses no link and no visit.
# SQLite (a fresh file, by default) also passes its own integrity_check after the kill.
#   bash Server/Scripts/fault-kill.sh                 # SQLite
#   bash Server/Scripts/fault-kill.sh postgres://…    # PostgreSQL
# Loopback only; each load runs for at most 20 seconds.
set -euo pipefail
source "$(dirname "$0")/service.sh"
port="${WAYPOINT_LINKS_PORT:-18081}"
base="http://127.0.0.1:$port"
database="${1:-$work/links.sqlite}"
engine="sqlite"
[[ "$database" == postgres* ]] && engine="postgres"
token="$("$binary" token create --name "fault-$$-$RANDOM" --database "$database")"
load="python3 Server/Scripts/mixed_load.py"

# run_fault SIGNAL WINDOW: one load, stopped by SIGNAL after 4 seconds, then verified after a restart.
run_fault() {
    local signal="$1" window="$2" run="f$RANDOM$RANDOM"
    start_service "$port" "$database" --admin-limit 0 --unknown-code-limit 0 --click-window "$window"
    $load load --base "$base" --token "$token" --run "$run" --seconds 20 --stop-file "$work/stop" \
        --out "$work/results-$run.json" >"$work/load-$run.log" 2>&1 &
    local loader=$!
    sleep 4
    local stopped
    stopped="$(python3 -c 'import time; print(time.time())')"
    kill "-$signal" "$server"
    local waited=0
    while kill -0 "$server" 2>/dev/null; do
        sleep 0.1
        waited=$((waited + 1))
        if [ "$waited" -gt 100 ]; then
            echo "FAIL  $engine: SIGTERM under load: the service had not exited after 10 seconds"
            kill -9 "$server"
            exit 1
        fi
    done
    local status=0
    wait "$server" || status=$?
    server=""
    touch "$work/stop"
    local verdict=0
    wait "$loader" || verdict=$?
    rm -f "$work/stop"
    cat "$work/load-$run.log"
    # Every answer that came before the stop was a 201 or a 302: no 5xx, no 4xx under load.
    [ "$verdict" = "0" ] || { echo "FAIL  $engine: the load got other answers (above)"; exit 1; }
    if [ "$signal" = "TERM" ]; then
        [ "$status" = "0" ] || { echo "FAIL  $engine: SIGTERM: exit status $status"; tail -n 20 "$work/server.log"; exit 1; }
        echo "exited $status in $(awk -v t="$waited" 'BEGIN { printf "%.1f", t / 10 }') s after SIGTERM"
    fi
    if [ "$engine" = "sqlite" ]; then
        python3 -c 'import sqlite3, sys; r = sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0]; print("integrity_check:", r); sys.exit(r != "ok")' "$database"
    fi
    start_service "$port" "$database" --admin-limit 0 --unknown-code-limit 0
    local lost="$window"
    [ "$signal" = "TERM" ] && lost=0
    $load verify --base "$base" --token "$token" --results "$work/results-$run.json" --stop-time "$stopped" \
        --lost-window "$(awk -v w="$lost" 'BEGIN { print (w > 0) ? w + 0.25 : 0 }')"
    kill -TERM "$server"
    wait "$server"
    server=""
    echo "ok    $engine: kill -$signal with --click-window $window"
}

run_fault 9 1
run_fault TERM 1
run_fault 9 0
echo "fault tests passed on $engine"
