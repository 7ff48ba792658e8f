// Mixed load benchmark: `npm run bench:load [-- --duration 30 --connections 20]` from the
// repository root, after `npm run build`.
//
// For each engine (PGlite in a temporary DATA_DIR; PostgreSQL at
// BENCH_DATABASE_URL, or a throw-away cluster started here) it starts the
// built server (`apps/server/dist/main.js`, which migrates and seeds the demo
// organization on its first start), signs in as the demo owner, creates an
// ingest API key and a custom report, times each route alone, then lets
// autocannon keep N connections busy for a fixed time on loopback with a
// mixed workload: dashboard, list and report reads (bearer session and
// X-Organization-Id) and POST /api/v1/events batches of 20 to 100 events. It
// prints p50/p90/p99/max latency per kind of request and per route,
// non-2xx answers, requests left unanswered (timeouts), requests/s, events
// accepted, and the server process's memory (VmRSS / VmHWM from /proc). See
// README.md.
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEMO_OWNER } from '../apps/server/src/db/seed/seed';
import { formatTable, pendingCleanups, percentile, positiveInteger } from './lib/api-bench';
import { findPostgresBin, startPostgresCluster } from './lib/postgres-cluster';
import { readProcessMemory, startBuiltServer, type ServerProcess } from './lib/server-process';

// autocannon ships no types: the little of its API used here.
type AutocannonRequest = {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
};
type AutocannonResult = {
  requests: { total: number; average: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
};
type AutocannonInstance = Promise<AutocannonResult> & {
  on: (
    event: 'response',
    listener: (client: unknown, status: number, bytes: number, ms: number) => void,
  ) => void;
};
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  requests: (AutocannonRequest & {
    setupRequest: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
    onResponse: (status: number, body: string, context: Record<string, unknown>) => void;
  })[];
}) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const { values: args } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '20' },
    'ingest-percent': { type: 'string', default: '15' },
    'min-events': { type: 'string', default: '20' },
    'max-events': { type: 'string', default: '100' },
    timeout: { type: 'string', default: '10' },
    alone: { type: 'string', default: '5' },
    only: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

if (args.help) {
  process.stdout.write(
    'usage: npm run bench:load -- [--engines pglite,postgres] [--duration 30] [--connections 20]\n' +
      '                            [--ingest-percent 15] [--min-events 20] [--max-events 100]\n' +
      '                            [--timeout 10] [--alone 5] [--only dashboard,list,report,ingest]\n',
  );
  process.exit(0);
}

/** A whole number within bounds, so a run stays bounded in time and size. */
function bounded(name: string, raw: string, min: number, max: number): number {
  const value = positiveInteger(name, raw, min);
  if (value > max) {
    process.stderr.write(`--${name} must be at most ${max} (got ${value})\n`);
    process.exit(2);
  }
  return value;
}

const durationSeconds = bounded('duration', args.duration, 1, 600);
const connections = bounded('connections', args.connections, 1, 200);
const ingestPercent = bounded('ingest-percent', args['ingest-percent'], 0, 100);
const minEvents = bounded('min-events', args['min-events'], 1, 1000);
const maxEvents = bounded('max-events', args['max-events'], minEvents, 1000);
const timeoutSeconds = bounded('timeout', args.timeout, 1, 120);
const aloneRequests = bounded('alone', args.alone, 0, 100);
const KINDS = ['dashboard', 'list', 'report', 'ingest'] as const;
const only = new Set(
  (args.only ?? KINDS.join(','))
    .split(',')
    .map((kind) => kind.trim())
    .filter(Boolean),
);
for (const kind of only) {
  if (!(KINDS as readonly string[]).includes(kind)) {
    process.stderr.write(`--only takes kinds among ${KINDS.join(', ')} (got "${kind}")\n`);
    process.exit(2);
  }
}
const wanted = new Set(args.engines.split(',').map((engine) => engine.trim().toLowerCase()));

type Storage = { env: Record<string, string>; cleanup: () => Promise<void> };
type Engine = { name: string; key: string; prepare: () => Promise<Storage> };

function engines(): Engine[] {
  const list: Engine[] = [];
  if (wanted.has('pglite')) {
    list.push({
      name: 'PGlite',
      key: 'pglite',
      prepare: async () => {
        const dataDir = mkdtempSync(join(tmpdir(), 'courselens-load-pglite-'));
        process.stdout.write(`  data folder ${dataDir}\n`);
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
      list.push({
        name: 'PostgreSQL',
        key: 'postgres',
        prepare: async () => ({ env: { DATABASE_URL: url }, cleanup: async () => undefined }),
      });
    } else if (bin) {
      list.push({
        name: 'PostgreSQL',
        key: 'postgres',
        prepare: async () => {
          const cluster = await startPostgresCluster(bin);
          process.stdout.write(`  throw-away PostgreSQL ${cluster.version} cluster at ${cluster.url}\n`);
          return { env: { DATABASE_URL: cluster.url }, cleanup: cluster.stop };
        },
      });
    } else {
      process.stdout.write(
        'PostgreSQL skipped: set BENCH_DATABASE_URL, or install PostgreSQL server binaries (apt-get install postgresql).\n',
      );
    }
  }
  return list;
}

type Kind = (typeof KINDS)[number];
/** One kind of request of the mix; `weight` is its share of the requests, in percent. */
type Target = {
  kind: Kind;
  route: string;
  weight: number;
  method: 'GET' | 'POST';
  path: string;
  body?: () => string;
};

type Catalog = {
  emails: string[];
  courses: {
    externalId: string;
    variables: { name: string; dataType: string }[];
    questions: {
      interactionId: string;
      slideNumber: number | null;
      questionNumber: number | null;
      text: string | null;
      correctAnswer: string | null;
    }[];
  }[];
};

/** A JSON API call as the demo owner; throws on anything but the expected status. */
async function call<T>(
  base: string,
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
  expected = 200,
): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/**
 * Signs in as the demo owner, creates an ingest key and a custom report of
 * the demo data, reads the catalog the events talk about, and returns the
 * workload's targets.
 */
async function prepareWorkload(base: string, engineKey: string) {
  const session = await call<{ token: string }>(base, {}, 'POST', '/api/session', {
    email: DEMO_OWNER.email,
    password: DEMO_OWNER.password,
  });
  const bearer = { authorization: `Bearer ${session.token}` };
  const me = await call<{ organizations: { id: string; name: string; isPrimary: boolean }[] }>(
    base,
    bearer,
    'GET',
    '/api/me',
  );
  const organization = me.organizations.find((org) => org.isPrimary) ?? me.organizations[0];
  if (!organization) throw new Error('the demo owner has no organization');
  const headers = { ...bearer, 'x-organization-id': organization.id };
  const { key } = await call<{ key: string }>(
    base,
    headers,
    'POST',
    '/api/api-keys',
    { name: `Load bench ${engineKey}`, scope: 'ingest' },
    201,
  );

  const courses = await call<{ items: { id: string; externalCourseId: string | null }[] }>(
    base,
    headers,
    'GET',
    '/api/courses?pageSize=100',
  );
  const variables = await call<{
    items: { id: string; name: string; dataType: string; courseId: string }[];
  }>(base, headers, 'GET', '/api/variables?pageSize=100');
  const questions = await call<{
    items: {
      id: string;
      courseId: string;
      interactionId: string;
      slideNumber: number | null;
      questionNumber: number | null;
      questionText: string | null;
      correctAnswer: string | null;
      totalResponses: number;
    }[];
  }>(base, headers, 'GET', '/api/questions?pageSize=100&sort=totalResponses&order=desc');
  const learners = await call<{ items: { email: string }[] }>(
    base,
    headers,
    'GET',
    '/api/learners?pageSize=100',
  );
  const catalog: Catalog = {
    emails: learners.items.map((learner) => learner.email),
    courses: courses.items
      .filter((course) => course.externalCourseId)
      .map((course) => ({
        externalId: course.externalCourseId!,
        variables: variables.items
          .filter((variable) => variable.courseId === course.id)
          .map((variable) => ({ name: variable.name, dataType: variable.dataType })),
        questions: questions.items
          .filter((question) => question.courseId === course.id)
          .map((question) => ({
            interactionId: question.interactionId,
            slideNumber: question.slideNumber,
            questionNumber: question.questionNumber,
            text: question.questionText,
            correctAnswer: question.correctAnswer,
          })),
      }))
      .filter((course) => course.variables.length > 0 && course.questions.length > 0),
  };
  if (catalog.courses.length === 0 || catalog.emails.length === 0) {
    throw new Error('the demo organization has no courses with variables and questions, or no learners');
  }

  // The busiest number variable and question, and a custom report of both.
  const numberVariable =
    variables.items.find((variable) => variable.name === 'final_score') ??
    variables.items.find((variable) => variable.dataType === 'number');
  const question = questions.items[0];
  if (!numberVariable || !question) throw new Error('the demo data has no number variable or question');
  const report = await call<{ id: string }>(
    base,
    headers,
    'POST',
    '/api/custom-reports',
    {
      name: `Load bench ${engineKey}`,
      reportType: 'table',
      items: [
        { kind: 'variable', variableId: numberVariable.id, comparisonType: 'by_course' },
        { kind: 'question', questionId: question.id, comparisonType: 'by_course' },
      ],
    },
    201,
  );

  const name = encodeURIComponent(numberVariable.name);
  const course = courses.items[0]!;
  const reads: Omit<Target, 'weight'>[] = [];
  const targets: Target[] = [];
  const read = (kind: Kind, weight: number, route: string, path: string) => {
    targets.push({ kind, route, weight, method: 'GET', path });
    reads.push({ kind, route, method: 'GET', path });
  };
  // Reads share 100 - ingest percent, in these proportions (out of 85).
  read('dashboard', 10, 'dashboard, 30 days', '/api/dashboard?days=30');
  read('dashboard', 5, 'dashboard, 7 days', '/api/dashboard?days=7');
  read('dashboard', 3, 'dashboard, 90 days', '/api/dashboard?days=90');
  read('list', 7, 'courses', '/api/courses');
  read('list', 4, 'course learners', `/api/courses/${course.id}/learners`);
  read('list', 7, 'learners', '/api/learners');
  read('list', 4, 'learners, search', '/api/learners?q=an');
  read('list', 6, 'variables', '/api/variables');
  read('list', 6, 'questions', '/api/questions');
  read('list', 6, 'activity', '/api/activity');
  read('report', 5, 'variable report', `/api/variable-reports/report?name=${name}`);
  read('report', 4, 'variable chart', `/api/variable-reports/chart?name=${name}`);
  read('report', 4, 'variable leaders', `/api/variable-reports/leaders?name=${name}`);
  read('report', 4, 'question report', `/api/questions/${question.id}/report`);
  read('report', 3, 'question chart', `/api/questions/${question.id}/chart`);
  read('report', 3, 'custom report data', `/api/custom-reports/${report.id}/data`);
  const readWeight = targets.reduce((sum, target) => sum + target.weight, 0);
  for (const target of targets) target.weight = (target.weight / readWeight) * (100 - ingestPercent);

  let batch = 0;
  targets.push({
    kind: 'ingest',
    route: `POST /api/v1/events (${minEvents}-${maxEvents} events)`,
    weight: ingestPercent,
    method: 'POST',
    path: '/api/v1/events',
    body: () => {
      batch += 1;
      return JSON.stringify({ events: makeBatch(catalog, engineKey, batch) });
    },
  });
  const isWanted = (target: { kind: Kind }) => only.has(target.kind);
  if (!targets.some((target) => target.weight > 0 && isWanted(target))) {
    throw new Error('nothing to send: check --only and --ingest-percent');
  }
  return {
    headers,
    key,
    targets: targets.filter((target) => target.weight > 0 && isWanted(target)),
    reads: reads.filter(isWanted),
  };
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

function sampleValue(dataType: string): string | number | boolean {
  switch (dataType) {
    case 'number':
      return Math.round(Math.random() * 1000) / 10;
    case 'boolean':
      return Math.random() < 0.7;
    case 'date':
      return new Date(Date.now() - Math.floor(Math.random() * 30 * 86_400_000)).toISOString();
    default:
      return pick(['Operations', 'Sales', 'Engineering', 'Finance', 'A short free-text answer']);
  }
}

/**
 * Batch n: runs of one course each (a start, up to 6 variables, 2 answers and
 * a completion), by the demo's learners and now and then a new one, cut to a
 * size between --min-events and --max-events. Timestamps fall in the last hour.
 */
function makeBatch(catalog: Catalog, engineKey: string, n: number): unknown[] {
  const size = minEvents + Math.floor(Math.random() * (maxEvents - minEvents + 1));
  const events: unknown[] = [];
  const now = Date.now();
  for (let l = 0; events.length < size; l += 1) {
    const course = pick(catalog.courses);
    const email = Math.random() < 0.2 ? `load-${engineKey}-${n}-${l}@example.com` : pick(catalog.emails);
    const base = {
      course: { externalCourseId: course.externalId },
      learner: { email },
      run: `load-r-${n}-${l}`,
    };
    const startedAt = now - 3_600_000 + Math.floor(Math.random() * 3_000_000);
    let k = 0;
    const next = (fields: Record<string, unknown>) => {
      events.push({
        ...base,
        id: `load-${engineKey}-${n}-${l}-${k}`,
        timestamp: new Date(startedAt + k * 30_000).toISOString(),
        ...fields,
      });
      k += 1;
    };
    next({ type: 'course.started' });
    for (let v = 0; v < 6; v += 1) {
      const variable = pick(course.variables);
      next({
        type: 'variable.set',
        variable: { name: variable.name, value: sampleValue(variable.dataType) },
      });
    }
    for (let q = 0; q < 2; q += 1) {
      const question = pick(course.questions);
      const isCorrect = Math.random() < 0.6;
      next({
        type: 'question.answered',
        question: {
          interactionId: question.interactionId,
          slideNumber: question.slideNumber,
          questionNumber: question.questionNumber,
          text: question.text,
          answer: isCorrect ? (question.correctAnswer ?? 'A') : 'Z',
          correct: isCorrect,
          correctAnswer: question.correctAnswer,
          points: isCorrect ? 10 : 0,
        },
      });
    }
    next({ type: 'course.completed' });
  }
  return events.slice(0, size);
}

type RouteStats = {
  kind: Kind;
  route: string;
  sent: number;
  latencies: number[];
  non2xx: Map<number, number>;
};

/** Each read once as a check, then `aloneRequests` times one after another: the latency without load. */
async function timeAlone(base: string, headers: Record<string, string>, reads: Omit<Target, 'weight'>[]) {
  const alone = new Map<string, number>();
  for (const target of reads) {
    const times: number[] = [];
    for (let i = 0; i <= aloneRequests; i += 1) {
      const began = performance.now();
      const response = await fetch(`${base}${target.path}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200)
        throw new Error(`${target.path} answered ${response.status} before the load`);
      if (i > 0) times.push(performance.now() - began);
    }
    times.sort((a, b) => a - b);
    alone.set(target.route, percentile(times, 0.5));
  }
  return alone;
}

async function runLoad(server: ServerProcess, workload: Awaited<ReturnType<typeof prepareWorkload>>) {
  const stats = new Map<string, RouteStats>();
  const totalWeight = workload.targets.reduce((sum, target) => sum + target.weight, 0);
  const choose = (): Target => {
    let roll = Math.random() * totalWeight;
    for (const target of workload.targets) {
      roll -= target.weight;
      if (roll < 0) return target;
    }
    return workload.targets.at(-1)!;
  };
  let events = { sent: 0, accepted: 0, duplicates: 0, rejected: 0 };
  // autocannon calls onResponse and then, synchronously, emits 'response'
  // with the latency: the route answered is handed over in between.
  let answered: RouteStats | undefined;
  // The slowest answers, with when they came (seconds into the run): a
  // cluster at one moment is a stall of the whole server, not of one route.
  const slowest: { route: string; ms: number; at: number }[] = [];
  // Answers to every request but each connection's first: what clients that
  // keep their connection open see, without the queue of new connections.
  const settled: number[] = [];
  const answeredClients = new WeakSet<object>();
  const startedAt = performance.now();
  const instance = autocannon({
    url: server.base,
    connections,
    duration: durationSeconds,
    timeout: timeoutSeconds,
    requests: [
      {
        method: 'GET',
        path: '/api/health',
        setupRequest: (request, context) => {
          const target = choose();
          let entry = stats.get(target.route);
          if (!entry) {
            entry = { kind: target.kind, route: target.route, sent: 0, latencies: [], non2xx: new Map() };
            stats.set(target.route, entry);
          }
          entry.sent += 1;
          context.route = target.route;
          if (target.body) {
            const body = target.body();
            context.events = (JSON.parse(body) as { events: unknown[] }).events.length;
            return {
              ...request,
              method: 'POST',
              path: target.path,
              headers: { authorization: `Bearer ${workload.key}`, 'content-type': 'application/json' },
              body,
            };
          }
          return { ...request, method: 'GET', path: target.path, headers: workload.headers, body: undefined };
        },
        onResponse: (status, body, context) => {
          answered = stats.get(String(context.route));
          if (answered?.kind === 'ingest') events.sent += Number(context.events);
          if (answered?.kind === 'ingest' && status === 200) {
            const result = JSON.parse(body) as { accepted: number; duplicates: number; rejected: unknown[] };
            events = {
              ...events,
              accepted: events.accepted + result.accepted,
              duplicates: events.duplicates + result.duplicates,
              rejected: events.rejected + result.rejected.length,
            };
          }
        },
      },
    ],
  });
  instance.on('response', (client, status, _bytes, ms) => {
    const entry = answered;
    answered = undefined;
    if (!entry) return;
    entry.latencies.push(ms);
    if (answeredClients.has(client as object)) settled.push(ms);
    else answeredClients.add(client as object);
    if (slowest.length < 10 || ms > slowest.at(-1)!.ms) {
      slowest.push({ route: entry.route, ms, at: (performance.now() - startedAt) / 1000 });
      slowest.sort((a, b) => b.ms - a.ms);
      slowest.length = Math.min(slowest.length, 10);
    }
    if (status < 200 || status >= 300) entry.non2xx.set(status, (entry.non2xx.get(status) ?? 0) + 1);
  });

  // The server's memory while the load runs: sampled, plus the kernel's own peak.
  const pid = server.child.pid!;
  const atStart = readProcessMemory(pid);
  let peakRss = atStart?.rss ?? 0;
  const sampler = setInterval(() => {
    const now = readProcessMemory(pid);
    if (now) peakRss = Math.max(peakRss, now.rss);
  }, 100);
  let result: AutocannonResult;
  try {
    result = await instance;
  } finally {
    clearInterval(sampler);
  }
  const atEnd = readProcessMemory(pid);
  return { stats, result, events, slowest, settled, memory: { atStart, peakRss, atEnd } };
}

const mb = (bytes: number | undefined) => (bytes === undefined ? '?' : `${Math.round(bytes / 1048576)} MB`);
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 100 ? 1 : 0) : '');

function latencyColumns(latencies: number[]): string[] {
  const sorted = [...latencies].sort((a, b) => a - b);
  return [
    ms(percentile(sorted, 0.5)),
    ms(percentile(sorted, 0.9)),
    ms(percentile(sorted, 0.99)),
    ms(sorted.at(-1) ?? Number.NaN),
  ];
}

function report(
  engine: Engine,
  load: Awaited<ReturnType<typeof runLoad>>,
  alone: Map<string, number>,
): string {
  const seconds = load.result.duration;
  const unanswered = (entry: RouteStats) => entry.sent - entry.latencies.length;
  const non2xx = (entry: RouteStats) => [...entry.non2xx.values()].reduce((sum, count) => sum + count, 0);
  const emptyStats = (kind: Kind, route: string): RouteStats => ({
    kind,
    route,
    sent: 0,
    latencies: [],
    non2xx: new Map(),
  });
  const add = (into: RouteStats, entry: RouteStats) => {
    into.sent += entry.sent;
    for (const latency of entry.latencies) into.latencies.push(latency);
    for (const [status, count] of entry.non2xx)
      into.non2xx.set(status, (into.non2xx.get(status) ?? 0) + count);
  };
  const byKind = new Map<Kind, RouteStats>();
  const all = emptyStats('list', 'all');
  for (const entry of load.stats.values()) {
    const kind = byKind.get(entry.kind) ?? emptyStats(entry.kind, entry.kind);
    add(kind, entry);
    add(all, entry);
    byKind.set(entry.kind, kind);
  }
  const row = (label: string, entry: RouteStats, aloneMs?: number) => [
    engine.name,
    label,
    String(entry.latencies.length),
    (entry.latencies.length / seconds).toFixed(1),
    aloneMs === undefined ? '' : ms(aloneMs),
    ...latencyColumns(entry.latencies),
    String(non2xx(entry)),
    String(unanswered(entry)),
  ];
  const header = [
    'engine',
    'request',
    'answered',
    'req/s',
    'alone p50',
    'p50 ms',
    'p90 ms',
    'p99 ms',
    'max ms',
    'non-2xx',
    'unanswered',
  ];
  const numeric = [2, 3, 4, 5, 6, 7, 8, 9, 10];
  const kinds = KINDS.filter((kind) => byKind.has(kind)).map((kind) => row(kind, byKind.get(kind)!));
  const routes = [...load.stats.values()]
    .sort((a, b) => a.kind.localeCompare(b.kind) || a.route.localeCompare(b.route))
    .map((entry) => row(entry.route, entry, alone.get(entry.route)));
  const statuses = [...all.non2xx].map(([status, count]) => `${count} x ${status}`).join(', ');
  const { atStart, peakRss, atEnd } = load.memory;
  const slowest = load.slowest
    .map((answer) => `${answer.ms.toFixed(0)} ms at ${answer.at.toFixed(1)} s (${answer.route})`)
    .join(', ');
  return [
    formatTable(header, [...kinds, row('all', all)], numeric),
    '',
    formatTable(header, routes, numeric),
    '',
    `${engine.name}: ${all.latencies.length} requests answered in ${seconds.toFixed(1)} s (${(all.latencies.length / seconds).toFixed(1)} req/s), ` +
      `${non2xx(all)} non-2xx${statuses ? ` (${statuses})` : ''}, ${load.result.errors} errors of which ${load.result.timeouts} timeouts (> ${timeoutSeconds} s)`,
    `${engine.name}: events in answered batches ${load.events.sent}, accepted ${load.events.accepted} (${(load.events.accepted / seconds).toFixed(0)}/s), ` +
      `duplicates ${load.events.duplicates}, rejected ${load.events.rejected}`,
    `${engine.name}: slowest answers: ${slowest}`,
    `${engine.name}: without each connection's first request: ` +
      `${load.settled.length} answers, p50 ${latencyColumns(load.settled)[0]} ms, p99 ${latencyColumns(load.settled)[2]} ms, max ${latencyColumns(load.settled)[3]} ms`,
    `${engine.name}: server RSS ${mb(atStart?.rss)} at the start of the load, ${mb(peakRss)} peak during it (sampled every 100 ms), ` +
      `${mb(atEnd?.rss)} at the end; VmHWM ${mb(atEnd?.peak)} (peak since the process started, seeding included)`,
  ].join('\n');
}

async function benchEngine(engine: Engine): Promise<string> {
  process.stdout.write(`\n${engine.name}\n`);
  const storage = await engine.prepare();
  pendingCleanups.add(storage.cleanup);
  let server: ServerProcess | undefined;
  try {
    const began = performance.now();
    server = await startBuiltServer({ ...storage.env, SEED_DEMO: 'true' });
    const stopServer = server.stop;
    pendingCleanups.add(stopServer);
    process.stdout.write(
      `  server ${server.base} (pid ${server.child.pid}) up in ${((performance.now() - began) / 1000).toFixed(1)} s (migrations and demo seed)\n`,
    );
    const workload = await prepareWorkload(server.base, engine.key);
    const alone = await timeAlone(server.base, workload.headers, workload.reads);
    process.stdout.write(
      `  autocannon: ${connections} connections, ${durationSeconds} s, ${ingestPercent} % ingest batches, timeout ${timeoutSeconds} s\n`,
    );
    const [load1] = loadavg();
    const loggedBefore = server.output().length;
    const load = await runLoad(server, workload);
    const [load2] = loadavg();
    if (server.child.exitCode !== null)
      throw new Error(`the server exited during the load:\n${server.output()}`);
    // Warnings and errors the server logged during the load (LOG_LEVEL=warn).
    const logged = server.output().slice(loggedBefore).trim().split('\n').filter(Boolean);
    if (logged.length > 0) {
      process.stdout.write(
        `  the server logged ${logged.length} lines during the load; the last ones:\n${logged
          .slice(-10)
          .map((line) => `    ${line.slice(0, 400)}`)
          .join('\n')}\n`,
      );
    }
    await server.stop();
    pendingCleanups.delete(stopServer);
    const text = `${report(engine, load, alone)}\n${engine.name}: load average ${load1?.toFixed(1)} before the run, ${load2?.toFixed(1)} after (2 cores)`;
    process.stdout.write(`${text}\n`);
    return text;
  } finally {
    await server?.stop(2_000);
    pendingCleanups.delete(storage.cleanup);
    await storage.cleanup();
  }
}

async function main(): Promise<void> {
  const list = engines();
  if (list.length === 0) {
    process.stderr.write('No engine to run (--engines pglite,postgres).\n');
    process.exitCode = 1;
    return;
  }
  const reports: string[] = [];
  for (const engine of list) reports.push(await benchEngine(engine));
  process.stdout.write(
    `\nMixed load, ${new Date().toISOString().slice(0, 10)}: ${connections} connections, ${durationSeconds} s, ` +
      `${ingestPercent} % POST /api/v1/events (${minEvents}-${maxEvents} events), the rest dashboard, list and report reads\n\n`,
  );
  process.stdout.write(`${reports.join('\n\n')}\n`);
}

main().catch(async (error: unknown) => {
  process.stderr.write(
    `bench:load failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  await Promise.allSettled([...pendingCleanups].map((cleanup) => cleanup()));
  process.exitCode = 1;
});
