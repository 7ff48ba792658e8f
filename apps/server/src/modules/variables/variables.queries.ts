import type { SortOrder, VariableSortKey } from '@courselens/contracts';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  activityEvents,
  courses,
  variables,
  type NewActivityEvent,
  type VariableDataType,
} from '../../db/schema';

export type VariableFilters = {
  organizationId: string;
  courseId?: string | undefined;
  q?: string | undefined;
  active?: boolean | undefined;
};

export type VariableRow = {
  id: string;
  name: string;
  title: string | null;
  description: string | null;
  data_type: VariableDataType;
  active: boolean;
  course_id: string;
  course_title: string;
  usage_count: number;
  learner_count: number;
  last_recorded_at: Date | string | null;
  created_at: Date | string;
};

/** `%`, `_` and `\` match themselves in a search. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Live variables (their course not deleted) of one organization, narrowed by the filters. */
function baseSelect(filters: VariableFilters): SQL {
  const conditions: SQL[] = [sql`v.organization_id = ${filters.organizationId}`, sql`not c.is_deleted`];
  if (filters.courseId) conditions.push(sql`v.course_id = ${filters.courseId}`);
  if (filters.active !== undefined) conditions.push(sql`v.active = ${filters.active}`);
  if (filters.q) {
    const pattern = `%${escapeLike(filters.q)}%`;
    conditions.push(sql`(v.name ilike ${pattern} or v.title ilike ${pattern})`);
  }
  return sql`
    select v.id, v.organization_id, v.name, v.title, v.description, v.data_type, v.active,
           v.course_id, c.course_title, v.created_at
    from ${variables} v
    join ${courses} c on c.organization_id = v.organization_id and c.id = v.course_id
    where ${sql.join(conditions, sql` and `)}`;
}

/**
 * How many values, from how many learners, and when the last came (the
 * spec's usage_count): one row of the rollup kept by a trigger on the values.
 */
const usageStats = (alias: string) => sql`
  left join lateral (
    select coalesce(max(st.usage_count), 0)::int as usage_count,
           coalesce(max(st.learner_count), 0)::int as learner_count,
           max(st.last_recorded_at) as last_recorded_at
    from variable_stats st
    where st.organization_id = ${sql.raw(alias)}.organization_id and st.variable_id = ${sql.raw(alias)}.id
  ) s on true`;

const AGGREGATE_SORTS: ReadonlySet<VariableSortKey> = new Set([
  'usageCount',
  'learnerCount',
  'lastRecordedAt',
]);

/** ORDER BY over the flattened columns of `baseSelect` (+ the stats), ties broken by id. */
function orderBy(sort: VariableSortKey, order: SortOrder): SQL {
  const direction = sql.raw(order === 'asc' ? 'asc' : 'desc');
  const nulls = sql.raw(order === 'asc' ? 'nulls first' : 'nulls last');
  switch (sort) {
    case 'name':
      return sql`lower(name) ${direction}, name ${direction}, id`;
    case 'course':
      return sql`lower(course_title) ${direction}, lower(name), id`;
    case 'dataType':
      return sql`data_type ${direction}, lower(name), id`;
    case 'active':
      return sql`active ${direction}, lower(name), id`;
    case 'createdAt':
      return sql`created_at ${direction}, id`;
    case 'usageCount':
      return sql`usage_count ${direction}, lower(name), id`;
    case 'learnerCount':
      return sql`learner_count ${direction}, lower(name), id`;
    case 'lastRecordedAt':
      return sql`last_recorded_at ${direction} ${nulls}, lower(name), id`;
  }
}

/**
 * One page of variables with their usage, or every matching row when `page`
 * is null (CSV export, capped by `limit`). Sorting by a column of the
 * variable pages first and counts values for that page only; sorting by
 * usage counts every variable's values (one index range each).
 */
export async function selectVariableRows(
  db: Database,
  filters: VariableFilters,
  sort: { sort: VariableSortKey; order: SortOrder },
  page: { limit: number; offset: number },
): Promise<VariableRow[]> {
  const order = orderBy(sort.sort, sort.order);
  const query = AGGREGATE_SORTS.has(sort.sort)
    ? sql`
        with base as (${baseSelect(filters)})
        select base.*, s.* from base ${usageStats('base')}
        order by ${order} limit ${page.limit} offset ${page.offset}`
    : sql`
        with page as (
          select * from (${baseSelect(filters)}) base
          order by ${order} limit ${page.limit} offset ${page.offset}
        )
        select page.*, s.* from page ${usageStats('page')}
        order by ${order}`;
  const result = await db.execute<VariableRow>(query);
  return result.rows;
}

export async function countVariables(db: Database, filters: VariableFilters): Promise<number> {
  const result = await db.execute<{ total: number }>(
    sql`select count(*)::int as total from (${baseSelect(filters)}) base`,
  );
  return result.rows[0]?.total ?? 0;
}

/** The courses (not deleted) that have variables, by title: the choices of the course filter. */
export async function selectCoursesWithVariables(db: Database, organizationId: string) {
  const result = await db.execute<{ id: string; course_title: string; variables: number }>(sql`
    select c.id, c.course_title, count(*)::int as variables
    from ${variables} v
    join ${courses} c on c.organization_id = v.organization_id and c.id = v.course_id
    where v.organization_id = ${organizationId} and not c.is_deleted
    group by c.id, c.course_title
    order by lower(c.course_title), c.id`);
  return result.rows;
}

/** The course a course sub-page names (not deleted), for its header. */
export async function findCourseHeading(db: Database, organizationId: string, courseId: string) {
  const [row] = await db
    .select({
      id: courses.id,
      courseTitle: courses.courseTitle,
      externalCourseId: courses.externalCourseId,
      description: courses.description,
    })
    .from(courses)
    .where(
      and(eq(courses.organizationId, organizationId), eq(courses.id, courseId), eq(courses.isDeleted, false)),
    )
    .limit(1);
  return row;
}

const variableColumns = {
  id: variables.id,
  name: variables.name,
  title: variables.title,
  description: variables.description,
  dataType: variables.dataType,
  active: variables.active,
  courseId: variables.courseId,
  updatedAt: variables.updatedAt,
};

export type VariableRecord = {
  id: string;
  name: string;
  title: string | null;
  description: string | null;
  dataType: VariableDataType;
  active: boolean;
  courseId: string;
  updatedAt: Date;
};

export type VariableUpdateOutcome =
  | { status: 'updated'; variable: VariableRecord; previous: VariableRecord }
  | { status: 'not-found' }
  | { status: 'name-changed' };

/**
 * Changes a variable of a live course in one transaction, with its activity
 * entry. The row is locked first; when `expectedName` is given the update
 * applies only while the name is still that one (the spec's "by id and name").
 */
export async function updateVariableRow(
  db: Database,
  input: {
    organizationId: string;
    variableId: string;
    expectedName: string | undefined;
    changes: { active?: boolean; description?: string | null };
    activity: (previous: VariableRecord, next: VariableRecord) => NewActivityEvent | null;
  },
): Promise<VariableUpdateOutcome> {
  return db.transaction(async (tx) => {
    const [previous] = await tx
      .select(variableColumns)
      .from(variables)
      .innerJoin(
        courses,
        and(eq(courses.organizationId, variables.organizationId), eq(courses.id, variables.courseId)),
      )
      .where(
        and(
          eq(variables.organizationId, input.organizationId),
          eq(variables.id, input.variableId),
          eq(courses.isDeleted, false),
        ),
      )
      .for('update', { of: variables })
      .limit(1);
    if (!previous) return { status: 'not-found' };
    if (input.expectedName !== undefined && previous.name !== input.expectedName) {
      return { status: 'name-changed' };
    }
    const conditions = [
      eq(variables.organizationId, input.organizationId),
      eq(variables.id, input.variableId),
    ];
    if (input.expectedName !== undefined) conditions.push(eq(variables.name, input.expectedName));
    const [variable] = await tx
      .update(variables)
      .set(input.changes)
      .where(and(...conditions))
      .returning(variableColumns);
    if (!variable) return { status: 'name-changed' };
    const activity = input.activity(previous, variable);
    if (activity) await tx.insert(activityEvents).values(activity);
    return { status: 'updated', variable, previous };
  });
}
