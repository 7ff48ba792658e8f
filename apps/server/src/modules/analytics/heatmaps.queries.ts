import type { AnalyticsSettings, HeatmapLearnerSort, SortOrder } from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { executeKept } from '../metrics/result-cache';
import {
  atStep,
  isAllTime,
  learnerIncluded,
  localTime,
  perStep,
  withinLocalDays,
} from './analytics-filters.queries';
import { hasWholeHourOffsets } from './time-zone-offsets';

// The heatmaps read a course's answers (`course_run_questions`; over all
// time, each learner's last answer to each question kept in
// `question_learners`) and the event log's hourly rollup
// (`learning_activity_hours`), one query per grid. A learner counts once per question: their last answer in the
// period, so the questions grid and the learners grid agree, and the Wilson
// interval's trials are people rather than retries of one person.

export type Period = { from?: string | undefined; to?: string | undefined };
export type HeatmapScope = { organizationId: string; settings: AnalyticsSettings };

/** A live course of the organization, with its title. */
export async function selectLiveCourse(db: Database, organizationId: string, courseId: string) {
  const result = await db.execute<{ id: string; title: string }>(sql`
    select id, course_title as title from courses
    where organization_id = ${organizationId} and id = ${courseId} and not is_deleted`);
  return result.rows[0];
}

/** The answers (alias `a`) of the course in the period, of learners the settings count. */
function courseAnswers(scope: HeatmapScope, courseId: string, period: Period): SQL {
  return sql`a.organization_id = ${scope.organizationId} and a.course_id = ${courseId}
    and ${withinLocalDays(scope.settings, sql`a.created_at`, period)}
    and ${learnerIncluded(scope.settings, scope.organizationId, sql`a.learner_id`)}`;
}

/**
 * Each included learner's last answer to each question of the course (alias
 * `l` of `question_learners`, one row per question and learner, with the
 * last answer's `last_correct` and every answer's `responses`): over all
 * time the heatmaps read these, where a period reads the answers. The
 * rollup is read per question, index-only: at 100 000 learners the
 * questions grid took a quarter of the time of the course's answers sorted
 * per question and learner, the learners grid three fifths. On PostgreSQL the answers are folded into it off the write
 * path (jobs/rollup-folder.ts), so it follows new answers within the
 * folds' lag, as report items do.
 */
function lastAnswersOf(scope: HeatmapScope, courseId: string): SQL {
  return sql`l.organization_id = ${scope.organizationId}
    and l.question_id = any(array(
      select q.id from questions q where q.organization_id = ${scope.organizationId} and q.course_id = ${courseId}))
    and ${learnerIncluded(scope.settings, scope.organizationId, sql`l.learner_id`)}`;
}

export type QuestionCellRow = {
  question_id: string;
  interaction_id: string;
  question_text: string | null;
  slide_number: number | null;
  question_number: number | null;
  learners: number | string;
  correct: number | string;
  responses: number | string;
};

/**
 * Every question of the course that is active or was answered in the period,
 * with its learners graded (last answer right or wrong), those right, and
 * every answer. One pass over the course's answers in a period, or over
 * its learners' last answers over all time (`lastAnswersOf`).
 */
export async function selectQuestionCells(
  db: Database,
  scope: HeatmapScope,
  courseId: string,
  period: Period,
): Promise<QuestionCellRow[]> {
  const counts = isAllTime(period)
    ? sql`counts as (
      select l.question_id, count(l.last_correct) as learners, count(*) filter (where l.last_correct) as correct,
             sum(l.responses) as responses
      from question_learners l
      where ${lastAnswersOf(scope, courseId)}
      group by l.question_id
    )`
    : sql`answers as (
      -- Ordered like course_run_questions_course_last_idx (its DESC columns are NULLS LAST; neither
      -- column is ever null), so the window reads the index in order: the default NULLS FIRST of DESC
      -- sorted all the course's answers again (about 100 ms at 670 000).
      select a.question_id, a.correct,
             row_number() over (partition by a.question_id, a.learner_id
                                order by a.created_at desc nulls last, a.id desc nulls last) as recency
      from course_run_questions a
      where ${courseAnswers(scope, courseId, period)}
    ), counts as (
      select question_id,
             count(*) filter (where recency = 1 and correct is not null) as learners,
             count(*) filter (where recency = 1 and correct) as correct,
             count(*) as responses
      from answers group by question_id
    )`;
  return executeKept<QuestionCellRow>(
    db,
    scope.organizationId,
    sql`
    with ${counts}
    select q.id as question_id, q.interaction_id, q.question_text, q.slide_number, q.question_number,
           coalesce(c.learners, 0) as learners, coalesce(c.correct, 0) as correct,
           coalesce(c.responses, 0) as responses
    from questions q
    left join counts c on c.question_id = q.id
    where q.organization_id = ${scope.organizationId} and q.course_id = ${courseId}
      and (q.active or c.question_id is not null)
    order by q.slide_number nulls last, q.question_number nulls last, q.interaction_id`,
  );
}

export type LearnerRow = {
  learner_id: string;
  name: string | null;
  email: string;
  answered: number | string;
  correct: number | string;
  wrong: number | string;
  score: number | string | null;
  total: number | string;
  answers: unknown;
};

const SCORE = '(case when p.correct + p.wrong > 0 then p.correct::float8 / (p.correct + p.wrong) end)';

type LearnerOrdering = {
  /** The whole order of the page (aliases `p` for the counts, `l` for the learner). */
  full: (order: SortOrder) => SQL;
  /**
   * The leading keys of `full` that the counts alone give (alias `p`), or
   * null when the order starts with the learner's name. The page is then cut
   * from the learners first in that order (with their ties) before any is
   * joined to its name: the page and its ties rather than every learner who
   * answered (80 000 name lookups in a course of 100 000 learners).
   */
  counts: ((order: SortOrder) => string) | null;
};

/** An order by counts, then by name (the unnamed by address) and id. */
function byCounts(counts: (order: SortOrder) => string): LearnerOrdering {
  return {
    full: (order) => sql.raw(`${counts(order)}, lower(coalesce(l.name, l.email)) asc, l.id asc`),
    counts,
  };
}

const ORDERINGS: Record<HeatmapLearnerSort, LearnerOrdering> = {
  // Named learners by name; the unnamed by address, after them.
  name: {
    full: (order) => sql.raw(`lower(coalesce(nullif(btrim(l.name), ''), l.email)) ${order}, l.id ${order}`),
    counts: null,
  },
  wrong: byCounts((order) => `p.wrong ${order}, p.answered ${order}`),
  // Nothing graded is no score: last in either order.
  score: byCounts((order) => `${SCORE} ${order} nulls last, p.wrong desc`),
};

/**
 * Memory for the learners page: one hash entry per learner who answered
 * (about 80 000 in a course of 100 000 learners, some MB). PostgreSQL's
 * default (4 MB) would spill them to disk.
 */
const LEARNER_PAGE_WORK_MEM = '32MB' as const;

/**
 * The course's answers (alias `a`) in the period, whoever gave them: the
 * learners grid leaves excluded learners out per learner, after grouping,
 * rather than once per answer.
 */
function answersInPeriod(scope: HeatmapScope, courseId: string, period: Period): SQL {
  return sql`a.organization_id = ${scope.organizationId} and a.course_id = ${courseId}
    and ${withinLocalDays(scope.settings, sql`a.created_at`, period)}`;
}

/**
 * One page of the course's learners (who answered in the period) with their
 * counts and each question's last answer, in one query. Over all time the
 * counts come from the learners' last answers kept per question
 * (`lastAnswersOf`); in a period, from the course's answers read in the
 * order of `course_run_questions_course_last_idx` (question, learner,
 * newest first), index-only and without sorting. Unless the order starts with the name,
 * the learners first in it by their counts (the page's worth, with ties)
 * are the only ones named and sorted, and only the page's learners have
 * their answers read.
 */
export async function selectLearnerPage(
  db: Database,
  scope: HeatmapScope,
  input: {
    courseId: string;
    period: Period;
    sort: HeatmapLearnerSort;
    order: SortOrder;
    limit: number;
    offset: number;
  },
): Promise<LearnerRow[]> {
  const { full, counts } = ORDERINGS[input.sort];
  const ordering = full(input.order);
  const { organizationId } = scope;
  const statement = sql`
    with per_learner as (${
      isAllTime(input.period)
        ? sql`
      select l.learner_id, count(*) as answered,
             count(*) filter (where l.last_correct) as correct,
             count(*) filter (where not l.last_correct) as wrong
      from question_learners l
      where ${lastAnswersOf(scope, input.courseId)}
      group by l.learner_id`
        : sql`
      select learner_id, count(*) as answered,
             count(*) filter (where correct) as correct,
             count(*) filter (where not correct) as wrong
      from (
        -- Ordered like the index (its DESC columns are NULLS LAST; neither column is ever null).
        select distinct on (a.question_id, a.learner_id) a.learner_id, a.correct
        from course_run_questions a
        where ${answersInPeriod(scope, input.courseId, input.period)}
        order by a.question_id, a.learner_id, a.created_at desc nulls last, a.id desc nulls last
      ) last_answers
      where ${learnerIncluded(scope.settings, organizationId, sql`learner_id`)}
      group by learner_id`
    }
    ), candidates as (
      ${
        counts
          ? sql`select p.* from per_learner p order by ${sql.raw(counts(input.order))}
                fetch first (${input.offset + input.limit}) rows with ties`
          : sql`select p.* from per_learner p`
      }
    ), page as (
      select p.learner_id, l.name, l.email, p.answered, p.correct, p.wrong, ${sql.raw(SCORE)} as score,
             (select count(*) from per_learner) as total
      from candidates p
      join learners l on l.organization_id = ${organizationId} and l.id = p.learner_id
      order by ${ordering}
      limit ${input.limit} offset ${input.offset}
    ), page_answers as (
      select la.learner_id,
             json_agg(json_build_object('questionId', la.question_id, 'correct', la.correct,
                                        'answer', la.answer, 'answeredAt', la.created_at) order by la.question_id) as answers
      from (
        select distinct on (a.learner_id, a.question_id)
               a.learner_id, a.question_id, a.correct, left(a.answer_choice, 200) as answer, a.created_at
        from course_run_questions a
        where ${answersInPeriod(scope, input.courseId, input.period)}
          and a.learner_id in (select learner_id from page)
        order by a.learner_id, a.question_id, a.created_at desc, a.id desc
      ) la
      group by la.learner_id
    )
    select p.learner_id, p.name, p.email, p.answered, p.correct, p.wrong, p.score,
           p.total, coalesce(pa.answers, '[]'::json) as answers
    from page p
    -- The learner again (50 rows) so the page is returned in the same order it was cut in.
    join learners l on l.organization_id = ${organizationId} and l.id = p.learner_id
    left join page_answers pa on pa.learner_id = p.learner_id
    order by ${ordering}`;
  return executeKept<LearnerRow>(db, organizationId, statement, { workMem: LEARNER_PAGE_WORK_MEM });
}

/** The total of learners when the page asked for is past the end (the page query then returns no row). */
export async function countLearners(db: Database, scope: HeatmapScope, courseId: string, period: Period) {
  // The learners grouped by hash (index-only), then the excluded ones left out, once each.
  const rows = await executeKept<{ total: number | string }>(
    db,
    scope.organizationId,
    sql`
    select count(*) as total from (
      select a.learner_id from course_run_questions a
      where ${answersInPeriod(scope, courseId, period)}
      group by a.learner_id) answered
    where ${learnerIncluded(scope.settings, scope.organizationId, sql`answered.learner_id`)}`,
  );
  return Number(rows[0]?.total ?? 0);
}

/** The questions answered in the period (the learners grid's columns). */
export async function selectAnsweredQuestions(
  db: Database,
  scope: HeatmapScope,
  courseId: string,
  period: Period,
) {
  return executeKept<{
    question_id: string;
    interaction_id: string;
    question_text: string | null;
    slide_number: number | null;
    question_number: number | null;
  }>(
    db,
    scope.organizationId,
    sql`
    select q.id as question_id, q.interaction_id, q.question_text, q.slide_number, q.question_number
    from questions q
    where q.organization_id = ${scope.organizationId} and q.course_id = ${courseId}
      and exists (select 1 from course_run_questions a where ${courseAnswers(scope, courseId, period)}
                  and a.question_id = q.id)
    order by q.slide_number nulls last, q.question_number nulls last, q.interaction_id`,
  );
}

export type ActivityRow = {
  weekday: number | null;
  hour: number | null;
  events: number | string;
  learners: number | string;
};

/**
 * Memory for the activity statements: the rows sorted by slot (about
 * 400 000 over every hour of 100 000 learners, 44 MB) and the learners
 * grouped by hash (11 MB). PostgreSQL's default (4 MB) would sort on disk.
 */
const ACTIVITY_WORK_MEM = '64MB' as const;

/**
 * Where the activity statements read: the rollup of the log
 * (`learning_activity_hours`) in the period, with `at` the instant a row's
 * events are counted at. In a zone a whole number of hours off UTC that is
 * the row's hour; otherwise each quarter of it with events, so an hour of
 * UTC that straddles two local hours (or a local midnight) splits exactly.
 */
function activitySource(scope: HeatmapScope, courseId: string | undefined, period: Period) {
  const whole = hasWholeHourOffsets(scope.settings.timeZone);
  const at = whole ? sql`h.hour` : sql`q.at`;
  const events = whole ? sql`(h.events_0 + h.events_15 + h.events_30 + h.events_45)` : sql`q.events`;
  const from = whole
    ? sql`learning_activity_hours h`
    : sql`learning_activity_hours h cross join lateral (values
        (h.hour, h.events_0), (h.hour + interval '15 minutes', h.events_15),
        (h.hour + interval '30 minutes', h.events_30), (h.hour + interval '45 minutes', h.events_45)) as q(at, events)`;
  const where = sql`h.organization_id = ${scope.organizationId}
    ${courseId ? sql`and h.course_id = ${courseId}` : sql``}
    ${whole ? sql`` : sql`and q.events > 0`}
    and ${withinLocalDays(scope.settings, at, period)}
    and ${learnerIncluded(scope.settings, scope.organizationId, sql`h.learner_id`)}`;
  return { at, events, from, where, whole };
}

/** Seconds between the instants the rollup counts at: its hours, or their quarters. */
const slotSeconds = (whole: boolean) => (whole ? 3600 : 900);

/**
 * `slots`: the local slot (ISO weekday × 24 + hour) of every instant a row
 * of the organization's rollup can be counted at, from its first row to its
 * last (found at both ends of its primary key), for `atStep` to look up.
 * In a zone that is not a whole number of hours off UTC the instants are
 * quarters, each within one local hour.
 */
function activitySlots(scope: HeatmapScope, whole: boolean): SQL {
  const end = (order: SQL) => sql`(select x.hour from learning_activity_hours x
    where x.organization_id = ${scope.organizationId} order by x.hour ${order} limit 1)`;
  return perStep(
    'slots',
    { from: end(sql`asc`), to: sql`${end(sql`desc`)} + interval '45 minutes'` },
    slotSeconds(whole),
    (at) => {
      const local = localTime(scope.settings, at);
      return sql`extract(isodow from ${local})::int * 24 + extract(hour from ${local})::int`;
    },
  );
}

function withActivityMemory(db: Database, scope: HeatmapScope, statement: SQL): Promise<ActivityRow[]> {
  return executeKept<ActivityRow>(db, scope.organizationId, statement, { workMem: ACTIVITY_WORK_MEM });
}

/**
 * Events and distinct learners by local weekday (ISO, Monday = 1) and hour,
 * plus the period's totals as a row with weekday and hour null. Two
 * statements over the log's rollup, run side by side on PostgreSQL: the
 * slots (the rows sorted by slot, each slot's learners counted once) and
 * the totals (the learners grouped once). Sorting the rows by slot took
 * less than grouping them per learner and slot by hash (390 000 groups).
 */
export async function selectActivity(
  db: Database,
  scope: HeatmapScope,
  courseId: string | undefined,
  period: Period,
): Promise<ActivityRow[]> {
  const { at, events, from, where, whole } = activitySource(scope, courseId, period);
  const [cells, totals] = await Promise.all([
    withActivityMemory(
      db,
      scope,
      sql`with ${activitySlots(scope, whole)}
      select slot / 24 as weekday, slot % 24 as hour, sum(events) as events, count(distinct learner_id) as learners
      from (
        select ${atStep('slots', at, slotSeconds(whole))} as slot, h.learner_id, ${events} as events
        from ${from}
        where ${where}) rows
      group by slot`,
    ),
    withActivityMemory(
      db,
      scope,
      sql`select null::int as weekday, null::int as hour, coalesce(sum(events), 0) as events, count(*) as learners
      from (select h.learner_id, sum(${events}) as events from ${from} where ${where} group by h.learner_id) per_learner`,
    ),
  ]);
  return [...cells, ...totals];
}
