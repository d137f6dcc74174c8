#!/usr/bin/env bash
# The service's promises under mixed load, on one engine: links are created and visited at the same
# time (mixed_load.py: 4 creators, 8 visitors), and in the middle the service is stopped, once with
# kill -9 and once with SIGTERM. Then it is started again on the same database and every promise is
# counted through the API:
#   - no answer under load was a 5xx (or anything but 201 and 302);
#   - kill -9: every link answered 201 is stored whole; visits lost are at most those acknowledged
#     in the last --click-window seconds (1 by default, plus 0.25 s for the write under way; a third
#     run with --click-window 0 loses none);
#   - SIGTERM: the process exits within 10 seconds and loses no link and no visit;
#   - webhooks: every link answered 201 reaches a receiver on loopback as link.created, after the
#     restart at the latest (the queue is in the database).
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
receiver_port=$((port + 7))
python3 Server/Scripts/webhook_receiver.py "$receiver_port" "$work/deliveries" &
receiver=$!
trap 'kill $receiver 2>/dev/null || true; cleanup' EXIT
webhook_id=""

# every_creation_delivered RESULTS: waits up to 45 s for a link.created delivery of each link the
# load saw acknowledged (one in flight at a kill -9 is due again when its 30 s lease ends).
every_creation_delivered() {
    python3 - "$1" "$work/deliveries" <<'PYTHON'
import json, os, sys, time
acknowledged = set(json.load(open(sys.argv[1]))["links"])
deadline = time.time() + 45
while True:
    delivered = set()
    if os.path.exists(sys.argv[2]):
        for line in open(sys.argv[2]):
            if not line.endswith("\n"):
                break  # the receiver is still writing this one
            record = json.loads(line)
            if record["event"] == "link.created":
                delivered.add(json.loads(record["body"])["data"]["code"])
    missing = acknowledged - delivered
    if not missing or time.time() > deadline:
        break
    time.sleep(0.5)
if missing:
    print(f"FAIL  {len(missing)} of {len(acknowledged)} acknowledged links never reached the webhook, such as {sorted(missing)[:5]}")
    sys.exit(1)
print(f"ok    webhooks: all {len(acknowledged)} acknowledged links delivered as link.created")
PYTHON
}

# run_fault SIGNAL WINDOW: one load, stopped by SIGNAL after 4 seconds, then verified after a restart.
run_fault() {
    local signal="$1" window="$2" run="f$RANDOM$RANDOM"
    start_service "$port" "$database" --admin-limit 0 --unknown-code-limit 0 --click-window "$window" \
        --webhook-allow-private
    if [ -z "$webhook_id" ]; then
        webhook_id="$(curl -s -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
            -d "{\"url\": \"http://127.0.0.1:$receiver_port/hook\", \"events\": [\"link.created\"]}" \
            "$base/api/webhooks" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')"
    fi
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
        # The operator's word that the stop was clean.
        grep -q "stopped: every counted visit written" "$work/server.log" ||
            { echo "FAIL  $engine: SIGTERM: the log does not say the stop was clean"; tail -n 20 "$work/server.log"; exit 1; }
    fi
    if [ "$engine" = "sqlite" ]; then
        python3 -c 'import sqlite3, sys; r = sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0]; print("integrity_check:", r); sys.exit(r != "ok")' "$database"
    fi
    start_service "$port" "$database" --admin-limit 0 --unknown-code-limit 0 --webhook-allow-private
    local lost="$window"
    [ "$signal" = "TERM" ] && lost=0
    $load verify --base "$base" --token "$token" --results "$work/results-$run.json" --stop-time "$stopped" \
        --lost-window "$(awk -v w="$lost" 'BEGIN { print (w > 0) ? w + 0.25 : 0 }')"
    every_creation_delivered "$work/results-$run.json" || {
        grep -i webhook "$work/server.log" | tail -n 20
        exit 1
    }
    kill -TERM "$server"
    wait "$server"
    server=""
    echo "ok    $engine: kill -$signal with --click-window $window"
}

run_fault 9 1
run_fault TERM 1
run_fault 9 0
# A database reused by the next run keeps no webhook.
start_service "$port" "$database"
curl -s -o /dev/null -X DELETE -H "Authorization: Bearer $token" "$base/api/webhooks/$webhook_id"
kill -TERM "$server"
wait "$server"
server=""
echo "fault tests passed on $engine"
