// Job queue benchmark: `npm run bench:jobs [-- --jobs 5000 --engines pglite,postgres]`.
//
// For each engine (PGlite in memory; PostgreSQL at BENCH_DATABASE_URL, or a
// throw-away cluster started here) it migrates, starts the product's job
// runner with workers (pg-boss, as the server does) and a job kind that does
// no work, queues --jobs jobs in one statement, and prints how fast they were
// queued, and claimed and completed (the queue's own cost, which every
// webhook, e-mail and pipeline step pays on top of its work).
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createDatabase, type DatabaseConnection } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import { createJobRunner, defineJob } from '../apps/server/src/jobs/job-runner';
import { findPostgresBin, startPostgresCluster } from './lib/postgres-cluster';

const { values: args } = parseArgs({
  options: {
    jobs: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '8' },
    engines: { type: 'string', default: 'pglite,postgres' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (args.help) {
  process.stdout.write(
    'usage: npm run bench:jobs -- [--jobs 5000] [--concurrency 8] [--engines pglite,postgres]\n',
  );
  process.exit(0);
}
const jobCount = Number(args.jobs);
const concurrency = Number(args.concurrency);
if (!Number.isInteger(jobCount) || jobCount < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write('--jobs and --concurrency must be positive whole numbers\n');
  process.exit(2);
}
const wanted = new Set(args.engines.split(',').map((engine) => engine.trim().toLowerCase()));

type Row = { engine: string; queued: number; queueSeconds: number; workSeconds: number };

async function benchEngine(name: string, connection: DatabaseConnection): Promise<Row> {
  await runMigrations(connection);
  let done = 0;
  const noop = defineJob({
    name: 'bench.noop',
    payload: z.object({ organizationId: z.string(), n: z.number() }),
    concurrency,
    handle: async () => {
      done += 1;
    },
  });
  const runner = createJobRunner(connection, {
    definitions: [noop].map((definition) => definition as never),
    workers: false,
  });
  await runner.start();
  const payloads = Array.from({ length: jobCount }, (_, n) => ({ organizationId: 'bench', n }));
  const queueBegan = performance.now();
  for (let from = 0; from < payloads.length; from += 1000) {
    await runner.sendMany(noop, payloads.slice(from, from + 1000));
  }
  const queueSeconds = (performance.now() - queueBegan) / 1000;
  await runner.stop();

  // Now the workers: claim and complete everything queued.
  const workers = createJobRunner(connection, {
    definitions: [noop].map((definition) => definition as never),
    workers: true,
    pollingIntervalSeconds: 0.5,
  });
  const workBegan = performance.now();
  await workers.start();
  const deadline = Date.now() + 600_000;
  while (done < jobCount) {
    if (Date.now() > deadline) throw new Error(`only ${done} of ${jobCount} jobs ran in 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const workSeconds = (performance.now() - workBegan) / 1000;
  await workers.stop();
  process.stdout.write(
    `  ${name}: ${jobCount} queued in ${queueSeconds.toFixed(2)} s, run in ${workSeconds.toFixed(2)} s\n`,
  );
  return { engine: name, queued: jobCount, queueSeconds, workSeconds };
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  if (wanted.has('pglite')) {
    const connection = await createDatabase({ kind: 'pglite' });
    try {
      rows.push(await benchEngine('PGlite', connection));
    } finally {
      await connection.close();
    }
  }
  if (wanted.has('postgres')) {
    const url = process.env.BENCH_DATABASE_URL;
    const bin = url ? undefined : findPostgresBin();
    const cluster = url ? null : bin ? await startPostgresCluster(bin) : null;
    const target = url ?? cluster?.url;
    if (!target) process.stdout.write('PostgreSQL skipped: set BENCH_DATABASE_URL or install postgresql.\n');
    else {
      const connection = await createDatabase({ kind: 'postgres', url: target });
      try {
        rows.push(await benchEngine('PostgreSQL', connection));
      } finally {
        await connection.close();
        await cluster?.stop();
      }
    }
  }
  process.stdout.write(
    `\nJob queue (pg-boss), ${jobCount} jobs that do nothing, ${concurrency} at a time per process\n\n`,
  );
  process.stdout.write('engine      queued/s  claimed and completed/s\n');
  for (const row of rows) {
    process.stdout.write(
      `${row.engine.padEnd(10)}  ${Math.round(row.queued / row.queueSeconds)
        .toLocaleString('en-US')
        .padStart(8)}  ${Math.round(row.queued / row.workSeconds)
        .toLocaleString('en-US')
        .padStart(23)}\n`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:jobs failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
