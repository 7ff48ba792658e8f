import type { AnalyticsSettings } from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { jsonColumn } from '../../db/json-column';
import {
  hasExclusions,
  learnerExcluded,
  learnerIncluded,
  localDayStart,
  withinLocalDays,
} from '../analytics/analytics-filters.queries';
import { hardestQuestionOf, type HardestRow } from './dashboard.queries';

// The dashboard's figures when the analytics settings ask for another clock
// or leave test accounts out. The rollups count whole UTC days and every
// learner, so these read the runs and answers themselves: the period's runs
// and answers by index range (course_runs by organization and start, answers
// by course and time), and the all-time totals as the rollups' totals minus
// what the excluded learners did (read through their own index, and there
// are few of them).

/** A period of whole local days, `fromDay` to `toDay` inclusive (YYYY-MM-DD). */
export type LocalPeriod = { fromDay: string; toDay: string; days: number };

type Scope = { organizationId: string; settings: AnalyticsSettings };

const toCount = (value: unknown) => Number(value ?? 0);

const deletedCourseIds = (organizationId: string) =>
  sql`array(select c.id from courses c where c.organization_id = ${organizationId} and c.is_deleted)`;

const liveCourseIds = (organizationId: string) =>
  sql`array(select c.id from courses c where c.organization_id = ${organizationId} and not c.is_deleted)`;

const inPeriod = (scope: Scope, period: LocalPeriod, column: SQL) =>
  withinLocalDays(scope.settings, column, { from: period.fromDay, to: period.toDay });

/** Learners the settings leave out (their ids), for subtracting what they did from the rollups. */
const excludedLearnerIds = (scope: Scope) =>
  hasExclusions(scope.settings)
    ? sql`array(select x.id from learners x where x.organization_id = ${scope.organizationId}
        and ${learnerExcluded(scope.settings, sql`x.email`)})`
    : sql`array[]::uuid[]`;

export async function countLearnersLocal(db: Database, scope: Scope, period: LocalPeriod, now: Date) {
  const { organizationId } = scope;
  const counted = hasExclusions(scope.settings)
    ? sql`not ${learnerExcluded(scope.settings, sql`email`)}`
    : sql`true`;
  const since7 = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const since30 = new Date(now.getTime() - 30 * 86_400_000).toISOString();
  const { rows } = await db.execute<{
    total: string;
    new_in_period: string;
    active_7: string;
    active_30: string;
  }>(sql`
    select
      count(*) as total,
      count(*) filter (where created_at >= ${localDayStart(scope.settings, period.fromDay)}) as new_in_period,
      count(*) filter (where last_activity_at >= ${since7}::timestamptz) as active_7,
      count(*) filter (where last_activity_at >= ${since30}::timestamptz) as active_30
    from learners
    where organization_id = ${organizationId} and ${counted}`);
  const row = rows[0];
  return {
    total: toCount(row?.total),
    newInPeriod: toCount(row?.new_in_period),
    active7: toCount(row?.active_7),
    active30: toCount(row?.active_30),
  };
}

/** Runs of live courses: all time (rollups minus the excluded learners' runs) and in the local period. */
export async function countCourseRunsLocal(db: Database, scope: Scope, period: LocalPeriod) {
  const { organizationId } = scope;
  const { rows } = await db.execute<{
    total: string | null;
    excluded: string | null;
    in_period: string | null;
  }>(sql`
    select
      (select sum(runs) from course_daily_stats
        where organization_id = ${organizationId}
          and course_id <> all(${deletedCourseIds(organizationId)})) as total,
      (select count(*) from course_runs r
        where r.organization_id = ${organizationId}
          and r.learner_id = any(${excludedLearnerIds(scope)})
          and r.course_id <> all(${deletedCourseIds(organizationId)})) as excluded,
      (select count(*) from course_runs r
        where r.organization_id = ${organizationId}
          and ${inPeriod(scope, period, sql`r.created_at`)}
          and r.course_id <> all(${deletedCourseIds(organizationId)})
          and ${learnerIncluded(scope.settings, organizationId, sql`r.learner_id`)}) as in_period`);
  const row = rows[0];
  return {
    total: Math.max(0, toCount(row?.total) - toCount(row?.excluded)),
    inPeriod: toCount(row?.in_period),
  };
}

/** Runs per local day of the period (live courses, counted learners), zero-filled; `day` counts from the first. */
export async function listRunsPerDayLocal(db: Database, scope: Scope, period: LocalPeriod) {
  const { organizationId, settings } = scope;
  const { rows } = await db.execute<{ day: number; runs: string }>(sql`
    select s.day, coalesce(c.runs, 0) as runs
    from generate_series(0, ${period.days - 1}::int) as s(day)
    left join (
      select ((r.created_at at time zone ${settings.timeZone})::date - ${period.fromDay}::date) as day,
             count(*) as runs
      from course_runs r
      where r.organization_id = ${organizationId}
        and ${inPeriod(scope, period, sql`r.created_at`)}
        and r.course_id <> all(${deletedCourseIds(organizationId)})
        and ${learnerIncluded(settings, organizationId, sql`r.learner_id`)}
      group by 1
    ) as c on c.day = s.day
    order by s.day`);
  return rows.map((row) => ({ day: Number(row.day), runs: toCount(row.runs) }));
}

export async function listTopCoursesLocal(db: Database, scope: Scope, period: LocalPeriod, limit: number) {
  const { organizationId, settings } = scope;
  const { rows } = await db.execute<{
    id: string;
    course_title: string;
    external_course_id: string | null;
    runs: string;
    learners: string;
  }>(sql`
    select c.id, c.course_title, c.external_course_id, t.runs, t.learners
    from (
      select r.course_id, count(*) as runs, count(distinct r.learner_id) as learners
      from course_runs r
      where r.organization_id = ${organizationId}
        and ${inPeriod(scope, period, sql`r.created_at`)}
        and ${learnerIncluded(settings, organizationId, sql`r.learner_id`)}
      group by r.course_id
    ) as t
    join courses c on c.organization_id = ${organizationId} and c.id = t.course_id and not c.is_deleted
    order by t.runs desc, c.course_title asc, c.id asc
    limit ${limit}`);
  return rows.map((row) => ({
    id: row.id,
    title: row.course_title,
    externalCourseId: row.external_course_id,
    runs: toCount(row.runs),
    learners: toCount(row.learners),
  }));
}

/**
 * Answers to questions of live courses: all time (rollups minus the excluded
 * learners' answers), in the local period, and the period's hardest active
 * questions among those with at least `minResponses` graded answers.
 */
export async function summarizeResponsesLocal(
  db: Database,
  scope: Scope,
  period: LocalPeriod,
  options: { minResponses: number; limit: number },
) {
  const { organizationId, settings } = scope;
  const { rows } = await db.execute<{
    total: string | null;
    excluded: string | null;
    in_period: string | null;
    hardest: HardestRow[] | string | null;
  }>(sql`
    with per_question as (
      select a.question_id, count(*) as in_period, count(a.correct) as graded,
             count(*) filter (where a.correct) as correct
      from course_run_questions a
      where a.organization_id = ${organizationId}
        and a.course_id = any(${liveCourseIds(organizationId)})
        and ${inPeriod(scope, period, sql`a.created_at`)}
        and ${learnerIncluded(settings, organizationId, sql`a.learner_id`)}
      group by a.question_id
    ),
    live as (
      select p.*, q.active, q.course_id, c.course_title, q.question_text, q.interaction_id,
             q.slide_number, q.question_number
      from per_question p
      join questions q on q.organization_id = ${organizationId} and q.id = p.question_id
      join courses c on c.organization_id = ${organizationId} and c.id = q.course_id
    )
    select
      (select sum(d.responses) from question_daily_stats d
        join questions q on q.organization_id = d.organization_id and q.id = d.question_id
        where d.organization_id = ${organizationId}
          and q.course_id = any(${liveCourseIds(organizationId)})) as total,
      (select count(*) from course_run_questions a
        where a.organization_id = ${organizationId}
          and a.learner_id = any(${excludedLearnerIds(scope)})
          and a.course_id = any(${liveCourseIds(organizationId)})) as excluded,
      (select sum(in_period) from live) as in_period,
      (select json_agg(h) from (
         select question_id as id, course_id, course_title, question_text, interaction_id,
                slide_number, question_number, graded as responses, correct
         from live
         where active and graded >= ${options.minResponses}
         order by correct::float8 / graded asc, graded desc, question_id asc
         limit ${options.limit}
       ) as h) as hardest`);
  const row = rows[0];
  return {
    total: Math.max(0, toCount(row?.total) - toCount(row?.excluded)),
    inPeriod: toCount(row?.in_period),
    hardestQuestions: jsonColumn<HardestRow[]>(row?.hardest, []).map(hardestQuestionOf),
  };
}
