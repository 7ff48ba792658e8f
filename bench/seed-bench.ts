// Seed benchmark: `npm run bench:seed [-- --learners 100000]` from the repository root.
//
// For each engine (PGlite in a temporary data folder; PostgreSQL at
// BENCH_DATABASE_URL, or a throw-away cluster started here) it migrates,
// generates the large dataset with the demo generator (seedDemo) and prints
// rows, seconds and rows/s, beside the raw rate of inserting the same value
// rows straight into the database in the same run. See README.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import {
  benchOrganizationPlan,
  nextBenchOrganization,
  seedDemo,
  type SeedResult,
} from '../apps/server/src/db/seed/seed';
import { pendingCleanups, postgresEngine, type Engine } from './lib/api-bench';
import { formatMeasurements, rate, type Measurement } from './lib/report';
import {
  insertValuesAsSqlText,
  insertValuesWithDrizzleValues,
  insertValuesWithInsertSelect,
} from './lib/values-baselines';

const { values: args } = parseArgs({
  options: {
    learners: { type: 'string', default: process.env.BENCH_LEARNERS ?? '100000' },
    seed: { type: 'string', default: '42' },
    engines: { type: 'string', default: 'pglite,postgres' },
    'batch-size': { type: 'string', default: '1000' },
    'compare-drizzle': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

if (args.help) {
  process.stdout.write(
    'usage: npm run bench:seed -- [--learners 100000] [--seed 42] [--engines pglite,postgres]\n' +
      '                            [--batch-size 1000] [--compare-drizzle]\n',
  );
  process.exit(0);
}

function positiveInteger(name: string, raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    process.stderr.write(`--${name} must be a positive whole number (got "${raw}")\n`);
    process.exit(2);
  }
  return Number(raw);
}

const learners = positiveInteger('learners', args.learners);
const seed = positiveInteger('seed', args.seed);
const batchSize = positiveInteger('batch-size', args['batch-size']);
const wanted = new Set(args.engines.split(',').map((engine) => engine.trim().toLowerCase()));
// One `now` for every engine, so each generates exactly the same rows.
const now = new Date();
now.setUTCMinutes(0, 0, 0);

const engines: Engine[] = [];
if (wanted.has('pglite')) {
  engines.push({
    name: 'PGlite',
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'courselens-bench-pglite-'));
      const connection = await createDatabase({ kind: 'pglite', dataDir: dir });
      return {
        connection,
        cleanup: async () => {
          await connection.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  });
}
const postgres = wanted.has('postgres') ? postgresEngine() : undefined;
if (postgres) engines.push(postgres);

function progress(engine: string) {
  let rows = 0;
  const began = performance.now();
  return ({ rows: inserted }: { rows: number }) => {
    rows += inserted;
    if (process.stdout.isTTY && rows % 100_000 < inserted) {
      const seconds = (performance.now() - began) / 1000;
      process.stdout.write(`  ${engine}: ${rows.toLocaleString('en-US')} rows, ${seconds.toFixed(0)} s\r`);
    }
  };
}

async function benchEngine(engine: Engine): Promise<Measurement[]> {
  process.stdout.write(`\n${engine.name}: ${learners.toLocaleString('en-US')} learners (seed ${seed})\n`);
  const { connection, cleanup } = await engine.open();
  pendingCleanups.add(cleanup);
  const measurements: Measurement[] = [];
  const add = (measurement: Omit<Measurement, 'engine'>) => {
    measurements.push({ engine: engine.name, ...measurement });
    process.stdout.write(
      `  ${measurement.label}: ${measurement.rows.toLocaleString('en-US')} rows in ${(measurement.ms / 1000).toFixed(1)} s ` +
        `= ${rate(measurement.rows, measurement.ms).toLocaleString('en-US')} rows/s\n`,
    );
  };
  try {
    const migrationBegan = performance.now();
    await runMigrations(connection);
    process.stdout.write(`  migrations: ${((performance.now() - migrationBegan) / 1000).toFixed(1)} s\n`);

    const organization = await nextBenchOrganization(connection.db);
    const result: SeedResult = await seedDemo(connection.db, {
      seed,
      now,
      learners,
      batchSize,
      checkpointWal: connection.kind === 'pglite',
      organization: { ...organization, ...benchOrganizationPlan(learners) },
      onProgress: progress(engine.name),
    });
    add({ label: 'generator (seedDemo), all tables', rows: result.totalRows, ms: result.elapsedMs });
    const values = result.tables.learner_variable_values;
    if (values) {
      add({
        label: 'generator, learner_variable_values inserts',
        rows: values.rows,
        ms: values.ms,
        note: 'unnest',
      });
    }
    const responses = result.tables.course_run_questions;
    if (responses) {
      add({
        label: 'generator, course_run_questions inserts',
        rows: responses.rows,
        ms: responses.ms,
        note: 'unnest',
      });
    }
    add({
      label: 'raw: same value rows as multi-row INSERT text',
      note: `${batchSize}/statement`,
      ...(await insertValuesAsSqlText(connection, result, batchSize)),
    });
    add({
      label: 'raw: as many value rows by INSERT ... SELECT',
      note: 'in-database',
      ...(await insertValuesWithInsertSelect(connection, result, result.counts.learnerVariableValues)),
    });
    if (args['compare-drizzle']) {
      add({
        label: 'Drizzle multi-row VALUES, same value rows',
        note: 'a parameter per cell',
        ...(await insertValuesWithDrizzleValues(connection, result, batchSize)),
      });
    }
    return measurements;
  } finally {
    pendingCleanups.delete(cleanup);
    await cleanup();
  }
}

async function main(): Promise<void> {
  if (engines.length === 0) {
    process.stderr.write('No engine to benchmark (--engines pglite,postgres).\n');
    process.exitCode = 1;
    return;
  }
  const all: Measurement[] = [];
  for (const engine of engines) all.push(...(await benchEngine(engine)));
  process.stdout.write(
    `\nSeed benchmark, ${learners.toLocaleString('en-US')} learners, ${batchSize} rows per statement\n\n`,
  );
  process.stdout.write(`${formatMeasurements(all)}\n`);
}

main().catch(async (error: unknown) => {
  process.stderr.write(
    `bench:seed failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  await Promise.allSettled([...pendingCleanups].map((cleanup) => cleanup()));
  process.exitCode = 1;
});
