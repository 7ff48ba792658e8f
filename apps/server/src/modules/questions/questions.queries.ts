import type { QuestionSortKey, SortOrder } from '@courselens/contracts';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { activityEvents, courses, questions, type NewActivityEvent } from '../../db/schema';

export type QuestionFilters = {
  organizationId: string;
  courseId?: string | undefined;
  q?: string | undefined;
  active: boolean;
};

export type QuestionRow = {
  id: string;
  course_id: string;
  course_title: string;
  interaction_id: string;
  slide_number: number | null;
  question_number: number | null;
  question_text: string | null;
  correct_answer: string | null;
  active: boolean;
  created_at: Date | string;
  total_responses: number;
  correct_responses: number;
  unique_learners: number;
};

/** `%`, `_` and `\` match themselves in a search. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Questions of live courses of one organization, narrowed by the filters. */
function baseSelect(filters: QuestionFilters): SQL {
  const conditions: SQL[] = [
    sql`q.organization_id = ${filters.organizationId}`,
    sql`not c.is_deleted`,
    sql`q.active = ${filters.active}`,
  ];
  if (filters.courseId) conditions.push(sql`q.course_id = ${filters.courseId}`);
  if (filters.q) {
    const pattern = `%${escapeLike(filters.q)}%`;
    conditions.push(sql`(q.question_text ilike ${pattern} or q.interaction_id ilike ${pattern})`);
  }
  return sql`
    select q.id, q.organization_id, q.course_id, c.course_title, q.interaction_id, q.slide_number,
           q.question_number, q.question_text, q.correct_answer, q.active, q.created_at
    from ${questions} q
    join ${courses} c on c.organization_id = q.organization_id and c.id = q.course_id
    where ${sql.join(conditions, sql` and `)}`;
}

/**
 * The answers to one question: how many, how many right, from how many
 * learners, summed over its rows of the daily rollup (kept by a trigger on
 * the answers), so a question costs its days, not its answers.
 */
const responseStats = (alias: string) => sql`
  left join lateral (
    select coalesce(sum(d.responses), 0)::int as total_responses,
           coalesce(sum(d.correct), 0)::int as correct_responses,
           coalesce(sum(d.new_learners), 0)::int as unique_learners
    from question_daily_stats d
    where d.organization_id = ${sql.raw(alias)}.organization_id and d.question_id = ${sql.raw(alias)}.id
  ) s on true`;

const AGGREGATE_SORTS: ReadonlySet<QuestionSortKey> = new Set([
  'totalResponses',
  'correctResponses',
  'uniqueLearners',
  'correctRate',
]);

/** The course's own order: slide, then question number, then interaction id. */
const inCourseOrder = sql`slide_number nulls last, question_number nulls last, interaction_id, id`;

function orderBy(sort: QuestionSortKey, order: SortOrder): SQL {
  const direction = sql.raw(order === 'asc' ? 'asc' : 'desc');
  const nulls = sql.raw(order === 'asc' ? 'nulls first' : 'nulls last');
  switch (sort) {
    case 'course':
      return sql`lower(course_title) ${direction}, course_id, ${inCourseOrder}`;
    case 'slide':
      return sql`slide_number ${direction} nulls last, question_number ${direction} nulls last, lower(course_title), interaction_id, id`;
    case 'interactionId':
      return sql`interaction_id ${direction}, lower(course_title), id`;
    case 'text':
      return sql`lower(question_text) ${direction} ${nulls}, id`;
    case 'createdAt':
      return sql`created_at ${direction}, id`;
    case 'totalResponses':
      return sql`total_responses ${direction}, lower(course_title), ${inCourseOrder}`;
    case 'correctResponses':
      return sql`correct_responses ${direction}, lower(course_title), ${inCourseOrder}`;
    case 'uniqueLearners':
      return sql`unique_learners ${direction}, lower(course_title), ${inCourseOrder}`;
    case 'correctRate':
      // Unanswered questions have no rate: they sort after every answered one.
      return sql`(correct_responses::float8 / nullif(total_responses, 0)) ${direction} nulls last, total_responses desc, lower(course_title), ${inCourseOrder}`;
  }
}

/**
 * One page of questions with their answer totals (or, for an export, up to
 * `limit` rows). A sort by a column of the question pages first and counts
 * answers for that page only; a sort by a total counts every question's answers.
 */
export async function selectQuestionRows(
  db: Database,
  filters: QuestionFilters,
  sort: { sort: QuestionSortKey; order: SortOrder },
  page: { limit: number; offset: number },
): Promise<QuestionRow[]> {
  const order = orderBy(sort.sort, sort.order);
  const query = AGGREGATE_SORTS.has(sort.sort)
    ? sql`
        with base as (${baseSelect(filters)})
        select base.*, s.* from base ${responseStats('base')}
        order by ${order} limit ${page.limit} offset ${page.offset}`
    : sql`
        with page as (
          select * from (${baseSelect(filters)}) base
          order by ${order} limit ${page.limit} offset ${page.offset}
        )
        select page.*, s.* from page ${responseStats('page')}
        order by ${order}`;
  const result = await db.execute<QuestionRow>(query);
  return result.rows;
}

/** How many questions match, and the answers to all of them together (from the daily rollup). */
export async function selectQuestionTotals(db: Database, filters: QuestionFilters) {
  const result = await db.execute<{
    questions: number;
    total_responses: number;
    correct_responses: number;
    learner_pairs: number;
  }>(sql`
    with base as (${baseSelect(filters)})
    select (select count(*)::int from base) as questions,
           coalesce(sum(d.responses), 0)::int as total_responses,
           coalesce(sum(d.correct), 0)::int as correct_responses,
           coalesce(sum(d.new_learners), 0)::int as learner_pairs
    from question_daily_stats d
    where d.organization_id = ${filters.organizationId} and d.question_id in (select id from base)`);
  return result.rows[0] ?? { questions: 0, total_responses: 0, correct_responses: 0, learner_pairs: 0 };
}

/** The courses (not deleted) that have active questions (or hidden ones): the course filter's choices. */
export async function selectCoursesWithQuestions(db: Database, organizationId: string, active: boolean) {
  const result = await db.execute<{ id: string; course_title: string; questions: number }>(sql`
    select c.id, c.course_title, count(*)::int as questions
    from ${questions} q
    join ${courses} c on c.organization_id = q.organization_id and c.id = q.course_id
    where q.organization_id = ${organizationId} and not c.is_deleted and q.active = ${active}
    group by c.id, c.course_title
    order by lower(c.course_title), c.id`);
  return result.rows;
}

const questionColumns = {
  id: questions.id,
  courseId: questions.courseId,
  interactionId: questions.interactionId,
  slideNumber: questions.slideNumber,
  questionNumber: questions.questionNumber,
  questionText: questions.questionText,
  active: questions.active,
  updatedAt: questions.updatedAt,
};

export type QuestionRecord = {
  id: string;
  courseId: string;
  interactionId: string;
  slideNumber: number | null;
  questionNumber: number | null;
  questionText: string | null;
  active: boolean;
  updatedAt: Date;
};

/**
 * Sets a question's active flag (question of a live course) in one
 * transaction with its activity entry; undefined when there is no such question.
 */
export async function updateQuestionRow(
  db: Database,
  input: {
    organizationId: string;
    questionId: string;
    active: boolean;
    activity: (previous: QuestionRecord, next: QuestionRecord) => NewActivityEvent | null;
  },
): Promise<QuestionRecord | undefined> {
  return db.transaction(async (tx) => {
    const [previous] = await tx
      .select(questionColumns)
      .from(questions)
      .innerJoin(
        courses,
        and(eq(courses.organizationId, questions.organizationId), eq(courses.id, questions.courseId)),
      )
      .where(
        and(
          eq(questions.organizationId, input.organizationId),
          eq(questions.id, input.questionId),
          eq(courses.isDeleted, false),
        ),
      )
      .for('update', { of: questions })
      .limit(1);
    if (!previous) return undefined;
    const [question] = await tx
      .update(questions)
      .set({ active: input.active })
      .where(and(eq(questions.organizationId, input.organizationId), eq(questions.id, input.questionId)))
      .returning(questionColumns);
    if (!question) return undefined;
    const activity = input.activity(previous, question);
    if (activity) await tx.insert(activityEvents).values(activity);
    return question;
  });
}
