// Adds up the JSON reports of the vitest and Playwright runs into one closing
// line, `tests: N passed, N failed, N skipped`, which CI reads.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? '.test-results';
let passed = 0;
let failed = 0;
let skipped = 0;

for (const name of ['vitest-pglite.json', 'vitest-postgres.json']) {
  const path = join(dir, name);
  if (!existsSync(path)) continue;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`${name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}

for (const name of ['playwright.json', 'playwright-postgres.json']) {
  const path = join(dir, name);
  if (!existsSync(path)) continue;
  const { stats } = JSON.parse(readFileSync(path, 'utf8'));
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  failed += stats.unexpected ?? 0;
  skipped += stats.skipped ?? 0;
  console.log(`${name}: ${stats.expected} passed, ${stats.unexpected} failed, ${stats.flaky} flaky`);
}

console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
