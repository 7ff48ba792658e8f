// What the API benchmarks (lists, reports) share: the engines to run on, the
// large "Bench Org" dataset (seeded once, reused after), signing in as its
// owner, timing requests through the whole app, and printing a table.
import { mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig, type AppConfig } from '../../apps/server/src/config';
import { createDatabase, type DatabaseConnection } from '../../apps/server/src/db/client';
import { runMigrations } from '../../apps/server/src/db/migrate';
import {
  DEMO_OWNER,
  benchOrganizationPlan,
  nextBenchOrganization,
  seedDemo,
} from '../../apps/server/src/db/seed/seed';
import { hashPassword } from '../../apps/server/src/modules/auth/password';
import { findPostgresBin, startPostgresCluster } from './postgres-cluster';

export type Engine = {
  name: string;
  open: () => Promise<{ connection: DatabaseConnection; cleanup: () => Promise<void> }>;
};

/** Cleanups still owed, run on Ctrl-C or a failure so no cluster is left behind. */
export const pendingCleanups = new Set<() => Promise<void>>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: cleaning up...\n`);
    void Promise.allSettled([...pendingCleanups].map((cleanup) => cleanup())).then(() => process.exit(130));
  });
}

export function positiveInteger(name: string, raw: string, min = 1): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    process.stderr.write(`--${name} must be a whole number of ${min} or more (got "${raw}")\n`);
    process.exit(2);
  }
  return Number(raw);
}

/**
 * PostgreSQL at BENCH_DATABASE_URL, else a throw-away cluster started with the
 * server binaries of /usr/lib/postgresql; undefined (with a note) without either.
 */
export function postgresEngine(): Engine | undefined {
  const url = process.env.BENCH_DATABASE_URL;
  if (url) {
    return {
      name: 'PostgreSQL',
      open: async () => {
        const connection = await createDatabase({ kind: 'postgres', url });
        return { connection, cleanup: () => connection.close() };
      },
    };
  }
  const bin = findPostgresBin();
  if (!bin) {
    process.stdout.write(
      'PostgreSQL skipped: set BENCH_DATABASE_URL, or install PostgreSQL server binaries (apt-get install postgresql).\n',
    );
    return undefined;
  }
  return {
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
  };
}

/** The engines asked for: PGlite in a kept data folder, and PostgreSQL (see postgresEngine). */
export function benchEngines(wanted: ReadonlySet<string>, pgliteDir: string): Engine[] {
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
  const postgres = wanted.has('postgres') ? postgresEngine() : undefined;
  if (postgres) engines.push(postgres);
  return engines;
}

export type BenchDatasetOptions = {
  /**
   * The dataset's name ("Bench Org" unless said). The ingestion benchmark keeps its own: what it writes
   * would change the figures the report and analytics benchmarks read.
   */
  label?: string;
  /** Only a dataset whose log has slide views counts (seeded before the seed wrote them: seed a new one). */
  withSlideEvents?: boolean;
  /** The seed and clock of a dataset seeded here (the seed's defaults unless said); a reused one keeps its own. */
  seed?: number;
  now?: Date;
};

/** A "Bench Org" (or the label's) with at least `learners` learners, seeding one when there is none. */
export async function benchOrganization(
  connection: DatabaseConnection,
  learners: number,
  options: BenchDatasetOptions = {},
): Promise<string> {
  const label = options.label ?? 'Bench Org';
  const { rows } = await connection.db.execute<{ id: string; name: string; learners: string }>(sql`
    select o.id, o.name, (select count(*) from learners l where l.organization_id = o.id) as learners
    from organizations o
    where o.name like ${`${label} %`}
      and (not ${options.withSlideEvents === true} or exists (select 1 from learning_events e
        where e.organization_id = o.id and e.type = 'slide.viewed'))
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
  const organization = await nextBenchOrganization(connection.db, label);
  const result = await seedDemo(connection.db, {
    learners,
    hashPassword,
    checkpointWal: connection.kind === 'pglite',
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.now === undefined ? {} : { now: options.now }),
    organization: { ...organization, ...benchOrganizationPlan(learners) },
  });
  process.stdout.write(
    `  seeded ${result.organizationName}: ${result.totalRows.toLocaleString('en-US')} rows in ${(result.elapsedMs / 1000).toFixed(0)} s\n`,
  );
  const inserts = Object.entries(result.tables)
    .filter(([, timing]) => timing.rows >= 10_000)
    .map(
      ([table, timing]) =>
        `${table} ${timing.rows.toLocaleString('en-US')} in ${(timing.ms / 1000).toFixed(0)} s`,
    );
  const phases = result.phases.map((phase) => `${phase.phase} ${(phase.ms / 1000).toFixed(0)} s`);
  process.stdout.write(`    inserts: ${inserts.join(', ')}\n    phases: ${phases.join(', ')}\n`);
  return result.organizationId;
}

/**
 * Opens the engine, migrates it, finds or seeds the dataset and builds the
 * app in this process signed in as the dataset's owner; `work` gets what it
 * needs to time requests. Everything is closed afterwards.
 */
export async function withBenchApp<T>(
  engine: Engine,
  learners: number,
  work: (bench: {
    app: FastifyInstance;
    connection: DatabaseConnection;
    organizationId: string;
    headers: Record<string, string>;
    /** The app's settings (its kept-results policy, for a run that turns it off). */
    config: AppConfig;
  }) => Promise<T>,
  datasetOptions: BenchDatasetOptions = {},
): Promise<T> {
  process.stdout.write(`\n${engine.name}\n`);
  const { connection, cleanup } = await engine.open();
  pendingCleanups.add(cleanup);
  let app: FastifyInstance | undefined;
  try {
    await runMigrations(connection);
    const organizationId = await benchOrganization(connection, learners, datasetOptions);
    await printMachineSpeed(connection);
    const config: AppConfig = {
      ...loadConfig({
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        WEB_DIST_DIR: '/nonexistent-web-dist',
        // The server settings that change how statements run, when the environment names them (A/B runs).
        ...(process.env.ANALYTICS_PARTS ? { ANALYTICS_PARTS: process.env.ANALYTICS_PARTS } : {}),
      }),
      signupLimitPerHour: 0,
    };
    app = await buildApp({ config, database: connection, logger: false });
    await app.ready();
    const token = await signIn(app);
    const headers = { authorization: `Bearer ${token}`, 'x-organization-id': organizationId };
    return await work({ app, connection, organizationId, headers, config });
  } finally {
    await app?.close();
    pendingCleanups.delete(cleanup);
    await cleanup();
  }
}

/**
 * Prints how fast this machine runs one fixed statement that reads no table
 * (two million rows generated and counted, the median of five runs). The
 * machines these benchmarks run on differ from day to day by up to two and
 * a half times, which a comparison of figures from different days must
 * divide out: this figure says which part of a change is the machine's.
 */
async function printMachineSpeed(connection: DatabaseConnection): Promise<void> {
  const times: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const began = performance.now();
    await connection.db.execute(sql`select count(*) from generate_series(1, 2000000) g where g % 7 = 3`);
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  const cpu = cpus();
  process.stdout.write(
    `  machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores; the fixed statement ` +
      `(2 million rows counted) took ${(times[2] ?? Number.NaN).toFixed(0)} ms (median of 5)\n`,
  );
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

/**
 * A change of the organization's data, as any write is (a learner renamed
 * to the same name: one statement): kept report and analytics results no
 * longer hold after it, so the next request computes everything afresh.
 */
export async function touchOrganizationData(
  connection: DatabaseConnection,
  organizationId: string,
): Promise<void> {
  await connection.db.execute(sql`
    update learners set name = name
    where organization_id = ${organizationId}
      and id = (select id from learners where organization_id = ${organizationId} order by id limit 1)`);
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export type Timing = { p50: number; p95: number; max: number };

/** Runs `task` `warmup` times untimed, then `requests` times one after another, and returns the spread. */
export async function timeRuns(
  task: () => Promise<unknown>,
  options: { requests: number; warmup: number; before?: () => Promise<unknown> },
): Promise<Timing> {
  for (let i = 0; i < options.warmup; i += 1) await task();
  const times: number[] = [];
  for (let i = 0; i < options.requests; i += 1) {
    // Untimed: what each request must find done (e.g. a change of the data it reads).
    await options.before?.();
    const began = performance.now();
    await task();
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), max: times.at(-1) ?? 0 };
}

/** A 404 that says the route does not exist on this build (as opposed to a missing row). */
export function isMissingRoute(statusCode: number, body: string): boolean {
  if (statusCode !== 404) return false;
  try {
    const parsed = JSON.parse(body) as { error?: string; message?: string };
    return /^Route .* not found$/.test(parsed.error ?? parsed.message ?? '');
  } catch {
    return false;
  }
}

/** A plain-text table: columns left-aligned, except the (numeric) ones listed in `rightAligned`. */
export function formatTable(
  header: readonly string[],
  lines: readonly string[][],
  rightAligned: readonly number[],
): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]?.length ?? 0)),
  );
  const format = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        rightAligned.includes(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [format(header), widths.map((width) => '-'.repeat(width)).join('  '), ...lines.map(format)].join(
    '\n',
  );
}

/** Replaces UUIDs in a URL by `:id`, so a printed table shows the route. */
export const routeOf = (url: string) =>
  url.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ':id');
