#!/usr/bin/env bash
# Runs a command against a throw-away PostgreSQL cluster: initdb in a
# temporary folder, listening on 127.0.0.1 on a free port, exported to the
# command as TEST_DATABASE_URL (and BENCH_DATABASE_URL). The cluster is
# stopped and removed afterwards, also when the command fails.
#   usage: scripts/with-postgres.sh <command> [args...]
set -euo pipefail
cd "$(dirname "$0")/.."

pg_bin=$(bash scripts/ensure-postgres.sh)
tmp=$(mktemp -d /tmp/courselens-pg.XXXXXX)
chmod 755 "$tmp"
run_as=()
if [ "$(id -u)" -eq 0 ]; then
  # PostgreSQL refuses to run as root: use the package's postgres account.
  id postgres >/dev/null 2>&1 || useradd --system --home-dir "$tmp" postgres
  chown postgres "$tmp"
  run_as=(runuser -u postgres --)
fi

port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")

cleanup() {
  "${run_as[@]}" "$pg_bin/pg_ctl" -D "$tmp/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

"${run_as[@]}" "$pg_bin/initdb" -D "$tmp/data" -U courselens --auth=trust -E UTF8 --no-locale >"$tmp/initdb.log" 2>&1 ||
  { cat "$tmp/initdb.log" >&2; exit 1; }
# Durability settings are off: this cluster lives for one test run.
"${run_as[@]}" "$pg_bin/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $tmp -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null || { cat "$tmp/server.log" >&2; exit 1; }

export TEST_DATABASE_URL="postgres://courselens@127.0.0.1:$port/postgres"
export BENCH_DATABASE_URL="$TEST_DATABASE_URL"
echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') listening on 127.0.0.1:$port (throw-away cluster)"
"$@"
