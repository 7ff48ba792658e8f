import { sql } from 'drizzle-orm';
import type { Database } from './client';
import { DISTRIBUTION_COLUMN, REFERENCE_TABLES } from './schema/distribution';

/** One way a table would stop the schema from being distributed by organization (decision 011). */
export type DistributionViolation = {
  table: string;
  /** The constraint or index at fault, when it is one. */
  object?: string;
  message: string;
};

type TableRow = { name: string; has_org: boolean; org_not_null: boolean | null };
type UniqueRow = {
  table: string;
  index: string;
  is_primary: boolean;
  has_org: boolean;
  definition: string;
};
type ForeignKeyRow = {
  name: string;
  table: string;
  referenced: string;
  src_org_position: number | null;
  dst_org_position: number | null;
  on_delete: string;
  on_update: string;
  sets_org_on_delete: boolean;
  definition: string;
};

/**
 * Reads the catalog of the public schema and lists every table, key and
 * foreign key that breaks the distribution rules:
 * 1. every table is a reference table (`REFERENCE_TABLES`) or a tenant table
 *    with `organization_id not null`; a tenant table's primary key and every
 *    unique index (constraints, partial and expression indexes alike) has
 *    `organization_id` among its key columns;
 * 2. a foreign key between tenant tables pairs `organization_id` with
 *    `organization_id`, and never sets it to null or a default (nor cascades
 *    an update of it);
 * 3. a reference table references no tenant table.
 * Partitions are checked through their parent (they inherit its keys), and
 * other schemas (drizzle's journal, pg-boss) are not ours to distribute.
 * An empty list means the schema distributes unchanged.
 */
export async function findDistributionViolations(
  db: Database,
  referenceTables: readonly string[] = Object.keys(REFERENCE_TABLES),
): Promise<DistributionViolation[]> {
  const column = DISTRIBUTION_COLUMN;
  const tables = await db.execute<TableRow>(sql`
    select c.relname as name, a.attnum is not null as has_org, a.attnotnull as org_not_null
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_attribute a on a.attrelid = c.oid and a.attname = ${column} and not a.attisdropped
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
    order by c.relname`);
  // Unique and exclusion indexes, primary keys included; only key columns
  // count (an INCLUDE column does not make a shard-local index unique).
  const uniques = await db.execute<UniqueRow>(sql`
    select t.relname as table, i.relname as index, x.indisprimary as is_primary,
      exists (
        select 1
        from unnest(x.indkey::int2[]) with ordinality as k(attnum, position)
        join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
        where a.attname = ${column} and k.position <= x.indnkeyatts
      ) as has_org,
      pg_get_indexdef(x.indexrelid) as definition
    from pg_index x
    join pg_class t on t.oid = x.indrelid
    join pg_class i on i.oid = x.indexrelid
    join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = 'public' and (x.indisunique or x.indisexclusion)
      and t.relkind in ('r', 'p') and not t.relispartition
    order by t.relname, i.relname`);
  const foreignKeys = await db.execute<ForeignKeyRow>(sql`
    select con.conname as name, src.relname as table, dst.relname as referenced,
      array_position(con.conkey, src_org.attnum) as src_org_position,
      array_position(con.confkey, dst_org.attnum) as dst_org_position,
      con.confdeltype as on_delete, con.confupdtype as on_update,
      (con.confdeltype in ('n', 'd') and src_org.attnum = any(coalesce(con.confdelsetcols, con.conkey)))
        as sets_org_on_delete,
      pg_get_constraintdef(con.oid) as definition
    from pg_constraint con
    join pg_class src on src.oid = con.conrelid
    join pg_class dst on dst.oid = con.confrelid
    join pg_namespace n on n.oid = src.relnamespace
    left join pg_attribute src_org on src_org.attrelid = src.oid and src_org.attname = ${column}
      and not src_org.attisdropped
    left join pg_attribute dst_org on dst_org.attrelid = dst.oid and dst_org.attname = ${column}
      and not dst_org.attisdropped
    where con.contype = 'f' and con.conparentid = 0 and n.nspname = 'public' and not src.relispartition
    order by src.relname, con.conname`);

  const reference = new Set(referenceTables);
  const existing = new Set(tables.rows.map((row) => row.name));
  const violations: DistributionViolation[] = [];
  for (const name of reference) {
    if (!existing.has(name)) {
      violations.push({ table: name, message: 'is listed as a reference table but does not exist' });
    }
  }

  const tenant = new Set<string>();
  for (const row of tables.rows) {
    if (reference.has(row.name)) continue;
    if (!row.has_org) {
      violations.push({
        table: row.name,
        message: `has no ${column} column and is not a reference table`,
      });
    } else if (!row.org_not_null) {
      violations.push({ table: row.name, message: `${column} is nullable in a tenant table` });
      tenant.add(row.name);
    } else {
      tenant.add(row.name);
    }
  }

  const withPrimaryKey = new Set<string>();
  for (const row of uniques.rows) {
    if (!tenant.has(row.table)) continue;
    if (row.is_primary) withPrimaryKey.add(row.table);
    if (!row.has_org) {
      violations.push({
        table: row.table,
        object: row.index,
        message: `${row.is_primary ? 'primary key' : 'unique index'} without ${column}: ${row.definition}`,
      });
    }
  }
  for (const name of tenant) {
    if (!withPrimaryKey.has(name)) {
      violations.push({ table: name, message: `tenant table without a primary key (include ${column})` });
    }
  }

  for (const row of foreignKeys.rows) {
    const fromTenant = tenant.has(row.table);
    const toTenant = !reference.has(row.referenced);
    if (!fromTenant && toTenant) {
      violations.push({
        table: row.table,
        object: row.name,
        message: `reference table references tenant table ${row.referenced}: ${row.definition}`,
      });
      continue;
    }
    if (!fromTenant || !toTenant) continue;
    if (row.src_org_position === null || row.src_org_position !== row.dst_org_position) {
      violations.push({
        table: row.table,
        object: row.name,
        message: `foreign key between tenant tables without ${column} on both sides: ${row.definition}`,
      });
    } else if (row.sets_org_on_delete) {
      violations.push({
        table: row.table,
        object: row.name,
        message: `foreign key would set ${column} to null or its default on delete (name the other columns: ON DELETE SET NULL (x_id)): ${row.definition}`,
      });
    } else if (['c', 'n', 'd'].includes(row.on_update)) {
      violations.push({
        table: row.table,
        object: row.name,
        message: `foreign key changes ${column} on update: ${row.definition}`,
      });
    }
  }
  return violations;
}

/** One line per violation, for a failing test or a deployment check. */
export function formatDistributionViolations(violations: readonly DistributionViolation[]): string {
  return violations.map((v) => `- ${v.table}${v.object ? ` (${v.object})` : ''}: ${v.message}`).join('\n');
}
