// List and detail API benchmark: `npm run bench:lists [-- --learners 100000]` from the repository root.
//
// For each engine (PGlite in a kept data folder; PostgreSQL at
// BENCH_DATABASE_URL, or a throw-away cluster started here) it seeds the
// large dataset (or reuses a "Bench Org" with enough learners), builds the
// app in this process, signs in as the dataset's owner and times every list
// and detail API of issue 5 through the full request pipeline (routing,
// authentication, tenant scoping, validation, SQL, serialization), printing
// p50 and p95. A route that answers 404 "Route ... not found" is not built
// on this branch yet: it is listed with a note and skipped. See README.md.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { createDatabase, type DatabaseConnection } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import { DEMO_OWNER, nextBenchOrganization, seedDemo } from '../apps/server/src/db/seed/seed';
import { hashPassword } from '../apps/server/src/modules/auth/password';
import { findPostgresBin, startPostgresCluster } from './lib/postgres-cluster';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    learners: { type: 'string', default: process.env.BENCH_LEARNERS ?? '100000' },
    engines: { type: 'string', default: 'pglite,postgres' },
    requests: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '2' },
    'pglite-dir': { type: 'string' },
    only: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

if (args.help) {
  process.stdout.write(
    'usage: npm run bench:lists -- [--learners 100000] [--engines pglite,postgres] [--requests 20]\n' +
      '                             [--warmup 2] [--pglite-dir DIR] [--only dashboard,activity]\n',
  );
  process.exit(0);
}

function positiveInteger(name: string, raw: string, min = 1): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    process.stderr.write(`--${name} must be a whole number of ${min} or more (got "${raw}")\n`);
    process.exit(2);
  }
  return Number(raw);
}

const learners = positiveInteger('learners', args.learners);
const requests = positiveInteger('requests', args.requests);
const warmup = positiveInteger('warmup', args.warmup, 0);
const wanted = new Set(args.engines.split(',').map((engine) => engine.trim().toLowerCase()));
const only = args.only
  ?.split(',')
  .map((part) => part.trim())
  .filter(Boolean);
const pgliteDir = resolve(
  args['pglite-dir'] ??
    process.env.BENCH_PGLITE_DIR ??
    join(root, 'data', 'bench-lists', `pglite-${learners}`),
);

/** Ids the detail routes need, picked from the dataset by SQL (not through the APIs under test). */
type Subjects = { organizationId: string; courseId: string; learnerId: string; pageCount: number };

type Endpoint = { name: string; url: (subjects: Subjects) => string };

/** Every list and detail API of issue 5, in the order of the issue. */
const ENDPOINTS: Endpoint[] = [
  { name: 'courses', url: () => '/api/courses' },
  { name: 'course', url: (s) => `/api/courses/${s.courseId}` },
  { name: 'course learners', url: (s) => `/api/courses/${s.courseId}/learners` },
  { name: 'learners, first page', url: () => '/api/learners' },
  {
    name: 'learners, deep page',
    url: (s) => `/api/learners?page=${Math.max(1, Math.floor(s.pageCount / 2))}`,
  },
  { name: 'learners, search', url: () => '/api/learners?q=anna' },
  { name: 'learners, by last activity', url: () => '/api/learners?sort=lastActivity&order=desc' },
  { name: 'learner', url: (s) => `/api/learners/${s.learnerId}` },
  { name: 'learner courses', url: (s) => `/api/learners/${s.learnerId}/courses` },
  { name: 'learner variables', url: (s) => `/api/learners/${s.learnerId}/variables` },
  { name: 'learner responses', url: (s) => `/api/learners/${s.learnerId}/responses` },
  { name: 'variables', url: () => '/api/variables' },
  { name: 'questions', url: () => '/api/questions' },
  { name: 'dashboard, 7 days', url: () => '/api/dashboard?days=7' },
  { name: 'dashboard, 30 days', url: () => '/api/dashboard?days=30' },
  { name: 'dashboard, 90 days', url: () => '/api/dashboard?days=90' },
  { name: 'activity', url: () => '/api/activity' },
  { name: 'activity, filtered', url: () => '/api/activity?kind=course.created,broadcast.set&q=course' },
];

type Result = {
  engine: string;
  endpoint: string;
  url: string;
  status: number | null;
  p50?: number;
  p95?: number;
  max?: number;
  note?: string;
};

type Engine = {
  name: string;
  open: () => Promise<{ connection: DatabaseConnection; cleanup: () => Promise<void> }>;
};

const pendingCleanups = new Set<() => Promise<void>>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: cleaning up...\n`);
    void Promise.allSettled([...pendingCleanups].map((cleanup) => cleanup())).then(() => process.exit(130));
  });
}

const engines: Engine[] = [];
if (wanted.has('pglite')) {
  engines.push({
    name: 'PGlite',
    open: async () => {
      mkdirSync(pgliteDir, { recursive: true });
      const connection = await createDatabase({ kind: 'pglite', dataDir: pgliteDir });
      return { connection, cleanup: () => connection.close() };
    },
  });
}
if (wanted.has('postgres')) {
  const url = process.env.BENCH_DATABASE_URL;
  const bin = url ? undefined : findPostgresBin();
  if (url) {
    engines.push({
      name: 'PostgreSQL',
      open: async () => {
        const connection = await createDatabase({ kind: 'postgres', url });
        return { connection, cleanup: () => connection.close() };
      },
    });
  } else if (bin) {
    engines.push({
      name: 'PostgreSQL',
      open: async () => {
        const cluster = await startPostgresCluster(bin);
        pendingCleanups.add(cluster.stop);
        process.stdout.write(`  throw-away PostgreSQL ${cluster.version} cluster at ${cluster.url}\n`);
        try {
          const connection = await createDatabase({ kind: 'postgres', url: cluster.url });
          return {
            connection,
            cleanup: async () => {
              await connection.close().catch(() => undefined);
              await cluster.stop();
            },
          };
        } catch (error) {
          await cluster.stop();
          throw error;
        }
      },
    });
  } else {
    process.stdout.write(
      'PostgreSQL skipped: set BENCH_DATABASE_URL, or install PostgreSQL server binaries (apt-get install postgresql).\n',
    );
  }
}

/** A "Bench Org" with at least `learners` learners, seeding one when there is none. */
async function benchOrganization(connection: DatabaseConnection): Promise<string> {
  const { rows } = await connection.db.execute<{ id: string; name: string; learners: string }>(sql`
    select o.id, o.name, (select count(*) from learners l where l.organization_id = o.id) as learners
    from organizations o
    where o.name like 'Bench Org %'
    order by o.created_at desc
  `);
  const existing = rows.find((row) => Number(row.learners) >= learners);
  if (existing) {
    process.stdout.write(
      `  reusing ${existing.name} (${Number(existing.learners).toLocaleString('en-US')} learners)\n`,
    );
    return existing.id;
  }
  process.stdout.write(
    `  seeding ${learners.toLocaleString('en-US')} learners (a few minutes at 100 000)...\n`,
  );
  const organization = await nextBenchOrganization(connection.db);
  const result = await seedDemo(connection.db, {
    learners,
    hashPassword,
    organization: { ...organization, plan: 'enterprise' },
  });
  process.stdout.write(
    `  seeded ${result.organizationName}: ${result.totalRows.toLocaleString('en-US')} rows in ${(result.elapsedMs / 1000).toFixed(0)} s\n`,
  );
  return result.organizationId;
}

async function pickSubjects(connection: DatabaseConnection, organizationId: string): Promise<Subjects> {
  const { rows } = await connection.db.execute<{
    course_id: string;
    learner_id: string;
    learners: string;
  }>(sql`
    select
      (select course_id from course_runs r join courses c on c.organization_id = r.organization_id
         and c.id = r.course_id and not c.is_deleted
       where r.organization_id = ${organizationId}
       group by course_id order by count(*) desc limit 1) as course_id,
      (select learner_id from course_runs where organization_id = ${organizationId}
       group by learner_id order by count(*) desc, learner_id limit 1) as learner_id,
      (select count(*) from learners where organization_id = ${organizationId}) as learners
  `);
  const row = rows[0];
  if (!row?.course_id || !row.learner_id) throw new Error('The bench organization has no course runs');
  return {
    organizationId,
    courseId: row.course_id,
    learnerId: row.learner_id,
    pageCount: Math.ceil(Number(row.learners) / 25),
  };
}

async function signIn(app: FastifyInstance): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/session',
    payload: { email: DEMO_OWNER.email, password: DEMO_OWNER.password },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return response.json<{ token: string }>().token;
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

async function measure(
  app: FastifyInstance,
  headers: Record<string, string>,
  engine: string,
  endpoint: Endpoint,
  subjects: Subjects,
): Promise<Result> {
  const url = endpoint.url(subjects);
  const first = await app.inject({ method: 'GET', url, headers });
  const base = { engine, endpoint: endpoint.name, url, status: first.statusCode };
  if (first.statusCode === 404) {
    const message = (() => {
      try {
        return first.json<{ error?: string; message?: string }>().error ?? '';
      } catch {
        return '';
      }
    })();
    const isMissingRoute = /^Route .* not found$/.test(message);
    return { ...base, note: isMissingRoute ? 'skipped: route not built on this branch' : `404 ${message}` };
  }
  if (first.statusCode >= 400) {
    return { ...base, note: `skipped: ${first.statusCode} ${first.body.slice(0, 120)}` };
  }
  for (let i = 1; i < warmup; i += 1) await app.inject({ method: 'GET', url, headers });
  const times: number[] = [];
  for (let i = 0; i < requests; i += 1) {
    const began = performance.now();
    const response = await app.inject({ method: 'GET', url, headers });
    times.push(performance.now() - began);
    if (response.statusCode !== first.statusCode) {
      return { ...base, note: `status changed to ${response.statusCode} during the run` };
    }
  }
  times.sort((a, b) => a - b);
  return { ...base, p50: percentile(times, 0.5), p95: percentile(times, 0.95), max: times.at(-1) ?? 0 };
}

async function benchEngine(engine: Engine): Promise<Result[]> {
  process.stdout.write(`\n${engine.name}\n`);
  const { connection, cleanup } = await engine.open();
  pendingCleanups.add(cleanup);
  let app: FastifyInstance | undefined;
  try {
    await runMigrations(connection);
    const organizationId = await benchOrganization(connection);
    const subjects = await pickSubjects(connection, organizationId);
    const config = {
      ...loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', WEB_DIST_DIR: '/nonexistent-web-dist' }),
      signupLimitPerHour: 0,
    };
    app = await buildApp({ config, database: connection, logger: false });
    await app.ready();
    const token = await signIn(app);
    const headers = { authorization: `Bearer ${token}`, 'x-organization-id': organizationId };
    const results: Result[] = [];
    for (const endpoint of ENDPOINTS) {
      if (only && !only.some((part) => endpoint.name.includes(part) || endpoint.url(subjects).includes(part)))
        continue;
      const result = await measure(app, headers, engine.name, endpoint, subjects);
      results.push(result);
      process.stdout.write(
        `  ${endpoint.name.padEnd(28)} ${
          result.p50 === undefined
            ? (result.note ?? '')
            : `p50 ${result.p50.toFixed(1)} ms, p95 ${(result.p95 ?? 0).toFixed(1)} ms`
        }\n`,
      );
    }
    return results;
  } finally {
    await app?.close();
    pendingCleanups.delete(cleanup);
    await cleanup();
  }
}

function formatResults(results: readonly Result[]): string {
  const header = ['engine', 'endpoint', 'GET', 'status', 'p50 ms', 'p95 ms', 'max ms'];
  const ms = (value: number | undefined) => (value === undefined ? '' : value.toFixed(1));
  const lines = results.map((result) => [
    result.engine,
    result.endpoint,
    result.url.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ':id'),
    String(result.status ?? ''),
    result.p50 === undefined ? (result.note ?? '') : ms(result.p50),
    ms(result.p95),
    ms(result.max),
  ]);
  const widths = header.map((title, column) =>
    Math.max(
      title.length,
      ...lines.filter((line) => !(column === 4 && line[5] === '')).map((line) => line[column]?.length ?? 0),
    ),
  );
  const format = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column < 4 || (column === 4 && cells[5] === '')
          ? cell.padEnd(widths[column] ?? 0)
          : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
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
  const all: Result[] = [];
  for (const engine of engines) all.push(...(await benchEngine(engine)));
  process.stdout.write(
    `\nList and detail APIs, ${learners.toLocaleString('en-US')} learners, ${requests} timed requests each ` +
      `after ${warmup} warm-up, one at a time, in process (app.inject)\n\n`,
  );
  process.stdout.write(`${formatResults(all)}\n`);
}

main().catch(async (error: unknown) => {
  process.stderr.write(
    `bench:lists failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  await Promise.allSettled([...pendingCleanups].map((cleanup) => cleanup()));
  process.exitCode = 1;
});
