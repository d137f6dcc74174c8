# Sourced by the service's scripts: builds waypoint-links and starts it on loopback for them.
# Sets root (and cds there), binary, work (a temporary folder, removed on exit) and server (the
# running service's pid, killed on exit); `start_service PORT DATABASE [OPTIONS…]` starts it on the
# example manifest and waits for /health.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
swift build --package-path Server --product waypoint-links 2>&1 | tail -n 1
binary="$(swift build --package-path Server --show-bin-path)/waypoint-links"
work="$(mktemp -d)"
server=""
cleanup() {
    [ -n "$server" ] && kill -9 "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

start_service() {
    local port="$1" database="$2"
    shift 2
    "$binary" serve --manifest Examples/Manifests/reading.yaml --port "$port" --database "$database" "$@" \
        >>"$work/server.log" 2>&1 &
    server=$!
    for _ in $(seq 1 100); do
        curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "the service did not start"
    cat "$work/server.log"
    exit 1
}
