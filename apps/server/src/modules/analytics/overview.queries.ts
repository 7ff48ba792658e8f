import type { AnalyticsSettings } from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { executeKept } from '../metrics/result-cache';
import { jsonColumn } from '../../db/json-column';
import {
  atStep,
  learnerIncluded,
  liveCourseIds,
  localDayStart,
  localTime,
  perStep,
  runCompleted,
  runPassed,
} from './analytics-filters.queries';
import { hasWholeHourOffsets } from './time-zone-offsets';
import { inLearnerParts, learnerInPart, type LearnerPart } from '../../db/learner-parts';

/** The organization and its analytics settings (what the services call the scope). */
type AnalyticsScope = { organizationId: string; settings: AnalyticsSettings };

/** One local day's activity (runs by the day they started, answers by the day they were given). */
export type OverviewDayRow = {
  day: string;
  runs: number;
  completed: number;
  graded: number;
  passed: number;
  scored: number;
  scoreSum: number;
  answers: number;
  gradedAnswers: number;
  correct: number;
  active: number;
};

/** A day's figures with nothing counted (what the service starts its sums from). */
export const NO_OVERVIEW_FIGURES: Omit<OverviewDayRow, 'day'> = {
  runs: 0,
  completed: 0,
  graded: 0,
  passed: 0,
  scored: 0,
  scoreSum: 0,
  answers: 0,
  gradedAnswers: 0,
  correct: 0,
  active: 0,
};

export type OverviewRows = {
  days: OverviewDayRow[];
  /** Distinct active learners over each whole period (not the sum of the days'). */
  activeCurrent: number;
  activePrevious: number;
};

/**
 * Memory for the overview statement's hash tables: one entry per learner and
 * active day (about 400 000 over two 30-day periods of 100 000 learners,
 * some tens of MB). PostgreSQL's default (4 MB) would spill them to disk.
 */
const OVERVIEW_WORK_MEM = '64MB' as const;

const HOUR_SECONDS = 3600;

/**
 * The overview's figures of the local days `from`..`to` and the period
 * before it (`previousFrom`..`from - 1`), per local day, in one statement.
 *
 * Runs are read by `created_at`, which ingestion sets to the run's start
 * (the course's first event, moved back when an older one arrives late), so
 * the index (organization_id, course_id, created_at) serves the range, one
 * descent per live course. Answers are read per learner and hour from
 * their rollup (`learner_answer_hours`) where the zone allows, else from
 * the answers' own index. An active learner started a run or answered a
 * question on the day.
 */
export async function selectOverviewDays(
  db: Database,
  scope: AnalyticsScope,
  period: { previousFrom: string; from: string; to: string },
): Promise<OverviewRows> {
  // Every figure is a count or a sum per day, or a count of distinct learners: it adds up over
  // disjoint shares of the learners, so the statement can run in shares (db/learner-parts.ts).
  const shares = await inLearnerParts(db, (part) => selectOverviewShare(db, scope, period, part));
  return shares.length === 1 && shares[0] ? shares[0] : addOverviewShares(shares);
}

/** The overview of all the learners from those of disjoint shares of them: every figure adds up. */
export function addOverviewShares(shares: readonly OverviewRows[]): OverviewRows {
  const byDay = new Map<string, OverviewDayRow>();
  for (const share of shares) {
    for (const day of share.days) {
      const total = byDay.get(day.day);
      if (!total) {
        byDay.set(day.day, { ...day });
        continue;
      }
      for (const key of Object.keys(day) as (keyof OverviewDayRow)[]) {
        if (key !== 'day') total[key] = Number(total[key]) + Number(day[key]);
      }
    }
  }
  return {
    days: [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0)),
    activeCurrent: shares.reduce((sum, share) => sum + share.activeCurrent, 0),
    activePrevious: shares.reduce((sum, share) => sum + share.activePrevious, 0),
  };
}

/** The overview's rows over the learners of `part` (all of them without one). */
async function selectOverviewShare(
  db: Database,
  scope: AnalyticsScope,
  period: { previousFrom: string; from: string; to: string },
  part: LearnerPart | undefined,
): Promise<OverviewRows> {
  const inPart = (learnerId: SQL) => learnerInPart(learnerId, part);
  const { organizationId, settings } = scope;
  const start = localDayStart(settings, period.previousFrom);
  const end = sql`((${period.to}::date + 1)::timestamp at time zone ${settings.timeZone})`;
  const liveIds = liveCourseIds(organizationId);
  const liveCourses = sql`array(${liveIds})`;
  // Each learner's answers per local day. In a zone a whole number of hours off UTC every UTC hour
  // falls in one local day and the period's bounds are whole hours, so the hourly rollup gives the
  // same figures as the answers from a sixth of the rows; elsewhere (Kolkata, Kathmandu) the answers
  // themselves are read.
  const fromHours = hasWholeHourOffsets(settings.timeZone);
  // There, too, the local day of each hour of the periods is worked out once (`local_days`), not on each
  // of some 250 000 runs and answer-hours.
  const dayOf = (instant: SQL) =>
    fromHours ? atStep('local_days', instant, HOUR_SECONDS) : sql`(${localTime(settings, instant)})::date`;
  const localDays = perStep(
    'local_days',
    { from: start, to: sql`${end} - interval '1 hour'` },
    HOUR_SECONDS,
    (at) => sql`(${localTime(settings, at)})::date`,
  );
  const answerActivity = fromHours
    ? sql`select ${dayOf(sql`h.hour`)}, h.learner_id, h.answers, h.graded, h.correct
        from learner_answer_hours h
        where h.organization_id = ${organizationId} and h.course_id = any(${liveCourses})
          and h.hour >= ${start} and h.hour < ${end} and ${inPart(sql`h.learner_id`)}`
    : sql`select (${localTime(settings, sql`a.created_at`)})::date, a.learner_id, 1, (a.correct is not null)::int,
          (a.correct is true)::int
        from course_run_questions a
        where a.organization_id = ${organizationId} and a.course_id in (${liveIds})
          and a.created_at >= ${start} and a.created_at < ${end} and ${inPart(sql`a.learner_id`)}`;
  // Over the answers themselves the runs are read again rather than from the runs CTE, and the live
  // courses joined rather than listed, so PostgreSQL can read and group them in parallel workers; over
  // the hourly rollup the statement runs in one process, and the runs already read are used again.
  const runActivity = fromHours
    ? sql`select day, learner_id, 0 as answers, 0 as graded, 0 as correct from runs`
    : sql`select (${localTime(settings, sql`r.created_at`)})::date as day, r.learner_id, 0 as answers,
          0 as graded, 0 as correct
        from course_runs r
        where r.organization_id = ${organizationId} and r.course_id in (${liveIds})
          and r.created_at >= ${start} and r.created_at < ${end} and ${inPart(sql`r.learner_id`)}`;
  const statement = sql`
    with ${fromHours ? sql`${localDays},` : sql``} runs as (
      select ${dayOf(sql`r.created_at`)} as day, r.learner_id,
             ${runCompleted(settings, organizationId, 'r')} as is_completed,
             (r.passed is not null or r.score is not null) as is_graded,
             ${runPassed(settings, 'r')} as is_passed,
             r.score
      from course_runs r
      where r.organization_id = ${organizationId} and r.course_id = any(${liveCourses})
        and r.created_at >= ${start} and r.created_at < ${end} and ${inPart(sql`r.learner_id`)}
        and ${learnerIncluded(settings, organizationId, sql`r.learner_id`)}
    ),
    -- Each learner's active days (a run started or a question answered), with the day's answers: one
    -- grouping of both sources, so the active pairs need no second pass to merge runs and answers.
    active as (
      select day, learner_id, sum(answers) as answers, sum(graded) as graded_answers, sum(correct) as correct
      from (
        ${runActivity}
        union all
        ${answerActivity}
      ) activity
      group by day, learner_id
      -- Excluded learners left out once per learner and day rather than once per run or answer.
      having ${learnerIncluded(settings, organizationId, sql`learner_id`)}
    ),
    run_days as (
      select day, count(*) as runs,
             count(*) filter (where is_completed) as completed,
             count(*) filter (where is_graded) as graded,
             count(*) filter (where is_graded and is_passed) as passed,
             count(score) as scored,
             coalesce(sum(score), 0) as score_sum
      from runs group by day
    ),
    answer_days as (
      select day, sum(answers)::bigint as answers, sum(graded_answers)::bigint as graded_answers,
             sum(correct)::bigint as correct
      from active where answers > 0 group by day
    ),
    active_days as (select day, count(*) as active from active group by day),
    -- Each active learner once, with the periods they were active in: one grouping for both distinct counts.
    active_learners as (
      select bool_or(day >= ${period.from}::date) as is_current, bool_or(day < ${period.from}::date) as is_previous
      from active group by learner_id
    ),
    days as (
      select coalesce(rd.day, ad.day, xd.day) as day,
             coalesce(rd.runs, 0) as runs, coalesce(rd.completed, 0) as completed,
             coalesce(rd.graded, 0) as graded, coalesce(rd.passed, 0) as passed,
             coalesce(rd.scored, 0) as scored, coalesce(rd.score_sum, 0) as score_sum,
             coalesce(ad.answers, 0) as answers, coalesce(ad.graded_answers, 0) as graded_answers,
             coalesce(ad.correct, 0) as correct, coalesce(xd.active, 0) as active
      from run_days rd
      full join answer_days ad on ad.day = rd.day
      full join active_days xd on xd.day = coalesce(rd.day, ad.day)
    )
    select
      (select json_agg(json_build_object(
         'day', to_char(day, 'YYYY-MM-DD'), 'runs', runs, 'completed', completed, 'graded', graded,
         'passed', passed, 'scored', scored, 'scoreSum', score_sum, 'answers', answers,
         'gradedAnswers', graded_answers, 'correct', correct, 'active', active) order by day)
       from days) as days,
      (select count(*) filter (where is_current) from active_learners) as active_current,
      (select count(*) filter (where is_previous) from active_learners) as active_previous`;
  // Compiling the statement (JIT) would take longer than it saves on a million answers. Over the hourly
  // rollup, parallel workers would each hand back nearly as many learner-days as they read, and merging
  // them cost more than one process grouping them all; over the answers themselves they pay. Over the
  // rollup, sorting the 250 000 runs and answer-hours to group them per learner and day takes about twice
  // as long as hashing them, and PostgreSQL sorts whenever it expects far fewer rows (a share of the
  // learners before the statistics on their hash are gathered, see learner-parts.ts): sorts are off.
  const [row] = await executeKept<{
    days: unknown;
    active_current: string | number;
    active_previous: string | number;
  }>(db, organizationId, statement, {
    workMem: OVERVIEW_WORK_MEM,
    jit: false,
    parallel: !fromHours,
    sort: !fromHours,
  });
  const days = jsonColumn<OverviewDayRow[]>(row?.days, []).map((day) => ({
    ...day,
    scoreSum: Number(day.scoreSum),
  }));
  return {
    days,
    activeCurrent: Number(row?.active_current ?? 0),
    activePrevious: Number(row?.active_previous ?? 0),
  };
}
