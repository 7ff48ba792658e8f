// Pipelines benchmark: `npm run pipelines -w bench [-- --duration 20 --engines pglite,postgres]`
// (`npm run bench:pipelines` once the root package.json names it).
//
// For each engine (PGlite in a temporary data folder; PostgreSQL at
// BENCH_DATABASE_URL, or a throw-away cluster started here) it starts the
// real server (src/main.ts, its workers embedded, as ingest-bench does) with
// WEBHOOK_ALLOWED_HOSTS naming a receiver in this process, signs up, creates
// 10 courses, 10 webhook actions and 10 active pipelines (a course's
// completions → its webhook), then:
// - idle: sends one course.completed at a time and times acknowledgement →
//   first webhook attempt at the receiver;
// - under load: autocannon posts the ingestion benchmark's batches (100
//   events: 10 learners start a course, set 6 variables, answer 2 questions
//   and complete it, so 10 webhooks per batch) while the same probes run;
// and prints p50/p95 of that latency, the webhooks delivered per second
// during the load and until the queue is drained, and the load average.
// `--rate n` paces the load at n requests/s; `--separate-worker` runs the
// jobs in `src/worker.ts` (PostgreSQL only). Results: README.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { findPostgresBin, startPostgresCluster } from './lib/postgres-cluster';
import { freePort } from './lib/server-process';

type AutocannonRequest = {
  method: string;
  path: string;
  setupRequest: (request: Record<string, unknown>) => Record<string, unknown>;
};
type AutocannonResult = { '2xx': number; non2xx: number; errors: number; duration: number };
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
  requests: AutocannonRequest[];
  timeout: number;
  overallRate?: number;
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const PIPELINES = 10;
const LEARNERS_PER_BATCH = 10;
const serverDir = fileURLToPath(new URL('../apps/server', import.meta.url));

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '4' },
    probes: { type: 'string', default: '30' },
    rate: { type: 'string', default: '0' },
    'separate-worker': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (args.help) {
  process.stdout.write(
    'usage: npm run pipelines -w bench -- [--engines pglite,postgres] [--duration 20] [--connections 4]\n' +
      '                                    [--probes 30] [--rate 0 (requests/s in all; 0: as fast as answered)]\n' +
      '                                    [--separate-worker (PostgreSQL: jobs in npm run worker)]\n',
  );
  process.exit(0);
}
const positive = (name: string, raw: string) => {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    process.stderr.write(`--${name} must be a positive whole number (got "${raw}")\n`);
    process.exit(2);
  }
  return Number(raw);
};
const durationSeconds = positive('duration', args.duration);
const connections = positive('connections', args.connections);
const idleProbes = positive('probes', args.probes);
/** Ingestion requests per second in all (0: as fast as the server answers, as bench:ingest does). */
const rate = /^\d+$/.test(args.rate) ? Number(args.rate) : positive('rate', args.rate);
const wanted = new Set(args.engines.split(',').map((engine) => engine.trim().toLowerCase()));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? 0;
}

// ---- the webhook receiver ---------------------------------------------------------------------

type Receiver = {
  port: number;
  /** First attempt's arrival per event id (performance.now()). */
  firstAttempt: Map<string, number>;
  attempts: () => number;
  close: () => Promise<void>;
};

async function startReceiver(): Promise<Receiver> {
  const firstAttempt = new Map<string, number>();
  let attempts = 0;
  const server: HttpServer = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      attempts += 1;
      const at = performance.now();
      try {
        const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: string };
        if (id && !firstAttempt.has(id)) firstAttempt.set(id, at);
      } catch {
        // not an event: counted as an attempt all the same
      }
      response.end('ok');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    firstAttempt,
    attempts: () => attempts,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- the server ----------------------------------------------------------------------------------

type Server = { child: ChildProcess; exited: Promise<number | null>; output: () => string };

function startServer(env: Record<string, string>, port: number, entry = 'src/main.ts'): Server {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: 'false',
      WEB_DIST_DIR: '/nonexistent-web-dist',
      SIGNUP_LIMIT_PER_HOUR: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForHealth(server: Server, base: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.output()}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`server did not become healthy:\n${server.output()}`);
}

type Storage = { env: Record<string, string>; cleanup: () => Promise<void> };
type Engine = { name: string; prepare: () => Promise<Storage> };

const engines: Engine[] = [];
if (wanted.has('pglite')) {
  engines.push({
    name: 'PGlite',
    prepare: async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'courselens-pipelines-pglite-'));
      return {
        env: { DATA_DIR: dataDir },
        cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  });
}
if (wanted.has('postgres')) {
  const url = process.env.BENCH_DATABASE_URL;
  const bin = url ? undefined : findPostgresBin();
  if (url) {
    engines.push({
      name: 'PostgreSQL',
      prepare: async () => ({ env: { DATABASE_URL: url }, cleanup: async () => undefined }),
    });
  } else if (bin) {
    engines.push({
      name: 'PostgreSQL',
      prepare: async () => {
        const cluster = await startPostgresCluster(bin);
        process.stdout.write(`  throw-away PostgreSQL ${cluster.version} cluster at ${cluster.url}\n`);
        return { env: { DATABASE_URL: cluster.url }, cleanup: cluster.stop };
      },
    });
  } else {
    process.stdout.write(
      'PostgreSQL skipped: set BENCH_DATABASE_URL, or install PostgreSQL server binaries.\n',
    );
  }
}

// ---- the organization -------------------------------------------------------------------------------

async function post<T>(base: string, path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** An organization with 10 courses, each with an active pipeline from its completions to a webhook. */
async function setUp(base: string, receiverPort: number): Promise<{ key: string; courses: string[] }> {
  const { token } = await post<{ token: string }>(base, '/api/signup', {
    name: 'Bench Pipelines',
    email: `bench-${Date.now()}@example.com`,
    password: 'correct horse battery',
    organizationName: 'Pipelines bench',
  });
  // Ten courses are more than Free allows: Business, through the local billing provider.
  await post(base, '/api/billing/checkout', { plan: 'business', interval: 'month' }, token);
  const { key } = await post<{ key: string }>(
    base,
    '/api/api-keys',
    { name: 'Bench', scope: 'ingest' },
    token,
  );
  const courses: string[] = [];
  for (let i = 0; i < PIPELINES; i += 1) {
    const externalCourseId = `bench-course-${i}`;
    const course = await post<{ id: string }>(
      base,
      '/api/courses',
      { courseTitle: `Bench course ${i}`, externalCourseId },
      token,
    );
    const action = await post<{ id: string }>(
      base,
      '/api/actions',
      { name: `Hook ${i}`, config: { type: 'webhook', url: `http://127.0.0.1:${receiverPort}/hook/${i}` } },
      token,
    );
    await post(
      base,
      '/api/pipelines',
      {
        name: `Completions of course ${i}`,
        active: true,
        nodes: [
          { id: 'done', type: 'course', data: { courseId: course.id, on: 'completion' } },
          { id: 'hook', type: 'action', data: { actionId: action.id } },
        ],
        edges: [{ source: 'done', target: 'hook' }],
      },
      token,
    );
    courses.push(externalCourseId);
  }
  return { key, courses };
}

/** The ingestion benchmark's batch: 10 learners start a course, set 6 variables, answer 2 questions, complete it. */
function makeBatch(courses: readonly string[], tag: string, n: number): unknown[] {
  const events: unknown[] = [];
  for (let l = 0; l < LEARNERS_PER_BATCH; l += 1) {
    const course = courses[(n + l) % courses.length]!;
    const base = {
      course: { externalCourseId: course },
      learner: { email: `learner-${(n * 7 + l) % 5000}@bench.example.com` },
      run: `run-${tag}-${n}-${l}`,
    };
    const id = (k: number) => `load-${tag}-${n}-${l}-${k}`;
    events.push({ ...base, id: id(0), type: 'course.started' });
    for (let k = 1; k <= 6; k += 1) {
      events.push({
        ...base,
        id: id(k),
        type: 'variable.set',
        variable: { name: `score_${k}`, value: (n * k) % 100 },
      });
    }
    for (let k = 7; k <= 8; k += 1) {
      events.push({
        ...base,
        id: id(k),
        type: 'question.answered',
        question: { interactionId: `q${k}`, answer: 'A', correct: k % 2 === 0 },
      });
    }
    events.push({ ...base, id: id(9), type: 'course.completed' });
  }
  return events;
}

/** One completion at a time: acknowledgement → first webhook attempt, in ms. */
async function probe(
  base: string,
  key: string,
  courses: readonly string[],
  receiver: Receiver,
  id: string,
): Promise<number> {
  const response = await fetch(`${base}/api/v1/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({
      events: [
        {
          id,
          type: 'course.completed',
          course: { externalCourseId: courses[0] },
          learner: { email: `${id}@probe.example.com` },
        },
      ],
    }),
  });
  if (!response.ok) throw new Error(`probe answered ${response.status}: ${await response.text()}`);
  const acknowledged = performance.now();
  const deadline = acknowledged + 60_000;
  while (!receiver.firstAttempt.has(id)) {
    if (performance.now() > deadline) throw new Error(`probe ${id} was not delivered within 60 s`);
    await sleep(2);
  }
  return receiver.firstAttempt.get(id)! - acknowledged;
}

type Row = {
  engine: string;
  phase: string;
  probes: number;
  p50: number;
  p95: number;
  max: number;
  webhooks: number;
  seconds: number;
  load: string;
};

async function benchEngine(engine: Engine): Promise<Row[]> {
  process.stdout.write(`\n${engine.name}\n`);
  const storage = await engine.prepare();
  const receiver = await startReceiver();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // On PostgreSQL, --separate-worker runs the jobs in a worker process of their own (npm run worker).
  const isSeparate = args['separate-worker'] && 'DATABASE_URL' in storage.env;
  const env = {
    ...storage.env,
    WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}`,
    ...(isSeparate ? { EMBEDDED_WORKERS: 'false' } : {}),
  };
  const server = startServer(env, port);
  let worker: Server | null = null;
  const rows: Row[] = [];
  try {
    await waitForHealth(server, base);
    if (isSeparate) {
      worker = startServer(env, port, 'src/worker.ts');
      process.stdout.write('  jobs run in a separate worker process (EMBEDDED_WORKERS=false)\n');
    }
    const { key, courses } = await setUp(base, receiver.port);
    process.stdout.write(`  ${PIPELINES} active pipelines, each a course's completions → a webhook\n`);

    const idle: number[] = [];
    for (let i = 0; i < idleProbes; i += 1) {
      idle.push(await probe(base, key, courses, receiver, `idle-${engine.name}-${i}`));
      await sleep(100);
    }
    idle.sort((a, b) => a - b);
    rows.push({
      engine: engine.name,
      phase: 'idle',
      probes: idle.length,
      p50: percentile(idle, 50),
      p95: percentile(idle, 95),
      max: idle.at(-1) ?? 0,
      webhooks: idle.length,
      seconds: 0,
      load: loadavg()
        .map((value) => value.toFixed(2))
        .join(' '),
    });

    process.stdout.write(
      `  load: autocannon, ${connections} connections, ${durationSeconds} s, ${rate > 0 ? `${rate} requests/s` : 'as fast as answered'}, 100 events (10 completions) per request\n`,
    );
    const before = receiver.firstAttempt.size;
    let n = 0;
    let isLoading = true;
    const loaded: number[] = [];
    const prober = (async () => {
      for (let i = 0; isLoading; i += 1) {
        loaded.push(await probe(base, key, courses, receiver, `load-probe-${engine.name}-${i}`));
        await sleep(200);
      }
    })();
    const began = performance.now();
    const result = await autocannon({
      url: base,
      connections,
      duration: durationSeconds,
      timeout: 60,
      ...(rate > 0 ? { overallRate: rate } : {}),
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      requests: [
        {
          method: 'POST',
          path: '/api/v1/events',
          setupRequest: (request) => {
            n += 1;
            return { ...request, body: JSON.stringify({ events: makeBatch(courses, engine.name, n) }) };
          },
        },
      ],
    });
    const loadEnded = performance.now();
    const loadAverage = loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
    const duringLoad = receiver.firstAttempt.size - before;
    isLoading = false;
    await prober;
    // Every acknowledged completion must reach the receiver: wait for the queue to drain
    // (autocannon's count misses the requests still in flight when it stopped, hence "at least").
    const expected = before + result['2xx'] * LEARNERS_PER_BATCH + loaded.length;
    const drainDeadline = performance.now() + 600_000;
    let lastSize = -1;
    let lastGrowth = performance.now();
    let drained = performance.now();
    while (performance.now() < drainDeadline) {
      const size = receiver.firstAttempt.size;
      if (size !== lastSize) {
        lastSize = size;
        lastGrowth = performance.now();
        drained = lastGrowth;
      }
      if (size >= expected && performance.now() - lastGrowth > 3000) break;
      await sleep(100);
    }
    loaded.sort((a, b) => a - b);
    process.stdout.write(
      `  ${result['2xx']} batches acknowledged (${result.non2xx} other, ${result.errors} errors); ` +
        `${receiver.firstAttempt.size - before} of ${expected - before} completions delivered, ` +
        `${receiver.attempts()} webhook requests in all\n`,
    );
    rows.push({
      engine: engine.name,
      phase: 'during load',
      probes: loaded.length,
      p50: percentile(loaded, 50),
      p95: percentile(loaded, 95),
      max: loaded.at(-1) ?? 0,
      webhooks: duringLoad,
      seconds: (loadEnded - began) / 1000,
      load: loadAverage,
    });
    rows.push({
      engine: engine.name,
      phase: 'load until drained',
      probes: 0,
      p50: 0,
      p95: 0,
      max: 0,
      webhooks: receiver.firstAttempt.size - before,
      seconds: (drained - began) / 1000,
      load: loadavg()
        .map((value) => value.toFixed(2))
        .join(' '),
    });
  } finally {
    for (const child of [server, worker]) {
      if (!child) continue;
      child.child.kill('SIGTERM');
      const timer = setTimeout(() => child.child.kill('SIGKILL'), 15_000);
      await child.exited;
      clearTimeout(timer);
    }
    await receiver.close();
    await storage.cleanup();
  }
  return rows;
}

function formatRows(rows: readonly Row[]): string {
  const header = [
    'engine',
    'phase',
    'probes',
    'p50 ms',
    'p95 ms',
    'max ms',
    'webhooks',
    'seconds',
    'webhooks/s',
    'load avg',
  ];
  const lines = rows.map((row) => [
    row.engine,
    row.phase,
    row.probes ? String(row.probes) : '',
    row.probes ? row.p50.toFixed(0) : '',
    row.probes ? row.p95.toFixed(0) : '',
    row.probes ? row.max.toFixed(0) : '',
    row.webhooks.toLocaleString('en-US'),
    row.seconds ? row.seconds.toFixed(1) : '',
    row.seconds ? Math.round(row.webhooks / row.seconds).toLocaleString('en-US') : '',
    row.load,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]?.length ?? 0)),
  );
  const format = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ');
  return [format(header), widths.map((width) => '-'.repeat(width)).join('  '), ...lines.map(format)].join(
    '\n',
  );
}

async function main(): Promise<void> {
  if (engines.length === 0) {
    process.stderr.write('No engine to benchmark (--engines pglite,postgres).\n');
    process.exitCode = 1;
    return;
  }
  const rows: Row[] = [];
  for (const engine of engines) rows.push(...(await benchEngine(engine)));
  process.stdout.write(
    `\nPipelines benchmark: acknowledgement → first webhook attempt, ${PIPELINES} active pipelines (load average 1/5/15 min)\n\n`,
  );
  process.stdout.write(`${formatRows(rows)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:pipelines failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
