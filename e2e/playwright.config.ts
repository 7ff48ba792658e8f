import { join } from 'node:path';

import { defineConfig, devices } from '@playwright/test';

import { artifactsDir, findFreePort, hasServerBuild, repoRoot } from './support/server-env';

/**
 * End-to-end tests run against the production build: global-setup.ts starts
 * `node apps/server/dist/main.js` on a free port with a fresh DATA_DIR (demo
 * data is seeded on first start) and stops it afterwards. Set E2E_BASE_URL to
 * test a server that is already running instead.
 *
 * Playwright evaluates this file in the runner and again in every worker: the
 * port is chosen once and handed down through the environment so they agree.
 */
const externalBaseUrl = process.env.E2E_BASE_URL;

if (!externalBaseUrl && !hasServerBuild()) {
  console.error('e2e: apps/server/dist/main.js is missing; run `npm run build` first.');
  process.exit(1);
}

process.env.E2E_PORT ??= String(await findFreePort());
// The server started by global-setup.ts inherits this: webhook actions may reach a receiver the
// tests run on this machine (every other loopback or private address stays refused).
process.env.WEBHOOK_ALLOWED_HOSTS ??= '127.0.0.1';
const baseURL = externalBaseUrl ?? `http://127.0.0.1:${process.env.E2E_PORT}`;
const isCI = Boolean(process.env.CI);

export default defineConfig({
  testDir: './tests',
  outputDir: join(repoRoot, 'e2e', 'test-results'),
  fullyParallel: false,
  forbidOnly: isCI,
  // Never retried, in CI either: a test that fails once on a busy machine is
  // a bug to fix (wait on a condition, give the spec data of its own), and a
  // retry would hide it.
  retries: 0,
  workers: isCI ? 1 : 2,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: join(repoRoot, 'e2e', 'playwright-report'), open: 'never' }]],
  globalSetup: externalBaseUrl ? undefined : './global-setup.ts',
  metadata: { artifactsDir },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // The system Chromium (Debian's package, installed by
        // scripts/ensure-chromium.sh); Playwright never downloads a browser.
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          headless: true,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
});
