#!/usr/bin/env bash
# Does Server/README.md's walk-through work? Builds waypoint-links, creates a token, starts the
# service on the example manifest (port 18080 on loopback; a fresh SQLite file, or the database
# named by the first argument, such as a postgres:// URL), runs each curl of the README against it
# and checks the status, then stops it with SIGTERM and checks it exits 0.
set -euo pipefail
source "$(dirname "$0")/service.sh"
port="${WAYPOINT_LINKS_PORT:-18080}"
base="http://127.0.0.1:$port"

database="${1:-$work/links.sqlite}"
# Every subcommand reads the database from WAYPOINT_LINKS_DATABASE when --database is not given.
export WAYPOINT_LINKS_DATABASE="$database"
token_name="smoke-$$-$RANDOM"
token="$("$binary" token create --name "$token_name")"
# A webhook receiver on loopback (so the service runs with --webhook-allow-private).
receiver_port=$((port + 7))
python3 Server/Scripts/webhook_receiver.py "$receiver_port" "$work/deliveries" &
receiver=$!
trap 'kill $receiver 2>/dev/null || true; cleanup' EXIT
start_service "$port" "$database" --app-store-id 1234567890 --app-store-provider-token 118330 --country-header CF-IPCountry --webhook-allow-private \
    --idle-timeout 3 --log-level debug --long-links --long-link-host www.example.com

failures=0
# expect STATUS DESCRIPTION CURL-ARGUMENTS…: the status curl reports must be STATUS.
expect() {
    local status="$1" what="$2"
    shift 2
    local got
    got="$(curl -s -o "$work/body" -w '%{http_code}' "$@")"
    if [ "$got" = "$status" ]; then
        echo "ok    $status  $what"
    else
        echo "FAIL  $got (expected $status)  $what: $(head -c 300 "$work/body")"
        failures=$((failures + 1))
    fi
}
auth=(-H "Authorization: Bearer $token" -H 'Content-Type: application/json')
expect 200 "health" "$base/health"
expect 200 "apple-app-site-association for read.example.com" -H 'Host: read.example.com' \
    "$base/.well-known/apple-app-site-association"
expect 200 "apple-app-site-association for links.read.example.com" -H 'Host: links.read.example.com' \
    "$base/.well-known/apple-app-site-association"
grep -q '"/" : "/?\*"' "$work/body" || { echo "FAIL  the short-link domain's file does not claim its codes"; failures=$((failures + 1)); }
expect 200 "assetlinks.json" -H 'Host: read.example.com' "$base/.well-known/assetlinks.json"
expect 404 "no association file for another host" -H 'Host: evil.example' "$base/.well-known/apple-app-site-association"
expect 401 "admin API without a token" "$base/api/links"
expect 201 "register a webhook" "${auth[@]}" \
    -d "{\"url\": \"http://127.0.0.1:$receiver_port/hook\", \"events\": [\"link.created\", \"link.clicked\"]}" "$base/api/webhooks"
webhook_secret="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["secret"])' "$work/body")"
webhook_id="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$work/body")"
expect 201 "create a link" "${auth[@]}" -d '{"code": "spring", "deepLink": "https://read.example.com/b/42",
    "fallbacks": {"web": "https://read.example.com/b/42"}, "preview": {"title": "Spring sale"}}' "$base/api/links"
expect 422 "a deep link no route takes is refused" "${auth[@]}" -d '{"deepLink": "readapp://nowhere"}' "$base/api/links"
expect 409 "the same code twice" "${auth[@]}" -d '{"code": "spring", "deepLink": "readapp://books/1"}' "$base/api/links"
expect 200 "read it" "${auth[@]}" "$base/api/links/spring"
# Clicks of an earlier link with this code may remain in a reused database: count from here.
clicks_before="$(curl -s "${auth[@]}" "$base/api/links/spring/clicks" | python3 -c 'import json, sys; print(json.load(sys.stdin)["total"])')"
expect 200 "list" "${auth[@]}" "$base/api/links?limit=10"
expect 200 "QR code as PNG" "${auth[@]}" "$base/api/links/spring/qr?size=600"
python3 -c 'import struct, sys; d = open(sys.argv[1], "rb").read(); assert d[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", d[16:24]) == (592, 592), d[:24]' "$work/body" \
    || { echo "FAIL  the QR code is not a 592 × 592 PNG"; failures=$((failures + 1)); }
expect 200 "update it" "${auth[@]}" -X PATCH -d '{"preview": {"title": "Spring sale, last day"}}' "$base/api/links/spring"
expect 200 "the app expands the code" "$base/api/resolve/spring"
expect 200 "iPhone: landing page" -A 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X)' \
    "$base/spring?utm_campaign=spring"
grep -q 'https://apps.apple.com/app/id1234567890?pt=118330&amp;ct=spring&amp;mt=8' "$work/body" ||
    { echo "FAIL  the App Store button is not the campaign's App Store Connect link"; failures=$((failures + 1)); }
expect 302 "Android: Play Store, the claim token then the campaign in the referrer" -D "$work/headers" \
    -A 'Mozilla/5.0 (Linux; Android 15)' "$base/spring?utm_campaign=spring"
grep -qi '^location: https://play.google.com/.*&referrer=waypoint%5Fclaim%3D[A-Za-z0-9%]*%26utm%5Fcampaign%3Dspring' "$work/headers" ||
    { echo "FAIL  the Play referrer is not the claim token, then the campaign"; failures=$((failures + 1)); }
expect 302 "desktop: web fallback, with the visit's query" -D "$work/headers" \
    -A 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)' -e https://news.example.com/issue-12 -H 'CF-IPCountry: de' \
    "$base/spring?utm_source=news"
grep -qi '^location: https://read.example.com/b/42?utm_source=news' "$work/headers" \
    || { echo "FAIL  the query was not passed on: $(grep -i '^location' "$work/headers")"; failures=$((failures + 1)); }
expect 200 "Slack: preview" -A 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' "$base/spring"
grep -q 'og:title" content="Spring sale, last day"' "$work/body" || { echo "FAIL  no og:title"; failures=$((failures + 1)); }
expect 404 "unknown code" "$base/autumn"
# The counter writes every second: five visits above (the app's, the iPhone's, Android's, the
# desktop's and Slack's) are in the database within two.
sleep 2
expect 200 "click counts" "${auth[@]}" "$base/api/links/spring/clicks"
grep -q "\"total\":$((clicks_before + 5))" "$work/body" \
    || { echo "FAIL  clicks not written (had $clicks_before): $(cat "$work/body")"; failures=$((failures + 1)); }
# Where they came from: the desktop visit's Referer host and the country its CDN header named; the
# app's resolve as (app). An earlier link with this code may have left counts: look for the names.
expect 200 "analytics with referrers and countries" "${auth[@]}" "$base/api/links/spring/analytics"
python3 - "$work/body" <<'PYTHON' || failures=$((failures + 1))
import json, sys
total = json.load(open(sys.argv[1]))["total"]
missing = [name for name, table in [("news.example.com", "byReferrer"), ("(app)", "byReferrer"), ("(direct)", "byReferrer"), ("DE", "byCountry")] if not total[table].get(name)]
if missing:
    print(f"FAIL  analytics lack {missing}: {total}")
    sys.exit(1)
PYTHON
# The receiver has the link's creation and its clicks, signed as README's verify() checks.
sed -n '/^```python$/,/^```$/p' Server/README.md | sed '1d;$d' >"$work/verify.py"
python3 - "$work/verify.py" "$work/deliveries" "$webhook_secret" <<'PYTHON' || failures=$((failures + 1))
import json, os, sys, time
namespace = {}
exec(open(sys.argv[1]).read(), namespace)
# Deliveries go out within a second of their event; allow five.
deadline = time.time() + 5
while True:
    deliveries = [json.loads(line) for line in open(sys.argv[2])] if os.path.exists(sys.argv[2]) else []
    events = {delivery["event"] for delivery in deliveries}
    if {"link.created", "link.clicked"} <= events or time.time() > deadline:
        break
    time.sleep(0.2)
bad = [d for d in deliveries if not namespace["verify"](sys.argv[3], d["signature"], d["body"].encode())]
if not {"link.created", "link.clicked"} <= events or bad:
    print(f"FAIL  webhook deliveries: events {sorted(events)}, {len(bad)} with a bad signature")
    sys.exit(1)
print(f"ok    webhooks: {len(deliveries)} deliveries ({', '.join(sorted(events))}), each signature verified by README's verify()")
PYTHON
expect 204 "remove the webhook (a database reused by the next run keeps none)" "${auth[@]}" -X DELETE \
    "$base/api/webhooks/$webhook_id"
# A query too long to pass on: the visitor still gets there; it is counted, and named at debug.
expect 302 "desktop: a query over 512 bytes is left behind" -A 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)' \
    "$base/spring?utm_source=$(printf 'x%.0s' $(seq 1 600))"
grep "what visitors without the app are offered" "$work/server.log" | grep -q 'appStoreCampaigns=on, provider token 118330' ||
    { echo "FAIL  no start-up line of what visitors are offered: $(head -n 3 "$work/server.log")"; failures=$((failures + 1)); }
grep -q "a visit's query was not passed on whole" "$work/server.log" && grep -q 'reason=tooLong' "$work/server.log" ||
    { echo "FAIL  the query left behind is not in the debug log"; failures=$((failures + 1)); }
# A long Dynamic Link, made without a code: answered as a short link with its fields, never stored,
# and only where the team's own links lead.
expect 200 "a long Dynamic Link: the landing page of its deep link" \
    -A 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X)' "$base/?link=readapp%3A%2F%2Fbooks%2F7&st=Seven"
grep -q 'readapp://books/7' "$work/body" && grep -q 'data-claim="https://links.read.example.com/c/' "$work/body" ||
    { echo "FAIL  the long link's page has no deep link or claim: $(head -c 300 "$work/body")"; failures=$((failures + 1)); }
expect 302 "a long Dynamic Link: the desktop page on an allowed host" -A 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)' \
    "$base/?link=readapp%3A%2F%2Fbooks%2F7&ofl=https%3A%2F%2Fwww.example.com%2Fb7"
expect 404 "a long Dynamic Link leading off the team's sites is not followed" \
    -A 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)' "$base/?link=readapp%3A%2F%2Fbooks%2F7&ofl=https%3A%2F%2Fevil.example%2F"
expect 200 "metrics" "$base/metrics"
grep -q '^waypoint_links_visits_total{client="android",outcome="store"} 1' "$work/body" \
    || { echo "FAIL  no visit metric: $(grep waypoint_links "$work/body")"; failures=$((failures + 1)); }
grep -q '^waypoint_links_long_link_visits_total{client="desktop",outcome="notFound"} 1' "$work/body" \
    || { echo "FAIL  the long link not followed is not counted"; failures=$((failures + 1)); }
grep -q '^waypoint_links_visit_queries_left_behind_total{reason="tooLong"} 1' "$work/body" \
    || { echo "FAIL  the query left behind is not counted: $(grep left_behind "$work/body")"; failures=$((failures + 1)); }
expect 302 "HEAD answers as GET does, without a body" -I -A 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)' "$base/spring"
expect 405 "a method the path does not take" -X POST "$base/spring"
grep -q '"methodNotAllowed"' "$work/body" || { echo "FAIL  405 without its JSON: $(cat "$work/body")"; failures=$((failures + 1)); }
expect 400 "an expiry in the past" "${auth[@]}" -X PATCH -d '{"expiresAt": "2020-01-01T00:00:00Z"}' "$base/api/links/spring"
expect 204 "delete it" "${auth[@]}" -X DELETE "$base/api/links/spring"
expect 404 "gone after delete" "$base/spring"
# A scan of unknown codes: the default limit lets 15 through at once (and one more a second), then
# answers 429.
for attempt in $(seq 1 20); do curl -s -o /dev/null "$base/scan$attempt"; done
expect 429 "too many unknown codes" "$base/scan-last"
grep -q '"rateLimited"' "$work/body" || { echo "FAIL  429 without its JSON: $(cat "$work/body")"; failures=$((failures + 1)); }

# Tokens: listed by name without their secrets; one revoked is refused by the running service at once.
"$binary" token list >"$work/tokens"
grep -q "^$token_name " "$work/tokens" || { echo "FAIL  token list: $(cat "$work/tokens")"; failures=$((failures + 1)); }
grep -q "$token" "$work/tokens" && { echo "FAIL  token list shows a secret"; failures=$((failures + 1)); }
leaked="$("$binary" token create --name "$token_name-leaked")"
expect 200 "a second token works" -H "Authorization: Bearer $leaked" "$base/api/links?limit=1"
"$binary" token revoke "$token_name-leaked" >/dev/null
expect 401 "a revoked token is refused at once" -H "Authorization: Bearer $leaked" "$base/api/links?limit=1"
"$binary" token create --name "$token_name" >/dev/null 2>"$work/duplicate" \
    && { echo "FAIL  a second token with the same name was created"; failures=$((failures + 1)); }
grep -q "A token named '$token_name' exists" "$work/duplicate" \
    || { echo "FAIL  duplicate name: $(cat "$work/duplicate")"; failures=$((failures + 1)); }

# The command line's export, written through a symbolic link (a new file renamed over the path would
# replace the link, and /dev/null itself when run as root), then read back by its import into an
# empty database: every line imported.
expect 201 "a link to export" "${auth[@]}" -d '{"code": "kept", "deepLink": "readapp://books/7", "preview": {"title": "Kept"}}' \
    "$base/api/links"
ln -s "$work/export.jsonl" "$work/export-link.jsonl"
"$binary" export --manifest Examples/Manifests/reading.yaml --format jsonl --output "$work/export-link.jsonl"
if [ ! -L "$work/export-link.jsonl" ] || [ ! -s "$work/export.jsonl" ]; then
    echo "FAIL  export --output replaced the symbolic link or wrote nothing through it"
    failures=$((failures + 1))
fi
exported="$(wc -l <"$work/export.jsonl" | tr -d ' ')"
"$binary" import "$work/export.jsonl" --format jsonl --manifest Examples/Manifests/reading.yaml \
    --database "$work/copy.sqlite" >"$work/import" 2>&1 || true
grep -q "^imported $exported, refused 0" "$work/import" \
    && echo "ok    export --output through a symbolic link, $exported links, all imported again by import" \
    || { echo "FAIL  export then import: $exported exported; $(head -n 5 "$work/import")"; failures=$((failures + 1)); }
# Run again whole, the same file makes nothing twice and refuses nothing: it exits 0.
"$binary" import "$work/export.jsonl" --format jsonl --manifest Examples/Manifests/reading.yaml \
    --database "$work/copy.sqlite" >"$work/import" 2>&1 \
    && grep -q "^imported 0, already imported $exported, refused 0" "$work/import" \
    && echo "ok    the same file imported again: all $exported already imported, none made twice, exit 0" \
    || { echo "FAIL  import run again: $(head -n 5 "$work/import")"; failures=$((failures + 1)); }
expect 204 "delete it again (a database reused by the next run keeps none)" "${auth[@]}" -X DELETE "$base/api/links/kept"

# A client that connects and goes silent is closed after --idle-timeout (3 s here): one that sends
# nothing, one whose request head stops half-way, one whose body stops; a request answered on a
# kept-alive connection is not cut off, but the connection is once it idles.
log_before=$(wc -c <"$work/server.log")
if python3 - "$port" <<'PY'
import socket, sys, time
port = int(sys.argv[1])
def closed_after(data):
    started = time.monotonic()
    try:
        connection = socket.create_connection(("127.0.0.1", port))
        connection.settimeout(15)
        connection.sendall(data)
        while connection.recv(4096):
            pass
    except ConnectionResetError:
        pass  # closed, by a reset rather than a FIN
    except OSError as error:
        return f"{error!r}"
    return time.monotonic() - started
stalls = {
    "nothing sent": b"",
    "half a head": b"GET /health HTTP/1.1\r\nHost: x\r\n",
    "half a body": b"POST /api/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    "idle after an answer": b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n",
}
failed = False
for what, data in stalls.items():
    seconds = closed_after(data)
    if isinstance(seconds, str):
        failed = True
        print(f"FAIL  {what}: {seconds}")
        continue
    ok = 2.5 <= seconds <= 10
    failed |= not ok
    print(f"{'ok   ' if ok else 'FAIL '} closed after {seconds:.1f} s: {what}")
sys.exit(1 if failed else 0)
PY
then :; else failures=$((failures + 1)); fi
# grep without -q reads to the end, so tail never dies of a closed pipe (pipefail would hide a match).
if tail -c +"$((log_before + 1))" "$work/server.log" | grep "unexpected error" >/dev/null; then
    echo "FAIL  a silent client was logged as the service's error"
    failures=$((failures + 1))
fi

kill -TERM "$server"
status=0
wait "$server" || status=$?
server=""
if [ "$status" != "0" ]; then
    echo "FAIL  the service exited $status on SIGTERM"
    cat "$work/server.log"
    failures=$((failures + 1))
fi
[ "$failures" = "0" ] || { echo "$failures smoke checks failed"; exit 1; }
echo "smoke test passed ($([ -n "${1:-}" ] && echo "${1%%://*}" || echo sqlite)): every request of Server/README.md answered as shown; SIGTERM stopped the service cleanly"
