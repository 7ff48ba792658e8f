import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { CourseLearnerSortKey, CourseSortKey, SortOrder } from '@courselens/contracts';
import type { Database } from '../../db/client';
import {
  authUsers,
  broadcasts,
  courseRunQuestions,
  courseRuns,
  courses,
  learnerVariableValues,
  type NewActivityEvent,
} from '../../db/schema';
import { deleteReportItemsOfCourse } from '../custom-reports/custom-reports.queries';
import { insertActivity } from '../organizations/organizations.queries';

/** `%text%` for LIKE with the user's wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export type CourseRow = {
  id: string;
  courseTitle: string;
  externalCourseId: string | null;
  description: string | null;
  broadcastMessage: string | null;
  learners: number;
  views: number;
  lastActivityAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

type RawCourseRow = Omit<CourseRow, 'learners' | 'views' | 'lastActivityAt' | 'createdAt' | 'updatedAt'> & {
  learners: number | string;
  views: number | string;
  lastActivityAt: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
};

function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

function toCourseRow(row: RawCourseRow): CourseRow {
  return {
    ...row,
    learners: Number(row.learners),
    views: Number(row.views),
    lastActivityAt: row.lastActivityAt === null ? null : toDate(row.lastActivityAt),
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
  };
}

const COURSE_ORDER: Record<CourseSortKey, string> = {
  title: 'lower(c.course_title)',
  externalCourseId: 'lower(c.external_course_id)',
  learners: 'learners',
  views: 'views',
  lastActivity: '"lastActivityAt"',
  createdAt: 'c.created_at',
};

function courseFilter(organizationId: string, q: string | undefined, courseId?: string): SQL {
  const conditions: SQL[] = [sql`c.organization_id = ${organizationId}`, sql`not c.is_deleted`];
  if (courseId) conditions.push(sql`c.id = ${courseId}`);
  if (q) {
    const pattern = containsPattern(q);
    conditions.push(sql`(c.course_title ilike ${pattern} or c.external_course_id ilike ${pattern})`);
  }
  return sql.join(conditions, sql` and `);
}

/**
 * Courses with their derived counts, computed in SQL: runs and learners from
 * the course_learners rollup (a row per learner of the course), last values
 * and answers from the (organization_id, course_id, time) indexes; nothing
 * is loaded into Node.
 */
function selectCourses(where: SQL, orderBy: SQL, limit: number, offset: number): SQL {
  return sql`
    select c.id, c.course_title as "courseTitle", c.external_course_id as "externalCourseId",
      c.description, c.broadcast_message as "broadcastMessage",
      coalesce(runs.learners, 0) as learners, coalesce(runs.views, 0) as views,
      nullif(greatest(
        coalesce(runs.last_run, '-infinity'::timestamptz),
        coalesce(vals.last_value, '-infinity'::timestamptz),
        coalesce(answers.last_answer, '-infinity'::timestamptz)
      ), '-infinity'::timestamptz) as "lastActivityAt",
      c.created_at as "createdAt", c.updated_at as "updatedAt"
    from courses c
    left join lateral (
      select sum(l.runs)::int as views, count(*)::int as learners, max(l.last_run_at) as last_run
      from course_learners l
      where l.organization_id = c.organization_id and l.course_id = c.id
    ) runs on true
    left join lateral (
      select max(v.recorded_at) as last_value
      from learner_variable_values v
      where v.organization_id = c.organization_id and v.course_id = c.id
    ) vals on true
    left join lateral (
      select max(a.created_at) as last_answer
      from course_run_questions a
      where a.organization_id = c.organization_id and a.course_id = c.id
    ) answers on true
    where ${where}
    order by ${orderBy}
    limit ${limit} offset ${offset}`;
}

export async function listCourseRows(
  db: Database,
  input: {
    organizationId: string;
    q?: string | undefined;
    sort: CourseSortKey;
    order: SortOrder;
    limit: number;
    offset: number;
  },
): Promise<{ rows: CourseRow[]; total: number }> {
  const where = courseFilter(input.organizationId, input.q);
  const direction = input.order === 'asc' ? sql.raw('asc nulls last') : sql.raw('desc nulls last');
  const orderBy = sql`${sql.raw(COURSE_ORDER[input.sort])} ${direction}, c.id asc`;
  const [result, count] = await Promise.all([
    db.execute<RawCourseRow>(selectCourses(where, orderBy, input.limit, input.offset)),
    db.execute<{ total: number | string }>(sql`select count(*)::int as total from courses c where ${where}`),
  ]);
  return { rows: result.rows.map(toCourseRow), total: Number(count.rows[0]?.total ?? 0) };
}

export async function findCourseRow(
  db: Database,
  organizationId: string,
  courseId: string,
): Promise<CourseRow | undefined> {
  const result = await db.execute<RawCourseRow>(
    selectCourses(courseFilter(organizationId, undefined, courseId), sql`c.id`, 1, 0),
  );
  const row = result.rows[0];
  return row ? toCourseRow(row) : undefined;
}

/** The live course of the organization that uses `externalCourseId`, other than `exceptId`. */
export async function findLiveCourseByExternalId(
  db: Database,
  organizationId: string,
  externalCourseId: string,
  exceptId?: string,
): Promise<{ id: string } | undefined> {
  const [row] = await db
    .select({ id: courses.id })
    .from(courses)
    .where(
      and(
        eq(courses.organizationId, organizationId),
        eq(courses.externalCourseId, externalCourseId),
        eq(courses.isDeleted, false),
        exceptId ? sql`${courses.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return row;
}

export async function insertCourseRow(
  db: Database,
  values: {
    organizationId: string;
    courseTitle: string;
    externalCourseId: string | null;
    description: string | null;
  },
): Promise<{ id: string }> {
  const [row] = await db.insert(courses).values(values).returning({ id: courses.id });
  if (!row) throw new Error('course insert returned no row');
  return row;
}

export async function updateCourseRow(
  db: Database,
  organizationId: string,
  courseId: string,
  values: { courseTitle?: string; externalCourseId?: string | null; description?: string | null },
): Promise<{ id: string; courseTitle: string } | undefined> {
  const [row] = await db
    .update(courses)
    .set(values)
    .where(
      and(eq(courses.organizationId, organizationId), eq(courses.id, courseId), eq(courses.isDeleted, false)),
    )
    .returning({ id: courses.id, courseTitle: courses.courseTitle });
  return row;
}

export type DeletionCounts = {
  courseRuns: number;
  variableValues: number;
  responses: number;
  reportEntries: number;
  pipelineNodes: number;
};

/**
 * Course deletion (spec section 8) in one transaction: mark the course
 * deleted; without `keepLearnerData` remove its responses, values and runs;
 * with `deleteRelatedReports` remove the custom-report entries that point at
 * it (its variables, its questions, question identifiers naming it); with
 * `removePipelineReferences` remove the pipelines' course nodes that name it
 * and the edges touching those nodes. Returns the course title and counts, or
 * undefined when the course is not a live course of the organization.
 */
export async function deleteCourseRows(
  db: Database,
  input: {
    organizationId: string;
    courseId: string;
    keepLearnerData: boolean;
    deleteRelatedReports: boolean;
    removePipelineReferences: boolean;
    now: Date;
    /** The activity entry, written in the same transaction. */
    activity: (courseTitle: string, counts: DeletionCounts) => NewActivityEvent;
    /** Tells the other domains (the outbox), in the same transaction. */
    announce?: ((tx: Database) => Promise<void>) | undefined;
  },
): Promise<{ courseTitle: string; counts: DeletionCounts } | undefined> {
  const { organizationId, courseId } = input;
  return db.transaction(async (tx) => {
    // Lock the course first: a concurrent deletion waits, then finds it deleted.
    const [course] = await tx
      .select({ id: courses.id, courseTitle: courses.courseTitle })
      .from(courses)
      .where(
        and(
          eq(courses.organizationId, organizationId),
          eq(courses.id, courseId),
          eq(courses.isDeleted, false),
        ),
      )
      .for('update');
    if (!course) return undefined;

    const counts: DeletionCounts = {
      courseRuns: 0,
      variableValues: 0,
      responses: 0,
      reportEntries: 0,
      pipelineNodes: 0,
    };

    if (!input.keepLearnerData) {
      // Responses and values first: some have no run, so the runs' cascade would miss them.
      counts.responses = (
        await tx
          .delete(courseRunQuestions)
          .where(
            and(
              eq(courseRunQuestions.organizationId, organizationId),
              eq(courseRunQuestions.courseId, courseId),
            ),
          )
          .returning({ id: courseRunQuestions.id })
      ).length;
      counts.variableValues = (
        await tx
          .delete(learnerVariableValues)
          .where(
            and(
              eq(learnerVariableValues.organizationId, organizationId),
              eq(learnerVariableValues.courseId, courseId),
            ),
          )
          .returning({ id: learnerVariableValues.id })
      ).length;
      counts.courseRuns = (
        await tx
          .delete(courseRuns)
          .where(and(eq(courseRuns.organizationId, organizationId), eq(courseRuns.courseId, courseId)))
          .returning({ id: courseRuns.id })
      ).length;
    }

    if (input.deleteRelatedReports) {
      counts.reportEntries = await deleteReportItemsOfCourse(tx, organizationId, courseId);
    }

    if (input.removePipelineReferences) {
      // A course node: {"type": "course", "data": {"courseId": "<id>"}}. The
      // SET expressions all read the row as it was, so the edges can be
      // filtered by the ids of the nodes being removed.
      const isCourseNode = (node: SQL) =>
        sql`(${node} ->> 'type' = 'course' and ${node} -> 'data' ->> 'courseId' = ${courseId})`;
      const result = await tx.execute<{ removed: number | string }>(sql`
        with hit as (
          select p.id, (
            select count(*) from jsonb_array_elements(p.nodes) as n(node) where ${isCourseNode(sql`n.node`)}
          ) as removed
          from pipelines p
          where p.organization_id = ${organizationId} and jsonb_typeof(p.nodes) = 'array'
          for update
        ), changed as (
          update pipelines p set
            nodes = coalesce((
              select jsonb_agg(n.node order by n.ord)
              from jsonb_array_elements(p.nodes) with ordinality as n(node, ord)
              where not ${isCourseNode(sql`n.node`)}
            ), '[]'::jsonb),
            edges = case when jsonb_typeof(p.edges) <> 'array' then p.edges else coalesce((
              select jsonb_agg(e.edge order by e.ord)
              from jsonb_array_elements(p.edges) with ordinality as e(edge, ord)
              where not exists (
                select 1 from jsonb_array_elements(p.nodes) as gone(node)
                where ${isCourseNode(sql`gone.node`)}
                  and (gone.node ->> 'id' = e.edge ->> 'source' or gone.node ->> 'id' = e.edge ->> 'target')
              )
            ), '[]'::jsonb) end,
            updated_at = ${input.now}
          from hit
          where p.organization_id = ${organizationId} and p.id = hit.id and hit.removed > 0
          returning hit.removed
        )
        select coalesce(sum(removed), 0)::int as removed from changed`);
      counts.pipelineNodes = Number(result.rows[0]?.removed ?? 0);
    }

    await tx
      .update(courses)
      .set({ isDeleted: true, deletedAt: input.now })
      .where(and(eq(courses.organizationId, organizationId), eq(courses.id, courseId)));

    await insertActivity(tx, input.activity(course.courseTitle, counts));
    await input.announce?.(tx);
    return { courseTitle: course.courseTitle, counts };
  });
}

export type CourseLearnerRow = {
  id: string;
  name: string | null;
  email: string;
  firstAccess: Date;
  lastAccess: Date;
  accessCount: number;
};

/** Sort columns of the course_learners rollup (`r`); name and e-mail need the learner row. */
const COURSE_LEARNER_STATS_ORDER: Partial<Record<CourseLearnerSortKey, string>> = {
  firstAccess: 'r.first_run_at',
  lastAccess: 'r.last_run_at',
  accessCount: 'r.runs',
};
const COURSE_LEARNER_PERSON_ORDER: Partial<Record<CourseLearnerSortKey, string>> = {
  name: 'lower(l.name)',
  email: 'l.email',
};

/**
 * The learners of a course with first access, last access and access count,
 * from the course_learners rollup of its runs. Without a search, a sort by
 * access pages through the rollup alone (the (organization_id, course_id,
 * last_run_at) index for the default, last access) and joins the learners of
 * that page only; the total is counted on the rollup.
 */
export async function listCourseLearnerRows(
  db: Database,
  input: {
    organizationId: string;
    courseId: string;
    q?: string | undefined;
    sort: CourseLearnerSortKey;
    order: SortOrder;
    limit: number;
    offset: number;
  },
): Promise<{ rows: CourseLearnerRow[]; total: number }> {
  const { organizationId, courseId } = input;
  const direction = sql.raw(input.order === 'asc' ? 'asc' : 'desc');
  const ofCourse = sql`r.organization_id = ${organizationId} and r.course_id = ${courseId}`;
  const columns = sql`l.id, l.name, l.email, r.first_run_at as "firstAccess", r.last_run_at as "lastAccess",
    r.runs as "accessCount"`;
  const statsOrder = COURSE_LEARNER_STATS_ORDER[input.sort];
  const personOrder = COURSE_LEARNER_PERSON_ORDER[input.sort];
  let page: SQL;
  let count: SQL;
  if (!input.q && statsOrder) {
    const order = sql`${sql.raw(statsOrder)} ${direction}, r.learner_id asc`;
    page = sql`
      select ${columns}
      from (select * from course_learners r where ${ofCourse}
            order by ${order} limit ${input.limit} offset ${input.offset}) r
      join learners l on l.organization_id = ${organizationId} and l.id = r.learner_id
      order by ${order}`;
    count = sql`select count(*)::int as total from course_learners r where ${ofCourse}`;
  } else {
    const search = input.q
      ? sql`and (l.name ilike ${containsPattern(input.q)} or l.email like ${containsPattern(input.q.toLowerCase())})`
      : sql``;
    const from = sql`
      from course_learners r
      join learners l on l.organization_id = ${organizationId} and l.id = r.learner_id
      where ${ofCourse} ${search}`;
    const order = statsOrder
      ? sql`${sql.raw(statsOrder)} ${direction}, l.id asc`
      : sql`${sql.raw(personOrder ?? 'l.email')} ${direction} nulls last, l.id asc`;
    page = sql`select ${columns} ${from} order by ${order} limit ${input.limit} offset ${input.offset}`;
    count = sql`select count(*)::int as total ${from}`;
  }
  const [result, total] = await Promise.all([
    db.execute<{
      id: string;
      name: string | null;
      email: string;
      firstAccess: Date | string;
      lastAccess: Date | string;
      accessCount: number | string;
    }>(page),
    db.execute<{ total: number | string }>(count),
  ]);
  return {
    rows: result.rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      firstAccess: toDate(row.firstAccess),
      lastAccess: toDate(row.lastAccess),
      accessCount: Number(row.accessCount),
    })),
    total: Number(total.rows[0]?.total ?? 0),
  };
}

export type BroadcastRow = { id: string; message: string | null; authorName: string | null; createdAt: Date };

export async function listBroadcastRows(
  db: Database,
  input: { organizationId: string; courseId: string; limit: number; offset: number },
): Promise<{ rows: BroadcastRow[]; total: number }> {
  const where = and(
    eq(broadcasts.organizationId, input.organizationId),
    eq(broadcasts.courseId, input.courseId),
  );
  const [rows, count] = await Promise.all([
    db
      .select({
        id: broadcasts.id,
        message: broadcasts.message,
        authorName: authUsers.name,
        createdAt: broadcasts.createdAt,
      })
      .from(broadcasts)
      .leftJoin(authUsers, eq(authUsers.id, broadcasts.authorId))
      .where(where)
      .orderBy(sql`${broadcasts.createdAt} desc`, sql`${broadcasts.id} desc`)
      .limit(input.limit)
      .offset(input.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(broadcasts)
      .where(where),
  ]);
  return { rows, total: Number(count[0]?.total ?? 0) };
}

export async function findBroadcastMessage(
  db: Database,
  organizationId: string,
  courseId: string,
): Promise<{ broadcastMessage: string | null } | undefined> {
  const [row] = await db
    .select({ broadcastMessage: courses.broadcastMessage })
    .from(courses)
    .where(
      and(eq(courses.organizationId, organizationId), eq(courses.id, courseId), eq(courses.isDeleted, false)),
    );
  return row;
}

/** Sets (or clears, with null) the course's message and records it in the history, in one transaction. */
export async function setBroadcastRows(
  db: Database,
  input: {
    organizationId: string;
    courseId: string;
    message: string | null;
    authorId: string;
    activity: (courseTitle: string) => NewActivityEvent;
  },
): Promise<{ courseTitle: string; broadcast: BroadcastRow } | undefined> {
  return db.transaction(async (tx) => {
    const [course] = await tx
      .update(courses)
      .set({ broadcastMessage: input.message })
      .where(
        and(
          eq(courses.organizationId, input.organizationId),
          eq(courses.id, input.courseId),
          eq(courses.isDeleted, false),
        ),
      )
      .returning({ courseTitle: courses.courseTitle });
    if (!course) return undefined;
    const [row] = await tx
      .insert(broadcasts)
      .values({
        organizationId: input.organizationId,
        courseId: input.courseId,
        message: input.message,
        authorId: input.authorId,
      })
      .returning({ id: broadcasts.id, message: broadcasts.message, createdAt: broadcasts.createdAt });
    if (!row) throw new Error('broadcast insert returned no row');
    const [author] = await tx
      .select({ name: authUsers.name })
      .from(authUsers)
      .where(eq(authUsers.id, input.authorId));
    await insertActivity(tx, input.activity(course.courseTitle));
    return { courseTitle: course.courseTitle, broadcast: { ...row, authorName: author?.name ?? null } };
  });
}
