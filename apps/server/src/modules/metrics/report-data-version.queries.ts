import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';

/**
 * The organization's report data version: how many writing statements have
 * changed what the metrics layer reads (see `reportDataVersions` in
 * db/schema/rollups.ts). It only grows, and a committed change always moves
 * it, so a result computed after reading version V holds every change that V
 * counts. As text: the sum is a bigint.
 */
export async function selectReportDataVersion(db: Database, organizationId: string): Promise<string> {
  const rows = await db.execute<{ version: string | number }>(sql`
    select coalesce(sum(v.changes), 0)::text as version
    from report_data_versions v
    where v.organization_id = ${organizationId}`);
  return String(rows.rows[0]?.version ?? '0');
}

/**
 * Folds every backend's count into the organization's `backend = 0` row,
 * keeping each organization's sum: backends come and go (pooled connections
 * are replaced), and an organization would otherwise gather a row per
 * backend it ever had. Rows a writer holds are skipped (`skip locked`) and
 * folded next time, so the upkeep never waits for a writer, nor a writer for
 * it. An organization's rows go with it (a cascading key). Returns the
 * rows folded.
 */
export async function foldReportDataVersions(db: Database): Promise<number> {
  const rows = await db.execute<{ folded: number }>(sql`
    with taken as (
      select v.organization_id, v.backend from report_data_versions v
      where v.backend <> 0
      order by v.organization_id, v.backend
      for update skip locked),
    gone as (
      delete from report_data_versions v
      using taken t
      where v.organization_id = t.organization_id and v.backend = t.backend
      returning v.organization_id, v.changes),
    kept as (
      insert into report_data_versions as v (organization_id, backend, changes)
      select g.organization_id, 0, sum(g.changes) from gone g
      where exists (select 1 from organizations o where o.id = g.organization_id)
      group by g.organization_id
      order by g.organization_id
      on conflict on constraint report_data_versions_pk do update set changes = v.changes + excluded.changes
      returning 1)
    select (select count(*) from gone)::int as folded`);
  return Number(rows.rows[0]?.folded ?? 0);
}
