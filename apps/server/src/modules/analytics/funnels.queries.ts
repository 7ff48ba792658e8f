import {
  FUNNEL_TIME_BIN_EDGES,
  type AnalyticsSettings,
  type FunnelOrder,
  type FunnelStepKind,
} from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { executeKept } from '../metrics/result-cache';
import { jsonColumn } from '../../db/json-column';
import { learnerIncluded, localDayStart } from './analytics-filters.queries';

/**
 * The SQL of funnels. One statement per answer: the events of the steps'
 * courses and types in the period (plus the window) are read once, one type
 * at a time: slide views through the slide index (organization_id,
 * course_id, slide_number, occurred_at), one range per course and slide,
 * the other types through the course index (organization_id, course_id,
 * type, occurred_at), one range per course and type; then one join per
 * step finds, per learner,
 * when each step was reached
 * (`reach`: the keys k0..kN-1 of those events, null when not reached), and
 * the answer aggregates it.
 * The rules are written in the contract (analytics-funnels.ts).
 */

/** A step with its course resolved (null: any course). */
export type PlannedStep = {
  kind: FunnelStepKind;
  courseId: string | null;
  slideNumber: number | null;
  questionId: string | null;
  variableId: string | null;
  value: string | null;
};

export type FunnelPlan = {
  organizationId: string;
  settings: AnalyticsSettings;
  steps: readonly PlannedStep[];
  order: FunnelOrder;
  windowDays: number;
  /** Local days, inclusive: step 1 (the entry) must fall in them. */
  period: { from: string; to: string };
};

export type FunnelBreakdownPlan =
  | { kind: 'none' }
  | { kind: 'course'; top: number }
  | { kind: 'variable'; variableName: string; top: number };

/** The event type a step reads. */
function stepType(step: PlannedStep, settings: AnalyticsSettings): string {
  switch (step.kind) {
    case 'course_started':
      return 'course.started';
    case 'slide_viewed':
      return 'slide.viewed';
    case 'question_answered':
      return 'question.answered';
    case 'variable_set':
      return 'variable.set';
    case 'passed':
      return 'course.passed';
    case 'completed':
      return settings.completion === 'completed'
        ? 'course.completed'
        : settings.completion === 'passed'
          ? 'course.passed'
          : 'slide.viewed';
  }
}

function usesLastSlide(plan: FunnelPlan): boolean {
  return plan.settings.completion === 'last_slide' && plan.steps.some((step) => step.kind === 'completed');
}

/**
 * Whether the event `e` matches `step` (`ls`: the last slide of the event's
 * course, when the rule needs it). `read.course`: the events are read from
 * the step's course alone, so its course needs no test on each event. The
 * type is never tested: events are read one type at a time (`stepType`).
 */
function stepMatches(step: PlannedStep, settings: AnalyticsSettings, read: { course: boolean }): SQL {
  const conditions: SQL[] = [];
  if (step.courseId && !read.course) conditions.push(sql`e.course_id = ${step.courseId}::uuid`);
  switch (step.kind) {
    case 'slide_viewed':
      conditions.push(sql`e.slide_number = ${step.slideNumber ?? -1}::int`);
      break;
    case 'question_answered':
      if (step.questionId) conditions.push(sql`e.question_id = ${step.questionId}::uuid`);
      break;
    case 'variable_set':
      conditions.push(sql`e.variable_id = ${step.variableId}::uuid`);
      // The value as sent, as text: "Sales", 5, true read "Sales", "5", "true".
      if (step.value !== null) conditions.push(sql`(e.value #>> '{}') = ${step.value}`);
      break;
    case 'completed':
      if (settings.completion === 'last_slide') conditions.push(sql`e.slide_number >= ls.max_slide`);
      break;
    default:
      break;
  }
  return conditions.length > 0 ? sql`(${sql.join(conditions, sql` and `)})` : sql`true`;
}

/** Period bounds as SQL instants: the entry period [start, end) and the read range [start, readEnd). */
function bounds(plan: FunnelPlan) {
  const start = localDayStart(plan.settings, plan.period.from);
  const end = sql`((${plan.period.to}::date + 1)::timestamp at time zone ${plan.settings.timeZone})`;
  const window = sql`make_interval(days => ${plan.windowDays}::int)`;
  return { start, end, window, readEnd: sql`(${end} + ${window})` };
}

/**
 * Memory one funnel statement may sort in before spilling to disk: the
 * events of 100 000 learners take some tens of MB, and PostgreSQL's default
 * (4 MB) would sort them on disk. Set for the statement only (its own
 * transaction).
 */
const FUNNEL_WORK_MEM = '64MB' as const;

/** A funnel statement of the plan's organization, its rows kept until that organization's data changes. */
async function executeFunnelStatement<T extends Record<string, unknown>>(
  db: Database,
  plan: FunnelPlan,
  statement: SQL,
) {
  return executeKept<T>(db, plan.organizationId, statement, { workMem: FUNNEL_WORK_MEM });
}

const bit = (index: number) => sql.raw(String(1 << index));

/** The instant of an event's `key` (see `reachCtes`). */
const keyTime = (key: SQL) => sql`to_timestamp((${key} >> 10) / 1000000.0)`;

/**
 * `with ... reach as (learner_id, entry_course, k0, ..., kN-1)`: the key of
 * the event by which each learner who entered reached each step (null: not
 * reached); `keyTime` turns a key into its instant.
 *
 * One read of the log (only the events that match a step, one type at a
 * time: per step for a sequential funnel, `stepSources`; else all in one
 * list, `m`);
 * then one hash join and aggregate per step: the learners so far, joined with
 * their events that can be the step, give each learner's key of the step
 * from the previous one's. Nothing is sorted: sorting every event by learner
 * and passing a window over them once per step took twice as long at
 * 100 000 learners, and each step here reads only its own events. An
 * event's `key` orders it: its time in microseconds, then the lowest step it
 * matches (`mask & -mask`, below 1024), which keeps simultaneous events in
 * funnel order.
 */
function reachCtes(plan: FunnelPlan, options: { withCourse: boolean }): SQL {
  const { organizationId, settings, steps } = plan;
  const { start, end, readEnd } = bounds(plan);
  const courseIds = steps.every((step) => step.courseId !== null)
    ? [...new Set(steps.map((step) => step.courseId as string))]
    : null;
  // Steps of any course still name the courses (every one of the
  // organization, deleted ones too): the course index then reads one range
  // per course and type, not every event of the period.
  const courseFilter = (alias: string) =>
    courseIds
      ? sql` and ${sql.raw(alias)}.course_id = any(${sql.param(courseIds)}::uuid[])`
      : sql` and ${sql.raw(alias)}.course_id = any(array(
          select c.id from courses c where c.organization_id = ${organizationId}))`;
  const lastSlide = usesLastSlide(plan);
  // A sequential funnel (without the last-slide rule) reads each step's
  // events on their own (`stepSources`); the others read every funnel event
  // once into `m`, with the steps each matches.
  const bySource = plan.order === 'sequential' && !lastSlide;
  const predicates = steps.map((step) => stepMatches(step, settings, { course: courseIds?.length === 1 }));
  // The steps of each type of event. Events are read one type at a time:
  // slide views are in an index of their own (by slide number), the other
  // types in the course index, and no index holds both.
  const byType = new Map<string, number[]>();
  steps.forEach((step, index) => {
    const type = stepType(step, settings);
    byType.set(type, [...(byType.get(type) ?? []), index]);
  });
  /** The slide each of the steps `indices` names (null: none). */
  const slidesOf = (indices: readonly number[]) => indices.map((index) => steps[index]?.slideNumber ?? null);
  /** Views of numbered slides only, when every step of the type names its slide. */
  const slideRead = (type: string, indices: readonly number[]) => {
    const slides = slidesOf(indices);
    return type === 'slide.viewed' && slides.every((slide) => slide !== null)
      ? sql` and e.slide_number = any(${sql.param([...new Set(slides)])}::int[])`
      : sql``;
  };
  /** Whether the event `e` can be one of the steps `indices`. */
  const anyOf = (indices: readonly number[]) =>
    sql`(${sql.join(
      indices.map((index) => predicates[index] ?? sql`false`),
      sql` or `,
    )})`;
  const { withCourse } = options;
  /** The funnel's events of one type (alias `e`). */
  const read = (type: string) => sql`e.organization_id = ${organizationId}
      and e.occurred_at >= ${start} and e.occurred_at < ${readEnd}
      and e.type = ${type}${courseFilter('e')}`;
  const micros = (instant: SQL) => sql`(date_part('epoch', ${instant}) * 1000000)::bigint`;
  const endKey = sql`(${micros(end)} << 10)`;
  const windowMicros = sql.raw(String(BigInt(plan.windowDays) * 86_400_000_000n));
  /** The last key within the window that starts at the event of key `from`. */
  const windowEnd = (from: SQL) => sql`(((${from} >> 10) + ${windowMicros}::bigint) << 10) + 1023`;

  /** The bits of the steps `indices` that the event `e` matches. */
  const stepMask = (indices: readonly number[]) =>
    sql.join(
      indices.map(
        (index) => sql`(case when ${predicates[index] ?? sql`false`} then ${bit(index)} else 0 end)`,
      ),
      sql` | `,
    );

  /**
   * `p0 .. pN-1 (learner_id, key[, course_id])`: the events that can be each
   * step. A step no other step's event can match (the only step of its
   * type, or a slide no other step names) reads its own events straight
   * into its join: a slide's views are one range of the slide index. The
   * events of a type several steps can share (the same slide twice, two
   * questions where one is any question) are read once with the steps each
   * matches. An event can only match steps of its own type, so its key (the
   * lowest step it matches) is the same as over all the steps. Reading the
   * events by step rather than all into one list filtered again for each
   * step took about a fifth less at 100 000 learners; two slides each read
   * on its own, rather than both into one list split again, a tenth less.
   */
  function stepSources(): SQL[] {
    const course = withCourse ? sql`, e.course_id` : sql``;
    const sources: SQL[] = [];
    [...byType.entries()].forEach(([type, indices], group) => {
      const slides = slidesOf(indices);
      const apart =
        indices.length === 1 ||
        (type === 'slide.viewed' &&
          slides.every((slide) => slide !== null) &&
          new Set(slides).size === slides.length);
      if (apart) {
        // Materialized: each step is then joined to the learners so far by
        // one hash join. Inlined, PostgreSQL may instead look each learner's
        // events up in the learner index, one probe per learner, when it
        // guesses few learners reach the step before (its guess for groups
        // of a grouped key is 200): 37 000 probes, 2.2 s instead of 1.2 for
        // a course funnel at 100 000 learners whose periods met a new month.
        for (const index of indices) {
          sources.push(sql`${sql.raw(`p${index}`)} as materialized (
            select e.learner_id, (${micros(sql`e.occurred_at`)} << 10) | ${bit(index)} as key${course}
            from learning_events e
            where ${read(type)} and ${predicates[index] ?? sql`false`})`);
        }
        return;
      }
      const shared = sql.raw(`t${group}`);
      sources.push(sql`${shared} as materialized (
        select e.learner_id, (${micros(sql`e.occurred_at`)} << 10) | (e.mask & -e.mask) as key, e.mask${course}
        from (
          select e.learner_id, e.occurred_at, e.course_id, ${stepMask(indices)} as mask
          from learning_events e
          where ${read(type)}${slideRead(type, indices)} and ${anyOf(indices)}
          offset 0) e)`);
      for (const index of indices) {
        sources.push(sql`${sql.raw(`p${index}`)} as (
          select e.learner_id, e.key${course} from ${shared} e where e.mask & ${bit(index)} <> 0)`);
      }
    });
    return sources;
  }

  const ctes: SQL[] = [];
  if (lastSlide) {
    // The course's last slide: the highest slide number viewed in the events read.
    ctes.push(sql`last_slides as (
      select x.course_id, max(x.slide_number) as max_slide from learning_events x
      where x.organization_id = ${organizationId} and x.type = 'slide.viewed'
        and x.occurred_at >= ${start} and x.occurred_at < ${readEnd}${courseFilter('x')}
      group by x.course_id)`);
  }
  if (bySource) {
    ctes.push(...stepSources());
  } else {
    // One branch per type; `offset 0` keeps the mask computed once per
    // event (the subquery is not flattened into its reader).
    const branches = [...byType.entries()].map(
      ([type, indices]) => sql`select e.learner_id, e.occurred_at, e.course_id, ${stepMask(indices)} as mask
        from learning_events e
        ${lastSlide ? sql`left join last_slides ls on ls.course_id = e.course_id` : sql``}
        where ${read(type)}${slideRead(type, indices)} and ${anyOf(indices)}`,
    );
    ctes.push(sql`m as (
      select x.learner_id, (${micros(sql`x.occurred_at`)} << 10) | (x.mask & -x.mask) as key, x.mask
        ${withCourse ? sql`, x.course_id` : sql``}
      from (select u.* from (${sql.join(branches, sql` union all `)}) u offset 0) x)`);
  }
  /** The events that can be step `index` (alias `m`; only the join's own conditions follow). */
  const stepRows = (index: number) =>
    bySource ? sql`${sql.raw(`p${index}`)} m on true` : sql`m on m.mask & ${bit(index)} <> 0`;

  const keys = steps.map((_, index) => sql.raw(`k${index}`));
  const included = learnerIncluded(settings, organizationId, sql.raw('m.learner_id'));

  if (plan.order === 'any') {
    // The anchor: the learner's first funnel event in the period; then each step's first event within the window.
    ctes.push(sql`anchors as (
      select m.learner_id, min(m.key) as anchor from m
      where m.key < ${endKey}
      group by m.learner_id having ${included})`);
    const firsts = steps.map(
      (_, index) =>
        sql`min(m.key) filter (where m.mask & ${bit(index)} <> 0 and m.key <= ${windowEnd(sql`a.anchor`)}) as ${sql.raw(`f${index}`)}`,
    );
    const entryCourse = withCourse
      ? sql`max(m.course_id::text) filter (where m.key = a.anchor)::uuid`
      : sql`null::uuid`;
    ctes.push(sql`firsts as (
      select a.learner_id, ${entryCourse} as entry_course, ${sql.join(firsts, sql`, `)}
      from anchors a join m on m.learner_id = a.learner_id and m.key >= a.anchor
      group by a.learner_id, a.anchor)`);
    // "k steps done" is the k-th smallest first time: each first's rank among the others, without sorting.
    const f = (index: number) => sql.raw(`f${index}`);
    const ranks = steps.map((_, i) => {
      const before = steps
        .map((__, j) =>
          j === i ? null : sql`coalesce(${f(j)} ${sql.raw(j < i ? '<=' : '<')} ${f(i)}, false)::int`,
        )
        .filter((part): part is SQL => part !== null);
      return sql`case when ${f(i)} is null then null else ${before.length > 0 ? sql.join(before, sql` + `) : sql`0`} end as ${sql.raw(`r${i}`)}`;
    });
    ctes.push(sql`ranked as (select g.*, ${sql.join(ranks, sql`, `)} from firsts g)`);
    const reached = keys.map(
      (key, k) =>
        sql`least(${sql.join(
          steps.map((__, i) => sql`case when ${sql.raw(`r${i}`)} = ${sql.raw(String(k))} then ${f(i)} end`),
          sql`, `,
        )}) as ${key}`,
    );
    ctes.push(
      sql`reach as (select g.learner_id, g.entry_course, ${sql.join(reached, sql`, `)} from ranked g)`,
    );
    return sql`with ${sql.join(ctes, sql`, `)}`;
  }

  // Step 1: each included learner's first entry in the period (and, for a
  // breakdown, the course of that event: ties in one microsecond take the
  // greatest course id, as any fixed rule would).
  ctes.push(sql`s0 as (
    select m.learner_id, min(m.key) as k0 from ${bySource ? sql`p0 m` : sql`m`}
    where ${bySource ? sql`true` : sql`m.mask & 1 <> 0`} and m.key < ${endKey}
    group by m.learner_id having ${included})`);
  ctes.push(
    withCourse
      ? sql`r0 as (
          select s.learner_id, max(m.course_id::text)::uuid as entry_course, s.k0
          from s0 s join ${bySource ? sql`p0 m` : sql`m`} on m.learner_id = s.learner_id and m.key = s.k0
          group by s.learner_id, s.k0)`
      : sql`r0 as (select s.learner_id, null::uuid as entry_course, s.k0 from s0 s)`,
  );
  // Each next step from the previous one's key: the learners so far, joined
  // with their events that can be the step, added up per learner. A learner
  // who missed a step keeps the row, with nulls from there on.
  for (let index = 1; index < steps.length; index++) {
    const previous = keys[index - 1] ?? sql.raw('k0');
    const current = keys[index] ?? sql.raw('k0');
    const carried = sql.join(
      keys.slice(0, index).map((key) => sql`r.${key}`),
      sql`, `,
    );
    const within = (key: SQL) => sql`${key} <= ${windowEnd(sql`r.k0`)}`;
    if (plan.order === 'sequential') {
      ctes.push(sql`${sql.raw(`r${index}`)} as (
        select r.learner_id, r.entry_course, ${carried}, min(m.key) as ${current}
        from ${sql.raw(`r${index - 1}`)} r
        left join ${stepRows(index)} and m.learner_id = r.learner_id
          and m.key > r.${previous} and ${within(sql`m.key`)}
        group by r.learner_id, r.entry_course, ${carried})`);
    } else {
      // Strict: the next funnel event that is not a repeat of the previous
      // step must be this step. Its key is the least of those events; the
      // step is reached when some event of this step has that key.
      const next = sql`min(m.key)`;
      const nextOfStep = sql`min(m.key) filter (where m.mask & ${bit(index)} <> 0)`;
      ctes.push(sql`${sql.raw(`r${index}`)} as (
        select r.learner_id, r.entry_course, ${carried},
          case when ${nextOfStep} = ${next} and ${within(nextOfStep)} then ${nextOfStep} end as ${current}
        from ${sql.raw(`r${index - 1}`)} r
        left join m on m.learner_id = r.learner_id and m.key > r.${previous}
          and not (m.mask & ${bit(index - 1)} <> 0 and m.mask & ${bit(index)} = 0)
        group by r.learner_id, r.entry_course, ${carried})`);
    }
  }
  ctes.push(sql`reach as (select * from ${sql.raw(`r${steps.length - 1}`)})`);
  return sql`with ${sql.join(ctes, sql`, `)}`;
}

export type FunnelAggregateRow = {
  /** Learners at each step. */
  counts: number[];
  /** Median seconds from the previous step, per step (null for step 1 and without conversions). */
  medians: (number | null)[];
  /** Per step (null for step 1): learners per time bin, in the order of FUNNEL_TIME_BIN_EDGES. */
  histogram: (number[] | null)[];
  medianTotal: number | null;
  groups: { key: string | null; rank: number | null; counts: number[] }[] | null;
};

/** `count(*) filter` per time bin of the microseconds column `span`. */
function binCounts(span: SQL): SQL {
  const edges = [0, ...FUNNEL_TIME_BIN_EDGES].map((seconds) => seconds * 1_000_000);
  const counts = edges.map((from, index) => {
    const upper = FUNNEL_TIME_BIN_EDGES[index];
    const to = upper === undefined ? undefined : upper * 1_000_000;
    const lower = index === 0 ? sql`` : sql`${span} >= ${sql.raw(String(from))} and `;
    return to === undefined
      ? sql`count(*) filter (where ${span} >= ${sql.raw(String(from))})::int`
      : sql`count(*) filter (where ${lower}${span} < ${sql.raw(String(to))})::int`;
  });
  return sql`json_build_array(${sql.join(counts, sql`, `)})`;
}

/** The counts, times and breakdown groups of a funnel over one period. */
export async function selectFunnelAggregates(
  db: Database,
  plan: FunnelPlan,
  breakdown: FunnelBreakdownPlan,
): Promise<FunnelAggregateRow> {
  const stepCount = plan.steps.length;
  const times = plan.steps.map((_, index) => sql.raw(`k${index}`));
  const spans = plan.steps.map((_, index) => sql.raw(`d${index}`));
  const last = times[stepCount - 1] ?? sql.raw('k0');

  // Breakdown: each entered learner's group (the course of their entry, or
  // their latest value of the variable), ranked by learners entered.
  let valuesCte: SQL | null = null;
  let groupKey: SQL | null = null;
  if (breakdown.kind === 'course') {
    groupKey = sql`r.entry_course::text`;
  } else if (breakdown.kind === 'variable') {
    // The latest value per variable is kept (`learner_variable_latest`);
    // with one such variable per course, the latest of those. The variables
    // as an array, so their values are read through the primary key
    // (organization, variable, learner): joined to a list, PostgreSQL reads
    // every kept value of the organization (a million at 100 000 learners).
    valuesCte = sql`vals as (
      select distinct on (v.learner_id) v.learner_id, v.value
      from learner_variable_latest v
      where v.organization_id = ${plan.organizationId}
        and v.variable_id = any(array(
          select vr.id from variables vr
          where vr.organization_id = ${plan.organizationId} and vr.name = ${breakdown.variableName}))
      order by v.learner_id, v.recorded_at desc)`;
    groupKey = sql`vals.value`;
  }
  const groupedCte = groupKey
    ? sql`grouped as (
        select ${groupKey} as key, ${sql.join(
          times.map((time, index) => sql`count(r.${time})::int as ${sql.raw(`c${index}`)}`),
          sql`, `,
        )}
        from reach r ${valuesCte ? sql`left join vals on vals.learner_id = r.learner_id` : sql``}
        group by 1),
      ranked_groups as (
        select g.*, case when g.key is null then null
          else row_number() over (partition by g.key is null order by g.c0 desc, g.key) end as rank
        from grouped g)`
    : null;
  const top = breakdown.kind === 'none' ? 0 : breakdown.top;
  const groupsSelect = groupKey
    ? sql`(select coalesce(json_agg(json_build_object('key', q.key, 'rank', q.rank, 'counts', q.counts)), '[]'::json) from (
        select case when rank <= ${top}::int then key end as key,
          case when rank <= ${top}::int then rank when rank is null then null else ${top + 1}::int end as rank,
          json_build_array(${sql.join(
            times.map((_, index) => sql`sum(${sql.raw(`c${index}`)})::int`),
            sql`, `,
          )}) as counts
        from ranked_groups
        group by 1, 2) q)`
    : sql`null::json`;

  const ctes = [reachCtes(plan, { withCourse: breakdown.kind === 'course' })];
  if (valuesCte) ctes.push(valuesCte);
  if (groupedCte) ctes.push(groupedCte);
  const spanColumns = plan.steps
    .slice(1)
    .map(
      (_, offset) =>
        sql`(r.${times[offset + 1] ?? last} >> 10) - (r.${times[offset] ?? last} >> 10) as ${spans[offset + 1] ?? last}`,
    );
  // Microseconds between steps, computed once per learner (`offset 0`: not re-evaluated in every filter).
  ctes.push(sql`spans as (
    select r.*, (r.${last} >> 10) - (r.k0 >> 10) as total${spanColumns.length > 0 ? sql`, ${sql.join(spanColumns, sql`, `)}` : sql``}
    from reach r offset 0)`);

  const medians = spans.map((span, index) =>
    index === 0 ? sql`null::float8` : sql`percentile_cont(0.5) within group (order by ${span}) / 1000000.0`,
  );
  const histogram = spans.map((span, index) => (index === 0 ? sql`null::json` : binCounts(span)));

  const statement = sql`${sql.join(ctes, sql`, `)}
    select
      json_build_array(${sql.join(
        times.map((time) => sql`count(${time})::int`),
        sql`, `,
      )}) as counts,
      json_build_array(${sql.join(medians, sql`, `)}) as medians,
      json_build_array(${sql.join(histogram, sql`, `)}) as histogram,
      percentile_cont(0.5) within group (order by total) / 1000000.0 as median_total,
      ${groupsSelect} as groups
    from spans`;

  const rows = await executeFunnelStatement<Record<string, unknown>>(db, plan, statement);
  const row = rows[0] ?? {};
  const toNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    counts: jsonColumn<number[]>(row.counts, []).map(Number),
    medians: jsonColumn<unknown[]>(row.medians, []).map(toNumber),
    histogram: jsonColumn<(number[] | null)[]>(row.histogram, []),
    medianTotal: toNumber(row.median_total),
    groups: groupKey ? jsonColumn<NonNullable<FunnelAggregateRow['groups']>>(row.groups, []) : null,
  };
}

/**
 * Learners at each step of a funnel over one period, and nothing else (what
 * the comparison with the previous period needs): the same reach as
 * `selectFunnelAggregates`, without its times, bins and groups.
 */
export async function selectFunnelCounts(db: Database, plan: FunnelPlan): Promise<number[]> {
  const statement = sql`${reachCtes(plan, { withCourse: false })}
    select json_build_array(${sql.join(
      plan.steps.map((_, index) => sql`count(${sql.raw(`k${index}`)})::int`),
      sql`, `,
    )}) as counts
    from reach`;
  const rows = await executeFunnelStatement<{ counts: unknown }>(db, plan, statement);
  return jsonColumn<number[]>(rows[0]?.counts, []).map(Number);
}

export type DroppedLearnerRow = { learnerId: string; name: string | null; email: string; reachedAt: string };

/**
 * Learners who reached step `stepIndex - 1` and not step `stepIndex`, latest
 * first, one page (`limit`/`offset`), with how many there are in all.
 */
export async function selectDroppedLearners(
  db: Database,
  plan: FunnelPlan,
  stepIndex: number,
  page: { limit: number; offset: number },
): Promise<{ total: number; items: DroppedLearnerRow[] }> {
  const reached = sql.raw(`k${stepIndex - 1}`);
  const missed = sql.raw(`k${stepIndex}`);
  const statement = sql`${reachCtes(plan, { withCourse: false })},
    dropped as (select r.learner_id, ${keyTime(sql`r.${reached}`)} as reached_at from reach r
      where r.${reached} is not null and r.${missed} is null),
    page as (
      select d.learner_id, l.name, l.email, d.reached_at
      from dropped d
      join learners l on l.organization_id = ${plan.organizationId} and l.id = d.learner_id
      order by d.reached_at desc, d.learner_id
      limit ${page.limit}::int offset ${page.offset}::int)
    select (select count(*)::int from dropped) as total,
      (select coalesce(json_agg(json_build_object(
          'learnerId', p.learner_id, 'name', p.name, 'email', p.email, 'reachedAt', p.reached_at)
        order by p.reached_at desc, p.learner_id), '[]'::json) from page p) as items`;
  const rows = await executeFunnelStatement<{ total: number | string; items: unknown }>(db, plan, statement);
  const row = rows[0];
  return {
    total: Number(row?.total ?? 0),
    items: jsonColumn<DroppedLearnerRow[]>(row?.items, []).map((item) => ({
      ...item,
      reachedAt: new Date(item.reachedAt).toISOString(),
    })),
  };
}

/** Live courses, questions and variables among the ids a definition names, to check and label its steps. */
export async function selectFunnelReferences(
  db: Database,
  organizationId: string,
  ids: { courseIds: string[]; questionIds: string[]; variableIds: string[] },
) {
  const [courses, questions, variables] = await Promise.all([
    ids.courseIds.length === 0
      ? { rows: [] as { id: string; title: string }[] }
      : db.execute<{ id: string; title: string }>(sql`
          select id, course_title as title from courses
          where organization_id = ${organizationId} and id = any(${sql.param(ids.courseIds)}::uuid[]) and not is_deleted`),
    ids.questionIds.length === 0
      ? { rows: [] as QuestionReference[] }
      : db.execute<QuestionReference>(sql`
          select id, course_id as "courseId", question_number as "questionNumber", slide_number as "slideNumber",
            question_text as "questionText", interaction_id as "interactionId"
          from questions
          where organization_id = ${organizationId} and id = any(${sql.param(ids.questionIds)}::uuid[])`),
    ids.variableIds.length === 0
      ? { rows: [] as VariableReference[] }
      : db.execute<VariableReference>(sql`
          select id, course_id as "courseId", name, title from variables
          where organization_id = ${organizationId} and id = any(${sql.param(ids.variableIds)}::uuid[])`),
  ]);
  return { courses: courses.rows, questions: questions.rows, variables: variables.rows };
}

export type QuestionReference = {
  id: string;
  courseId: string;
  questionNumber: number | null;
  slideNumber: number | null;
  questionText: string | null;
  interactionId: string;
};
export type VariableReference = { id: string; courseId: string; name: string; title: string | null };

/** Titles of courses (deleted ones too: a breakdown group may be a course deleted since). */
export async function selectCourseLabels(db: Database, organizationId: string, courseIds: readonly string[]) {
  if (courseIds.length === 0) return new Map<string, string>();
  const result = await db.execute<{ id: string; title: string }>(sql`
    select id, course_title as title from courses
    where organization_id = ${organizationId} and id = any(${sql.param([...courseIds])}::uuid[])`);
  return new Map(result.rows.map((row) => [row.id, row.title]));
}

// Saved funnels.

export type FunnelRow = {
  id: string;
  name: string;
  description: string | null;
  config: unknown;
  createdAt: Date | string;
  updatedAt: Date | string;
};

const funnelColumns = sql`id, name, description, config, created_at as "createdAt", updated_at as "updatedAt"`;

export async function selectFunnels(db: Database, organizationId: string): Promise<FunnelRow[]> {
  const result = await db.execute<FunnelRow>(sql`
    select ${funnelColumns} from analytics_funnels
    where organization_id = ${organizationId}
    order by lower(name), created_at`);
  return result.rows;
}

export async function selectFunnel(db: Database, organizationId: string, funnelId: string) {
  const result = await db.execute<FunnelRow>(sql`
    select ${funnelColumns} from analytics_funnels where organization_id = ${organizationId} and id = ${funnelId}`);
  return result.rows[0];
}

export async function insertFunnel(
  db: Database,
  input: {
    organizationId: string;
    name: string;
    description: string | null;
    config: unknown;
    createdBy: string;
  },
): Promise<FunnelRow> {
  const result = await db.execute<FunnelRow>(sql`
    insert into analytics_funnels (organization_id, name, description, config, created_by)
    values (${input.organizationId}, ${input.name}, ${input.description}, ${JSON.stringify(input.config)}::jsonb,
      ${input.createdBy})
    returning ${funnelColumns}`);
  const row = result.rows[0];
  if (!row) throw new Error('The funnel was not stored');
  return row;
}

export async function updateFunnelRow(
  db: Database,
  input: {
    organizationId: string;
    funnelId: string;
    name?: string;
    description?: string | null;
    config?: unknown;
  },
): Promise<FunnelRow | undefined> {
  const sets: SQL[] = [sql`updated_at = now()`];
  if (input.name !== undefined) sets.push(sql`name = ${input.name}`);
  if (input.description !== undefined) sets.push(sql`description = ${input.description}`);
  if (input.config !== undefined) sets.push(sql`config = ${JSON.stringify(input.config)}::jsonb`);
  const result = await db.execute<FunnelRow>(sql`
    update analytics_funnels set ${sql.join(sets, sql`, `)}
    where organization_id = ${input.organizationId} and id = ${input.funnelId}
    returning ${funnelColumns}`);
  return result.rows[0];
}

export async function deleteFunnelRow(db: Database, organizationId: string, funnelId: string) {
  const result = await db.execute<{ name: string }>(sql`
    delete from analytics_funnels where organization_id = ${organizationId} and id = ${funnelId} returning name`);
  return result.rows[0];
}

export async function countFunnels(db: Database, organizationId: string): Promise<number> {
  const result = await db.execute<{ n: number | string }>(sql`
    select count(*) as n from analytics_funnels where organization_id = ${organizationId}`);
  return Number(result.rows[0]?.n ?? 0);
}

/** The live course with the most runs, and its first question (by slide, then question number). */
export async function selectSuggestionCourse(db: Database, organizationId: string) {
  const result = await db.execute<{ courseId: string; title: string; questionId: string | null }>(sql`
    with top_course as (
      select c.id, c.course_title
      from courses c
      left join lateral (
        select count(*) as runs from course_runs r where r.organization_id = c.organization_id and r.course_id = c.id
      ) n on true
      where c.organization_id = ${organizationId} and not c.is_deleted
      order by n.runs desc, c.course_title
      limit 1)
    select t.id as "courseId", t.course_title as title,
      (select q.id from questions q
       where q.organization_id = ${organizationId} and q.course_id = t.id
       order by q.slide_number nulls last, q.question_number nulls last, q.created_at
       limit 1) as "questionId"
    from top_course t`);
  return result.rows[0];
}
