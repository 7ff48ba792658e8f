import type { ActionSortKey, ActionType, MemberRole } from '@courselens/contracts';
import { and, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  actions,
  activityEvents,
  authUsers,
  courses,
  pipelines,
  userOrganizations,
  type Action as ActionRow,
  type NewAction,
} from '../../db/schema';
import { escapeLike } from '../variables/variables.queries';

export type { ActionRow };

/** An action with what the list and the detail show besides its own columns. */
export type ActionListRow = {
  id: string;
  name: string;
  description: string | null;
  action_type: string;
  config: Record<string, unknown>;
  active: boolean;
  created_by: string | null;
  created_by_name: string | null;
  used_by_pipelines: number;
  created_at: Date | string;
  updated_at: Date | string;
};

type ListFilter = { organizationId: string; q?: string | undefined; type?: ActionType | undefined };

function listConditions(filter: ListFilter & { actionId?: string }): SQL {
  const conditions: SQL[] = [sql`a.organization_id = ${filter.organizationId}`];
  if (filter.q) conditions.push(sql`a.name ilike ${`%${escapeLike(filter.q)}%`}`);
  if (filter.type) conditions.push(sql`a.action_type = ${filter.type}`);
  if (filter.actionId) conditions.push(sql`a.id = ${filter.actionId}`);
  return sql.join(conditions, sql` and `);
}

const SORT_COLUMNS: Record<ActionSortKey, string> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  name: 'name',
  type: 'action_type',
};

function listOrder(alias: 'a' | 'page', sort: ActionSortKey, order: 'asc' | 'desc'): SQL {
  const direction = sql.raw(order === 'asc' ? 'asc' : 'desc');
  const column = sql.raw(`${alias}.${SORT_COLUMNS[sort]}`);
  const key = sort === 'name' ? sql`lower(${column})` : column;
  // The newest first among equals, then the id: a stable order across pages.
  return sql`${key} ${direction}, ${sql.raw(alias)}.created_at desc, ${sql.raw(alias)}.id ${direction}`;
}

/**
 * A pipeline uses an action when one of its nodes carries the action's id
 * in `data.actionId` (jsonb containment: one element of `nodes` contains it).
 */
function usedByPipelines(alias: string): SQL {
  const row = sql.raw(alias);
  return sql`(select count(*) from ${pipelines} p
    where p.organization_id = ${row}.organization_id
      and p.nodes @> jsonb_build_array(jsonb_build_object('data', jsonb_build_object('actionId', ${row}.id::text))))::int`;
}

/** One page of the organization's actions, with their creator and how many pipelines use each. */
export async function selectActionPage(
  db: Database,
  input: ListFilter & { sort: ActionSortKey; order: 'asc' | 'desc'; limit: number; offset: number },
): Promise<ActionListRow[]> {
  const result = await db.execute<ActionListRow>(sql`
    with page as (
      select a.* from ${actions} a
      where ${listConditions(input)}
      order by ${listOrder('a', input.sort, input.order)}
      limit ${input.limit} offset ${input.offset}
    )
    select page.id, page.name, page.description, page.action_type, page.config, page.active,
           page.created_by, u.name as created_by_name, ${usedByPipelines('page')} as used_by_pipelines,
           page.created_at, page.updated_at
    from page
    left join ${authUsers} u on u.id = page.created_by
    order by ${listOrder('page', input.sort, input.order)}`);
  return result.rows;
}

export async function countActions(db: Database, filter: ListFilter): Promise<number> {
  const result = await db.execute<{ total: number }>(
    sql`select count(*)::int as total from ${actions} a where ${listConditions(filter)}`,
  );
  return result.rows[0]?.total ?? 0;
}

/** One action as the list shows it, or undefined. */
export async function selectActionListRow(
  db: Database,
  organizationId: string,
  actionId: string,
): Promise<ActionListRow | undefined> {
  const result = await db.execute<ActionListRow>(sql`
    select a.id, a.name, a.description, a.action_type, a.config, a.active, a.created_by,
           u.name as created_by_name, ${usedByPipelines('a')} as used_by_pipelines, a.created_at, a.updated_at
    from ${actions} a
    left join ${authUsers} u on u.id = a.created_by
    where ${listConditions({ organizationId, actionId })}`);
  return result.rows[0];
}

export async function findActionRow(
  db: Database,
  organizationId: string,
  actionId: string,
): Promise<ActionRow | undefined> {
  const [row] = await db
    .select()
    .from(actions)
    .where(and(eq(actions.organizationId, organizationId), eq(actions.id, actionId)))
    .limit(1);
  return row;
}

export async function insertActionRow(db: Database, values: NewAction & { id: string }): Promise<void> {
  await db.insert(actions).values(values);
}

export async function updateActionRow(
  db: Database,
  organizationId: string,
  actionId: string,
  values: Partial<Pick<NewAction, 'name' | 'description' | 'active' | 'config'>>,
): Promise<boolean> {
  const rows = await db
    .update(actions)
    .set(values)
    .where(and(eq(actions.organizationId, organizationId), eq(actions.id, actionId)))
    .returning({ id: actions.id });
  return rows.length > 0;
}

export async function deleteActionRow(
  db: Database,
  organizationId: string,
  actionId: string,
): Promise<boolean> {
  const rows = await db
    .delete(actions)
    .where(and(eq(actions.organizationId, organizationId), eq(actions.id, actionId)))
    .returning({ id: actions.id });
  return rows.length > 0;
}

export async function countPipelinesUsing(
  db: Database,
  organizationId: string,
  actionId: string,
): Promise<number> {
  const result = await db.execute<{ total: number }>(sql`
    select count(*)::int as total from ${pipelines} p
    where p.organization_id = ${organizationId}
      and p.nodes @> jsonb_build_array(jsonb_build_object('data', jsonb_build_object('actionId', ${actionId}::text)))`);
  return result.rows[0]?.total ?? 0;
}

/** Titles of live courses of the organization, by id. */
export async function findCourseTitles(
  db: Database,
  organizationId: string,
  courseIds: readonly string[],
): Promise<Map<string, string>> {
  if (courseIds.length === 0) return new Map();
  const rows = await db
    .select({ id: courses.id, title: courses.courseTitle })
    .from(courses)
    .where(
      and(
        eq(courses.organizationId, organizationId),
        inArray(courses.id, [...courseIds]),
        eq(courses.isDeleted, false),
      ),
    );
  return new Map(rows.map((row) => [row.id, row.title]));
}

/** The e-mail addresses of the organization's members with one of the roles. */
export async function listMemberEmails(
  db: Database,
  organizationId: string,
  roles: readonly MemberRole[],
): Promise<string[]> {
  if (roles.length === 0) return [];
  const rows = await db
    .select({ email: authUsers.email })
    .from(userOrganizations)
    .innerJoin(authUsers, eq(authUsers.id, userOrganizations.userId))
    .where(
      and(eq(userOrganizations.organizationId, organizationId), inArray(userOrganizations.role, [...roles])),
    );
  return rows.map((row) => row.email);
}

export async function findUserEmail(db: Database, userId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ email: authUsers.email })
    .from(authUsers)
    .where(eq(authUsers.id, userId))
    .limit(1);
  return row?.email;
}

/** The kind of the activity entry written for every e-mail an action sends (the frequency cap counts them). */
export const EMAIL_SENT_KIND = 'action.email_sent';

/** E-mails this action sent about one learner since `since`. */
export async function countEmailsSent(
  db: Database,
  input: { organizationId: string; actionId: string; learnerEmail: string; since: Date },
): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(activityEvents)
    .where(
      and(
        eq(activityEvents.organizationId, input.organizationId),
        eq(activityEvents.kind, EMAIL_SENT_KIND),
        gte(activityEvents.createdAt, input.since),
        eq(activityEvents.subjectId, input.actionId),
        sql`${activityEvents.details}->>'learnerEmail' = ${input.learnerEmail.toLowerCase()}`,
      ),
    );
  return row?.total ?? 0;
}
