import { randomUUID } from 'node:crypto';
import { getTableColumns } from 'drizzle-orm';
import type { DatabaseConnection } from '../../apps/server/src/db/client';
import { learnerVariableValues } from '../../apps/server/src/db/schema';
import { BatchInserter } from '../../apps/server/src/db/seed/batch-inserter';
import { activityIds, buildCatalog, generateLearnerActivity } from '../../apps/server/src/db/seed/generate';
import type { SeedResult } from '../../apps/server/src/db/seed/seed';
import { multiRowInsert, openRawSession } from './raw-sql';

// Baselines for the generator's biggest table: the same learner_variable_values
// rows (regenerated from the seed's dataset, with fresh ids, referencing the
// learners, runs and variables the seed created) inserted by other means.

export type Timing = { rows: number; ms: number };

const VALUE_COLUMNS = Object.entries(getTableColumns(learnerVariableValues)).map(([key, column]) => ({
  key,
  name: column.name,
}));

/** Regenerates the seed's value rows, learner by learner, with new ids. */
function* regeneratedValues(seed: SeedResult): Generator<Record<string, unknown>> {
  const catalog = buildCatalog(seed.dataset);
  const ids = activityIds(seed.dataset.namespace);
  for (let index = 0; index < seed.dataset.learners; index += 1) {
    for (const value of generateLearnerActivity(seed.dataset, catalog, index, ids).values) {
      yield { ...value, id: randomUUID() };
    }
  }
}

/**
 * Plain multi-row `insert ... values (...)` text with literal values, sent
 * through the driver (no Drizzle, no parameters), `batchSize` rows per
 * statement, in one transaction. Only the time spent in the database counts
 * (building the SQL text does not).
 */
export async function insertValuesAsSqlText(
  connection: DatabaseConnection,
  seed: SeedResult,
  batchSize: number,
): Promise<Timing> {
  const session = await openRawSession(connection);
  let rows = 0;
  let ms = 0;
  const timed = async (text: string) => {
    const began = performance.now();
    const affected = await session.exec(text);
    ms += performance.now() - began;
    return affected;
  };
  try {
    await timed('begin');
    let batch: Record<string, unknown>[] = [];
    for (const value of regeneratedValues(seed)) {
      batch.push(value);
      if (batch.length === batchSize) {
        rows += await timed(multiRowInsert('learner_variable_values', VALUE_COLUMNS, batch));
        batch = [];
      }
    }
    if (batch.length > 0)
      rows += await timed(multiRowInsert('learner_variable_values', VALUE_COLUMNS, batch));
    await timed('commit');
  } catch (error) {
    await session.exec('rollback').catch(() => 0);
    throw error;
  } finally {
    session.release();
  }
  return { rows, ms };
}

/**
 * The database's own ceiling: as many value rows, produced inside the
 * database by one `insert ... select` over the seeded runs and their course's
 * variables (same table, same indexes, same three foreign keys).
 */
export async function insertValuesWithInsertSelect(
  connection: DatabaseConnection,
  seed: SeedResult,
  rows: number,
): Promise<Timing> {
  const session = await openRawSession(connection);
  try {
    const began = performance.now();
    const affected = await session.exec(`
      insert into learner_variable_values
        (organization_id, variable_id, learner_id, course_id, course_run_id, value, value_number, recorded_at, created_at, updated_at)
      select r.organization_id, v.id, r.learner_id, r.course_id, r.id, x.n::text, x.n, r.created_at, r.created_at, r.created_at
      from course_runs r
      join variables v on v.organization_id = r.organization_id and v.course_id = r.course_id
      cross join lateral (select (abs(hashtext(r.id::text || v.id::text)) % 101)::float8 as n) x
      where r.organization_id = '${seed.organizationId}'
      limit ${rows}`);
    return { rows: affected, ms: performance.now() - began };
  } finally {
    session.release();
  }
}

/** The same rows through Drizzle's multi-row VALUES (one parameter per cell), in one transaction; time inside the insert calls. */
export async function insertValuesWithDrizzleValues(
  connection: DatabaseConnection,
  seed: SeedResult,
  batchSize: number,
): Promise<Timing> {
  const inserter = new BatchInserter({ batchSize, mode: 'values' });
  await connection.db.transaction(async (tx) => {
    let batch: (typeof learnerVariableValues.$inferInsert)[] = [];
    for (const value of regeneratedValues(seed)) {
      batch.push(value as typeof learnerVariableValues.$inferInsert);
      if (batch.length === batchSize) {
        await inserter.insert(tx, learnerVariableValues, batch);
        batch = [];
      }
    }
    await inserter.insert(tx, learnerVariableValues, batch);
  });
  // Time inside the insert calls (Drizzle builds the statement, the driver sends it), as for the generator.
  const timing = inserter.timings.get('learner_variable_values');
  return { rows: timing?.rows ?? 0, ms: timing?.ms ?? 0 };
}
