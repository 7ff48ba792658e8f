import type {
  LearnerCourseSortKey,
  LearnerResponseSortKey,
  LearnerSortKey,
  LearnerVariableSortKey,
  SortOrder,
} from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';

/**
 * SQL of the learner screens. Every statement filters by organization first
 * (the leading column of every index used here). Deleted courses are left out
 * everywhere, so a learner's course count and course list agree.
 */

export type Paging = { limit: number; offset: number };

/** `like` pattern for "starts with `text`": the wildcards a person types are matched literally. */
export function prefixPattern(text: string): string {
  return `${escapeLike(text)}%`;
}

/** `like` pattern for "contains `text`". */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

async function rows<Row>(db: Database, query: SQL): Promise<Row[]> {
  return (await db.execute<Record<string, unknown>>(query)).rows as Row[];
}

// ---- the learner list --------------------------------------------------------

export type LearnerListRow = {
  id: string;
  name: string | null;
  email: string;
  courses: number;
  last_activity_at: Date | string | null;
  created_at: Date | string;
};

/**
 * Orders matching the learner indexes in both directions, so a page is an
 * index scan that stops after `offset + limit` rows:
 * (organization_id, name, id), (organization_id, email),
 * (organization_id, created_at, id), (organization_id, last_activity_at desc nulls last, id).
 */
function learnerOrder(sort: Exclude<LearnerSortKey, 'courses'>, order: SortOrder): SQL {
  const isAsc = order === 'asc';
  switch (sort) {
    case 'name':
      return isAsc ? sql`l.name asc nulls last, l.id asc` : sql`l.name desc nulls first, l.id desc`;
    case 'email':
      return isAsc ? sql`l.email asc` : sql`l.email desc`;
    case 'createdAt':
      return isAsc ? sql`l.created_at asc, l.id asc` : sql`l.created_at desc, l.id desc`;
    case 'lastActivity':
      // Never-active learners count as the least recent.
      return isAsc
        ? sql`l.last_activity_at asc nulls first, l.id desc`
        : sql`l.last_activity_at desc nulls last, l.id asc`;
  }
}

/**
 * Prefix search on the two search indexes: `lower(name) like 'ann%'` on
 * (organization_id, lower(name) text_pattern_ops) and `email like 'ann%'` on
 * (organization_id, email text_pattern_ops); e-mails are stored lower-case.
 */
function learnerSearch(q: string | undefined): SQL {
  if (!q) return sql``;
  const pattern = prefixPattern(q.toLowerCase());
  return sql` and (lower(l.name) like ${pattern} or l.email like ${pattern})`;
}

/** Distinct live courses with runs, for one learner (index on the learner's runs). */
const learnerCourseCount = (organizationId: string, learnerIdColumn: SQL) => sql`
  select count(distinct r.course_id)::int as courses
  from course_runs r
  where r.organization_id = ${organizationId}
    and r.learner_id = ${learnerIdColumn}
    and r.course_id not in (select c.id from courses c where c.organization_id = ${organizationId} and c.is_deleted)`;

/** Above this many rows (exports), one aggregate over all runs beats a subquery per row. */
const LATERAL_COUNT_LIMIT = 1000;

/**
 * One page of learners.
 *
 * - Sorted by a learner column (name, e-mail, created, last activity): the
 *   page is chosen by an index-only scan that reads just the index's key
 *   (`id`, or `email` for the e-mail sort, whose index has no id), so a deep
 *   offset skips index entries instead of heap rows; the 25 rows are then
 *   read by key, and course counts are computed for them only (a lateral
 *   subquery per row).
 * - Sorted by course count (no index can serve it), or for an export: the
 *   organization's runs are aggregated once and joined.
 */
export async function listLearnerRows(
  db: Database,
  input: {
    organizationId: string;
    q?: string | undefined;
    sort: LearnerSortKey;
    order: SortOrder;
  } & Paging,
): Promise<LearnerListRow[]> {
  const { organizationId, limit, offset } = input;
  const search = learnerSearch(input.q);
  if (input.sort === 'courses' || limit > LATERAL_COUNT_LIMIT) {
    const direction = input.order === 'asc' ? sql`asc` : sql`desc`;
    const order =
      input.sort === 'courses'
        ? sql`coalesce(k.courses, 0) ${direction}, l.id ${direction}`
        : learnerOrder(input.sort, input.order);
    return rows<LearnerListRow>(
      db,
      sql`
      with counts as (
        select r.learner_id, count(distinct r.course_id)::int as courses
        from course_runs r
        where r.organization_id = ${organizationId}
          and r.course_id not in (select c.id from courses c where c.organization_id = ${organizationId} and c.is_deleted)${
            // A search narrows the learners first, so only their runs are counted.
            input.q
              ? sql` and r.learner_id in (select l.id from learners l where l.organization_id = ${organizationId}${search})`
              : sql``
          }
        group by r.learner_id
      )
      select l.id, l.name, l.email, coalesce(k.courses, 0) as courses, l.last_activity_at, l.created_at
      from learners l
      left join counts k on k.learner_id = l.id
      where l.organization_id = ${organizationId}${search}
      order by ${order}
      limit ${limit} offset ${offset}`,
    );
  }
  const order = learnerOrder(input.sort, input.order);
  const isByEmail = input.sort === 'email';
  return rows<LearnerListRow>(
    db,
    sql`
    with page as (
      select ${isByEmail ? sql`l.email` : sql`l.id`} as key
      from learners l
      where l.organization_id = ${organizationId}${search}
      order by ${order}
      limit ${limit} offset ${offset}
    )
    select l.id, l.name, l.email, k.courses, l.last_activity_at, l.created_at
    from page p
    join learners l on l.organization_id = ${organizationId} and ${isByEmail ? sql`l.email` : sql`l.id`} = p.key
    cross join lateral (${learnerCourseCount(organizationId, sql`l.id`)}) k
    order by ${order}`,
  );
}

/** The exact number of learners matching the search (an index-only count). */
export async function countLearnerRows(
  db: Database,
  input: { organizationId: string; q?: string | undefined },
): Promise<number> {
  const [row] = await rows<{ total: number }>(
    db,
    sql`select count(*)::int as total from learners l
        where l.organization_id = ${input.organizationId}${learnerSearch(input.q)}`,
  );
  return row?.total ?? 0;
}

// ---- one learner ---------------------------------------------------------------

export type LearnerProfileRow = {
  id: string;
  name: string | null;
  email: string;
  created_at: Date | string;
  last_activity_at: Date | string | null;
  courses: number;
  completed_courses: number;
  runs: number;
  variables: number;
  responses: number;
  correct_responses: number;
  points: number | string | null;
};

export async function findLearnerProfileRow(
  db: Database,
  organizationId: string,
  learnerId: string,
): Promise<LearnerProfileRow | undefined> {
  const [row] = await rows<LearnerProfileRow>(
    db,
    sql`
    with live_courses as (
      select c.id from courses c where c.organization_id = ${organizationId} and not c.is_deleted
    ),
    runs as (
      select r.course_id, r.completed_at from course_runs r
      where r.organization_id = ${organizationId} and r.learner_id = ${learnerId}
        and r.course_id in (select id from live_courses)
    ),
    answers as (
      select a.correct, a.points_assigned from course_run_questions a
      where a.organization_id = ${organizationId} and a.learner_id = ${learnerId}
        and a.course_id in (select id from live_courses)
    )
    select l.id, l.name, l.email, l.created_at, l.last_activity_at,
      (select count(distinct course_id)::int from runs) as courses,
      (select count(distinct course_id)::int from runs where completed_at is not null) as completed_courses,
      (select count(*)::int from runs) as runs,
      (select count(distinct v.variable_id)::int from learner_variable_values v
        where v.organization_id = ${organizationId} and v.learner_id = ${learnerId}
          and v.course_id in (select id from live_courses)) as variables,
      (select count(*)::int from answers) as responses,
      (select count(*)::int from answers where correct) as correct_responses,
      (select coalesce(sum(points_assigned), 0)::float8 from answers) as points
    from learners l
    where l.organization_id = ${organizationId} and l.id = ${learnerId}`,
  );
  return row;
}

// ---- a learner's courses ---------------------------------------------------------

export type LearnerCourseRow = {
  course_id: string;
  course_title: string;
  external_course_id: string | null;
  runs: number;
  first_access_at: Date | string;
  last_access_at: Date | string;
  completed: boolean;
  completed_at: Date | string | null;
  total: number;
};

function learnerCourseOrder(sort: LearnerCourseSortKey, order: SortOrder): SQL {
  const direction = order === 'asc' ? sql`asc` : sql`desc`;
  const column = {
    course: sql`lower(course_title)`,
    runs: sql`runs`,
    firstAccess: sql`first_access_at`,
    lastAccess: sql`last_access_at`,
    completed: sql`completed`,
  }[sort];
  return sql`${column} ${direction}, course_id ${direction}`;
}

/**
 * A learner's courses with their runs: first access (earliest start), last
 * access (latest start, completion or update of a run), and whether a run
 * was completed. `total` is the count of all matching courses (window).
 */
export async function listLearnerCourseRows(
  db: Database,
  input: {
    organizationId: string;
    learnerId: string;
    q?: string | undefined;
    sort: LearnerCourseSortKey;
    order: SortOrder;
  } & Paging,
): Promise<LearnerCourseRow[]> {
  const { organizationId, learnerId } = input;
  const search = input.q
    ? sql` and (lower(c.course_title) like ${containsPattern(input.q.toLowerCase())} or lower(c.external_course_id) like ${containsPattern(input.q.toLowerCase())})`
    : sql``;
  return rows<LearnerCourseRow>(
    db,
    sql`
    select * from (
      select c.id as course_id, c.course_title, c.external_course_id,
        count(*)::int as runs,
        min(r.started_at) as first_access_at,
        max(greatest(r.started_at, r.completed_at, r.updated_at)) as last_access_at,
        bool_or(r.completed_at is not null) as completed,
        max(r.completed_at) as completed_at,
        count(*) over ()::int as total
      from course_runs r
      join courses c on c.organization_id = r.organization_id and c.id = r.course_id and not c.is_deleted
      where r.organization_id = ${organizationId} and r.learner_id = ${learnerId}${search}
      group by c.id, c.course_title, c.external_course_id
    ) t
    order by ${learnerCourseOrder(input.sort, input.order)}
    limit ${input.limit} offset ${input.offset}`,
  );
}

// ---- a learner's variables -------------------------------------------------------

export type LearnerVariableRow = {
  variable_id: string;
  name: string;
  title: string | null;
  course_id: string;
  course_title: string;
  data_type: 'number' | 'text' | 'boolean' | 'date';
  value: string | null;
  recorded_at: Date | string;
  total: number;
};

function learnerVariableOrder(sort: LearnerVariableSortKey, order: SortOrder): SQL {
  const direction = order === 'asc' ? sql`asc` : sql`desc`;
  const column = {
    name: sql`lower(name)`,
    course: sql`lower(course_title)`,
    dataType: sql`data_type`,
    recordedAt: sql`recorded_at`,
  }[sort];
  return sql`${column} ${direction}, variable_id ${direction}`;
}

/**
 * The latest value of each variable the learner has (optionally in one
 * course), from the latest-value rollup kept by a trigger on the values.
 */
export async function listLearnerVariableRows(
  db: Database,
  input: {
    organizationId: string;
    learnerId: string;
    courseId?: string | undefined;
    q?: string | undefined;
    sort: LearnerVariableSortKey;
    order: SortOrder;
  } & Paging,
): Promise<LearnerVariableRow[]> {
  const { organizationId, learnerId } = input;
  const course = input.courseId ? sql` and v.course_id = ${input.courseId}` : sql``;
  const search = input.q
    ? sql` and (lower(va.name) like ${containsPattern(input.q.toLowerCase())} or lower(coalesce(va.title, '')) like ${containsPattern(input.q.toLowerCase())})`
    : sql``;
  return rows<LearnerVariableRow>(
    db,
    sql`
    select *, count(*) over ()::int as total from (
      select v.variable_id, va.name, va.title, c.id as course_id, c.course_title, va.data_type,
        v.value, v.recorded_at
      from learner_variable_latest v
      join variables va on va.organization_id = v.organization_id and va.id = v.variable_id
      join courses c on c.organization_id = v.organization_id and c.id = v.course_id and not c.is_deleted
      where v.organization_id = ${organizationId} and v.learner_id = ${learnerId}${course}${search}
    ) latest
    order by ${learnerVariableOrder(input.sort, input.order)}
    limit ${input.limit} offset ${input.offset}`,
  );
}

// ---- a learner's answers -----------------------------------------------------------

export type LearnerResponseRow = {
  id: string;
  question_id: string;
  question_text: string | null;
  slide_number: number | null;
  question_number: number | null;
  course_id: string;
  course_title: string;
  answer: string | null;
  correct: boolean | null;
  correct_answer: string | null;
  points: number | null;
  answered_at: Date | string;
};

function learnerResponseOrder(sort: LearnerResponseSortKey, order: SortOrder): SQL {
  const isAsc = order === 'asc';
  const direction = isAsc ? sql`asc` : sql`desc`;
  const nulls = isAsc ? sql`nulls first` : sql`nulls last`;
  const column = {
    answeredAt: sql`a.created_at`,
    question: sql`lower(coalesce(a.question_text, q.question_text))`,
    course: sql`lower(c.course_title)`,
    points: sql`a.points_assigned`,
    correct: sql`a.correct`,
  }[sort];
  return sql`${column} ${direction} ${nulls}, a.created_at ${direction}, a.id ${direction}`;
}

function learnerResponseFilter(input: { organizationId: string; learnerId: string; q?: string | undefined }) {
  const search = input.q
    ? sql` and (lower(coalesce(a.question_text, q.question_text, '')) like ${containsPattern(input.q.toLowerCase())}
            or lower(coalesce(a.answer_choice, '')) like ${containsPattern(input.q.toLowerCase())})`
    : sql``;
  return sql`
    from course_run_questions a
    join questions q on q.organization_id = a.organization_id and q.id = a.question_id
    join courses c on c.organization_id = a.organization_id and c.id = a.course_id and not c.is_deleted
    where a.organization_id = ${input.organizationId} and a.learner_id = ${input.learnerId}${search}`;
}

/** A page of the learner's answers (every answer, not only the latest per question). */
export async function listLearnerResponseRows(
  db: Database,
  input: {
    organizationId: string;
    learnerId: string;
    q?: string | undefined;
    sort: LearnerResponseSortKey;
    order: SortOrder;
  } & Paging,
): Promise<LearnerResponseRow[]> {
  return rows<LearnerResponseRow>(
    db,
    sql`
    select a.id, a.question_id, coalesce(a.question_text, q.question_text) as question_text,
      coalesce(a.slide_number, q.slide_number) as slide_number,
      coalesce(a.question_number, q.question_number) as question_number,
      c.id as course_id, c.course_title, a.answer_choice as answer, a.correct,
      coalesce(a.correct_answer, q.correct_answer) as correct_answer,
      a.points_assigned as points, a.created_at as answered_at
    ${learnerResponseFilter(input)}
    order by ${learnerResponseOrder(input.sort, input.order)}
    limit ${input.limit} offset ${input.offset}`,
  );
}

export async function countLearnerResponseRows(
  db: Database,
  input: { organizationId: string; learnerId: string; q?: string | undefined },
): Promise<number> {
  const [row] = await rows<{ total: number }>(
    db,
    sql`select count(*)::int as total ${learnerResponseFilter(input)}`,
  );
  return row?.total ?? 0;
}

/** The course named in `/learners/:learnerId/courses/:courseId/variables` (the tenant plugin checked it). */
export async function findCourseHeading(
  db: Database,
  organizationId: string,
  courseId: string,
): Promise<{ id: string; course_title: string; external_course_id: string | null } | undefined> {
  const [row] = await rows<{ id: string; course_title: string; external_course_id: string | null }>(
    db,
    sql`select c.id, c.course_title, c.external_course_id from courses c
        where c.organization_id = ${organizationId} and c.id = ${courseId} and not c.is_deleted`,
  );
  return row;
}
