import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';

/**
 * What a refused request may still write, by design: the rate limiter counts
 * failed attempts (that is its job), a session's expiry slides on every
 * authenticated call and an API key's last use is stamped when it
 * authenticates, whatever the answer. Everything else of those rows counts.
 */
const WRITTEN_BY_ANY_REQUEST = new Set(['rate_limit_buckets']);
const COLUMNS_WRITTEN_BY_ANY_REQUEST: Record<string, readonly string[]> = {
  auth_session: ['expires_at', 'updated_at'],
  api_keys: ['last_used_at', 'updated_at'],
};

/**
 * The content of every table of the public schema, as one string per table
 * (row count and an order-independent hash of the rows): equal before and
 * after a request means it changed nothing. Cheap on a test database of a
 * few hundred rows.
 */
export async function databaseFingerprint(db: Database): Promise<Map<string, string>> {
  const tables = await db.execute<{ name: string }>(sql`
    select c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
      and c.relname not like '\_\_drizzle%'
    order by c.relname`);
  const names = tables.rows.map((row) => row.name).filter((name) => !WRITTEN_BY_ANY_REQUEST.has(name));
  const parts = names.map((name) => {
    const ignored = (COLUMNS_WRITTEN_BY_ANY_REQUEST[name] ?? []).map((column) => ` - '${column}'`).join('');
    const row = `md5((to_jsonb(t)${ignored})::text)`;
    return `select '${name}' as name, count(*) || ':' || coalesce(md5(string_agg(${row}, '' order by ${row})), '') as digest from "${name}" t`;
  });
  const result = await db.execute<{ name: string; digest: string }>(sql.raw(parts.join(' union all ')));
  return new Map(result.rows.map((row) => [row.name, row.digest]));
}

/** The tables whose content differs between two fingerprints (empty: nothing was written). */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}

/**
 * A counter that moves whenever any transaction wrote (it is the next
 * transaction id, which only writing transactions consume): when it has not
 * moved, the fingerprint cannot have changed and need not be computed again.
 * On PostgreSQL it is cluster-wide, so other test files move it too; that
 * only costs a fingerprint, never a false alarm.
 */
export async function writeCounter(db: Database): Promise<string> {
  const result = await db.execute<{ xmax: string }>(
    sql`select pg_snapshot_xmax(pg_current_snapshot())::text as xmax`,
  );
  return result.rows[0]?.xmax ?? '';
}
