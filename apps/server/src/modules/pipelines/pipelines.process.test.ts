import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CourseBody, CreatedAction, SignupResponse } from '@courselens/contracts';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { withDatabase } from '../../test/global-setup';
import { verifyWebhook } from '../actions/webhook-signature';

// Runs survive a crash: the real server (src/main.ts) as a child process
// on a temporary DATA_DIR (or, in the PostgreSQL pass, a fresh database)
// acknowledges a batch of course completions and is killed with SIGKILL at
// once, before it can deliver them; restarted on the same data, it delivers
// each completion to the webhook receiver exactly once.

const serverDir = fileURLToPath(new URL('../../..', import.meta.url));
const adminUrl = inject('postgresAdminUrl');

type RunningServer = { child: ChildProcess; output: () => string; exited: Promise<number | null> };
type Received = { headers: IncomingMessage['headers']; body: string };

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

function startServer(env: Record<string, string>): RunningServer {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

async function freshStorage(): Promise<Record<string, string>> {
  if (adminUrl) {
    const name = `courselens_pipes_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    cleanups.push(async () => {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    });
    return { DATABASE_URL: withDatabase(adminUrl, name) };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'courselens-pipelines-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return { DATA_DIR: dataDir };
}

async function startReceiver(): Promise<{ server: Server; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { server, port: (server.address() as AddressInfo).port, received };
}

const EVENTS = 5;

describe('pipeline runs survive SIGKILL', { timeout: 420_000 }, () => {
  it('delivers each acknowledged completion exactly once after a kill between acknowledgement and delivery', async () => {
    const receiver = await startReceiver();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      ...(await freshStorage()),
      PORT: String(port),
      AUTH_SECRET: 'pipelines-process-test-secret-of-32-characters',
      WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
    };
    let server = startServer(env);
    await waitForHealth(server, base);

    const call = async <T>(path: string, body: unknown, token?: string): Promise<T> => {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
      return (await response.json()) as T;
    };
    const { token } = await call<SignupResponse>('/api/signup', {
      name: 'Kill Kim',
      email: 'kim@example.com',
      password: 'correct horse battery',
      organizationName: 'Crash Org',
    });
    const { key } = await call<{ key: string }>('/api/api-keys', { name: 'LMS', scope: 'ingest' }, token);
    const course = await call<CourseBody>(
      '/api/courses',
      { courseTitle: 'Fire safety', externalCourseId: 'fire-1' },
      token,
    );
    const action = await call<CreatedAction>(
      '/api/actions',
      { name: 'LMS', config: { type: 'webhook', url: `http://127.0.0.1:${receiver.port}/hook` } },
      token,
    );
    await call(
      '/api/pipelines',
      {
        name: 'Completions',
        active: true,
        nodes: [
          { id: 'done', type: 'course', data: { courseId: course.id, on: 'completion' } },
          { id: 'hook', type: 'action', data: { actionId: action.id } },
        ],
        edges: [{ source: 'done', target: 'hook' }],
      },
      token,
    );

    const events = Array.from({ length: EVENTS }, (_, i) => ({
      id: `kill-${i}`,
      type: 'course.completed',
      course: { externalCourseId: 'fire-1', title: 'Fire safety' },
      learner: { email: `learner-${i}@example.com` },
    }));
    const acknowledged = await fetch(`${base}/api/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ events }),
    });
    // Killed the moment the events are acknowledged: before the runs could deliver them.
    server.child.kill('SIGKILL');
    expect(acknowledged.status).toBe(200);
    expect(await acknowledged.json()).toMatchObject({ accepted: EVENTS });
    await server.exited;
    const beforeRestart = receiver.received.length;

    server = startServer(env);
    await waitForHealth(server, base);
    const deadline = Date.now() + 300_000;
    while (receiver.received.length < EVENTS && Date.now() < deadline) await sleep(250);
    // Nothing more comes once every event is delivered.
    await sleep(3000);

    const ids = receiver.received.map((entry) => (JSON.parse(entry.body) as { id: string }).id);
    expect(ids.sort()).toEqual(events.map((event) => event.id).sort());
    for (const entry of receiver.received) {
      expect(verifyWebhook({ secret: action.secret!, headers: entry.headers, body: entry.body })).toBe(true);
    }
    expect(beforeRestart).toBeLessThanOrEqual(EVENTS);
  });
});
