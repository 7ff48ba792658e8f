import type { CustomReportType, ReportChart, ReportItem } from '@courselens/contracts';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  activityEvents,
  authUsers,
  chatbotVariables,
  courses,
  customReportItems,
  customReports,
  questions,
  variables,
  type CustomReport as CustomReportRow,
  type NewActivityEvent,
} from '../../db/schema';
import { escapeLike } from '../variables/variables.queries';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
type Executor = Database | Transaction;

export type { CustomReportRow };

// ---- list --------------------------------------------------------------------

export type ReportListRow = {
  id: string;
  name: string;
  description: string | null;
  report_type: CustomReportType;
  is_public: boolean;
  view_count: number;
  item_count: number;
  created_by_name: string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

function listConditions(organizationId: string, q: string | undefined): SQL {
  const conditions: SQL[] = [sql`r.organization_id = ${organizationId}`];
  if (q) conditions.push(sql`r.name ilike ${`%${escapeLike(q)}%`}`);
  return sql.join(conditions, sql` and `);
}

function listOrder(
  alias: 'r' | 'page',
  sort: 'createdAt' | 'name' | 'updatedAt',
  order: 'asc' | 'desc',
): SQL {
  const direction = sql.raw(order === 'asc' ? 'asc' : 'desc');
  const column = sql.raw(
    `${alias}.${sort === 'name' ? 'name' : sort === 'createdAt' ? 'created_at' : 'updated_at'}`,
  );
  const key = sort === 'name' ? sql`lower(${column})` : column;
  return sql`${key} ${direction}, ${sql.raw(alias)}.id ${direction}`;
}

/** One page of the organization's reports, with how many items each has and who made it. */
export async function selectReportPage(
  db: Database,
  input: {
    organizationId: string;
    q: string | undefined;
    sort: 'createdAt' | 'name' | 'updatedAt';
    order: 'asc' | 'desc';
    limit: number;
    offset: number;
  },
): Promise<ReportListRow[]> {
  const result = await db.execute<ReportListRow>(sql`
    with page as (
      select r.* from ${customReports} r
      where ${listConditions(input.organizationId, input.q)}
      order by ${listOrder('r', input.sort, input.order)}
      limit ${input.limit} offset ${input.offset}
    )
    select page.id, page.name, page.description, page.report_type, page.is_public, page.view_count,
           page.created_at, page.updated_at, u.name as created_by_name,
           (select count(*) from ${customReportItems} x
             where x.organization_id = page.organization_id and x.report_id = page.id)::int
             as item_count
    from page
    left join ${authUsers} u on u.id = page.created_by
    order by ${listOrder('page', input.sort, input.order)}`);
  return result.rows;
}

export async function countReports(db: Database, organizationId: string, q: string | undefined) {
  const result = await db.execute<{ total: number }>(
    sql`select count(*)::int as total from ${customReports} r where ${listConditions(organizationId, q)}`,
  );
  return result.rows[0]?.total ?? 0;
}

// ---- one report ----------------------------------------------------------------

export async function findReport(
  db: Executor,
  organizationId: string,
  reportId: string,
): Promise<CustomReportRow | undefined> {
  const [row] = await db
    .select()
    .from(customReports)
    .where(and(eq(customReports.organizationId, organizationId), eq(customReports.id, reportId)))
    .limit(1);
  return row;
}

export async function findCreatorName(db: Database, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const result = await db.execute<{ name: string | null }>(
    sql`select name from ${authUsers} where id = ${userId}`,
  );
  return result.rows[0]?.name ?? null;
}

export type ReportItemRow = {
  id: string;
  display_order: number;
  display_name: string | null;
  chart: ReportChart;
  query: unknown;
};

/** A report's items in display order (their queries as stored: read them with `readItemQuery`). */
export async function selectReportItems(
  db: Executor,
  organizationId: string,
  reportId: string,
): Promise<ReportItemRow[]> {
  const rows = await db
    .select({
      id: customReportItems.id,
      display_order: customReportItems.displayOrder,
      display_name: customReportItems.displayName,
      chart: customReportItems.chart,
      query: customReportItems.query,
    })
    .from(customReportItems)
    .where(
      and(eq(customReportItems.organizationId, organizationId), eq(customReportItems.reportId, reportId)),
    )
    .orderBy(customReportItems.displayOrder, customReportItems.createdAt, customReportItems.id);
  return rows;
}

// ---- writes ------------------------------------------------------------------

export type ReportFields = {
  name: string;
  description: string | null;
  reportType: CustomReportType;
  config: Record<string, unknown>;
};

/** Everything the items name: ids of variables, agent variables, questions and courses, and variable names. */
function referencesOf(items: readonly ReportItem[]) {
  const variableIds = new Set<string>();
  const chatbotVariableIds = new Set<string>();
  const questionIds = new Set<string>();
  const courseIds = new Set<string>();
  const names = new Set<string>();
  for (const { query } of items) {
    const subject = query.subject;
    if (subject.kind === 'variable') subject.variableIds.forEach((id) => variableIds.add(id));
    if (subject.kind === 'chatbot_variable') {
      subject.chatbotVariableIds.forEach((id) => chatbotVariableIds.add(id));
    }
    if (subject.kind === 'question') questionIds.add(subject.questionId);
    if (subject.kind === 'identifier') courseIds.add(subject.courseId);
    if (subject.kind === 'questions' || subject.kind === 'courses') {
      subject.courseIds.forEach((id) => courseIds.add(id));
    }
    query.filters.courseIds.forEach((id) => courseIds.add(id));
    for (const activity of query.filters.activity) if (activity.courseId) courseIds.add(activity.courseId);
    if (query.breakdown.variableName) names.add(query.breakdown.variableName);
    for (const condition of query.filters.values)
      if (condition.variableName) names.add(condition.variableName);
  }
  return {
    variableIds: [...variableIds],
    chatbotVariableIds: [...chatbotVariableIds],
    questionIds: [...questionIds],
    courseIds: [...courseIds],
    names: [...names],
  };
}

/**
 * What the items name that the organization does not have (live): the first
 * kind found, or null. Also refuses one item reading variables of different
 * types (a number and a text cannot be averaged together).
 */
export async function findUnknownReferences(
  db: Executor,
  organizationId: string,
  items: readonly ReportItem[],
): Promise<UnknownKind | null> {
  const refs = referencesOf(items);
  const ids = (values: readonly string[]) => sql`any(${sql.param([...values])}::uuid[])`;
  // One after another: inside a transaction they share one connection.
  if (refs.variableIds.length > 0) {
    const result = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from ${variables} v
      join ${courses} c on c.organization_id = v.organization_id and c.id = v.course_id and not c.is_deleted
      where v.organization_id = ${organizationId} and v.id = ${ids(refs.variableIds)}`);
    if (Number(result.rows[0]?.n ?? 0) !== refs.variableIds.length) return 'variables';
    for (const { query } of items) {
      if (query.subject.kind !== 'variable' || query.subject.variableIds.length < 2) continue;
      const types = await db.execute<{ n: number }>(sql`
        select count(distinct data_type)::int as n from ${variables}
        where organization_id = ${organizationId} and id = ${ids(query.subject.variableIds)}`);
      if (Number(types.rows[0]?.n ?? 0) > 1) return 'mixedTypes';
    }
  }
  if (refs.chatbotVariableIds.length > 0) {
    const result = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from ${chatbotVariables} v
      where v.organization_id = ${organizationId} and v.id = ${ids(refs.chatbotVariableIds)}`);
    if (Number(result.rows[0]?.n ?? 0) !== refs.chatbotVariableIds.length) return 'chatbotVariables';
    for (const { query } of items) {
      if (query.subject.kind !== 'chatbot_variable' || query.subject.chatbotVariableIds.length < 2) continue;
      // A choice is stored, and read, as text.
      const types = await db.execute<{ n: number }>(sql`
        select count(distinct case when data_type = 'choice' then 'text' else data_type end)::int as n
        from ${chatbotVariables}
        where organization_id = ${organizationId} and id = ${ids(query.subject.chatbotVariableIds)}`);
      if (Number(types.rows[0]?.n ?? 0) > 1) return 'mixedChatbotTypes';
    }
  }
  if (refs.questionIds.length > 0) {
    const result = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from ${questions} q
      join ${courses} c on c.organization_id = q.organization_id and c.id = q.course_id and not c.is_deleted
      where q.organization_id = ${organizationId} and q.id = ${ids(refs.questionIds)}`);
    if (Number(result.rows[0]?.n ?? 0) !== refs.questionIds.length) return 'questions';
  }
  if (refs.courseIds.length > 0) {
    const result = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from ${courses}
      where organization_id = ${organizationId} and id = ${ids(refs.courseIds)} and not is_deleted`);
    if (Number(result.rows[0]?.n ?? 0) !== refs.courseIds.length) return 'courses';
  }
  if (refs.names.length > 0) {
    const result = await db.execute<{ n: number }>(sql`
      select count(distinct name)::int as n from ${variables}
      where organization_id = ${organizationId} and name = any(${sql.param(refs.names)}::text[])`);
    if (Number(result.rows[0]?.n ?? 0) !== refs.names.length) return 'variableNames';
  }
  return null;
}

async function insertItems(
  tx: Transaction,
  organizationId: string,
  reportId: string,
  items: readonly ReportItem[],
): Promise<void> {
  if (items.length === 0) return;
  await tx.insert(customReportItems).values(
    items.map((item, index) => ({
      organizationId,
      reportId,
      displayOrder: index,
      displayName: item.displayName,
      chart: item.chart,
      query: item.query,
    })),
  );
}

/**
 * Removes the items that read a course being deleted (its variables, its
 * questions, or the course itself), for "delete related reports". Returns
 * how many went.
 */
export async function deleteReportItemsOfCourse(
  tx: Executor,
  organizationId: string,
  courseId: string,
): Promise<number> {
  const result = await tx.execute<{ id: string }>(sql`
    delete from ${customReportItems} i
    where i.organization_id = ${organizationId} and (
      i.query -> 'subject' ->> 'courseId' = ${courseId}
      or i.query -> 'subject' -> 'courseIds' ? ${courseId}
      or i.query -> 'filters' -> 'courseIds' ? ${courseId}
      or i.query -> 'subject' ->> 'questionId' in (
        select q.id::text from ${questions} q where q.organization_id = ${organizationId} and q.course_id = ${courseId})
      or exists (
        select 1 from jsonb_array_elements_text(
          case when jsonb_typeof(i.query -> 'subject' -> 'variableIds') = 'array'
               then i.query -> 'subject' -> 'variableIds' else '[]'::jsonb end) as vid(id)
        join ${variables} v on v.organization_id = ${organizationId} and v.id::text = vid.id
        where v.course_id = ${courseId})
    )
    returning i.id`);
  return result.rows.length;
}

export type WriteOutcome = { status: 'ok'; reportId: string } | { status: 'unknown'; what: UnknownKind };
export type UnknownKind =
  | 'variables'
  | 'chatbotVariables'
  | 'questions'
  | 'courses'
  | 'variableNames'
  | 'mixedTypes'
  | 'mixedChatbotTypes';

/** A new report with its items and the activity entry, in one transaction. */
export async function insertReport(
  db: Database,
  input: {
    organizationId: string;
    userId: string;
    fields: ReportFields;
    items: readonly ReportItem[];
  },
): Promise<WriteOutcome> {
  return db.transaction(async (tx) => {
    const unknown = await findUnknownReferences(tx, input.organizationId, input.items);
    if (unknown) return { status: 'unknown', what: unknown };
    const [report] = await tx
      .insert(customReports)
      .values({ organizationId: input.organizationId, createdBy: input.userId, ...input.fields })
      .returning({ id: customReports.id });
    if (!report) throw new Error('insert returned no row');
    await insertItems(tx, input.organizationId, report.id, input.items);
    await tx.insert(activityEvents).values({
      organizationId: input.organizationId,
      actorUserId: input.userId,
      kind: 'report.created',
      subjectType: 'custom_report',
      subjectId: report.id,
      summary: `Report “${input.fields.name}” created`,
      details: { reportType: input.fields.reportType },
    });
    return { status: 'ok', reportId: report.id };
  });
}

/**
 * Replaces a report's fields and its whole item list in one transaction (the
 * row is locked first, so two saves do not interleave their items).
 */
export async function replaceReport(
  db: Database,
  input: { organizationId: string; reportId: string; fields: ReportFields; items: readonly ReportItem[] },
): Promise<WriteOutcome | { status: 'not-found' }> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: customReports.id })
      .from(customReports)
      .where(
        and(eq(customReports.organizationId, input.organizationId), eq(customReports.id, input.reportId)),
      )
      .for('update')
      .limit(1);
    if (!locked) return { status: 'not-found' };
    const unknown = await findUnknownReferences(tx, input.organizationId, input.items);
    if (unknown) return { status: 'unknown', what: unknown };
    await tx
      .update(customReports)
      .set(input.fields)
      .where(
        and(eq(customReports.organizationId, input.organizationId), eq(customReports.id, input.reportId)),
      );
    await tx
      .delete(customReportItems)
      .where(
        and(
          eq(customReportItems.organizationId, input.organizationId),
          eq(customReportItems.reportId, input.reportId),
        ),
      );
    await insertItems(tx, input.organizationId, input.reportId, input.items);
    return { status: 'ok', reportId: input.reportId };
  });
}

export async function deleteReportRow(db: Database, organizationId: string, reportId: string) {
  const rows = await db
    .delete(customReports)
    .where(and(eq(customReports.organizationId, organizationId), eq(customReports.id, reportId)))
    .returning({ id: customReports.id });
  return rows.length > 0;
}

/** A private copy of a report and its items (never its link or visits), by the caller. */
export async function duplicateReportRows(
  db: Database,
  input: { organizationId: string; reportId: string; userId: string; name: string },
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const source = await findReport(tx, input.organizationId, input.reportId);
    if (!source) return null;
    const [copy] = await tx
      .insert(customReports)
      .values({
        organizationId: input.organizationId,
        createdBy: input.userId,
        name: input.name,
        description: source.description,
        reportType: source.reportType,
        config: source.config,
      })
      .returning({ id: customReports.id });
    if (!copy) throw new Error('insert returned no row');
    await tx.execute(sql`
      insert into ${customReportItems} (organization_id, report_id, display_order, display_name, chart, query)
      select organization_id, ${copy.id}, display_order, display_name, chart, query
      from ${customReportItems}
      where organization_id = ${input.organizationId} and report_id = ${source.id}`);
    await tx.insert(activityEvents).values({
      organizationId: input.organizationId,
      actorUserId: input.userId,
      kind: 'report.created',
      subjectType: 'custom_report',
      subjectId: copy.id,
      summary: `Report “${input.name}” created as a copy of “${source.name}”`,
      details: { duplicateOf: source.id },
    });
    return copy.id;
  });
}

// ---- sharing -----------------------------------------------------------------

export type SharingRow = {
  isPublic: boolean;
  publicShareToken: string | null;
  viewCount: number;
  name: string;
};

/**
 * Sets a report's sharing: `token` null switches it off (the old link stops
 * working at once), a token switches it on with that link. Logs the change
 * when `activity` returns an entry.
 */
export async function updateSharing(
  db: Database,
  input: {
    organizationId: string;
    reportId: string;
    decide: (current: SharingRow) => { token: string | null } | null;
    activity: (previous: SharingRow, next: SharingRow) => NewActivityEvent | null;
  },
): Promise<SharingRow | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        isPublic: customReports.isPublic,
        publicShareToken: customReports.publicShareToken,
        viewCount: customReports.viewCount,
        name: customReports.name,
      })
      .from(customReports)
      .where(
        and(eq(customReports.organizationId, input.organizationId), eq(customReports.id, input.reportId)),
      )
      .for('update')
      .limit(1);
    if (!current) return null;
    const decision = input.decide(current);
    if (!decision) return current;
    const [next] = await tx
      .update(customReports)
      .set({ isPublic: decision.token !== null, publicShareToken: decision.token })
      .where(
        and(eq(customReports.organizationId, input.organizationId), eq(customReports.id, input.reportId)),
      )
      .returning({
        isPublic: customReports.isPublic,
        publicShareToken: customReports.publicShareToken,
        viewCount: customReports.viewCount,
        name: customReports.name,
      });
    if (!next) return null;
    const activity = input.activity(current, next);
    if (activity) await tx.insert(activityEvents).values(activity);
    return next;
  });
}

/**
 * The public report of `token`, counting the visit, or nothing when no
 * report is public with that token. One statement: a revoked or rotated
 * token matches no row.
 */
export async function claimPublicVisit(db: Database, token: string): Promise<CustomReportRow | undefined> {
  const [row] = await db
    .update(customReports)
    .set({ viewCount: sql`${customReports.viewCount} + 1`, updatedAt: sql`${customReports.updatedAt}` })
    .where(and(eq(customReports.publicShareToken, token), eq(customReports.isPublic, true)))
    .returning();
  return row;
}

/** The report behind a public link while it is public and the token is its current one, counting nothing. */
export async function findPublicReport(db: Database, token: string): Promise<CustomReportRow | undefined> {
  const [row] = await db
    .select()
    .from(customReports)
    .where(and(eq(customReports.publicShareToken, token), eq(customReports.isPublic, true)));
  return row;
}

// ---- catalog -----------------------------------------------------------------

/** The most of each kind the catalog lists (pickers search within it). */
export const CATALOG_LIMIT = 2000;

export async function selectCatalog(db: Database, organizationId: string) {
  const [courseRows, variableRows, questionRows] = await Promise.all([
    db.execute<{ id: string; course_title: string }>(sql`
      select id, course_title from ${courses}
      where organization_id = ${organizationId} and not is_deleted
      order by lower(course_title), id limit ${CATALOG_LIMIT}`),
    db.execute<{
      id: string;
      name: string;
      title: string | null;
      data_type: string;
      course_id: string;
      course_title: string;
    }>(sql`
      select v.id, v.name, v.title, v.data_type, v.course_id, c.course_title
      from ${variables} v join ${courses} c on c.organization_id = v.organization_id and c.id = v.course_id
      where v.organization_id = ${organizationId} and not c.is_deleted
      order by lower(c.course_title), lower(v.name), v.id limit ${CATALOG_LIMIT}`),
    db.execute<{
      id: string;
      course_id: string;
      course_title: string;
      slide_number: number | null;
      question_number: number | null;
      question_text: string | null;
    }>(sql`
      select q.id, q.course_id, c.course_title, q.slide_number, q.question_number, q.question_text
      from ${questions} q join ${courses} c on c.organization_id = q.organization_id and c.id = q.course_id
      where q.organization_id = ${organizationId} and not c.is_deleted
      order by lower(c.course_title), q.slide_number nulls last, q.question_number nulls last, q.id
      limit ${CATALOG_LIMIT}`),
  ]);
  return { courses: courseRows.rows, variables: variableRows.rows, questions: questionRows.rows };
}

/** Text values a category variable takes at most to be offered by name ("for Sales"). */
const CATALOG_VALUES_PER_VARIABLE = 20;
/** Latest values looked at per variable to tell a category from free text. */
const CATALOG_VALUE_SAMPLE = 2000;

/**
 * The values of text variables that behave like categories (a department,
 * a region): a few short values, none like an e-mail address. Free text
 * (feedback) never qualifies, so no learner's words reach the generator or
 * a language model. A sample of each variable's latest values decides.
 */
export async function selectCatalogValues(
  db: Database,
  organizationId: string,
): Promise<{ variableName: string; values: string[] }[]> {
  const result = await db.execute<{ name: string; value: string; n: number }>(sql`
    with text_variables as (
      select v.id, v.name from ${variables} v
      join ${courses} c on c.organization_id = v.organization_id and c.id = v.course_id and not c.is_deleted
      where v.organization_id = ${organizationId} and v.data_type = 'text'
    ),
    sampled as (
      select t.name, btrim(s.value) as value
      from text_variables t
      cross join lateral (
        select lv.value from learner_variable_latest lv
        where lv.organization_id = ${organizationId} and lv.variable_id = t.id
        limit ${CATALOG_VALUE_SAMPLE}
      ) s
    ),
    counted as (
      select name, value, count(*)::int as n, count(*) over (partition by name) as kinds,
             bool_or(length(value) > 40 or value like '%@%') over (partition by name) as is_free_text
      from sampled where value <> '' group by name, value
    )
    select name, value, n from counted
    where kinds <= ${CATALOG_VALUES_PER_VARIABLE} and not is_free_text
    order by lower(name), n desc, value`);
  const byName = new Map<string, string[]>();
  for (const row of result.rows) {
    const values = byName.get(row.name) ?? [];
    values.push(row.value);
    byName.set(row.name, values);
  }
  return [...byName].map(([variableName, values]) => ({ variableName, values }));
}
