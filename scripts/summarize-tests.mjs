// Adds up the JSON reports of the vitest and Playwright runs into one closing
// line, `tests: N passed, N failed, N skipped`, which CI reads. Each failed
// test is named just above it, with the first line of its error, since CI
// keeps only the end of a long log.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const dir = process.argv[2] ?? '.test-results';
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

/** The first line of an error message, without colour codes, kept short. */
function firstLine(message) {
  const line = stripVTControlCharacters(String(message ?? ''))
    .split('\n')
    .map((part) => part.trim())
    .find((part) => part.length > 0);
  return (line ?? '').slice(0, 300);
}

/** Playwright nests suites in suites; a test ends unexpected when its last try failed. */
function collectPlaywrightFailures(suite, file, report) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status !== 'unexpected') continue;
      const last = test.results?.[test.results.length - 1];
      failures.push(
        `${report}: ${spec.file ?? file}:${spec.line} › ${spec.title}\n    ${firstLine(last?.error?.message)}`,
      );
    }
  }
  for (const child of suite.suites ?? []) collectPlaywrightFailures(child, suite.file ?? file, report);
}

for (const name of ['vitest-pglite.json', 'vitest-postgres.json']) {
  const path = join(dir, name);
  if (!existsSync(path)) continue;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`${name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
  for (const file of report.testResults ?? []) {
    const where = relative(process.cwd(), file.name);
    if (file.status === 'failed' && (file.assertionResults ?? []).every((test) => test.status !== 'failed')) {
      failures.push(`${name}: ${where} (the file failed outside its tests)\n    ${firstLine(file.message)}`);
    }
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      failures.push(`${name}: ${where} › ${test.fullName}\n    ${firstLine(test.failureMessages?.[0])}`);
    }
  }
}

for (const name of ['playwright.json', 'playwright-postgres.json']) {
  const path = join(dir, name);
  if (!existsSync(path)) continue;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const { stats } = report;
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  failed += stats.unexpected ?? 0;
  skipped += stats.skipped ?? 0;
  console.log(`${name}: ${stats.expected} passed, ${stats.unexpected} failed, ${stats.flaky} flaky`);
  for (const suite of report.suites ?? []) {
    collectPlaywrightFailures(suite, suite.file, name);
  }
}

if (failures.length > 0) {
  console.log(`\nFailed tests:\n${failures.map((failure) => `- ${failure}`).join('\n')}\n`);
}

console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
