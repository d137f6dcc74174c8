#!/usr/bin/env bash
# Does an export stream? Puts 100,000 links in a database (a fresh SQLite file, or the database named
# by the first argument, such as a postgres:// URL; written with SQL for speed), starts the service,
# and follows its resident memory (VmRSS) while `GET /api/links/export` streams every link, as JSON
# lines and as CSV. Fails when the export lacks links or the service grows by more than
# EXPORT_MEMORY_LIMIT_MB (8).
set -euo pipefail
source "$(dirname "$0")/service.sh"
port="${WAYPOINT_LINKS_PORT:-18084}"
count="${EXPORT_LINKS:-100000}"
limit_mb="${EXPORT_MEMORY_LIMIT_MB:-8}"
database="${1:-$work/links.sqlite}"
token="$("$binary" token create --name "export-$$-$RANDOM" --database "$database")"

# Rows as the service writes them (Migration.swift), under codes of their own, so a reused database
# keeps its other links.
prefix="mem$$"
now="$(date +%s)"
if [[ "$database" == postgres* ]]; then
    psql "$database" -q -v ON_ERROR_STOP=1 -c "DELETE FROM links WHERE code LIKE 'mem%';
        INSERT INTO links (code, deep_link, route, web_url, created_at, updated_at, domain)
        SELECT '$prefix-' || lpad(n::text, 6, '0'), 'readapp://books/' || n, 'book',
               'https://read.example.com/b/' || n, $now, $now, 'links.read.example.com'
        FROM generate_series(1, $count) AS n"
else
    python3 - "$database" "$prefix" "$count" "$now" <<'PYTHON'
import sqlite3, sys
path, prefix, count, now = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
db = sqlite3.connect(path)
db.executemany(
    "INSERT INTO links (code, deep_link, route, web_url, created_at, updated_at, domain) VALUES (?, ?, 'book', ?, ?, ?, 'links.read.example.com')",
    ((f"{prefix}-{n:06d}", f"readapp://books/{n}", f"https://read.example.com/b/{n}", now, now) for n in range(1, count + 1)),
)
db.commit()
PYTHON
fi

start_service "$port" "$database"
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$server/status"; }
status=0
for format in jsonl csv; do
    # One small export first, so what is made once (the encoder, the page buffers) is counted before.
    curl -s -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/links?limit=1"
    before="$(rss)"
    peak="$before"
    curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/links/export?format=$format" \
        -o "$work/export.$format" &
    fetch=$!
    while kill -0 "$fetch" 2>/dev/null; do
        now_kb="$(rss)"
        [ "$now_kb" -gt "$peak" ] && peak="$now_kb"
        sleep 0.05
    done
    wait "$fetch"
    exported="$(grep -c "^$prefix-\|\"code\":\"$prefix-" "$work/export.$format" || true)"
    growth_kb=$((peak - before))
    echo "export $format: $exported of $count links, $(wc -c <"$work/export.$format") bytes; service memory $((before / 1024)) MB before, peak $((peak / 1024)) MB (grew $((growth_kb / 1024)) MB)"
    [ "$exported" = "$count" ] || { echo "FAIL  the export lacks links"; status=1; }
    [ "$growth_kb" -le $((limit_mb * 1024)) ] || { echo "FAIL  the service grew by more than $limit_mb MB"; status=1; }
done
if [[ "$database" == postgres* ]]; then psql "$database" -q -c "DELETE FROM links WHERE code LIKE 'mem%'"; fi
kill -TERM "$server"
wait "$server" || true
server=""
[ "$status" = "0" ] && echo "export streamed $count links in constant memory ($([[ "$database" == postgres* ]] && echo postgres || echo sqlite))"
exit "$status"
