import { and, count, desc, eq, gte, ilike, inArray, isNull, lt, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { activityEvents, authUsers } from '../../db/schema';

export type ActivityFilter = {
  kinds?: readonly string[] | undefined;
  /** A user id, or null for system activity (no actor). */
  actorUserId?: string | null | undefined;
  /** Inclusive lower bound. */
  from?: Date | undefined;
  /** Exclusive upper bound. */
  before?: Date | undefined;
  /** Substring of the summary, matched case-insensitively. */
  search?: string | undefined;
};

/** `%`, `_` and `\` typed by a person are literal characters, not LIKE wildcards. */
function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
}

/**
 * Every predicate starts with the organization, so the planner walks
 * `activity_events_org_created_idx` (or `..._org_kind_created_idx` for one
 * kind) newest first and stops at the page's end.
 */
function activityWhere(organizationId: string, filter: ActivityFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(activityEvents.organizationId, organizationId)];
  if (filter.kinds && filter.kinds.length > 0) {
    conditions.push(
      filter.kinds.length === 1
        ? eq(activityEvents.kind, filter.kinds[0] ?? '')
        : inArray(activityEvents.kind, [...filter.kinds]),
    );
  }
  if (filter.actorUserId === null) conditions.push(isNull(activityEvents.actorUserId));
  else if (filter.actorUserId) conditions.push(eq(activityEvents.actorUserId, filter.actorUserId));
  if (filter.from) conditions.push(gte(activityEvents.createdAt, filter.from));
  if (filter.before) conditions.push(lt(activityEvents.createdAt, filter.before));
  if (filter.search) conditions.push(ilike(activityEvents.summary, likeContains(filter.search)));
  return and(...conditions);
}

const activityColumns = {
  id: activityEvents.id,
  kind: activityEvents.kind,
  summary: activityEvents.summary,
  subjectType: activityEvents.subjectType,
  subjectId: activityEvents.subjectId,
  details: activityEvents.details,
  createdAt: activityEvents.createdAt,
  actorId: authUsers.id,
  actorName: authUsers.name,
  actorEmail: authUsers.email,
};

export type ActivityRow = {
  id: string;
  kind: string;
  summary: string | null;
  subjectType: string | null;
  subjectId: string | null;
  details: Record<string, unknown>;
  createdAt: Date;
  actorId: string | null;
  actorName: string | null;
  actorEmail: string | null;
};

/** One page of the feed, newest first (ties by id, so pages never overlap). */
export async function listActivityRows(
  db: Database,
  organizationId: string,
  filter: ActivityFilter,
  page: { limit: number; offset: number },
): Promise<ActivityRow[]> {
  return db
    .select(activityColumns)
    .from(activityEvents)
    .leftJoin(authUsers, eq(authUsers.id, activityEvents.actorUserId))
    .where(activityWhere(organizationId, filter))
    .orderBy(desc(activityEvents.createdAt), desc(activityEvents.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countActivityRows(
  db: Database,
  organizationId: string,
  filter: ActivityFilter,
): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(activityEvents)
    .where(activityWhere(organizationId, filter));
  return Number(row?.total ?? 0);
}

/** The people who appear in the organization's feed, by name. */
export async function listActivityActorRows(db: Database, organizationId: string) {
  const actors = db
    .selectDistinct({ actorUserId: activityEvents.actorUserId })
    .from(activityEvents)
    .where(eq(activityEvents.organizationId, organizationId))
    .as('actors');
  return db
    .select({ id: authUsers.id, name: authUsers.name, email: authUsers.email })
    .from(actors)
    .innerJoin(authUsers, eq(authUsers.id, actors.actorUserId))
    .orderBy(authUsers.name, authUsers.email);
}
