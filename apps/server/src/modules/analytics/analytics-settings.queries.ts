import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { jsonColumn } from '../../db/json-column';
import { analyticsSettings, courses } from '../../db/schema';

export type SettingsRow = { config: unknown; updated_at: Date | string | null };

export async function selectSettingsRow(
  db: Database,
  organizationId: string,
): Promise<SettingsRow | undefined> {
  const result = await db.execute<SettingsRow>(sql`
    select config, updated_at from ${analyticsSettings} where organization_id = ${organizationId}`);
  const row = result.rows[0];
  return row ? { config: jsonColumn(row.config, {}), updated_at: row.updated_at } : undefined;
}

export async function upsertSettingsRow(
  db: Database,
  organizationId: string,
  config: Record<string, unknown>,
) {
  await db.execute(sql`
    insert into ${analyticsSettings} (organization_id, config)
    values (${organizationId}, ${JSON.stringify(config)}::jsonb)
    on conflict (organization_id) do update set config = excluded.config, updated_at = now()`);
}

/** Live courses among `courseIds`, with their titles. */
export async function selectCourseTitles(db: Database, organizationId: string, courseIds: readonly string[]) {
  if (courseIds.length === 0) return [];
  const result = await db.execute<{ id: string; title: string }>(sql`
    select id, course_title as title from ${courses}
    where organization_id = ${organizationId} and id = any(${sql.param([...courseIds])}::uuid[])
      and not is_deleted
    order by course_title`);
  return result.rows;
}
