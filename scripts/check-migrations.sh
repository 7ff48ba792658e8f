#!/usr/bin/env bash
# Fails when the Drizzle schema and the committed migrations disagree: runs
# drizzle-kit generate and checks that it wants to write nothing. Whatever it
# wrote is removed again, so the check never changes the work tree.
set -euo pipefail
cd "$(dirname "$0")/../apps/server"

snapshot() { find drizzle -type f -print0 | sort -z | xargs -0 sha256sum; }
before=$(snapshot)
backup=$(mktemp -d)
cp -a drizzle "$backup/"
npx drizzle-kit generate --name schema_drift_check >/dev/null
after=$(snapshot)
rm -rf drizzle && cp -a "$backup/drizzle" drizzle && rm -rf "$backup"
if [ "$before" != "$after" ]; then
  echo "The Drizzle schema and the committed migrations disagree: run 'npm run db:generate' and commit apps/server/drizzle." >&2
  exit 1
fi
echo "migrations: schema and committed migrations agree"
