// Measures the learner list and detail queries on a large organization and
// prints their plans. Not part of the test suite:
//
//   bash scripts/with-postgres.sh bash -c \
//     'DATABASE_URL=$TEST_DATABASE_URL npm run seed -- --learners 100000 &&
//      DATABASE_URL=$TEST_DATABASE_URL npx tsx apps/server/src/modules/learners/learners.perf.ts'
//
// Options (environment): PERF_RUNS (default 15), PERF_EXPLAIN=1 prints
// `EXPLAIN (ANALYZE, BUFFERS)` of each list query, PERF_ORG=<organization id>
// (default: the organization with the most learners).
import { sql, type SQL } from 'drizzle-orm';
import { createDatabase } from '../../db/client';
import type { Database } from '../../db/client';
import {
  countLearnerRows,
  listLearnerCourseRows,
  listLearnerResponseRows,
  listLearnerRows,
  listLearnerVariableRows,
} from './learners.queries';
import {
  getLearner,
  listLearnerCourses,
  listLearnerResponses,
  listLearners,
  listLearnerVariables,
} from './learners.service';

const runs = Number(process.env.PERF_RUNS ?? 15);
const isExplaining = process.env.PERF_EXPLAIN === '1';

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

async function measure(label: string, work: () => Promise<unknown>): Promise<void> {
  await work(); // warm-up
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  process.stdout.write(
    `${label.padEnd(44)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(times, 95)
      .toFixed(1)
      .padStart(7)} ms\n`,
  );
}

/** A Database whose `execute` prints the plan of the statement instead of its rows. */
function explainingDb(db: Database, label: string): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'execute') return Reflect.get(target, property, receiver) as unknown;
      return async (query: SQL) => {
        const result = await target.execute<{ 'QUERY PLAN': string }>(
          sql`explain (analyze, buffers, costs off) ${query}`,
        );
        process.stdout.write(`\n--- ${label}\n${result.rows.map((row) => row['QUERY PLAN']).join('\n')}\n`);
        return { rows: [] };
      };
    },
  });
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('Set DATABASE_URL to the seeded PostgreSQL database');
  const connection = await createDatabase({ kind: 'postgres', url });
  const { db } = connection;
  try {
    const [organization] = (
      await db.execute<{ organization_id: string; learners: number }>(
        process.env.PERF_ORG
          ? sql`select ${process.env.PERF_ORG}::uuid as organization_id, count(*)::int as learners from learners where organization_id = ${process.env.PERF_ORG}`
          : sql`select organization_id, count(*)::int as learners from learners group by 1 order by 2 desc limit 1`,
      )
    ).rows;
    if (!organization) throw new Error('No learners in this database: seed it first');
    const organizationId = organization.organization_id;
    const total = organization.learners;
    const deepPage = Math.max(1, Math.floor(total / 25) - 10);
    process.stdout.write(
      `Organization ${organizationId}: ${total.toLocaleString('en-US')} learners; ${runs} runs each\n\n`,
    );

    const list = (query: Partial<Parameters<typeof listLearners>[1]>, page = 1) =>
      listLearners(
        db,
        { organizationId, sort: 'lastActivity', order: 'desc', ...query },
        { page, pageSize: 25 },
      );

    const [busiest] = (
      await db.execute<{ learner_id: string }>(
        sql`select learner_id from course_run_questions where organization_id = ${organizationId}
            group by learner_id order by count(*) desc limit 1`,
      )
    ).rows;
    const learnerId = busiest?.learner_id;

    await measure('list: first page (lastActivity desc)', () => list({}));
    await measure(`list: deep page ${deepPage} (lastActivity desc)`, () => list({}, deepPage));
    await measure('list: middle page 2000 (lastActivity desc)', () => list({}, 2000));
    await measure('list: search "ann" (prefix, name or e-mail)', () => list({ q: 'ann' }));
    await measure('list: search "zz" (no match)', () => list({ q: 'zz' }));
    await measure('list: search "ann", sort courses desc', () =>
      list({ q: 'ann', sort: 'courses', order: 'desc' }),
    );
    await measure('list: search "a" (broad), sort name', () => list({ q: 'a', sort: 'name', order: 'asc' }));
    for (const sort of ['name', 'email', 'courses', 'lastActivity', 'createdAt'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        await measure(`list: sort ${sort} ${order}, first page`, () => list({ sort, order }));
      }
    }
    await measure('list: sort courses desc, deep page', () =>
      list({ sort: 'courses', order: 'desc' }, deepPage),
    );
    await measure('list: sort name asc, deep page', () => list({ sort: 'name', order: 'asc' }, deepPage));
    await measure('list: count only', () => countLearnerRows(db, { organizationId }));
    await measure('export: all learners as rows (no CSV)', () =>
      listLearners(db, { organizationId, sort: 'name', order: 'asc' }, 'export'),
    );
    if (learnerId) {
      const detail = { organizationId, learnerId };
      await measure('learner: profile with totals', () => getLearner(db, detail));
      await measure('learner: courses', () =>
        listLearnerCourses(db, { ...detail, sort: 'lastAccess', order: 'desc' }, { page: 1, pageSize: 25 }),
      );
      await measure('learner: variables (latest per variable)', () =>
        listLearnerVariables(db, { ...detail, sort: 'name', order: 'asc' }, { page: 1, pageSize: 25 }),
      );
      await measure('learner: responses page 1', () =>
        listLearnerResponses(db, { ...detail, sort: 'answeredAt', order: 'desc' }, { page: 1, pageSize: 25 }),
      );
    }

    if (isExplaining) {
      const paging = { limit: 25, offset: 0 };
      const base = { organizationId, ...paging };
      const plans: [string, (db: Database) => Promise<unknown>][] = [
        [
          'first page, lastActivity desc',
          (x) => listLearnerRows(x, { ...base, sort: 'lastActivity', order: 'desc' }),
        ],
        [
          `deep page ${deepPage}, lastActivity desc`,
          (x) =>
            listLearnerRows(x, {
              ...base,
              offset: (deepPage - 1) * 25,
              sort: 'lastActivity',
              order: 'desc',
            }),
        ],
        ['name asc', (x) => listLearnerRows(x, { ...base, sort: 'name', order: 'asc' })],
        ['email desc', (x) => listLearnerRows(x, { ...base, sort: 'email', order: 'desc' })],
        ['createdAt asc', (x) => listLearnerRows(x, { ...base, sort: 'createdAt', order: 'asc' })],
        ['courses desc', (x) => listLearnerRows(x, { ...base, sort: 'courses', order: 'desc' })],
        [
          'search "ann"',
          (x) => listLearnerRows(x, { ...base, q: 'ann', sort: 'lastActivity', order: 'desc' }),
        ],
        ['count, search "ann"', (x) => countLearnerRows(x, { organizationId, q: 'ann' })],
        ['count, all', (x) => countLearnerRows(x, { organizationId })],
      ];
      if (learnerId) {
        const detail = { organizationId, learnerId, ...paging };
        plans.push(
          [
            'learner courses',
            (x) => listLearnerCourseRows(x, { ...detail, sort: 'lastAccess', order: 'desc' }),
          ],
          ['learner variables', (x) => listLearnerVariableRows(x, { ...detail, sort: 'name', order: 'asc' })],
          [
            'learner responses',
            (x) => listLearnerResponseRows(x, { ...detail, sort: 'answeredAt', order: 'desc' }),
          ],
        );
      }
      for (const [label, run] of plans) await run(explainingDb(db, label));
    }
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
