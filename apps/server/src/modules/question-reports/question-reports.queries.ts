import type { QuestionReportSortKey, SortOrder } from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { courseRunQuestions, courses, learners, questions } from '../../db/schema';
import { axisBuckets, boundedSpan, intervalStep, intervalUnit } from '../../lib/time-axis';
import { learnerDisplayName } from '../metrics/privacy';
import { leaderboard } from '../metrics/statistics.queries';
import { escapeLike } from '../variables/variables.queries';

// A question's answers are the facts of its reports: responses count every
// answer, learners count people once, and points are each learner's best on
// the question (a retry replaces a score, it never adds to it). Over all
// time the totals and the leaders read the rollups that hold exactly these
// (`question_daily_stats`, `question_learners`, as a custom report of the
// question does); a date range reads the answers (`course_run_questions`).

export type QuestionRange = { from?: string | undefined; to?: string | undefined };

export type QuestionSubjectRow = {
  id: string;
  course_id: string;
  course_title: string;
  interaction_id: string;
  slide_number: number | null;
  question_number: number | null;
  question_text: string | null;
  correct_answer: string | null;
};

/** A question of a live course of the organization. */
export async function selectQuestionSubject(
  db: Database,
  organizationId: string,
  questionId: string,
): Promise<QuestionSubjectRow | undefined> {
  const result = await db.execute<QuestionSubjectRow>(sql`
    select q.id, q.course_id, c.course_title, q.interaction_id, q.slide_number, q.question_number,
           q.question_text, q.correct_answer
    from ${questions} q
    join ${courses} c on c.organization_id = q.organization_id and c.id = q.course_id
    where q.organization_id = ${organizationId} and q.id = ${questionId} and not c.is_deleted`);
  return result.rows[0];
}

const utcDay = (day: string) => sql`(${day}::date)::timestamp at time zone 'UTC'`;

/** The answers (alias `a`) to one question in the date range. */
function answerConditions(organizationId: string, questionId: string, range: QuestionRange): SQL {
  const conditions: SQL[] = [sql`a.organization_id = ${organizationId}`, sql`a.question_id = ${questionId}`];
  if (range.from) conditions.push(sql`a.created_at >= ${utcDay(range.from)}`);
  if (range.to) conditions.push(sql`a.created_at < ${utcDay(range.to)} + interval '1 day'`);
  return sql.join(conditions, sql` and `);
}

export type ResponseFilters = QuestionRange & {
  correct?: 'true' | 'false' | 'ungraded' | undefined;
  q?: string | undefined;
};

function responseConditions(organizationId: string, questionId: string, filters: ResponseFilters): SQL {
  const conditions: SQL[] = [answerConditions(organizationId, questionId, filters)];
  if (filters.correct === 'true') conditions.push(sql`a.correct`);
  if (filters.correct === 'false') conditions.push(sql`not a.correct`);
  if (filters.correct === 'ungraded') conditions.push(sql`a.correct is null`);
  if (filters.q) {
    const pattern = `%${escapeLike(filters.q)}%`;
    conditions.push(sql`(ln.name ilike ${pattern} or ln.email ilike ${pattern})`);
  }
  return sql.join(conditions, sql` and `);
}

function responseOrder(sort: QuestionReportSortKey, order: SortOrder): SQL {
  const direction = sql.raw(order === 'asc' ? 'asc' : 'desc');
  const nulls = sql.raw(order === 'asc' ? 'nulls first' : 'nulls last');
  switch (sort) {
    case 'answeredAt':
      return sql`a.created_at ${direction}, a.id`;
    case 'learner':
      return sql`lower(ln.name) ${direction} nulls last, ln.email ${direction}, a.created_at desc, a.id`;
    case 'answer':
      return sql`lower(a.answer_choice) ${direction} ${nulls}, a.created_at desc, a.id`;
    case 'correct':
      return sql`a.correct ${direction} ${nulls}, a.created_at desc, a.id`;
    case 'points':
      return sql`a.points_assigned ${direction} ${nulls}, a.created_at desc, a.id`;
  }
}

export type ResponseRow = {
  id: string;
  learner_id: string;
  learner_name: string | null;
  /** The name as a public payload may show it (never an e-mail address). */
  learner_display_name: string;
  learner_email: string;
  answer_choice: string | null;
  correct: boolean | null;
  points_assigned: number | null;
  created_at: Date | string;
};

export async function selectResponses(
  db: Database,
  input: {
    organizationId: string;
    questionId: string;
    filters: ResponseFilters;
    sort: QuestionReportSortKey;
    order: SortOrder;
    limit: number;
    offset: number;
  },
): Promise<ResponseRow[]> {
  const result = await db.execute<ResponseRow>(sql`
    select a.id, a.learner_id, ln.name as learner_name, ${learnerDisplayName('ln')} as learner_display_name,
           ln.email as learner_email, a.answer_choice,
           a.correct, a.points_assigned, a.created_at
    from ${courseRunQuestions} a
    join ${learners} ln on ln.organization_id = a.organization_id and ln.id = a.learner_id
    where ${responseConditions(input.organizationId, input.questionId, input.filters)}
    order by ${responseOrder(input.sort, input.order)}
    limit ${input.limit} offset ${input.offset}`);
  return result.rows;
}

export async function countResponses(
  db: Database,
  input: { organizationId: string; questionId: string; filters: ResponseFilters },
): Promise<number> {
  const result = await db.execute<{ total: number }>(sql`
    select count(*)::int as total
    from ${courseRunQuestions} a
    ${input.filters.q ? sql`join ${learners} ln on ln.organization_id = a.organization_id and ln.id = a.learner_id` : sql``}
    where ${responseConditions(input.organizationId, input.questionId, input.filters)}`);
  return result.rows[0]?.total ?? 0;
}

export type TotalsRow = {
  responses: number;
  graded: number;
  correct: number;
  /** Each learner's best points, averaged over learners; null without points. */
  points: number | null;
  learners: number;
};

/** True when the range reads every answer ever given. */
function isAllTime(range: QuestionRange): boolean {
  return !range.from && !range.to;
}

/** Each learner's answers to the question in the range: how many, graded, right, and their best points. */
function perLearnerAnswers(organizationId: string, questionId: string, range: QuestionRange): SQL {
  if (isAllTime(range)) {
    return sql`
      select l.learner_id, l.responses, l.graded, l.correct, l.best_points::float8 as best,
             l.first_answered_at
      from question_learners l
      where l.organization_id = ${organizationId} and l.question_id = ${questionId}`;
  }
  return sql`
    select a.learner_id, count(*)::int as responses, count(a.correct)::int as graded,
           (count(*) filter (where a.correct))::int as correct, max(a.points_assigned)::float8 as best,
           min(a.created_at) as first_answered_at
    from ${courseRunQuestions} a
    where ${answerConditions(organizationId, questionId, range)}
    group by a.learner_id`;
}

/**
 * Totals of the date range: responses, graded and right answers, learners
 * (distinct), and the average of each learner's best points. Over all time
 * from the rollups; in a range in one pass over the answers (the covering
 * index holds every column read).
 */
export async function selectTotals(
  db: Database,
  input: { organizationId: string; questionId: string; range: QuestionRange },
): Promise<TotalsRow> {
  const result = await db.execute<TotalsRow>(
    isAllTime(input.range)
      ? // The daily rollup counts the answers; the learners' rollup holds their best points.
        sql`
        select coalesce(sum(d.responses), 0)::int as responses, coalesce(sum(d.graded), 0)::int as graded,
               coalesce(sum(d.correct), 0)::int as correct,
               (select avg(l.best_points) from question_learners l
                 where l.organization_id = ${input.organizationId} and l.question_id = ${input.questionId})::float8 as points,
               coalesce(sum(d.new_learners), 0)::int as learners
        from question_daily_stats d
        where d.organization_id = ${input.organizationId} and d.question_id = ${input.questionId}`
      : sql`
        with per_learner as (${perLearnerAnswers(input.organizationId, input.questionId, input.range)})
        select coalesce(sum(p.responses), 0)::int as responses, coalesce(sum(p.graded), 0)::int as graded,
               coalesce(sum(p.correct), 0)::int as correct, avg(p.best)::float8 as points,
               count(*)::int as learners
        from per_learner p`,
  );
  return result.rows[0] ?? { responses: 0, graded: 0, correct: 0, points: null, learners: 0 };
}

/**
 * How the answers spread across the choices: the `top` most given and the
 * rest as "other" (label null). A choice is correct when it is the
 * question's correct answer or was graded right. Over all time from the
 * answers counted per choice (`question_answer_stats`).
 */
export async function selectChoices(
  db: Database,
  input: {
    organizationId: string;
    questionId: string;
    correctAnswer: string | null;
    range: QuestionRange;
    top: number;
  },
): Promise<{ label: string | null; count: number; is_correct: boolean; is_other: boolean }[]> {
  const result = await db.execute<{
    label: string | null;
    count: number;
    is_correct: boolean;
    is_other: boolean;
  }>(sql`
    with counts as (${
      isAllTime(input.range)
        ? sql`
          select s.answer as choice, s.responses as c, s.correct > 0 as graded_right
          from question_answer_stats s
          where s.organization_id = ${input.organizationId} and s.question_id = ${input.questionId}`
        : sql`
          select coalesce(nullif(a.answer_choice, ''), '(no answer)') as choice, count(*) as c,
                 coalesce(bool_or(a.correct), false) as graded_right
          from ${courseRunQuestions} a
          where ${answerConditions(input.organizationId, input.questionId, input.range)}
          group by 1`
    }),
    ranked as (select *, row_number() over (order by c desc, choice) as rn from counts)
    select case when rn <= ${input.top} then choice end as label,
           sum(c)::int as count,
           bool_or(rn <= ${input.top} and (graded_right or choice = ${input.correctAnswer})) as is_correct,
           rn > ${input.top} as is_other
    from ranked
    group by 1, 4
    order by 4, min(rn)`);
  return result.rows;
}

export async function selectRangeSpanDays(
  db: Database,
  input: { organizationId: string; questionId: string; range: QuestionRange },
): Promise<number> {
  const days: SQL[] = [
    sql`organization_id = ${input.organizationId}`,
    sql`question_id = ${input.questionId}`,
  ];
  if (input.range.from) days.push(sql`day >= ${input.range.from}::date`);
  if (input.range.to) days.push(sql`day <= ${input.range.to}::date`);
  const result = await db.execute<{ days: number | null }>(sql`
    select (max(day) - min(day))::int as days from question_daily_stats where ${sql.join(days, sql` and `)}`);
  return result.rows[0]?.days ?? 0;
}

/** Answers and right answers per UTC day or ISO week, from the daily rollup, empty buckets included. */
export async function selectCorrectTrend(
  db: Database,
  input: { organizationId: string; questionId: string; range: QuestionRange; interval: 'day' | 'week' },
): Promise<{ bucket: string; responses: number; graded: number; correct: number }[]> {
  const days: SQL[] = [
    sql`d.organization_id = ${input.organizationId}`,
    sql`d.question_id = ${input.questionId}`,
  ];
  if (input.range.from) days.push(sql`d.day >= ${input.range.from}::date`);
  if (input.range.to) days.push(sql`d.day <= ${input.range.to}::date`);
  const unit = intervalUnit(input.interval);
  const step = intervalStep(input.interval);
  const result = await db.execute<{ bucket: string; responses: number; graded: number; correct: number }>(sql`
    with grouped as (
      select date_trunc(${unit}, d.day::timestamp) as bucket, sum(d.responses)::int as responses,
             sum(d.graded)::int as graded, sum(d.correct)::int as correct
      from question_daily_stats d
      where ${sql.join(days, sql` and `)}
      group by 1
    ),
    ${boundedSpan(step)}
    select to_char(s.bucket, 'YYYY-MM-DD') as bucket, coalesce(g.responses, 0)::int as responses,
           coalesce(g.graded, 0)::int as graded, coalesce(g.correct, 0)::int as correct
    ${axisBuckets(step)}`);
  return result.rows;
}

export type QuestionLeaderRecord = {
  rank: number;
  learner_id: string;
  learner_name: string;
  score: number;
  responses: number;
  correct: number;
};

/**
 * Learners by their best points on the question (an answer without points
 * counts 0), ties sharing a rank, with their answers and right answers in
 * the range. When more tie than are shown, those who needed fewer answers,
 * then who answered first, are shown.
 */
export async function selectQuestionLeaders(
  db: Database,
  input: { organizationId: string; questionId: string; range: QuestionRange; limit: number },
): Promise<QuestionLeaderRecord[]> {
  const perLearner = sql`
    select p.learner_id, coalesce(p.best, 0)::float8 as score, p.responses, p.correct, p.first_answered_at
    from (${perLearnerAnswers(input.organizationId, input.questionId, input.range)}) p`;
  // Among equal points, who needed fewer answers, then who answered first.
  const result = await db.execute<QuestionLeaderRecord>(
    leaderboard({
      organizationId: input.organizationId,
      perLearner,
      order: 'desc',
      limit: input.limit,
      tieBreak: sql`p.responses, p.first_answered_at`,
    }),
  );
  return result.rows;
}
