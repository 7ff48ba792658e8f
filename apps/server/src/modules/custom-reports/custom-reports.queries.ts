import type { ComparisonType, CustomReportType, ReportItem } from '@courselens/contracts';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  activityEvents,
  authUsers,
  courses,
  customReportQuestionIdentifiers,
  customReportQuestions,
  customReportVariables,
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
           ((select count(*) from ${customReportVariables} x
              where x.organization_id = page.organization_id and x.report_id = page.id)
            + (select count(*) from ${customReportQuestions} x
              where x.organization_id = page.organization_id and x.report_id = page.id)
            + (select count(*) from ${customReportQuestionIdentifiers} x
              where x.organization_id = page.organization_id and x.report_id = page.id))::int
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
  kind: 'variable' | 'question' | 'identifier';
  display_order: number;
  display_name: string | null;
  comparison_type: ComparisonType;
  variable_id: string | null;
  question_id: string | null;
  course_id: string | null;
  slide_number: number | null;
  question_number: number | null;
  question_text: string | null;
  variable_name: string | null;
  variable_title: string | null;
  data_type: string | null;
  course_title: string | null;
  /** False when the item's course was deleted (kept with "keep related reports"). */
  available: boolean;
};

/** A report's items of the three kinds, in display order, with what they point at. */
export async function selectReportItems(
  db: Executor,
  organizationId: string,
  reportId: string,
): Promise<ReportItemRow[]> {
  const result = await db.execute<ReportItemRow>(sql`
    select * from (
      select rv.id, 'variable' as kind, rv.display_order, rv.display_name, rv.comparison_type,
             rv.variable_id, null::uuid as question_id, v.course_id,
             null::int as slide_number, null::int as question_number, null::text as question_text,
             v.name as variable_name, v.title as variable_title, v.data_type,
             c.course_title, not c.is_deleted as available, rv.created_at
      from ${customReportVariables} rv
      join ${variables} v on v.organization_id = rv.organization_id and v.id = rv.variable_id
      join ${courses} c on c.organization_id = v.organization_id and c.id = v.course_id
      where rv.organization_id = ${organizationId} and rv.report_id = ${reportId}
      union all
      select rq.id, 'question', rq.display_order, rq.display_name, rq.comparison_type,
             null, rq.question_id, q.course_id, q.slide_number, q.question_number, q.question_text,
             null, null, null, c.course_title, not c.is_deleted, rq.created_at
      from ${customReportQuestions} rq
      join ${questions} q on q.organization_id = rq.organization_id and q.id = rq.question_id
      join ${courses} c on c.organization_id = q.organization_id and c.id = q.course_id
      where rq.organization_id = ${organizationId} and rq.report_id = ${reportId}
      union all
      select ri.id, 'identifier', ri.display_order, ri.display_name, ri.comparison_type,
             null, null, ri.course_id, ri.slide_number, ri.question_number, ri.question_text,
             null, null, null, c.course_title, not c.is_deleted, ri.created_at
      from ${customReportQuestionIdentifiers} ri
      join ${courses} c on c.organization_id = ri.organization_id and c.id = ri.course_id
      where ri.organization_id = ${organizationId} and ri.report_id = ${reportId}
    ) items
    order by display_order, created_at, id`);
  return result.rows.map((row) => ({
    ...row,
    display_order: Number(row.display_order),
    slide_number: row.slide_number === null ? null : Number(row.slide_number),
    question_number: row.question_number === null ? null : Number(row.question_number),
  }));
}

// ---- writes ------------------------------------------------------------------

export type ReportFields = {
  name: string;
  description: string | null;
  reportType: CustomReportType;
  config: Record<string, unknown>;
};

/** Ids among `ids` that are not live rows of the organization (variables, questions) or live courses. */
export async function findUnknownIds(
  db: Executor,
  organizationId: string,
  items: readonly ReportItem[],
): Promise<{ variables: boolean; questions: boolean; courses: boolean }> {
  const variableIds = items.flatMap((item) => (item.kind === 'variable' ? [item.variableId] : []));
  const questionIds = items.flatMap((item) => (item.kind === 'question' ? [item.questionId] : []));
  const courseIds = [
    ...new Set(items.flatMap((item) => (item.kind === 'identifier' ? [item.courseId] : []))),
  ];
  const count = async (query: PromiseLike<{ n: number }[]>) => Number((await query)[0]?.n ?? 0);
  // One after another: inside a transaction they share one connection.
  const [liveVariables, liveQuestions, liveCourses] = [
    variableIds.length === 0
      ? 0
      : await count(
          db
            .select({ n: sql<number>`count(*)::int` })
            .from(variables)
            .innerJoin(
              courses,
              and(eq(courses.organizationId, variables.organizationId), eq(courses.id, variables.courseId)),
            )
            .where(
              and(
                eq(variables.organizationId, organizationId),
                inArray(variables.id, variableIds),
                eq(courses.isDeleted, false),
              ),
            ),
        ),
    questionIds.length === 0
      ? 0
      : await count(
          db
            .select({ n: sql<number>`count(*)::int` })
            .from(questions)
            .innerJoin(
              courses,
              and(eq(courses.organizationId, questions.organizationId), eq(courses.id, questions.courseId)),
            )
            .where(
              and(
                eq(questions.organizationId, organizationId),
                inArray(questions.id, questionIds),
                eq(courses.isDeleted, false),
              ),
            ),
        ),
    courseIds.length === 0
      ? 0
      : await count(
          db
            .select({ n: sql<number>`count(*)::int` })
            .from(courses)
            .where(
              and(
                eq(courses.organizationId, organizationId),
                inArray(courses.id, courseIds),
                eq(courses.isDeleted, false),
              ),
            ),
        ),
  ];
  return {
    variables: liveVariables !== variableIds.length,
    questions: liveQuestions !== questionIds.length,
    courses: liveCourses !== courseIds.length,
  };
}

async function insertItems(
  tx: Transaction,
  organizationId: string,
  reportId: string,
  items: readonly ReportItem[],
): Promise<void> {
  const common = (item: ReportItem, displayOrder: number) => ({
    organizationId,
    reportId,
    displayOrder,
    displayName: item.displayName,
    comparisonType: item.comparisonType,
  });
  const variableRows = items.flatMap((item, index) =>
    item.kind === 'variable' ? [{ ...common(item, index), variableId: item.variableId }] : [],
  );
  const questionRows = items.flatMap((item, index) =>
    item.kind === 'question' ? [{ ...common(item, index), questionId: item.questionId }] : [],
  );
  const identifierRows = items.flatMap((item, index) =>
    item.kind === 'identifier'
      ? [
          {
            ...common(item, index),
            courseId: item.courseId,
            slideNumber: item.slideNumber,
            questionNumber: item.questionNumber,
            questionText: item.questionText,
          },
        ]
      : [],
  );
  if (variableRows.length > 0) await tx.insert(customReportVariables).values(variableRows);
  if (questionRows.length > 0) await tx.insert(customReportQuestions).values(questionRows);
  if (identifierRows.length > 0) await tx.insert(customReportQuestionIdentifiers).values(identifierRows);
}

export type WriteOutcome = { status: 'ok'; reportId: string } | { status: 'unknown'; what: UnknownKind };
export type UnknownKind = 'variables' | 'questions' | 'courses';

function firstUnknown(unknown: Record<UnknownKind, boolean>): UnknownKind | null {
  if (unknown.variables) return 'variables';
  if (unknown.questions) return 'questions';
  if (unknown.courses) return 'courses';
  return null;
}

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
    const unknown = firstUnknown(await findUnknownIds(tx, input.organizationId, input.items));
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
    const unknown = firstUnknown(await findUnknownIds(tx, input.organizationId, input.items));
    if (unknown) return { status: 'unknown', what: unknown };
    await tx
      .update(customReports)
      .set(input.fields)
      .where(
        and(eq(customReports.organizationId, input.organizationId), eq(customReports.id, input.reportId)),
      );
    for (const table of [customReportVariables, customReportQuestions, customReportQuestionIdentifiers]) {
      await tx
        .delete(table)
        .where(and(eq(table.organizationId, input.organizationId), eq(table.reportId, input.reportId)));
    }
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
      insert into ${customReportVariables}
        (organization_id, report_id, variable_id, display_order, display_name, comparison_type)
      select organization_id, ${copy.id}, variable_id, display_order, display_name, comparison_type
      from ${customReportVariables}
      where organization_id = ${input.organizationId} and report_id = ${source.id}`);
    await tx.execute(sql`
      insert into ${customReportQuestions}
        (organization_id, report_id, question_id, display_order, display_name, comparison_type)
      select organization_id, ${copy.id}, question_id, display_order, display_name, comparison_type
      from ${customReportQuestions}
      where organization_id = ${input.organizationId} and report_id = ${source.id}`);
    await tx.execute(sql`
      insert into ${customReportQuestionIdentifiers}
        (organization_id, report_id, course_id, slide_number, question_number, question_text,
         display_order, display_name, comparison_type)
      select organization_id, ${copy.id}, course_id, slide_number, question_number, question_text,
             display_order, display_name, comparison_type
      from ${customReportQuestionIdentifiers}
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
