import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { jsonColumn } from '../../db/json-column';

// The dashboard's figures, each one statement that filters on
// organization_id first and on a time range where it has one. Runs and
// answers are read from their rollups (a row per course or question and UTC
// day, kept by triggers, see db/schema/rollups.ts), never row by row.
// Runs and answers of deleted courses are left out:
// `course_id <> all(<deleted ids>)` is a cheap filter on an index column
// (the array is almost always empty), unlike a join with courses.

/** Bounds of the period: `[from, end)`, whole UTC days, `end` is the start of tomorrow. */
export type PeriodBounds = { from: Date; end: Date; days: number };

const deletedCourseIds = (organizationId: string) =>
  sql`array(select c.id from courses c where c.organization_id = ${organizationId} and c.is_deleted)`;

const toCount = (value: unknown) => Number(value ?? 0);

/** A point in time as a typed parameter (same text on PGlite and node-postgres). */
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** The UTC day of a point in time, `YYYY-MM-DD`. */
const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** A daily rollup's `day` inside the period. */
const inPeriodDays = (bounds: PeriodBounds) =>
  sql`day >= ${isoDate(bounds.from)}::date and day < ${isoDate(bounds.end)}::date`;

export async function countLearners(db: Database, organizationId: string, bounds: PeriodBounds, now: Date) {
  const since7 = new Date(now.getTime() - 7 * 86_400_000);
  const since30 = new Date(now.getTime() - 30 * 86_400_000);
  // Three index range scans (learners_org_created_idx and learners_org_last_activity_idx).
  const { rows } = await db.execute<{
    total: string;
    new_in_period: string;
    active_7: string;
    active_30: string;
  }>(sql`
    select
      (select count(*) from learners where organization_id = ${organizationId}) as total,
      (select count(*) from learners where organization_id = ${organizationId}
         and created_at >= ${at(bounds.from)}) as new_in_period,
      (select count(*) from learners where organization_id = ${organizationId}
         and last_activity_at >= ${at(since7)}) as active_7,
      (select count(*) from learners where organization_id = ${organizationId}
         and last_activity_at >= ${at(since30)}) as active_30
  `);
  const row = rows[0];
  return {
    total: toCount(row?.total),
    newInPeriod: toCount(row?.new_in_period),
    active7: toCount(row?.active_7),
    active30: toCount(row?.active_30),
  };
}

/** Live courses, and whether the organization has ever ingested an event. */
export async function countCoursesAndEvents(db: Database, organizationId: string) {
  const { rows } = await db.execute<{ courses: string; has_events: boolean }>(sql`
    select
      (select count(*) from courses where organization_id = ${organizationId} and not is_deleted) as courses,
      exists (select 1 from learning_event_keys where organization_id = ${organizationId}) as has_events
  `);
  const row = rows[0];
  return { courses: toCount(row?.courses), hasEvents: row?.has_events === true };
}

/** Course runs of live courses, all time and in the period, from the daily rollup of runs. */
export async function countCourseRuns(db: Database, organizationId: string, bounds: PeriodBounds) {
  const { rows } = await db.execute<{ total: string | null; in_period: string | null }>(sql`
    select sum(runs) as total,
           sum(runs) filter (where ${inPeriodDays(bounds)}) as in_period
    from course_daily_stats
    where organization_id = ${organizationId}
      and course_id <> all(${deletedCourseIds(organizationId)})
  `);
  return { total: toCount(rows[0]?.total), inPeriod: toCount(rows[0]?.in_period) };
}

/** Runs per day of the period (live courses), zero-filled, from the daily rollup of runs. */
export async function listRunsPerDay(db: Database, organizationId: string, bounds: PeriodBounds) {
  const { rows } = await db.execute<{ day: number; runs: string }>(sql`
    select s.day, coalesce(c.runs, 0) as runs
    from generate_series(0, ${bounds.days - 1}::int) as s(day)
    left join (
      select (day - ${isoDate(bounds.from)}::date) as day, sum(runs) as runs
      from course_daily_stats
      where organization_id = ${organizationId} and ${inPeriodDays(bounds)}
        and course_id <> all(${deletedCourseIds(organizationId)})
      group by 1
    ) as c on c.day = s.day
    order by s.day
  `);
  return rows.map((row) => ({ day: Number(row.day), runs: toCount(row.runs) }));
}

/**
 * Live courses with the most runs in the period (ties: by title), with how
 * many learners ran them in the period: the period ends now, so those are
 * the course's learners whose last run is inside it (course_learners).
 */
export async function listTopCourses(
  db: Database,
  organizationId: string,
  bounds: PeriodBounds,
  limit: number,
) {
  const { rows } = await db.execute<{
    id: string;
    course_title: string;
    external_course_id: string | null;
    runs: string;
    learners: string;
  }>(sql`
    select c.id, c.course_title, c.external_course_id, t.runs,
      (select count(*) from course_learners l
        where l.organization_id = ${organizationId} and l.course_id = c.id
          and l.last_run_at >= ${at(bounds.from)}) as learners
    from (
      select course_id, sum(runs) as runs
      from course_daily_stats
      where organization_id = ${organizationId} and ${inPeriodDays(bounds)}
      group by course_id
    ) as t
    join courses c on c.organization_id = ${organizationId} and c.id = t.course_id and not c.is_deleted
    order by t.runs desc, c.course_title asc, c.id asc
    limit ${limit}
  `);
  return rows.map((row) => ({
    id: row.id,
    title: row.course_title,
    externalCourseId: row.external_course_id,
    runs: toCount(row.runs),
    learners: toCount(row.learners),
  }));
}

/**
 * Answers to questions of live courses (all time and in the period) and the
 * active questions with the lowest share of correct answers in the period,
 * among those with at least `minResponses` graded answers (an answer whose
 * `correct` is null, e.g. a survey, is not graded). Read from the daily
 * rollup of the answers (question_daily_stats, whole UTC days like the
 * period): one row per question and day instead of every answer.
 */
export async function summarizeResponses(
  db: Database,
  organizationId: string,
  bounds: PeriodBounds,
  options: { minResponses: number; limit: number },
) {
  const inPeriod = inPeriodDays(bounds);
  const { rows } = await db.execute<{
    total: string | null;
    in_period: string | null;
    hardest: HardestRow[] | string | null;
  }>(sql`
    with per_question as (
      select question_id,
             sum(responses) as total,
             coalesce(sum(responses) filter (where ${inPeriod}), 0) as in_period,
             coalesce(sum(graded) filter (where ${inPeriod}), 0) as graded,
             coalesce(sum(correct) filter (where ${inPeriod}), 0) as correct
      from question_daily_stats
      where organization_id = ${organizationId}
      group by question_id
    ),
    live as (
      select p.*, q.active, q.course_id, c.course_title, q.question_text, q.interaction_id,
             q.slide_number, q.question_number
      from per_question p
      join questions q on q.organization_id = ${organizationId} and q.id = p.question_id
      join courses c on c.organization_id = ${organizationId} and c.id = q.course_id and not c.is_deleted
    )
    select
      (select sum(total) from live) as total,
      (select sum(in_period) from live) as in_period,
      (select json_agg(h) from (
         select question_id as id, course_id, course_title, question_text, interaction_id,
                slide_number, question_number, graded as responses, correct
         from live
         where active and graded >= ${options.minResponses}
         order by correct::float8 / graded asc, graded desc, question_id asc
         limit ${options.limit}
       ) as h) as hardest
  `);
  const row = rows[0];
  const hardest = jsonColumn<HardestRow[]>(row?.hardest, []);
  return {
    total: toCount(row?.total),
    inPeriod: toCount(row?.in_period),
    hardestQuestions: hardest.map(hardestQuestionOf),
  };
}

/** A ranked question as the dashboard answers it. */
export function hardestQuestionOf(question: HardestRow) {
  const responses = toCount(question.responses);
  const correctResponses = toCount(question.correct);
  return {
    id: question.id,
    courseId: question.course_id,
    courseTitle: question.course_title,
    questionText: question.question_text,
    interactionId: question.interaction_id,
    slideNumber: question.slide_number === null ? null : Number(question.slide_number),
    questionNumber: question.question_number === null ? null : Number(question.question_number),
    responses,
    correctResponses,
    correctRate: responses === 0 ? 0 : correctResponses / responses,
  };
}

export type HardestRow = {
  id: string;
  course_id: string;
  course_title: string;
  question_text: string | null;
  interaction_id: string;
  slide_number: number | null;
  question_number: number | null;
  responses: number;
  correct: number;
};

/** Facts of the organization written but not yet counted in the rollups (queued for the folder). */
export async function countPendingFacts(db: Database, organizationId: string): Promise<number> {
  const { rows } = await db.execute<{ pending: string }>(
    sql`select count(*) as pending from rollup_queue where organization_id = ${organizationId}`,
  );
  return toCount(rows[0]?.pending);
}
