import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabaseConnection } from '../test/database';
import { enableLearnerParts, inLearnerParts, learnerInPart, learnerPartsOf } from './learner-parts';
import { seedDemo } from './seed/seed';

let connection: TestDatabaseConnection;
let migrated: TestDatabaseConnection;

beforeAll(async () => {
  connection = await createTestDatabase({ isEmpty: true });
  migrated = await createTestDatabase();
  await seedDemo(migrated.db, {
    now: new Date('2026-11-20T12:00:00Z'),
    learners: 150,
    seed: 5,
    hashPassword: async (password) => `plain:${password}`,
  });
});

afterAll(async () => {
  await connection.close();
  await migrated.close();
});

describe('learner parts', () => {
  it('puts each learner in exactly one share, and shares of about equal size', async () => {
    const { db } = connection;
    for (const of of [2, 3, 7]) {
      const shares = Array.from(
        { length: of },
        (_, index) => sql`(${learnerInPart(sql`id`, { index, of })})::int`,
      );
      const result = await db.execute<{ total: number; once: number; first: number }>(sql`
        with ids as (select gen_random_uuid() as id from generate_series(1, 6000)),
        counted as (select ${sql.join(shares, sql` + `)} as shares, ${shares[0]} as first from ids)
        select count(*)::int as total, count(*) filter (where shares = 1)::int as once,
               sum(first)::int as first
        from counted`);
      const row = result.rows[0];
      expect(row?.total).toBe(6000);
      expect(row?.once).toBe(6000);
      // Share 0 holds about 1/of of 6 000 random ids (well within ±20 %).
      expect(row?.first).toBeGreaterThan((6000 / of) * 0.8);
      expect(row?.first).toBeLessThan((6000 / of) * 1.2);
    }
  });

  it('spreads sequential ids too', async () => {
    const result = await connection.db.execute<{ first: number }>(sql`
      select count(*) filter (where ${learnerInPart(sql`id`, { index: 0, of: 2 })})::int as first
      from (select ('00000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid as id
            from generate_series(1, 4000) as n) ids`);
    expect(result.rows[0]?.first).toBeGreaterThan(1600);
    expect(result.rows[0]?.first).toBeLessThan(2400);
  });

  it('runs a statement once per share when enabled, else once whole', async () => {
    const { db } = connection;
    expect(learnerPartsOf(db)).toBe(1);
    expect(await inLearnerParts(db, async (part) => part)).toEqual([undefined]);
    enableLearnerParts(db, 3);
    try {
      expect(await inLearnerParts(db, async (part) => part)).toEqual([
        { index: 0, of: 3 },
        { index: 1, of: 3 },
        { index: 2, of: 3 },
      ]);
    } finally {
      enableLearnerParts(db, 1);
    }
    expect(() => enableLearnerParts(db, 0)).toThrow(RangeError);
  });

  it('lets the planner expect about a share of the rows of each table read in shares', async () => {
    // A share planned as a sliver of its rows gets sorts and loops meant for a few hundred rows.
    const { db } = migrated;
    await db.execute(sql`analyze course_runs, course_learners, learner_answer_hours`);
    for (const table of ['course_runs', 'course_learners', 'learner_answer_hours']) {
      for (const of of [2, 3]) {
        for (let index = 0; index < of; index += 1) {
          const where = learnerInPart(sql`learner_id`, { index, of });
          const counted = await db.execute<{ n: number; total: number }>(sql`
            select count(*) filter (where ${where})::int as n, count(*)::int as total
            from ${sql.identifier(table)}`);
          const { n, total } = counted.rows[0]!;
          expect(total, table).toBeGreaterThan(200);
          const plan = await db.execute<{ 'QUERY PLAN': string }>(
            sql`explain select * from ${sql.identifier(table)} where ${where}`,
          );
          const expected = Number(/rows=(\d+)/.exec(plan.rows[0]!['QUERY PLAN'])?.[1]);
          expect(expected, `${table}, share ${index + 1} of ${of}`).toBeGreaterThan(n / 2);
          expect(expected, `${table}, share ${index + 1} of ${of}`).toBeLessThan(n * 2);
        }
      }
    }
  });
});
