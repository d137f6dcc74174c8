#!/usr/bin/env bash
# kill -9 in the middle of a creation load: on restart the SQLite file opens, passes SQLite's own
# integrity check, and holds every link the API acknowledged (201), each whole. Loopback only,
# bounded: 4 writers for about 3 seconds.
set -euo pipefail
source "$(dirname "$0")/service.sh"
port="${WAYPOINT_LINKS_PORT:-18081}"
base="http://127.0.0.1:$port"

database="$work/links.sqlite"
token="$("$binary" token create --name fault --database "$database")"

# One writer: creates links until the service stops answering, writing down each acknowledged code.
writer() {
    local worker="$1" i=0
    while [ "$i" -lt 100000 ]; do
        local code="w$worker-$i"
        local status
        status="$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 -H "Authorization: Bearer $token" \
            -H 'Content-Type: application/json' \
            -d "{\"code\": \"$code\", \"deepLink\": \"readapp://books/$i\", \"preview\": {\"title\": \"Book $i of writer $worker\"}}" \
            "$base/api/links" || true)"
        case "$status" in
            201) echo "$code" >>"$work/acknowledged-$worker" ;;
            000) return 0 ;;  # the service is gone
            *) echo "writer $worker: unexpected status $status for $code"; return 1 ;;
        esac
        i=$((i + 1))
    done
}

start_service "$port" "$database" --admin-limit 0
pids=()
for worker in 1 2 3 4; do
    writer "$worker" &
    pids+=($!)
done
sleep 3
kill -9 "$server"
wait "$server" 2>/dev/null || true
server=""
for pid in "${pids[@]}"; do wait "$pid"; done
acknowledged="$(cat "$work"/acknowledged-* | wc -l)"
[ "$acknowledged" -gt 0 ] || { echo "no link was acknowledged before the kill"; exit 1; }

# The file as the killed process left it: SQLite's own check, and every acknowledged link whole.
cat "$work"/acknowledged-* >"$work/acknowledged"
python3 - "$database" "$work/acknowledged" <<'PYTHON'
import sqlite3, sys
database, acknowledged = sys.argv[1], sys.argv[2]
connection = sqlite3.connect(database)
check = connection.execute("PRAGMA integrity_check").fetchone()[0]
if check != "ok":
    sys.exit(f"integrity_check: {check}")
rows = {code: (deep_link, title) for code, deep_link, title in connection.execute("SELECT code, deep_link, preview_title FROM links")}
missing, broken = 0, 0
for code in open(acknowledged).read().split():
    worker, number = code[1:].split("-")
    if code not in rows:
        missing += 1
    elif rows[code] != (f"readapp://books/{number}", f"Book {number} of writer {worker}"):
        broken += 1
if missing or broken:
    sys.exit(f"{missing} acknowledged links missing, {broken} not as written")
print(f"file ok: integrity_check ok, {len(rows)} links stored, every acknowledged one whole")
PYTHON

# And the service opens it again and serves them.
start_service "$port" "$database" --admin-limit 0
last="$(tail -n 1 "$work/acknowledged")"
status="$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$base/api/links/$last")"
[ "$status" = "200" ] || { echo "the restarted service does not find $last ($status)"; exit 1; }
kill -TERM "$server"
wait "$server"
server=""
echo "kill -9 test passed: $acknowledged links acknowledged before the kill, all there after the restart"
