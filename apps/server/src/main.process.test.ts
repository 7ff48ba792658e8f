import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createDatabase, type DatabaseConnection } from './db/client';
import { withDatabase } from './test/global-setup';

// These tests start the real entry point (src/main.ts) as a child process,
// the way `npm start` does, against PGlite in a temporary DATA_DIR or, in the
// PostgreSQL pass, a fresh database on the test server.

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = inject('postgresAdminUrl');

type RunningServer = {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
};

const started: RunningServer[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const server of started.splice(0)) {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function startServer(env: Record<string, string>): RunningServer {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      WEB_DIST_DIR: '/nonexistent-web-dist',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server = { child, port: Number(env.PORT ?? 0), output: () => output, exited };
  started.push(server);
  return server;
}

async function waitForHealth(server: RunningServer, timeoutMs = 100_000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) {
      throw new Error(`server exited with ${server.child.exitCode}:\n${server.output()}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/api/health`);
      if (response.ok) return await response.json();
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not become healthy:\n${server.output()}`);
}

/** A fresh place for the server's data: a DATA_DIR, or a new PostgreSQL database. */
async function freshStorage(): Promise<{
  env: Record<string, string>;
  open: () => Promise<DatabaseConnection>;
}> {
  if (adminUrl) {
    const name = `courselens_proc_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = withDatabase(adminUrl, name);
    cleanups.push(async () => {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    });
    return { env: { DATABASE_URL: url }, open: () => createDatabase({ kind: 'postgres', url }) };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'courselens-data-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return { env: { DATA_DIR: dataDir }, open: () => createDatabase({ kind: 'pglite', dataDir }) };
}

async function countOrganizations(open: () => Promise<DatabaseConnection>): Promise<number> {
  const connection = await open();
  try {
    const result = await connection.db.execute<{ count: number }>(
      sql`select count(*)::int as count from organizations`,
    );
    return result.rows[0]?.count ?? -1;
  } finally {
    await connection.close();
  }
}

// Child processes compile TypeScript and open a database at start: on a busy
// 2-core CI machine that can take tens of seconds, far beyond unit-test time.
describe('npm start (src/main.ts)', { timeout: 240_000 }, () => {
  it('exits non-zero with one line naming PORT when PORT=abc', async () => {
    const server = startServer({ PORT: 'abc', DATA_DIR: join(tmpdir(), 'unused-courselens') });
    const code = await server.exited;
    expect(code).not.toBe(0);
    expect(server.output().trim()).toBe(
      'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "abc")',
    );
  });

  it('seeds the demo once, keeps the data across restarts and shuts down gracefully', async () => {
    const storage = await freshStorage();
    const port = await freePort();

    const first = startServer({ ...storage.env, PORT: String(port) });
    expect(await waitForHealth(first)).toEqual({
      status: 'ok',
      database: adminUrl ? 'postgres' : 'pglite',
      version: expect.any(String),
    });
    expect(first.output()).toContain('seeded the demo organization');
    expect(first.output()).toContain('Demo login: demo@courselens.dev / courselens-demo');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('shutdown complete');

    const second = startServer({ ...storage.env, PORT: String(port) });
    await waitForHealth(second);
    expect(second.output()).not.toContain('seeded the demo organization');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    expect(await countOrganizations(storage.open)).toBe(1);
  });

  it.skipIf(Boolean(adminUrl))('refuses to open a DATA_DIR another process is using', async () => {
    const storage = await freshStorage();
    const first = startServer({ ...storage.env, PORT: String(await freePort()) });
    await waitForHealth(first);
    const second = startServer({ ...storage.env, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('is in use by another CourseLens process');
    // The first server is unharmed.
    await waitForHealth(first);
  });

  it.skipIf(!adminUrl)('migrates and seeds once when two servers start together', async () => {
    const storage = await freshStorage();
    const servers = [
      startServer({ ...storage.env, PORT: String(await freePort()) }),
      startServer({ ...storage.env, PORT: String(await freePort()) }),
    ];
    await Promise.all(servers.map((server) => waitForHealth(server)));
    const seeded = servers.filter((server) => server.output().includes('seeded the demo organization'));
    expect(seeded).toHaveLength(1);
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
    expect(await countOrganizations(storage.open)).toBe(1);
  });
});
