import type { AnalyticsSettings } from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';

// The SQL every analytics query shares, so "what counts" is written once:
// which learners are left out, each course's pass mark, what completes a
// run, and the clock days and hours are read on. Each takes the settings
// and the columns of the caller's aliases.

export type ExclusionLists = Pick<AnalyticsSettings, 'excludedDomains' | 'excludedEmails'>;

export function hasExclusions(lists: ExclusionLists): boolean {
  return lists.excludedDomains.length > 0 || lists.excludedEmails.length > 0;
}

/** The ids of the organization's live (not deleted) courses, as a subquery over `courses c`. */
export function liveCourseIds(organizationId: string): SQL {
  return sql`select c.id from courses c where c.organization_id = ${organizationId} and not c.is_deleted`;
}

/** Whether a period is all time (open at both ends): some screens then read what a rollup keeps over all time. */
export function isAllTime(period: { from?: string | undefined; to?: string | undefined }): boolean {
  return !period.from && !period.to;
}

/** Whether the learner e-mail `email` is a test account the settings leave out (a domain covers its subdomains). */
export function learnerExcluded(lists: ExclusionLists, email: SQL): SQL {
  if (!hasExclusions(lists)) return sql`false`;
  const conditions: SQL[] = [];
  if (lists.excludedEmails.length > 0) {
    conditions.push(sql`${email} = any(${sql.param([...lists.excludedEmails])}::text[])`);
  }
  for (const domain of lists.excludedDomains) {
    conditions.push(sql`(${email} like ${`%@${domain}`} or ${email} like ${`%.${domain}`})`);
  }
  return sql`(${sql.join(conditions, sql` or `)})`;
}

/**
 * Whether the learner `learnerId` (of `organizationId`) counts in analytics.
 * With no exclusions this is `true` and costs nothing; otherwise one index
 * probe on the learner's primary key per row.
 */
export function learnerIncluded(settings: ExclusionLists, organizationId: string, learnerId: SQL): SQL {
  if (!hasExclusions(settings)) return sql`true`;
  return sql`not exists (
    select 1 from learners ex
    where ex.organization_id = ${organizationId} and ex.id = ${learnerId}
      and ${learnerExcluded(settings, sql`ex.email`)})`;
}

/** The pass mark (a percentage) of the course `courseId`: its own when the settings name one, else the default. */
export function passMarkOf(
  settings: Pick<AnalyticsSettings, 'coursePassMarks' | 'defaultPassMark'>,
  courseId: SQL,
): SQL {
  if (settings.coursePassMarks.length === 0) return sql`${settings.defaultPassMark}::double precision`;
  const cases = settings.coursePassMarks.map(
    (mark) => sql`when ${mark.courseId}::uuid then ${mark.passMark}::double precision`,
  );
  return sql`(case ${courseId} ${sql.join(cases, sql` `)} else ${settings.defaultPassMark}::double precision end)`;
}

/**
 * Whether a run (alias `run` of `course_runs`) passed: the course's own
 * verdict when it sent one, else its score against the pass mark.
 */
export function runPassed(settings: AnalyticsSettings, run: string): SQL {
  const r = sql.raw(run);
  return sql`coalesce(${r}.passed, ${r}.score >= ${passMarkOf(settings, sql`${r}.course_id`)}, false)`;
}

/**
 * Whether a run (alias `run` of `course_runs`) is complete under the
 * settings' completion rule. `last_slide` asks the event log whether the run
 * viewed the highest slide number any run of the course viewed: that number
 * is kept per course (`course_last_slides`), one key lookup per run, where
 * reading it from the course's slide views took a scan of them per run.
 */
export function runCompleted(settings: AnalyticsSettings, organizationId: string, run: string): SQL {
  const r = sql.raw(run);
  switch (settings.completion) {
    case 'completed':
      return sql`(${r}.completed_at is not null)`;
    case 'passed':
      return runPassed(settings, run);
    case 'last_slide':
      return sql`exists (
        select 1 from learning_events ls
        where ls.organization_id = ${organizationId} and ls.course_id = ${r}.course_id
          and ls.learner_id = ${r}.learner_id and ls.run_id = ${r}.id and ls.type = 'slide.viewed'
          and ls.slide_number >= ${courseLastSlide(organizationId, sql`${r}.course_id`)})`;
  }
}

/** The highest slide number any run of the course `courseId` viewed (null before the first slide view). */
export function courseLastSlide(organizationId: string, courseId: SQL): SQL {
  return sql`(select cls.last_slide from course_last_slides cls
    where cls.organization_id = ${organizationId} and cls.course_id = ${courseId})`;
}

/** When a completed run (alias `run`) finished under the rule: its completion, or its last activity. */
export function runFinishedAt(settings: AnalyticsSettings, run: string): SQL {
  const r = sql.raw(run);
  return settings.completion === 'completed'
    ? sql`${r}.completed_at`
    : sql`coalesce(${r}.completed_at, ${r}.updated_at)`;
}

/** `timestamp` as wall-clock time in the organization's time zone (for days, weekdays and hours). */
export function localTime(settings: Pick<AnalyticsSettings, 'timeZone'>, timestamp: SQL): SQL {
  return sql`(${timestamp} at time zone ${settings.timeZone})`;
}

/**
 * A CTE `name (first, items)` of `value(at)` for every instant `at` from
 * `from` to `to` (inclusive) every `seconds`, in order, that `atStep` reads:
 * a statement over hundreds of thousands of rows dated in whole steps (an
 * hourly rollup, or rows whose step is all that matters) works out the local
 * day or hour once per step instead of once per row (`at time zone` with a
 * named zone is the costliest part of reading such a row). Only right where
 * every step lies within one local day or hour: hours in zones a whole
 * number of hours off UTC (`hasWholeHourOffsets`), quarters elsewhere.
 */
export function perStep(
  name: string,
  range: { from: SQL; to: SQL },
  seconds: number,
  value: (at: SQL) => SQL,
): SQL {
  return sql`${sql.raw(name)} as materialized (
    select date_part('epoch', ${range.from}) as first, array_agg(${value(sql`g.at`)} order by g.at) as items
    from generate_series(${range.from}, ${range.to}, make_interval(secs => ${sql.raw(String(seconds))})) as g(at))`;
}

/**
 * The item of `perStep`'s CTE `name` for the step the instant `at` falls in.
 * The array and its start are scalar subqueries, read once per statement
 * rather than carried on every row (a join would carry the array along).
 */
export function atStep(name: string, at: SQL, seconds: number): SQL {
  const table = sql.raw(name);
  return sql`((select t.items from ${table} t))[floor((date_part('epoch', ${at}) - (select t.first from ${table} t)) / ${sql.raw(String(seconds))})::int + 1]`;
}

/** The first instant of the local day `day` (YYYY-MM-DD) in the organization's time zone. */
export function localDayStart(settings: Pick<AnalyticsSettings, 'timeZone'>, day: string): SQL {
  return sql`((${day}::date)::timestamp at time zone ${settings.timeZone})`;
}

/** `timestamp` within the inclusive local days `from`..`to` (either may be absent). */
export function withinLocalDays(
  settings: Pick<AnalyticsSettings, 'timeZone'>,
  timestamp: SQL,
  period: { from?: string | undefined; to?: string | undefined },
): SQL {
  const conditions: SQL[] = [];
  if (period.from) conditions.push(sql`${timestamp} >= ${localDayStart(settings, period.from)}`);
  if (period.to) {
    // The next local midnight, not 24 hours later: a day with a clock change is 23 or 25 hours long.
    conditions.push(
      sql`${timestamp} < ((${period.to}::date + 1)::timestamp at time zone ${settings.timeZone})`,
    );
  }
  return conditions.length === 0 ? sql`true` : sql.join(conditions, sql` and `);
}
