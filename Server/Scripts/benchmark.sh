#!/usr/bin/env bash
# The service against a Hummingbird hello-world, with wrk on loopback, in one run: prints the table
# Server/BENCHMARKS.md keeps. Both are release builds of the same Hummingbird; the service runs with
# its rate limits off (one client makes every request). For each engine (SQLite, then PostgreSQL
# on the private server start-postgres.sh starts, in a database of its own, and stops at the end): a redirect, the
# iPhone landing page, the association file, creating links alone and during redirects (and
# redirects during creation), redirects whose click is written before the answer (--click-window 0),
# and then redirects that miss the link cache among 1,000 and among 1,000,000 links. BENCH_DURATION (seconds, default 10) and BENCH_CONNECTIONS (default 32) tune it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
duration="${BENCH_DURATION:-10}"
connections="${BENCH_CONNECTIONS:-32}"
bulk="${BENCH_LINKS:-1000000}"
port=18090

command -v wrk >/dev/null || { apt-get update -qq >/dev/null; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
swift build -c release --package-path Server --product waypoint-links 2>&1 | tail -n 1
swift build -c release --package-path Server/Benchmarks 2>&1 | tail -n 1
service="$(swift build -c release --package-path Server --show-bin-path)/waypoint-links"
hello="$(swift build -c release --package-path Server/Benchmarks --show-bin-path)/hello-world"

work="$(mktemp -d)"
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# wrk's scripts: every one ends by printing requests a second, p50 and p99 in ms, and the count of
# answers that are not 2xx or 3xx.
cat >"$work/report.lua" <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.0f %.2f %.2f %d %d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA
# random-N.lua: each request a random one of the links bulk0000001 … bulkN.
random_script() {
    {
        cat "$work/report.lua"
        cat <<LUA
request = function()
  return wrk.format("GET", string.format("/bulk%07d", math.random(1, $1)))
end
LUA
    } >"$work/random-$1.lua"
}
random_script 1000
random_script "$bulk"
{
    cat "$work/report.lua"
    cat <<'LUA'
wrk.method = "POST"
wrk.body = '{"deepLink": "https://read.example.com/b/42", "fallbacks": {"web": "https://read.example.com/b/42"}}'
wrk.headers["Content-Type"] = "application/json"
LUA
} >"$work/create.lua"

desktop='User-Agent: Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/18.6 Safari/605.1.15'
iphone='User-Agent: Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 Version/18.6 Mobile/15E148 Safari/604.1'
baseline=""

# row NAME RESULT-LINE: one table row from wrk's RESULT line; sets rps.
row() {
    local name="$1"
    read -r _ rps p50 p99 bad failed <<<"$2"
    local ratio="—"
    [ -n "$baseline" ] && ratio="$(awk -v a="$rps" -v b="$baseline" 'BEGIN { printf "%.0f %%", 100 * a / b }')"
    printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$rps" "$p50" "$p99" "$ratio" "$((bad + failed))"
}

# measure NAME SCRIPT PATH [wrk options…]: one wrk run, one table row.
measure() {
    local name="$1" script="$2" path="$3"
    shift 3
    row "$name" "$(wrk -t2 -c"$connections" -d"${duration}s" -s "$work/$script" "$@" "http://127.0.0.1:$port$path" | grep '^RESULT')"
}

# together NAME-A SCRIPT-A PATH-A HEADER-A NAME-B SCRIPT-B PATH-B HEADER-B: two loads at once, each
# with half the connections and one wrk thread; a row for each.
together() {
    local half=$((connections / 2))
    wrk -t1 -c"$half" -d"${duration}s" -s "$work/$2" -H "$4" "http://127.0.0.1:$port$3" | grep '^RESULT' >"$work/a" &
    local first=$!
    wrk -t1 -c"$half" -d"${duration}s" -s "$work/$6" -H "$8" "http://127.0.0.1:$port$7" | grep '^RESULT' >"$work/b"
    wait "$first"
    row "$1" "$(cat "$work/a")"
    row "$5" "$(cat "$work/b")"
}

wait_for() {
    for _ in $(seq 1 100); do
        curl -fs -o /dev/null "http://127.0.0.1:$port$1" && return 0
        sleep 0.1
    done
    echo "nothing answers on port $port"
    exit 1
}

stop() {
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=""
}

start_service() {
    local database="$1"
    shift
    "$service" serve --manifest Examples/Manifests/reading.yaml --port "$port" --database "$database" \
        --admin-limit 0 --unknown-code-limit 0 "$@" >>"$work/service.log" 2>&1 &
    server=$!
    wait_for /health
}

echo "wrk -t2 -c$connections -d${duration}s on $(nproc) cores, $(uname -sr); $(swift --version 2>/dev/null | head -n 1)"
echo
echo "| what | requests/s | p50 ms | p99 ms | of hello-world | errors |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
"$hello" "$port" >"$work/hello.log" 2>&1 &
server=$!
wait_for /
measure "hello-world \`GET /\`" report.lua /
baseline="$rps"
stop

# bulk_insert ENGINE DATABASE FROM TO: copies of the link `bench` as bulkFROM … bulkTO, straight
# into the table (the API would take minutes for a million).
bulk_insert() {
    local engine="$1" database="$2" from="$3" to="$4"
    local columns="deep_link, route, app_store_id, play_package, web_url, preview_title, preview_description, preview_image_url, expires_at, created_at, updated_at"
    if [ "$engine" = sqlite ]; then
        python3 - "$database" "$from" "$to" "$columns" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute(f"""WITH RECURSIVE n(i) AS (SELECT {int(sys.argv[2])} UNION ALL SELECT i + 1 FROM n WHERE i < {int(sys.argv[3])})
INSERT INTO links (code, {sys.argv[4]}) SELECT printf('bulk%07d', i), {sys.argv[4]} FROM n, links WHERE links.code = 'bench'""")
db.commit()
PY
    else
        psql -q "$database" -c "INSERT INTO links (code, $columns) SELECT 'bulk' || lpad(i::text, 7, '0'), $columns
            FROM links, generate_series($from, $to) AS i WHERE links.code = 'bench'" -c "ANALYZE links"
    fi
}

for engine in sqlite postgres; do
    if [ "$engine" = sqlite ]; then
        database="$work/links.sqlite"
    else
        admin="$(bash Server/Scripts/start-postgres.sh | tail -n 1)"
        admin="${admin%/*}/postgres"
        psql -q "$admin" -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS waypoint_links_bench" \
            -c "CREATE DATABASE waypoint_links_bench"
        database="${admin%/*}/waypoint_links_bench"
    fi
    token="$("$service" token create --name bench --database "$database")"
    start_service "$database"
    curl -fs -o /dev/null -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
        -d '{"code": "bench", "deepLink": "https://read.example.com/b/42", "fallbacks": {"web": "https://read.example.com/b/42"}}' \
        "http://127.0.0.1:$port/api/links"
    measure "$engine: redirect \`GET /bench\` (desktop, 302)" report.lua /bench -H "$desktop"
    measure "$engine: landing page \`GET /bench\` (iPhone, 200)" report.lua /bench -H "$iphone"
    measure "$engine: apple-app-site-association" report.lua /.well-known/apple-app-site-association -H 'Host: links.read.example.com'
    # Creation and visits at once, each on half the connections, against creation alone on as many.
    half=$((connections / 2))
    row "$engine: create alone, $half connections (links/s)" "$(wrk -t1 -c"$half" -d"${duration}s" -s "$work/create.lua" \
        -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/links" | grep '^RESULT')"
    together "$engine: create during redirects (links/s)" create.lua /api/links "Authorization: Bearer $token" \
        "$engine: redirect during creation (desktop, 302)" report.lua /bench "$desktop"
    stop
    # Every visit's click written before its answer.
    start_service "$database" --click-window 0
    measure "$engine: redirect with \`--click-window 0\` (desktop, 302)" report.lua /bench -H "$desktop"
    stop
    # Lookups that miss the cache, as the table grows: the time must not grow with it.
    bulk_insert "$engine" "$database" 1 1000
    start_service "$database" --link-cache-seconds 0
    measure "$engine: redirect, uncached, random of 1,000 links" random-1000.lua / -H "$desktop"
    # Creating links (which adds some tens of thousands), then the table grown to the full count.
    measure "$engine: create \`POST /api/links\` (links/s)" create.lua /api/links -H "Authorization: Bearer $token"
    stop
    bulk_insert "$engine" "$database" 1001 "$bulk"
    start_service "$database" --link-cache-seconds 0
    measure "$engine: redirect, uncached, random of $(echo "$bulk" | sed -e :a -e 's/\B[0-9]\{3\}\>/,&/;ta') links" "random-$bulk.lua" / -H "$desktop"
    stop
    if [ "$engine" = postgres ]; then psql -q "$admin" -c "DROP DATABASE waypoint_links_bench"; fi
done

bash Server/Scripts/start-postgres.sh stop-postgres >/dev/null

# hello-world again: the machine's speed drifts; a second baseline shows by how much.
"$hello" "$port" >"$work/hello.log" 2>&1 &
server=$!
wait_for /
measure "hello-world \`GET /\` again, after the rest" report.lua /
stop
