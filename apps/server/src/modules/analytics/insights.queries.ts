import type { AnalyticsSettings, InsightKind, InsightSeverity, InsightStatus } from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { jsonColumn } from '../../db/json-column';
import { analyticsInsights, organizations } from '../../db/schema';
import {
  learnerExcluded,
  learnerIncluded,
  liveCourseIds,
  localDayStart,
  runCompleted,
  runPassed,
} from './analytics-filters.queries';

/** The organization and its analytics settings (what the services call the scope). */
type AnalyticsScope = { organizationId: string; settings: AnalyticsSettings };

// The SQL of the insights: the stored findings (listed, dismissed, written
// by the job) and the aggregates each kind of finding is computed from.

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

const liveCourses = (organizationId: string) => sql`array(${liveCourseIds(organizationId)})`;

/** What the evidence column holds: the figures shown, the numbers compared between runs, the link's words. */
export type StoredEvidence = {
  figures: { label: string; value: string }[];
  metrics: Record<string, number>;
  linkLabel: string;
};

export type InsightRow = {
  id: string;
  kind: InsightKind;
  fingerprint: string;
  severity: InsightSeverity;
  title: string;
  body: string;
  evidence: StoredEvidence;
  link: string;
  score: number;
  courseId: string | null;
  courseTitle: string | null;
  computedAt: string;
  dismissedAt: string | null;
};

type RawInsightRow = {
  id: string;
  kind: InsightKind;
  fingerprint: string;
  severity: InsightSeverity;
  title: string;
  body: string;
  evidence: unknown;
  link: string;
  score: number | string;
  course_id: string | null;
  course_title: string | null;
  computed_at: Date | string;
  dismissed_at: Date | string | null;
};

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function toInsightRow(row: RawInsightRow): InsightRow {
  return {
    id: row.id,
    kind: row.kind,
    fingerprint: row.fingerprint,
    severity: row.severity,
    title: row.title,
    body: row.body,
    evidence: jsonColumn<StoredEvidence>(row.evidence, { figures: [], metrics: {}, linkLabel: 'Open' }),
    link: row.link,
    score: Number(row.score),
    courseId: row.course_id,
    courseTitle: row.course_title,
    computedAt: iso(row.computed_at),
    dismissedAt: row.dismissed_at === null ? null : iso(row.dismissed_at),
  };
}

/**
 * The organization's findings with one status, most important first. A
 * finding about a course that was deleted since is left out (the next run
 * removes it).
 */
export async function selectInsights(
  db: Database,
  organizationId: string,
  options: { status: InsightStatus; limit?: number },
): Promise<InsightRow[]> {
  const result = await db.execute<RawInsightRow>(sql`
    select i.id, i.kind, i.fingerprint, i.severity, i.title, i.body, i.evidence, i.link, i.score,
           i.course_id, c.course_title, i.computed_at, i.dismissed_at
    from ${analyticsInsights} i
    left join courses c on c.organization_id = i.organization_id and c.id = i.course_id
    where i.organization_id = ${organizationId}
      and ${options.status === 'open' ? sql`i.dismissed_at is null` : sql`i.dismissed_at is not null`}
      and (i.course_id is null or c.is_deleted = false)
    order by ${options.status === 'open' ? sql`i.score desc` : sql`i.dismissed_at desc`}, i.id
    ${options.limit === undefined ? sql`` : sql`limit ${options.limit}`}`);
  return result.rows.map(toInsightRow);
}

export async function selectInsight(db: Database, organizationId: string, insightId: string) {
  const result = await db.execute<RawInsightRow>(sql`
    select i.id, i.kind, i.fingerprint, i.severity, i.title, i.body, i.evidence, i.link, i.score,
           i.course_id, c.course_title, i.computed_at, i.dismissed_at
    from ${analyticsInsights} i
    left join courses c on c.organization_id = i.organization_id and c.id = i.course_id
    where i.organization_id = ${organizationId} and i.id = ${insightId}`);
  const row = result.rows[0];
  return row ? toInsightRow(row) : undefined;
}

/** Open and dismissed findings, and when the job last looked (null: never). */
export async function countInsights(db: Database, organizationId: string) {
  const result = await db.execute<{
    open: string | number;
    dismissed: string | number;
    last_computed_at: Date | string | null;
  }>(sql`
    select count(*) filter (where i.dismissed_at is null) as open,
           count(*) filter (where i.dismissed_at is not null) as dismissed,
           (select s.insights_computed_at from analytics_settings s
             where s.organization_id = ${organizationId}) as last_computed_at
    from ${analyticsInsights} i
    left join courses c on c.organization_id = i.organization_id and c.id = i.course_id
    where i.organization_id = ${organizationId} and (i.course_id is null or c.is_deleted = false)`);
  const row = result.rows[0];
  return {
    open: Number(row?.open ?? 0),
    dismissed: Number(row?.dismissed ?? 0),
    lastComputedAt: row?.last_computed_at ? iso(row.last_computed_at) : null,
  };
}

/** Records that the job looked at the organization now, whatever it found. */
export async function markInsightsComputed(tx: Database, organizationId: string, computedAt: Date) {
  await tx.execute(sql`
    insert into analytics_settings (organization_id, insights_computed_at)
    values (${organizationId}, ${at(computedAt)})
    on conflict (organization_id) do update set insights_computed_at = excluded.insights_computed_at`);
}

/** Dismisses (`userId`) or restores (null) one finding; false when it is not in that state. */
export async function setInsightDismissed(
  db: Database,
  input: { organizationId: string; insightId: string; dismiss: boolean; userId: string | null },
): Promise<boolean> {
  const result = await db.execute<{ id: string }>(sql`
    update ${analyticsInsights} set
      dismissed_at = ${input.dismiss ? sql`now()` : sql`null`},
      dismissed_by = ${input.dismiss ? input.userId : null},
      updated_at = now()
    where organization_id = ${input.organizationId} and id = ${input.insightId}
      and dismissed_at ${input.dismiss ? sql`is null` : sql`is not null`}
    returning id`);
  return result.rows.length > 0;
}

// ---- writing a run's findings ------------------------------------------------------

/**
 * Serializes the runs of one organization (the schedule and a "Refresh
 * now" at the same moment) until the transaction ends.
 */
export async function lockOrganizationInsights(tx: Database, organizationId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`analytics-insights:${organizationId}`}))`);
}

export type StoredFinding = { fingerprint: string; dismissedAt: string | null; evidence: StoredEvidence };

export async function selectStoredFindings(tx: Database, organizationId: string): Promise<StoredFinding[]> {
  const result = await tx.execute<{
    fingerprint: string;
    dismissed_at: Date | string | null;
    evidence: unknown;
  }>(sql`
    select fingerprint, dismissed_at, evidence from ${analyticsInsights}
    where organization_id = ${organizationId}
    for update`);
  return result.rows.map((row) => ({
    fingerprint: row.fingerprint,
    dismissedAt: row.dismissed_at === null ? null : iso(row.dismissed_at),
    evidence: jsonColumn<StoredEvidence>(row.evidence, { figures: [], metrics: {}, linkLabel: 'Open' }),
  }));
}

export type FindingToStore = {
  kind: InsightKind;
  fingerprint: string;
  severity: InsightSeverity;
  title: string;
  body: string;
  evidence: StoredEvidence;
  link: string;
  score: number;
  courseId: string | null;
};

/**
 * Writes findings whose text and figures are new (first seen, still open, or
 * reopened because their evidence changed materially: `dismissed_at`
 * cleared), in one statement.
 */
export async function upsertFindings(
  tx: Database,
  organizationId: string,
  findings: readonly FindingToStore[],
  computedAt: Date,
): Promise<void> {
  if (findings.length === 0) return;
  const rows = JSON.stringify(
    findings.map((finding) => ({
      kind: finding.kind,
      fingerprint: finding.fingerprint,
      severity: finding.severity,
      title: finding.title,
      body: finding.body,
      evidence: finding.evidence,
      link: finding.link,
      score: finding.score,
      course_id: finding.courseId,
    })),
  );
  await tx.execute(sql`
    insert into ${analyticsInsights}
      (organization_id, kind, fingerprint, severity, title, body, evidence, link, score, course_id, computed_at)
    select ${organizationId}, x.kind, x.fingerprint, x.severity, x.title, x.body, x.evidence, x.link, x.score,
           x.course_id, ${at(computedAt)}
    from jsonb_to_recordset(${rows}::jsonb) as x(
      kind text, fingerprint text, severity text, title text, body text, evidence jsonb, link text,
      score double precision, course_id uuid)
    on conflict (organization_id, fingerprint) do update set
      kind = excluded.kind, severity = excluded.severity, title = excluded.title, body = excluded.body,
      evidence = excluded.evidence, link = excluded.link, score = excluded.score,
      course_id = excluded.course_id, computed_at = excluded.computed_at,
      dismissed_at = null, dismissed_by = null, updated_at = now()`);
}

/** Dismissed findings that still hold with much the same evidence: kept as dismissed, only marked as seen. */
export async function touchFindings(
  tx: Database,
  organizationId: string,
  fingerprints: readonly string[],
  computedAt: Date,
): Promise<void> {
  if (fingerprints.length === 0) return;
  await tx.execute(sql`
    update ${analyticsInsights} set computed_at = ${at(computedAt)}
    where organization_id = ${organizationId} and fingerprint = any(${sql.param([...fingerprints])}::text[])`);
}

/**
 * Removes the findings that no longer hold: open ones at once; dismissed
 * ones after `dismissedRetentionDays` without holding (until then a finding
 * that comes back stays dismissed, unless its evidence changed).
 */
export async function deleteStaleFindings(
  tx: Database,
  organizationId: string,
  computedAt: Date,
  dismissedRetentionDays: number,
): Promise<number> {
  const result = await tx.execute<{ id: string }>(sql`
    delete from ${analyticsInsights}
    where organization_id = ${organizationId} and computed_at < ${at(computedAt)}
      and (dismissed_at is null
           or computed_at < ${at(computedAt)} - make_interval(days => ${dismissedRetentionDays}::int))
    returning id`);
  return result.rows.length;
}

// ---- what findings are computed from ----------------------------------------------

/** Organizations with at least one course run: the ones worth computing findings for. */
export async function selectOrganizationsWithData(db: Database): Promise<string[]> {
  const result = await db.execute<{ id: string }>(sql`
    select o.id from ${organizations} o
    where exists (select 1 from course_runs r where r.organization_id = o.id)
    order by o.id`);
  return result.rows.map((row) => row.id);
}

/** Live courses with an answer since `since`, most answered first (the ones question findings look at). */
export async function selectCoursesWithRecentAnswers(
  db: Database,
  organizationId: string,
  since: Date,
  limit: number,
): Promise<{ id: string; title: string }[]> {
  const result = await db.execute<{ id: string; title: string }>(sql`
    select c.id, c.course_title as title from courses c
    where c.organization_id = ${organizationId} and not c.is_deleted
      and exists (
        select 1 from course_run_questions a
        where a.organization_id = ${organizationId} and a.course_id = c.id and a.created_at >= ${at(since)})
    order by c.course_title, c.id
    limit ${limit}`);
  return result.rows;
}

export type DropOffRow = {
  courseId: string;
  courseTitle: string;
  slideNumber: number;
  slideTitle: string | null;
  lastSlide: number;
  /** Unfinished runs whose last slide viewed is this one. */
  dropOffs: number;
  /** Unfinished runs with at least one slide viewed. */
  unfinishedWithSlides: number;
  started: number;
  unfinished: number;
};

/**
 * Per live course, the slide where most unfinished runs (started between
 * `since` and `until`, not complete under the settings) last viewed a slide,
 * the final slide left out (stopping there is not dropping off).
 */
export async function selectDropOffSlides(
  db: Database,
  scope: AnalyticsScope,
  window: { since: Date; until: Date },
): Promise<DropOffRow[]> {
  const { organizationId, settings } = scope;
  const result = await db.execute<{
    course_id: string;
    course_title: string;
    slide_number: number;
    slide_title: string | null;
    last_slide: number;
    drop_offs: string | number;
    unfinished_with_slides: string | number;
    started: string | number;
    unfinished: string | number;
  }>(sql`
    with runs as (
      select r.id, r.course_id, ${runCompleted(settings, organizationId, 'r')} as is_completed
      from course_runs r
      where r.organization_id = ${organizationId} and r.course_id = any(${liveCourses(organizationId)})
        and r.created_at >= ${at(window.since)} and r.created_at < ${at(window.until)}
        and ${learnerIncluded(settings, organizationId, sql`r.learner_id`)}
    ),
    -- Without titles, the views are read from the slide path index alone;
    -- the titles of the slides found are read after (by primary key).
    views as (
      select e.run_id, e.course_id, e.slide_number, e.occurred_at, e.id
      from learning_events e
      where e.organization_id = ${organizationId} and e.course_id = any(${liveCourses(organizationId)})
        and e.type = 'slide.viewed' and e.slide_number is not null
        and e.occurred_at >= ${at(window.since)}
    ),
    last_views as (
      select distinct on (v.run_id) v.run_id, v.course_id, v.slide_number, v.occurred_at, v.id
      from views v
      where v.run_id in (select id from runs where not is_completed)
      order by v.run_id, v.occurred_at desc, v.slide_number desc, v.id desc
    ),
    last_slides as (select course_id, max(slide_number) as last_slide from views group by course_id),
    per_slide as (
      select lv.course_id, lv.slide_number, count(*) as drop_offs,
             sum(count(*)) over (partition by lv.course_id) as unfinished_with_slides
      from last_views lv group by lv.course_id, lv.slide_number
    ),
    ranked as (
      select p.*, ls.last_slide,
             row_number() over (partition by p.course_id order by p.drop_offs desc, p.slide_number) as rank
      from per_slide p join last_slides ls on ls.course_id = p.course_id
      where p.slide_number < ls.last_slide
    ),
    totals as (
      select course_id, count(*) as started, count(*) filter (where not is_completed) as unfinished
      from runs group by course_id
    )
    select k.course_id, c.course_title, k.slide_number,
           (select max(e.slide_title) from last_views lv
            join learning_events e on e.organization_id = ${organizationId}
              and e.occurred_at = lv.occurred_at and e.id = lv.id
            where lv.course_id = k.course_id and lv.slide_number = k.slide_number) as slide_title,
           k.last_slide, k.drop_offs,
           k.unfinished_with_slides, t.started, t.unfinished
    from ranked k
    join totals t on t.course_id = k.course_id
    join courses c on c.organization_id = ${organizationId} and c.id = k.course_id
    where k.rank = 1
    order by k.drop_offs desc`);
  return result.rows.map((row) => ({
    courseId: row.course_id,
    courseTitle: row.course_title,
    slideNumber: Number(row.slide_number),
    slideTitle: row.slide_title,
    lastSlide: Number(row.last_slide),
    dropOffs: Number(row.drop_offs),
    unfinishedWithSlides: Number(row.unfinished_with_slides),
    started: Number(row.started),
    unfinished: Number(row.unfinished),
  }));
}

export type RateComparisonRow = {
  /** Null: the whole organization. */
  courseId: string | null;
  courseTitle: string | null;
  current: { runs: number; completed: number; graded: number; passed: number };
  previous: { runs: number; completed: number; graded: number; passed: number };
};

/**
 * Runs started in two consecutive periods of local days, per live course
 * and for the whole organization: how many, completed under the settings,
 * with a result, passed.
 */
export async function selectRateComparison(
  db: Database,
  scope: AnalyticsScope,
  periods: { previousFrom: string; from: string; to: string },
): Promise<RateComparisonRow[]> {
  const { organizationId, settings } = scope;
  const start = localDayStart(settings, periods.previousFrom);
  const split = localDayStart(settings, periods.from);
  const end = sql`((${periods.to}::date + 1)::timestamp at time zone ${settings.timeZone})`;
  const counts = (when: SQL) => sql`
    count(*) filter (where ${when}),
    count(*) filter (where ${when} and is_completed),
    count(*) filter (where ${when} and is_graded),
    count(*) filter (where ${when} and is_graded and is_passed)`;
  const result = await db.execute<{
    course_id: string | null;
    course_title: string | null;
    counts: string;
  }>(sql`
    with runs as (
      select r.course_id, r.created_at >= ${split} as is_current,
             ${runCompleted(settings, organizationId, 'r')} as is_completed,
             (r.passed is not null or r.score is not null) as is_graded,
             ${runPassed(settings, 'r')} as is_passed
      from course_runs r
      where r.organization_id = ${organizationId} and r.course_id = any(${liveCourses(organizationId)})
        and r.created_at >= ${start} and r.created_at < ${end}
        and ${learnerIncluded(settings, organizationId, sql`r.learner_id`)}
    ),
    grouped as (
      select course_id, grouping(course_id) as is_total,
             array[${counts(sql`is_current`)}, ${counts(sql`not is_current`)}]::text as counts
      from runs
      group by grouping sets ((course_id), ())
    )
    select case when g.is_total = 1 then null else g.course_id end as course_id, c.course_title, g.counts
    from grouped g
    left join courses c on c.organization_id = ${organizationId} and c.id = g.course_id and g.is_total = 0`);
  return result.rows.map((row) => {
    const n = row.counts.replace(/[{}]/g, '').split(',').map(Number);
    const part = (offset: number) => ({
      runs: n[offset] ?? 0,
      completed: n[offset + 1] ?? 0,
      graded: n[offset + 2] ?? 0,
      passed: n[offset + 3] ?? 0,
    });
    return { courseId: row.course_id, courseTitle: row.course_title, current: part(0), previous: part(4) };
  });
}

/**
 * Learners inactive at each moment of `moments`: known by then (a run
 * started `days` or more before it) and without a run started or a question
 * answered in the `days` before it. Test accounts left out.
 */
export async function countInactiveLearners(
  db: Database,
  scope: AnalyticsScope,
  input: { days: number; moments: readonly Date[] },
): Promise<{ inactive: number; known: number }[]> {
  const { organizationId, settings } = scope;
  const columns = input.moments.map((moment) => {
    const cutoff = new Date(moment.getTime() - input.days * 86_400_000);
    const known = sql`exists (select 1 from course_runs r where r.organization_id = ${organizationId}
        and r.learner_id = l.id and r.created_at < ${at(cutoff)})`;
    const idle = sql`not exists (select 1 from course_runs r where r.organization_id = ${organizationId}
          and r.learner_id = l.id and r.created_at >= ${at(cutoff)} and r.created_at < ${at(moment)})
        and not exists (select 1 from course_run_questions a where a.organization_id = ${organizationId}
          and a.learner_id = l.id and a.created_at >= ${at(cutoff)} and a.created_at < ${at(moment)})`;
    return sql`count(*) filter (where ${known}), count(*) filter (where ${known} and ${idle})`;
  });
  const result = await db.execute<{ counts: string }>(sql`
    select array[${sql.join(columns, sql`, `)}]::text as counts
    from learners l
    where l.organization_id = ${organizationId} and not ${learnerExcluded(settings, sql`l.email`)}`);
  const n = (result.rows[0]?.counts ?? '{}').replace(/[{}]/g, '').split(',').map(Number);
  return input.moments.map((_, index) => ({ known: n[index * 2] ?? 0, inactive: n[index * 2 + 1] ?? 0 }));
}
