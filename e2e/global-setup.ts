import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { FullConfig } from '@playwright/test';

import { repoRoot, serverEntry } from './support/server-env';

const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 10_000;

/**
 * Starts the production server for the whole run, the way a deployment runs
 * it: `node apps/server/dist/main.js` with NODE_ENV=production, on the port the
 * config chose, with a fresh data folder that is removed afterwards (or on
 * the PostgreSQL database of E2E_DATABASE_URL).
 * Returns the teardown that stops it.
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const baseURL = config.projects[0]?.use.baseURL;
  const port = process.env.E2E_PORT;
  if (!baseURL || !port) throw new Error('e2e: playwright.config.ts did not choose a port');

  const dataDir = mkdtempSync(join(tmpdir(), 'courselens-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    // Every test signs people up from 127.0.0.1; the limit itself is tested on the server.
    SIGNUP_LIMIT_PER_HOUR: '0',
  };
  // The end-to-end run uses the embedded engine in its own data folder, even
  // when the caller's shell points DATABASE_URL at a PostgreSQL server, unless
  // E2E_DATABASE_URL names an empty PostgreSQL database for the run (the test
  // command's PostgreSQL pass of the report specs).
  delete env.DATABASE_URL;
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  const server = spawn(process.execPath, [serverEntry], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  const output: string[] = [];
  const capture = (chunk: Buffer) => {
    const text = chunk.toString();
    output.push(text);
    if (output.length > 200) output.shift();
    if (process.env.E2E_SERVER_LOGS) process.stderr.write(`[server] ${text}`);
  };
  server.stdout?.on('data', capture);
  server.stderr?.on('data', capture);

  // If the runner dies without teardown, do not leave the server behind.
  const killOnExit = () => server.kill('SIGKILL');
  process.once('exit', killOnExit);

  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });

  try {
    await waitForHealthy(`${baseURL}/api/health`, server, output);
  } catch (error) {
    await stopServer(server);
    removeDataDir();
    throw error;
  }

  return async () => {
    process.off('exit', killOnExit);
    await stopServer(server);
    removeDataDir();
  };
}

async function waitForHealthy(url: string, server: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      const how = server.exitCode !== null ? `code ${server.exitCode}` : `signal ${server.signalCode}`;
      throw new Error(`e2e: the server exited (${how}) before answering ${url}:\n${output.join('')}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `e2e: the server did not answer ${url} within ${START_TIMEOUT_MS / 1000}s:\n${output.join('')}`,
  );
}

/** SIGTERM for a graceful shutdown (it closes the database), SIGKILL if it hangs. */
async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
