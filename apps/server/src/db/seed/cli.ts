// `npm run seed -w apps/server -- [--learners N] [--seed S] [--now ISO] [--days D] [--batch-size B]`
//
// Migrates the database named by DATABASE_URL (PostgreSQL) or DATA_DIR (PGlite,
// default ./data relative to where npm was started), then seeds:
//   - without --learners: the demo organization (Acme Learning), unless it exists;
//   - with --learners N: a new organization "Bench Org <n>" with N learners,
//     so it can run next to the demo (e.g. --learners 100000 for benchmarks).
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { hashPassword } from '../../modules/auth/password';
import { openCliDatabase } from '../cli-database';
import { runMigrations } from '../migrate';
import { organizations } from '../schema';
import {
  DEFAULT_SEED,
  DEMO_ORGANIZATION,
  DEMO_OWNER,
  benchOrganizationPlan,
  nextBenchOrganization,
  seedDemo,
  type SeedOptions,
  type SeedResult,
} from './seed';

type CliOptions = { learners?: number; seed: number; now?: Date; days?: number; batchSize?: number };

function parseCli(argv: string[]): CliOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      learners: { type: 'string' },
      seed: { type: 'string' },
      now: { type: 'string' },
      days: { type: 'string' },
      'batch-size': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      'usage: npm run seed -- [--learners N] [--seed S] [--now ISO-8601] [--days D] [--batch-size B]\n',
    );
    process.exit(0);
  }
  const positiveInteger = (name: string, raw: string | undefined): number | undefined => {
    if (raw === undefined) return undefined;
    if (!/^\d+$/.test(raw) || Number(raw) < 1)
      throw new Error(`--${name} must be a positive whole number (got "${raw}")`);
    return Number(raw);
  };
  const now = values.now === undefined ? undefined : new Date(values.now);
  if (now && Number.isNaN(now.getTime()))
    throw new Error(`--now must be an ISO 8601 date (got "${values.now}")`);
  const learners = positiveInteger('learners', values.learners);
  const days = positiveInteger('days', values.days);
  const batchSize = positiveInteger('batch-size', values['batch-size']);
  return {
    seed: values.seed === undefined ? DEFAULT_SEED : (positiveInteger('seed', values.seed) ?? DEFAULT_SEED),
    ...(learners === undefined ? {} : { learners }),
    ...(now === undefined ? {} : { now }),
    ...(days === undefined ? {} : { days }),
    ...(batchSize === undefined ? {} : { batchSize }),
  };
}

function printResult(result: SeedResult): void {
  const seconds = result.elapsedMs / 1000;
  process.stdout.write(
    `Seeded ${result.organizationName} (${result.subdomain}) in ${seconds.toFixed(1)} s: ` +
      `${result.totalRows.toLocaleString('en-US')} rows, ${Math.round(result.totalRows / seconds).toLocaleString('en-US')} rows/s\n`,
  );
  for (const [table, count] of Object.entries(result.counts)) {
    if (count > 0)
      process.stdout.write(`  ${table.padEnd(22)} ${count.toLocaleString('en-US').padStart(11)}\n`);
  }
  if (result.isOwnerCreated) {
    process.stdout.write(`Sign in as ${result.ownerEmail} / ${DEMO_OWNER.password}\n`);
  } else {
    process.stdout.write(`Owner: existing account ${result.ownerEmail}\n`);
  }
}

async function main(): Promise<void> {
  const options = parseCli(process.argv.slice(2));
  const { connection, lock, where } = await openCliDatabase();
  try {
    process.stdout.write(`Database: ${where}\n`);
    await runMigrations(connection);
    const seedOptions: SeedOptions = {
      seed: options.seed,
      hashPassword,
      checkpointWal: connection.kind === 'pglite',
      ...(options.now ? { now: options.now } : {}),
      ...(options.days ? { days: options.days } : {}),
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    };
    if (options.learners === undefined) {
      const [demo] = await connection.db
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.subdomain, DEMO_ORGANIZATION.subdomain))
        .limit(1);
      if (demo) {
        process.stdout.write(
          `The demo organization (${DEMO_ORGANIZATION.subdomain}) already exists; nothing to do. ` +
            'Use --learners N to add a benchmark organization.\n',
        );
        return;
      }
      printResult(await seedDemo(connection.db, seedOptions));
      return;
    }
    const organization = await nextBenchOrganization(connection.db);
    process.stdout.write(
      `Generating ${organization.name} with ${options.learners.toLocaleString('en-US')} learners...\n`,
    );
    let reported = 0;
    const began = performance.now();
    const result = await seedDemo(connection.db, {
      ...seedOptions,
      learners: options.learners,
      organization: { ...organization, ...benchOrganizationPlan(options.learners) },
      onProgress: ({ rows }) => {
        reported += rows;
        if (process.stdout.isTTY && reported % 100_000 < rows) {
          const seconds = (performance.now() - began) / 1000;
          process.stdout.write(`  ${reported.toLocaleString('en-US')} rows (${seconds.toFixed(0)} s)\r`);
        }
      },
    });
    printResult(result);
  } finally {
    await connection.close();
    lock?.release();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`seed failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
