import {
  activityKindLabel,
  SYSTEM_ACTOR,
  type ActivityActor,
  type ActivityItem,
  type ParsedActivityExportQuery,
  type ParsedActivityQuery,
  type Paginated,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import type { CsvColumn } from '../../lib/csv';
import {
  countActivityRows,
  listActivityActorRows,
  listActivityRows,
  type ActivityFilter,
  type ActivityRow,
} from './activity.queries';

const DAY_MS = 86_400_000;

type ActivityFilterQuery = ParsedActivityExportQuery;

/** The query's filters as SQL bounds: `from` and `to` are whole UTC days, both included. */
export function toActivityFilter(query: ActivityFilterQuery): ActivityFilter {
  return {
    kinds: query.kind,
    actorUserId: query.actor === SYSTEM_ACTOR ? null : query.actor,
    from: query.from ? new Date(`${query.from}T00:00:00.000Z`) : undefined,
    before: query.to ? new Date(new Date(`${query.to}T00:00:00.000Z`).getTime() + DAY_MS) : undefined,
    search: query.q || undefined,
  };
}

export function toActivityItem(row: ActivityRow): ActivityItem {
  return {
    id: row.id,
    kind: row.kind,
    label: activityKindLabel(row.kind),
    summary: row.summary,
    subjectType: row.subjectType,
    subjectId: row.subjectId,
    details: row.details,
    createdAt: row.createdAt.toISOString(),
    actor:
      row.actorId === null
        ? null
        : { id: row.actorId, name: row.actorName ?? '', email: row.actorEmail ?? '' },
  };
}

/** A page of the organization's activity feed, newest first, with who did it. */
export async function listActivity(
  db: Database,
  organizationId: string,
  query: ParsedActivityQuery,
): Promise<Paginated<ActivityItem>> {
  const filter = toActivityFilter(query);
  const [rows, total] = await Promise.all([
    listActivityRows(db, organizationId, filter, {
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    }),
    countActivityRows(db, organizationId, filter),
  ]);
  return { items: rows.map(toActivityItem), total, page: query.page, pageSize: query.pageSize };
}

/** The latest `limit` activity rows (the dashboard's recent-activity card). */
export async function listRecentActivity(
  db: Database,
  organizationId: string,
  limit: number,
): Promise<ActivityItem[]> {
  const rows = await listActivityRows(db, organizationId, {}, { limit, offset: 0 });
  return rows.map(toActivityItem);
}

/** Every row the filters select (up to `limit`), for the CSV export. */
export async function listActivityForExport(
  db: Database,
  organizationId: string,
  query: ActivityFilterQuery,
  limit: number,
): Promise<ActivityItem[]> {
  const rows = await listActivityRows(db, organizationId, toActivityFilter(query), { limit, offset: 0 });
  return rows.map(toActivityItem);
}

export async function listActivityActors(db: Database, organizationId: string): Promise<ActivityActor[]> {
  return listActivityActorRows(db, organizationId);
}

export const ACTIVITY_CSV_COLUMNS: readonly CsvColumn<ActivityItem>[] = [
  { header: 'Time (UTC)', value: (item) => item.createdAt },
  { header: 'Activity', value: (item) => item.label },
  { header: 'Kind', value: (item) => item.kind },
  { header: 'Summary', value: (item) => item.summary },
  { header: 'Actor', value: (item) => item.actor?.name ?? 'System' },
  { header: 'Actor e-mail', value: (item) => item.actor?.email ?? '' },
  { header: 'Subject type', value: (item) => item.subjectType },
  { header: 'Subject id', value: (item) => item.subjectId },
];
