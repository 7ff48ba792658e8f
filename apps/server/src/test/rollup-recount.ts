import { sql, type SQL } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../db/client';

// Every rollup as stored beside a recount from the raw runs, answers and
// values (the whole database): the rollups must always equal the recount,
// whatever wrote the facts and however the rollups followed (inline, or
// folded later by a worker that may have died mid-fold).

async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows.map((row) => ({ ...row }));
}

/**
 * Question rollups as stored, and as recounted from the answers. A learner
 * is counted as new on the day first stored (a late, older answer does not
 * move the count), so new learners are compared per question.
 */
export async function questionRollups(db: Database) {
  const stored = await rows(
    db,
    sql`
    select question_id, day::text as day, responses, graded, correct, points::float8 as points
    from question_daily_stats where responses > 0 order by question_id, day`,
  );
  const recount = await rows(
    db,
    sql`
    select question_id, (created_at at time zone 'UTC')::date::text as day, count(*)::int as responses,
           count(correct)::int as graded, (count(*) filter (where correct))::int as correct,
           coalesce(sum(points_assigned), 0)::float8 as points
    from course_run_questions group by 1, 2 order by 1, 2`,
  );
  const learnerCounts = await rows(
    db,
    sql`
    select question_id, sum(new_learners)::int as learners from question_daily_stats
    group by 1 having sum(new_learners) > 0 order by 1`,
  );
  const learnerCountsRecount = await rows(
    db,
    sql`
    select question_id, count(distinct learner_id)::int as learners from course_run_questions
    group by 1 order by 1`,
  );
  const learnerPairs = await rows(
    db,
    sql`
    select question_id, learner_id, first_answered_at, responses, correct, points::float8 as points
    from question_learners order by 1, 2`,
  );
  const learnerRecount = await rows(
    db,
    sql`
    select question_id, learner_id, min(created_at) as first_answered_at, count(*)::int as responses,
           (count(*) filter (where correct))::int as correct, coalesce(sum(points_assigned), 0)::float8 as points
    from course_run_questions group by 1, 2 order by 1, 2`,
  );
  return { stored, recount, learnerCounts, learnerCountsRecount, learnerPairs, learnerRecount };
}

/** Variable rollups as stored, and as recounted from the values. */
export async function variableRollups(db: Database) {
  const stored = await rows(
    db,
    sql`
    select variable_id, usage_count, learner_count, last_recorded_at from variable_stats
    where usage_count > 0 order by variable_id`,
  );
  const recount = await rows(
    db,
    sql`
    select variable_id, count(*)::int as usage_count, count(distinct learner_id)::int as learner_count,
           max(recorded_at) as last_recorded_at
    from learner_variable_values group by 1 order by 1`,
  );
  const latest = await rows(
    db,
    sql`
    select variable_id, learner_id, value_id, value, value_number, recorded_at
    from learner_variable_latest order by 1, 2`,
  );
  const latestRecount = await rows(
    db,
    sql`
    select distinct on (variable_id, learner_id) variable_id, learner_id, id as value_id, value, value_number,
           recorded_at
    from learner_variable_values order by variable_id, learner_id, recorded_at desc, id desc`,
  );
  return { stored, recount, latest, latestRecount };
}

/** Course rollups as stored, and as recounted from the runs. */
export async function courseRollups(db: Database) {
  const days = await rows(
    db,
    sql`
    select course_id, day::text as day, runs from course_daily_stats where runs > 0 order by 1, 2`,
  );
  const daysRecount = await rows(
    db,
    sql`
    select course_id, (created_at at time zone 'UTC')::date::text as day, count(*)::int as runs
    from course_runs group by 1, 2 order by 1, 2`,
  );
  const learners = await rows(
    db,
    sql`
    select course_id, learner_id, first_run_at, last_run_at, runs from course_learners order by 1, 2`,
  );
  const learnersRecount = await rows(
    db,
    sql`
    select course_id, learner_id, min(created_at) as first_run_at, max(created_at) as last_run_at,
           count(*)::int as runs
    from course_runs group by 1, 2 order by 1, 2`,
  );
  return { days, daysRecount, learners, learnersRecount };
}

/**
 * The log's hourly activity as stored, and as recounted from the log (its
 * own hour and quarter arithmetic, not the migration's functions).
 */
export async function activityRollups(db: Database) {
  const stored = await rows(
    db,
    sql`
    select organization_id, to_char(hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24') as hour, learner_id, course_id,
           events_0, events_15, events_30, events_45
    from learning_activity_hours order by 1, 2, 3, 4`,
  );
  const recount = await rows(
    db,
    sql`
    select organization_id, to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24') as hour, learner_id,
           course_id,
           (count(*) filter (where extract(minute from occurred_at at time zone 'UTC') < 15))::int as events_0,
           (count(*) filter (where extract(minute from occurred_at at time zone 'UTC') between 15 and 29))::int
             as events_15,
           (count(*) filter (where extract(minute from occurred_at at time zone 'UTC') between 30 and 44))::int
             as events_30,
           (count(*) filter (where extract(minute from occurred_at at time zone 'UTC') >= 45))::int as events_45
    from learning_events group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
  );
  return { stored, recount };
}

/** Each learner's answers per course and UTC hour, as stored and as recounted from the answers. */
export async function answerHourRollups(db: Database) {
  const stored = await rows(
    db,
    sql`
    select organization_id, to_char(hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24') as hour, learner_id, course_id,
           answers, graded, correct
    from learner_answer_hours order by 1, 2, 3, 4`,
  );
  const recount = await rows(
    db,
    sql`
    select organization_id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24') as hour, learner_id,
           course_id, count(*)::int as answers, count(correct)::int as graded,
           (count(*) filter (where correct))::int as correct
    from course_run_questions group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
  );
  return { stored, recount };
}

/** Each run's answer sheet, as stored and as recounted from the answers (arrays as text, to compare like for like). */
export async function answerSheetRollups(db: Database) {
  const stored = await rows(
    db,
    sql`
    select organization_id, course_run_id, course_id, question_ids::text as question_ids,
           answer_ids::text as answer_ids, marks::text as marks, answers::text as answers, graded::text as graded, total
    from run_answer_sheets order by 1, 2`,
  );
  const recount = await rows(
    db,
    sql`
    select organization_id, course_run_id, course_id, array_agg(question_id order by question_id)::text as question_ids,
           array_agg(id order by question_id)::text as answer_ids, array_agg(mark order by question_id)::text as marks,
           array_agg(answer_choice order by question_id)::text as answers,
           array_agg(graded order by question_id)::text as graded, sum(mark order by question_id) as total
    from (
      select distinct on (organization_id, course_run_id, question_id)
        organization_id, course_run_id, course_id, question_id, id, answer_choice,
        coalesce(points_assigned, case when correct then 1 else 0 end)::float8 as mark,
        (points_assigned is not null or correct is not null) as graded
      from course_run_questions where course_run_id is not null
      order by organization_id, course_run_id, question_id, created_at desc, id desc
    ) last_answers
    group by 1, 2, 3 order by 1, 2`,
  );
  return { stored, recount };
}

/** Each course's highest slide viewed, as stored and as recounted from the log. */
export async function lastSlideRollups(db: Database) {
  const stored = await rows(db, sql`select course_id, last_slide from course_last_slides order by 1`);
  const recount = await rows(
    db,
    sql`
    select course_id, max(slide_number) as last_slide from learning_events
    where type = 'slide.viewed' and slide_number is not null group by 1 order by 1`,
  );
  return { stored, recount };
}

/** Asserts that every rollup equals its recount from the raw rows (no log row deleted). */
export async function expectRollupsMatchRecount(db: Database): Promise<void> {
  const runs = await courseRollups(db);
  expect(runs.days).toEqual(runs.daysRecount);
  expect(runs.learners).toEqual(runs.learnersRecount);
  const questions = await questionRollups(db);
  expect(questions.stored).toEqual(questions.recount);
  expect(questions.learnerCounts).toEqual(questions.learnerCountsRecount);
  expect(questions.learnerPairs).toEqual(questions.learnerRecount);
  const variables = await variableRollups(db);
  expect(variables.stored).toEqual(variables.recount);
  expect(variables.latest).toEqual(variables.latestRecount);
  const activity = await activityRollups(db);
  expect(activity.stored).toEqual(activity.recount);
  const answerHours = await answerHourRollups(db);
  expect(answerHours.stored).toEqual(answerHours.recount);
  const answerSheets = await answerSheetRollups(db);
  expect(answerSheets.stored).toEqual(answerSheets.recount);
  const lastSlides = await lastSlideRollups(db);
  expect(lastSlides.stored).toEqual(lastSlides.recount);
}
