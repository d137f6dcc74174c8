#!/usr/bin/env bash
# Starts a PostgreSQL server of the tests' own on 127.0.0.1 (a private cluster in a temporary
# folder, port 54329 unless WAYPOINT_PG_PORT says otherwise), installing PostgreSQL from Debian
# when it is missing, and prints the URL the tests take as WAYPOINT_LINKS_POSTGRES_URL.
# `stop-postgres` as the first argument stops it again.
set -euo pipefail
port="${WAYPOINT_PG_PORT:-54329}"
data="${WAYPOINT_PG_DATA:-/tmp/waypoint-links-pg-$port}"

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
# initdb and the server refuse to run as root: they run as the package's postgres user.
as_postgres() { su postgres -s /bin/bash -c "$*"; }

if [ "${1:-}" = "stop-postgres" ]; then
    as_postgres "$bin/pg_ctl -D '$data' -m fast stop" >/dev/null 2>&1 || true
    exit 0
fi

if ! as_postgres "$bin/pg_ctl -D '$data' status" >/dev/null 2>&1; then
    rm -rf "$data"
    mkdir -p "$data"
    chown postgres "$data"
    password_file="$data.password"
    echo postgres >"$password_file"
    chown postgres "$password_file"
    as_postgres "$bin/initdb -D '$data' -U postgres --pwfile='$password_file' --auth-local=trust --auth-host=scram-sha-256" \
        >/dev/null
    rm -f "$password_file"
    as_postgres "$bin/pg_ctl -D '$data' -l '$data/server.log' -w -o \"-p $port -k '$data' -c listen_addresses=127.0.0.1 -c fsync=on\" start" \
        >/dev/null
    as_postgres "$bin/psql -h '$data' -p $port -U postgres -q -c \"CREATE ROLE waypoint LOGIN PASSWORD 'waypoint' CREATEDB\"" >/dev/null
    as_postgres "$bin/psql -h '$data' -p $port -U postgres -q -c \"CREATE DATABASE waypoint_links OWNER waypoint\"" >/dev/null
fi
echo "postgres://waypoint:waypoint@127.0.0.1:$port/waypoint_links"
