import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IngestEventsResponse, SignupResponse } from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createDatabase, type DatabaseConnection } from '../../db/client';
import { withDatabase } from '../../test/global-setup';
import { expectRollupsMatchRecount } from '../../test/rollup-recount';

// Durability of the ingestion API: the real server (src/main.ts) runs as a
// child process on a temporary DATA_DIR (or, in the PostgreSQL pass, a fresh
// database), a client ingests with retries while the test kills the server
// with SIGKILL, restarts it on the same data, and at the end every event the
// server acknowledged is stored exactly once, and nothing else is. On
// PostgreSQL the rollups are folded by a separate worker process
// (src/worker.ts; the server runs none), killed with SIGKILL as well while
// it folds: every rollup must still equal a recount of the raw rows.

const serverDir = fileURLToPath(new URL('../../..', import.meta.url));
const adminUrl = inject('postgresAdminUrl');

type RunningServer = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

const running: RunningServer[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
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

function startServer(env: Record<string, string>, entry = 'src/main.ts'): RunningServer {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      WEB_DIST_DIR: '/nonexistent-web-dist',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server = { child, output: () => output, exited };
  running.push(server);
  return server;
}

async function waitForHealth(server: RunningServer, base: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) {
      throw new Error(`server exited with ${server.child.exitCode}:\n${server.output()}`);
    }
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`server did not become healthy:\n${server.output()}`);
}

async function freshStorage(): Promise<{
  env: Record<string, string>;
  open: () => Promise<DatabaseConnection>;
}> {
  if (adminUrl) {
    const name = `courselens_dur_${randomBytes(5).toString('hex')}`;
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
  const dataDir = await mkdtemp(join(tmpdir(), 'courselens-durability-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return { env: { DATA_DIR: dataDir }, open: () => createDatabase({ kind: 'pglite', dataDir }) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(100);
  }
}

const BATCHES = 40;
const EVENTS_PER_BATCH = 25;

describe('ingestion survives SIGKILL', { timeout: 300_000 }, () => {
  it('stores every acknowledged event exactly once across kills and restarts', async () => {
    const storage = await freshStorage();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = { ...storage.env, PORT: String(port) };

    // On PostgreSQL the folding happens in a worker process of its own.
    const withWorker = Boolean(adminUrl);
    if (withWorker) Object.assign(env, { EMBEDDED_WORKERS: 'false' });
    let server = startServer(env);
    await waitForHealth(server, base);
    let worker = withWorker ? startServer(env, 'src/worker.ts') : null;
    const signup = await fetch(`${base}/api/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Durable Dana',
        email: 'dana@example.com',
        password: 'correct horse battery',
        organizationName: 'Durable Org',
      }),
    });
    expect(signup.status).toBe(201);
    const { token, organization } = (await signup.json()) as SignupResponse;
    const created = await fetch(`${base}/api/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Durability', scope: 'ingest' }),
    });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };

    // Each event sets a text variable to its own id, so a stored value names
    // the event that wrote it: effects can be counted per event.
    const batches = Array.from({ length: BATCHES }, (_, b) =>
      Array.from({ length: EVENTS_PER_BATCH }, (_, e) => {
        const id = `dur-${b}-${e}`;
        return {
          id,
          type: 'variable.set',
          course: { externalCourseId: `course-${e % 3}`, title: `Course ${e % 3}` },
          learner: { email: `learner-${(b * 7 + e) % 60}@example.com` },
          run: `run-${b % 5}`,
          variable: { name: 'event_id', value: id },
        };
      }),
    );
    const acknowledged = new Set<string>();
    let attempts = 0;
    let connectionFailures = 0;

    // The client: sends every batch until the server acknowledges it (a 200),
    // retrying on connection errors and 5xx with a short back-off.
    const client = (async () => {
      for (const events of batches) {
        for (;;) {
          attempts += 1;
          try {
            const response = await fetch(`${base}/api/v1/events`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
              body: JSON.stringify({ events }),
              signal: AbortSignal.timeout(20_000),
            });
            if (response.status === 200) {
              const body = (await response.json()) as IngestEventsResponse;
              expect(body.rejected).toEqual([]);
              expect(body.accepted + body.duplicates).toBe(events.length);
              for (const event of events) acknowledged.add(event.id);
              break;
            }
            expect(response.status, await response.text()).toBeGreaterThanOrEqual(500);
          } catch (error) {
            if ((error as { name?: string }).name === 'AssertionError') throw error;
            connectionFailures += 1;
          }
          await sleep(100);
        }
      }
    })();

    // The chaos: kill the server twice while the client is mid-stream, and
    // the worker three times (it folds every 200 ms while facts arrive).
    const total = BATCHES * EVENTS_PER_BATCH;
    for (const [threshold, target] of [
      [total * 0.2, 'worker'],
      [total * 0.25, 'server'],
      [total * 0.45, 'worker'],
      [total * 0.6, 'server'],
      [total * 0.8, 'worker'],
    ] as const) {
      while (acknowledged.size < threshold) await sleep(5);
      if (target === 'worker') {
        if (!worker) continue;
        worker.child.kill('SIGKILL');
        await worker.exited;
        worker = startServer(env, 'src/worker.ts');
        continue;
      }
      server.child.kill('SIGKILL');
      await server.exited;
      server = startServer(env);
      await waitForHealth(server, base);
    }
    await client;
    server.child.kill('SIGKILL');
    await server.exited;

    expect(acknowledged.size).toBe(BATCHES * EVENTS_PER_BATCH);
    expect(connectionFailures).toBeGreaterThan(0);
    expect(attempts).toBeGreaterThan(BATCHES);

    if (worker) {
      // The last worker catches up with what is still queued, then stops.
      const connection = await storage.open();
      try {
        await waitFor(async () => {
          const left = await connection.db.execute<{ n: number }>(
            sql`select count(*)::int as n from rollup_queue`,
          );
          return left.rows[0]?.n === 0;
        });
      } finally {
        await connection.close();
      }
      worker.child.kill('SIGKILL');
      await worker.exited;
    }

    const connection = await storage.open();
    try {
      await expectRollupsMatchRecount(connection.db);
      const stored = await connection.db.execute<{ event_id: string }>(
        sql`select event_id from learning_event_keys where organization_id = ${organization.id}`,
      );
      const storedIds = stored.rows.map((row) => row.event_id);
      expect(new Set(storedIds).size).toBe(storedIds.length);
      // Every acknowledged event is stored, and nothing that was never sent.
      expect(new Set(storedIds)).toEqual(acknowledged);

      const values = await connection.db.execute<{ value: string; n: number }>(
        sql`select value, count(*)::int as n from learner_variable_values
            where organization_id = ${organization.id} group by value`,
      );
      const effects = new Map(values.rows.map((row) => [row.value, row.n]));
      expect([...effects.values()].every((n) => n === 1)).toBe(true);
      expect(new Set(effects.keys())).toEqual(acknowledged);

      const counts = await connection.db.execute<{ courses: number; learners: number; runs: number }>(sql`
        select (select count(*)::int from courses where organization_id = ${organization.id}) as courses,
               (select count(*)::int from learners where organization_id = ${organization.id}) as learners,
               (select count(*)::int from course_runs where organization_id = ${organization.id}) as runs`);
      expect(counts.rows[0]).toMatchObject({ courses: 3, learners: 60 });
      // run-{0..4} per learner and course at most: never duplicated by a retry.
      const runDuplicates = await connection.db.execute<{ n: number }>(sql`
        select count(*)::int as n from (
          select course_id, learner_id, client_run_id from course_runs
          where organization_id = ${organization.id}
          group by 1, 2, 3 having count(*) > 1) d`);
      expect(runDuplicates.rows[0]?.n).toBe(0);
    } finally {
      await connection.close();
    }
  });
});
