#!/usr/bin/env bash
# The README's test command (npm test): every check CI runs, in order.
# Static checks, then unit and server integration tests on PGlite, the server
# suite again on a throw-away PostgreSQL server, then Chromium end-to-end tests
# against the production build (on PGlite, and the report specs again on
# PostgreSQL). Every stage runs even when an earlier one
# failed, so one run shows every problem; the exit code is non-zero if any did.
set -uo pipefail
cd "$(dirname "$0")/.."

results=.test-results
rm -rf "$results" && mkdir -p "$results"
failed=()

stage() {
  local name=$1
  shift
  printf '\n==> %s\n' "$name"
  if ! "$@"; then
    failed+=("$name")
    printf '!!! %s failed\n' "$name"
  fi
}

stage "system packages (chromium, postgresql)" bash -c 'bash scripts/ensure-chromium.sh && bash scripts/ensure-postgres.sh >/dev/null'
if [ ${#failed[@]} -gt 0 ]; then
  echo "Cannot run the tests without the system packages above." >&2
  exit 1
fi
stage "format (prettier)" npx prettier --check --log-level warn .
stage "lint (eslint)" npx eslint . --max-warnings=0
stage "typecheck (tsc)" bash scripts/typecheck.sh
stage "migrations match the schema" bash scripts/check-migrations.sh
stage "build" npm run build --silent
stage "unit and server tests (PGlite)" \
  npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest-pglite.json"
stage "server tests (PostgreSQL)" bash scripts/with-postgres.sh \
  npx vitest run --project server --reporter=default --reporter=json --outputFile.json="$results/vitest-postgres.json"
stage "end-to-end tests (Chromium)" env PLAYWRIGHT_JSON_OUTPUT_FILE="$PWD/$results/playwright.json" \
  npx playwright test -c e2e/playwright.config.ts --reporter=list,json
# The report screens aggregate the most SQL: their specs run again with the
# server on a throw-away PostgreSQL database.
stage "end-to-end report tests (Chromium, PostgreSQL)" bash scripts/with-postgres.sh bash -c \
  'E2E_DATABASE_URL="$TEST_DATABASE_URL" PLAYWRIGHT_JSON_OUTPUT_FILE="$0" npx playwright test \
     -c e2e/playwright.config.ts --reporter=list,json \
     e2e/tests/variable-reports.spec.ts e2e/tests/question-reports.spec.ts e2e/tests/shared-views.spec.ts \
     e2e/tests/custom-reports.spec.ts e2e/tests/ai-summaries.spec.ts' "$PWD/$results/playwright-postgres.json"

echo
node scripts/summarize-tests.mjs "$results"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'Failed stage: %s\n' "${failed[@]}"
  exit 1
fi
echo "All stages passed."
