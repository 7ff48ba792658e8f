#!/usr/bin/env bash
# Type-checks every workspace against its own tsconfig (each has noEmit).
set -euo pipefail
cd "$(dirname "$0")/.."
for project in . packages/contracts packages/tracker apps/server apps/web e2e bench; do
  echo "typecheck: $project"
  npx tsc --noEmit -p "$project"
done
