import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../client';

export type TableTiming = { rows: number; statements: number; ms: number };

/** Rows per INSERT statement. */
export const DEFAULT_BATCH_SIZE = 1000;

/**
 * How a batch becomes one statement:
 * - `unnest` (default): `insert into t (cols) select * from unnest($1::uuid[], $2::text[], ...)`,
 *   one array parameter per column. The statement text and the parameter count
 *   stay the same whatever the batch size, so there is no 13 000-parameter
 *   VALUES list to build, send, parse and plan: on both engines it costs about
 *   what the same rows cost in an `insert ... select`.
 * - `values`: Drizzle's multi-row `insert ... values (...), (...)` (one parameter
 *   per cell), kept for comparison in the benchmark.
 */
export type InsertMode = 'unnest' | 'values';

/**
 * Inserts rows in multi-row statements of `batchSize` rows through Drizzle and
 * keeps, per table, how many rows and statements it sent and how long they took.
 */
export class BatchInserter {
  readonly timings = new Map<string, TableTiming>();

  constructor(
    private readonly options: {
      batchSize?: number;
      mode?: InsertMode;
      onRows?: (table: string, rows: number) => void;
    } = {},
  ) {}

  async insert<TTable extends PgTable>(
    db: Database,
    table: TTable,
    rows: readonly TTable['$inferInsert'][],
  ): Promise<void> {
    const batchSize = this.options.batchSize ?? DEFAULT_BATCH_SIZE;
    const name = getTableName(table);
    for (let start = 0; start < rows.length; start += batchSize) {
      const batch = rows.slice(start, start + batchSize);
      const began = performance.now();
      if (this.options.mode === 'values') {
        await db.insert(table).values(batch);
      } else {
        await insertWithUnnest(db, table, batch);
      }
      const timing = this.timings.get(name) ?? { rows: 0, statements: 0, ms: 0 };
      timing.rows += batch.length;
      timing.statements += 1;
      timing.ms += performance.now() - began;
      this.timings.set(name, timing);
      this.options.onRows?.(name, batch.length);
    }
  }

  totalRows(): number {
    let total = 0;
    for (const timing of this.timings.values()) total += timing.rows;
    return total;
  }
}

/**
 * One `insert ... select * from unnest(...)` for the rows. Columns no row sets
 * are left out (their database default applies); a column some rows set and
 * others leave undefined gets its Drizzle default function, or null.
 */
export async function insertWithUnnest<TTable extends PgTable>(
  db: Database,
  table: TTable,
  rows: readonly TTable['$inferInsert'][],
): Promise<void> {
  if (rows.length === 0) return;
  const records = rows as readonly Record<string, unknown>[];
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(([key]) =>
    records.some((row) => row[key] !== undefined),
  );
  const arrays = columns.map(([key, column]) =>
    records.map((row) => {
      let value = row[key];
      if (value === undefined && column.defaultFn) value = column.defaultFn();
      if (value === undefined && column.hasDefault) {
        throw new Error(`${getTableName(table)}.${column.name}: set it on every row of a batch or on none`);
      }
      return value === undefined || value === null ? null : column.mapToDriverValue(value);
    }),
  );
  const names = sql.join(
    columns.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  );
  const unnestArguments = sql.join(
    columns.map(([, column], index) => sql`${sql.param(arrays[index])}::${sql.raw(column.getSQLType())}[]`),
    sql`, `,
  );
  await db.execute(sql`insert into ${table} (${names}) select * from unnest(${unnestArguments})`);
}
