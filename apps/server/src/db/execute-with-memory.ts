import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './client';

export type StatementSettings = {
  /** Memory for the statement's sorts and hashes, e.g. '64MB' (PostgreSQL's default is 4 MB). */
  workMem: `${number}MB`;
  /** False turns JIT compilation off where compiling costs more than it saves. */
  jit?: boolean;
  /** False keeps the statement in one process, where parallel workers would hand back as many rows as they read. */
  parallel?: boolean;
  /**
   * False makes the planner hash wherever a sort is not the only way (`enable_sort` off), for a statement
   * whose row counts it underestimates, e.g. rows unnested from arrays, and would then sort many rows to group
   * them into few.
   */
  sort?: boolean;
};

/**
 * Runs one read statement in a transaction of its own with `work_mem` (and
 * JIT, parallel workers or sorts off, when asked) set for it alone: `set local`
 * ends with the transaction, so no pooled connection keeps the setting.
 */
export async function executeWithMemory<T extends Record<string, unknown>>(
  db: Database,
  statement: SQL,
  settings: StatementSettings,
): Promise<T[]> {
  if (!/^\d+MB$/.test(settings.workMem))
    throw new RangeError(`work_mem must be whole MB (got ${settings.workMem})`);
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local work_mem = '${settings.workMem}'`));
    if (settings.jit === false) await tx.execute(sql`set local jit = off`);
    if (settings.parallel === false) await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    if (settings.sort === false) await tx.execute(sql`set local enable_sort = off`);
    return (await tx.execute<T>(statement)).rows;
  });
}
