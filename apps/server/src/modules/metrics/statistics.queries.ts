import type { NiceBin, SortOrder, VariableReportFilters } from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { learners, type VariableDataType } from '../../db/schema';
import {
  axisBuckets,
  boundedSpan,
  intervalStep,
  intervalUnit,
  windowSpan,
  type TimeInterval,
} from '../../lib/time-axis';
import { escapeLike } from '../variables/variables.queries';
import { learnerDisplayName } from './privacy';
import type { ValueRelations } from './value-source';

// The statistics of a value source, in SQL, once: the summary (learners,
// values, centre and spread), the distribution (histogram bins given by the
// caller, categories, months), the trend over a bounded time axis, the
// leaderboard and the outliers. Each reads the relations of
// `value-source.ts`, narrowed by the same filters, so every screen that
// shows a variable computes the same numbers the same way.
//
// Counts mean what `METRIC_DEFINITIONS` says: learners are different
// people (`count(distinct learner_id)`), values are latest values, one per
// learner and course.

/** Recorded from/to (UTC days, inclusive) and a condition on the value by type. */
export type ValueFilters = VariableReportFilters;

const utcDay = (day: string) => sql`(${day}::date)::timestamp at time zone 'UTC'`;

/** WHERE conditions of the filters on a relation aliased `r`; a value filter applies to its type only. */
export function valueFilterConditions(dataType: VariableDataType, filters: ValueFilters): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filters.from) conditions.push(sql`r.recorded_at >= ${utcDay(filters.from)}`);
  if (filters.to) conditions.push(sql`r.recorded_at < ${utcDay(filters.to)} + interval '1 day'`);
  if (dataType === 'number') {
    if (filters.min !== undefined) conditions.push(sql`r.value_number >= ${filters.min}`);
    if (filters.max !== undefined) conditions.push(sql`r.value_number <= ${filters.max}`);
  }
  if (dataType === 'text' && filters.contains) {
    conditions.push(sql`r.value ilike ${`%${escapeLike(filters.contains)}%`}`);
  }
  if (dataType === 'boolean' && filters.value) {
    conditions.push(sql`r.value_boolean = ${filters.value === 'true'}`);
  }
  return sql.join(conditions, sql` and `);
}

/** The days of the filters on a daily relation aliased `d`. */
function dayConditions(filters: ValueFilters): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filters.from) conditions.push(sql`d.day >= ${filters.from}::date`);
  if (filters.to) conditions.push(sql`d.day <= ${filters.to}::date`);
  return sql.join(conditions, sql` and `);
}

/** A relation narrowed by the filters (same columns). */
export function filteredValues(relation: SQL, dataType: VariableDataType, filters: ValueFilters): SQL {
  return sql`select r.* from (${relation}) r where ${valueFilterConditions(dataType, filters)}`;
}

type Input = { relations: ValueRelations; dataType: VariableDataType; filters: ValueFilters };

// ---- summary -------------------------------------------------------------------

export type SummaryRow = {
  learners: number;
  values: number;
  distinct_values: number;
  numbers: number;
  mean: number | null;
  median: number | null;
  q1: number | null;
  q3: number | null;
  stddev: number | null;
  min: number | null;
  max: number | null;
  /** Every number is whole (none: true), so histogram edges stay whole. */
  is_integer: boolean;
  true_count: number;
  false_count: number;
  earliest: Date | string | null;
  median_date: Date | string | null;
  latest: Date | string | null;
};

/** The typed column of a value row aliased `f` that holds a value of `dataType`. */
export function typedValueColumn(dataType: VariableDataType): SQL {
  switch (dataType) {
    case 'number':
      return sql`f.value_number`;
    case 'boolean':
      return sql`f.value_boolean`;
    case 'date':
      return sql`f.value_date`;
    case 'text':
      return sql`f.value`;
  }
}

/** The smallest and largest number of `f` and whether every one is whole: the summary's and the range's. */
const NUMBER_RANGE_COLUMNS = sql`min(f.value_number)::float8 as min,
           max(f.value_number)::float8 as max,
           coalesce(bool_and(f.value_number = trunc(f.value_number)), true) as is_integer`;

/**
 * The summary of the filtered latest values in one statement: learners
 * (distinct), values (one per learner and course), and for numbers the mean,
 * median, quartiles, sample standard deviation (null below two numbers),
 * smallest and largest. Values that did not parse as the type count as
 * values but stay out of the number figures.
 */
export async function selectSummary(
  db: Database,
  input: Input & { valuesPerLearner: number },
): Promise<SummaryRow> {
  // A source of one variable holds one latest value per learner, so its
  // rows are its learners: counting them spares sorting every learner id.
  const learnerCount =
    input.valuesPerLearner <= 1 ? sql`count(f.learner_id)` : sql`count(distinct f.learner_id)`;
  const result = await db.execute<SummaryRow>(sql`
    with f as (${filteredValues(input.relations.latest, input.dataType, input.filters)})
    select ${learnerCount}::int as learners,
           count(*)::int as values,
           count(distinct ${typedValueColumn(input.dataType)})::int as distinct_values,
           count(f.value_number)::int as numbers,
           avg(f.value_number)::float8 as mean,
           (percentile_cont(0.5) within group (order by f.value_number))::float8 as median,
           (percentile_cont(0.25) within group (order by f.value_number))::float8 as q1,
           (percentile_cont(0.75) within group (order by f.value_number))::float8 as q3,
           stddev_samp(f.value_number)::float8 as stddev,
           ${NUMBER_RANGE_COLUMNS},
           (count(*) filter (where f.value_boolean))::int as true_count,
           (count(*) filter (where not f.value_boolean))::int as false_count,
           min(f.value_date) as earliest,
           to_timestamp(percentile_cont(0.5) within group (order by extract(epoch from f.value_date))) as median_date,
           max(f.value_date) as latest
    from f`);
  const row = result.rows[0];
  if (!row) throw new Error('An aggregate query returned no row');
  return row;
}

/**
 * The smallest and largest filtered latest number and whether every one is
 * whole: what the histogram's bins are cut from, as the summary has them,
 * without the sorts behind its median and distinct counts.
 */
export async function selectNumberRange(
  db: Database,
  input: Omit<Input, 'dataType'>,
): Promise<Pick<SummaryRow, 'numbers' | 'min' | 'max' | 'is_integer'>> {
  const result = await db.execute<Pick<SummaryRow, 'numbers' | 'min' | 'max' | 'is_integer'>>(sql`
    with f as (${filteredValues(input.relations.latest, 'number', input.filters)})
    select count(f.value_number)::int as numbers, ${NUMBER_RANGE_COLUMNS}
    from f`);
  const row = result.rows[0];
  if (!row) throw new Error('An aggregate query returned no row');
  return row;
}

/** How many values were ever recorded, and the first and last time (unfiltered). */
export async function selectUsage(
  db: Database,
  relations: ValueRelations,
): Promise<{
  recorded: number;
  first_recorded_at: Date | string | null;
  last_recorded_at: Date | string | null;
}> {
  const result = await db.execute<{
    recorded: number;
    first_recorded_at: Date | string | null;
    last_recorded_at: Date | string | null;
  }>(sql`select u.recorded, u.first_recorded_at, u.last_recorded_at from (${relations.usage}) u`);
  return result.rows[0] ?? { recorded: 0, first_recorded_at: null, last_recorded_at: null };
}

// ---- distribution --------------------------------------------------------------

/**
 * Values per bin of `bins` (given by `niceBins` from the summary's smallest
 * and largest), every bin listed. A value goes in the bin whose lower edge
 * is the last one at or below it, compared with the very edges the chart
 * names, so SQL and `binIndexOf` agree to the last digit.
 */
export async function selectHistogram(
  db: Database,
  input: { relations: ValueRelations; filters: ValueFilters; bins: readonly NiceBin[] },
): Promise<number[]> {
  const inner = input.bins.slice(1).map((bin) => bin.from);
  const bin = inner.length === 0 ? sql`0` : sql`width_bucket(f.value_number, ${sql.param(inner)}::float8[])`;
  const result = await db.execute<{ bin: number; count: number }>(sql`
    with f as (${filteredValues(input.relations.latest, 'number', input.filters)})
    select ${bin}::int as bin, count(*)::int as count
    from f where f.value_number is not null
    group by 1`);
  const counts = input.bins.map(() => 0);
  for (const row of result.rows) {
    const index = Math.min(Math.max(Number(row.bin), 0), counts.length - 1);
    counts[index] = (counts[index] ?? 0) + Number(row.count);
  }
  return counts;
}

/** The `top` most frequent values and the rest as one "other" row (label null). */
export async function selectCategories(
  db: Database,
  input: { relations: ValueRelations; filters: ValueFilters; top: number },
): Promise<{ label: string | null; count: number; is_other: boolean }[]> {
  const result = await db.execute<{ label: string | null; count: number; is_other: boolean }>(sql`
    with f as (${filteredValues(input.relations.latest, 'text', input.filters)}),
    counts as (select coalesce(f.value, '') as v, count(*) as c from f group by 1),
    ranked as (select v, c, row_number() over (order by c desc, v) as rn from counts)
    select case when rn <= ${input.top} then v end as label, sum(c)::int as count, rn > ${input.top} as is_other
    from ranked
    group by 1, 3
    order by 3, min(rn)`);
  return result.rows;
}

/** Dates by calendar month (UTC, `YYYY-MM`), oldest first. */
export async function selectDateMonths(
  db: Database,
  input: { relations: ValueRelations; filters: ValueFilters },
): Promise<{ month: string; count: number }[]> {
  const result = await db.execute<{ month: string; count: number }>(sql`
    with f as (${filteredValues(input.relations.latest, 'date', input.filters)})
    select to_char(date_trunc('month', f.value_date at time zone 'UTC'), 'YYYY-MM') as month, count(*)::int as count
    from f where f.value_date is not null
    group by 1 order by 1`);
  return result.rows;
}

/** Per course: learners (distinct), values, and the mean number or share of true. */
export async function selectByCourse(
  db: Database,
  input: Input,
): Promise<
  { course_id: string; course_title: string; learners: number; values: number; mean: number | null }[]
> {
  const result = await db.execute<{
    course_id: string;
    course_title: string;
    learners: number;
    values: number;
    mean: number | null;
  }>(sql`
    with f as (${filteredValues(input.relations.latest, input.dataType, input.filters)})
    select f.course_id, min(f.course_title) as course_title, count(distinct f.learner_id)::int as learners,
           count(*)::int as values, avg(${metricOf(input.dataType)})::float8 as mean
    from f group by f.course_id`);
  return result.rows;
}

/** The number a trend or comparison averages: the number, 1/0 for true/false, none otherwise. */
function metricOf(dataType: VariableDataType): SQL {
  switch (dataType) {
    case 'number':
      return sql`f.value_number`;
    case 'boolean':
      return sql`(case when f.value_boolean then 1.0 when not f.value_boolean then 0.0 end)`;
    default:
      return sql`null::float8`;
  }
}

// ---- trend ---------------------------------------------------------------------

/**
 * The time axis of a trend: from the first to the last bucket with values
 * (at most `MAX_TIME_BUCKETS`, the latest kept), or a fixed window of the
 * last `buckets` buckets up to `now`, empty ones included.
 */
export type TrendAxis = { kind: 'data' } | { kind: 'window'; now: Date; buckets: number };

export type TrendRow = { bucket: string; count: number; mean: number | null };

/**
 * True when the filters only bound the days: no condition on the values
 * themselves (a condition applies to values of its type only, as in
 * `valueFilterConditions`).
 */
function isDaysOnly(dataType: VariableDataType, filters: ValueFilters): boolean {
  switch (dataType) {
    case 'number':
      return filters.min === undefined && filters.max === undefined;
    case 'text':
      return !filters.contains;
    case 'boolean':
      return !filters.value;
    case 'date':
      return true;
  }
}

/** The mean a trend shows from a day's parts: numbers' mean, or the share of true. */
function dailyMetric(dataType: VariableDataType): SQL {
  switch (dataType) {
    case 'number':
      return sql`sum(f.number_sum) / nullif(sum(f.numbers), 0)`;
    case 'boolean':
      return sql`sum(f.trues)::float8 / nullif(sum(f.booleans), 0)`;
    default:
      return sql`null::float8`;
  }
}

/**
 * Every recorded value (history) per UTC bucket, empty buckets included:
 * how many, and their mean (numbers; the share of true for true/false).
 * Without a condition on the values themselves, from the values added up
 * per day (buckets are whole days).
 */
export async function selectTrend(
  db: Database,
  input: Input & { interval: TimeInterval; axis: TrendAxis },
): Promise<TrendRow[]> {
  const unit = intervalUnit(input.interval);
  const step = intervalStep(input.interval);
  const isDaily = isDaysOnly(input.dataType, input.filters);
  const values = isDaily
    ? sql`select d.* from (${input.relations.daily}) d where ${dayConditions(input.filters)}`
    : filteredValues(input.relations.history, input.dataType, input.filters);
  const grouped = (where: SQL) =>
    isDaily
      ? sql`grouped as (
          select date_trunc(${unit}, f.day::timestamp) as bucket, sum(f.values)::int as count,
                 (${dailyMetric(input.dataType)})::float8 as mean
          from f where ${where} group by 1
        )`
      : sql`grouped as (
          select date_trunc(${unit}, f.recorded_at at time zone 'UTC') as bucket, count(*)::int as count,
                 avg(${metricOf(input.dataType)})::float8 as mean
          from f where ${where} group by 1
        )`;
  const inWindow = isDaily
    ? sql`f.day >= (select first from span)::date and f.day < ((select last from span) + ${step}::interval)::date`
    : sql`f.recorded_at >= (select first from span) at time zone 'UTC'
          and f.recorded_at < ((select last from span) + ${step}::interval) at time zone 'UTC'`;
  const ctes =
    input.axis.kind === 'window'
      ? sql`${windowSpan(input.interval, input.axis.now, input.axis.buckets)},
          f as (${values}),
          ${grouped(inWindow)}`
      : sql`f as (${values}), ${grouped(sql`true`)}, ${boundedSpan(step)}`;
  const result = await db.execute<TrendRow>(sql`
    with ${ctes}
    select to_char(s.bucket, 'YYYY-MM-DD') as bucket, coalesce(g.count, 0)::int as count, g.mean
    ${axisBuckets(step)}`);
  return result.rows;
}

/**
 * Span in days of the filtered values' times (history), to pick a trend
 * interval. Without a condition on the values themselves, the first and
 * last times are found through the time index.
 */
export async function selectHistorySpanDays(db: Database, input: Input): Promise<number> {
  const bounds = isDaysOnly(input.dataType, input.filters)
    ? input.relations.historyBounds({ from: input.filters.from, to: input.filters.to })
    : sql`select min(f.recorded_at) as first, max(f.recorded_at) as last
          from (${filteredValues(input.relations.history, input.dataType, input.filters)}) f`;
  const result = await db.execute<{ days: number | null }>(sql`
    select (extract(epoch from b.last - b.first) / 86400)::float8 as days from (${bounds}) b`);
  return Number(result.rows[0]?.days ?? 0);
}

// ---- leaders -------------------------------------------------------------------

/**
 * A leaderboard statement over `perLearner`, a query giving one row per
 * learner with `learner_id` and `score` (and any other columns): the first
 * `limit` learners by score, with `tieBreak` (an ORDER BY on the alias `p`,
 * e.g. who reached the score first) choosing among equal scores, each with
 * its `rank()` among all (one more than the learners with a better score;
 * equal scores share a rank). Ranks are counted per distinct score rather
 * than by a window over the learners: a question most learners got right
 * ties tens of thousands, which a window walks through once per peer. Only
 * the learners shown are joined to their names (never an e-mail address),
 * listed in rank then name order.
 */
export function leaderboard(input: {
  organizationId: string;
  perLearner: SQL;
  order: SortOrder;
  limit: number;
  tieBreak: SQL;
}): SQL {
  const isAscending = input.order === 'asc';
  const direction = sql.raw(isAscending ? 'asc nulls last' : 'desc nulls last');
  const beats = sql.raw(isAscending ? '<' : '>');
  return sql`
    with per_learner as (${input.perLearner}),
    shown as (
      select p.* from per_learner p
      order by p.score ${direction}, ${input.tieBreak}, p.learner_id
      limit ${input.limit}
    ),
    -- Counted once, not once per learner shown.
    scores as materialized (select p.score, count(*)::int as n from per_learner p group by p.score),
    ranked as (
      select (1 + coalesce((select sum(c.n) from scores c
                            where c.score ${beats} s.score or (s.score is null and c.score is not null)), 0))::int as rank,
             s.*
      from shown s
    )
    select r.*, ${learnerDisplayName('ln')} as learner_name
    from ranked r
    join ${learners} ln on ln.organization_id = ${input.organizationId} and ln.id = r.learner_id
    order by r.rank, lower(${learnerDisplayName('ln')}), r.learner_id`;
}

export type LeaderRecord = {
  rank: number;
  learner_id: string;
  learner_name: string;
  course_id: string;
  course_title: string;
  value: string | null;
  value_number: number | null;
  value_date: Date | string | null;
  recorded_at: Date | string;
};

/**
 * Learners ranked by their latest number or date, each once: a learner with
 * the source in several courses is placed by the value that ranks them
 * first. `valuesPerLearner` (the source's variables) bounds how many rows
 * one learner can have, so the first `limit × valuesPerLearner` rows (and
 * their ties) hold every learner of the top `limit`. `excludeLearnerIds`
 * leaves learners out (a lowest list that must not repeat the highest).
 */
export async function selectLeaders(
  db: Database,
  input: {
    organizationId: string;
    relations: ValueRelations;
    dataType: 'number' | 'date';
    filters: ValueFilters;
    order: SortOrder;
    limit: number;
    valuesPerLearner: number;
    excludeLearnerIds?: readonly string[];
  },
): Promise<LeaderRecord[]> {
  const column = sql.raw(input.dataType === 'number' ? 'f.value_number' : 'f.value_date');
  const direction = sql.raw(input.order === 'asc' ? 'asc' : 'desc');
  // The candidates hold no null, so where the nulls would go changes
  // nothing but the plan: put as in the latest values' number index
  // (highest first, nulls last), one variable's leaders are read from it.
  const candidateOrder = sql.raw(input.order === 'asc' ? 'asc nulls first' : 'desc nulls last');
  const excluded =
    input.excludeLearnerIds && input.excludeLearnerIds.length > 0
      ? sql`and not (f.learner_id = any(${sql.param([...input.excludeLearnerIds])}::uuid[]))`
      : sql``;
  const perLearner = sql`
    with f as (${filteredValues(input.relations.latest, input.dataType, input.filters)}),
    candidates as (
      select f.* from f where ${column} is not null ${excluded}
      order by ${column} ${candidateOrder}
      fetch first ${input.limit * Math.max(1, input.valuesPerLearner)} rows with ties
    )
    select distinct on (f.learner_id) f.learner_id, ${column} as score, f.course_id, f.course_title, f.value,
           f.value_number, f.value_date, f.recorded_at
    from candidates f
    order by f.learner_id, ${column} ${direction}, f.recorded_at, f.course_id`;
  // Among equal values, who reached theirs first.
  const result = await db.execute<LeaderRecord>(
    leaderboard({ ...input, perLearner, tieBreak: sql`p.recorded_at` }),
  );
  return result.rows;
}

/**
 * How many latest numbers lie outside the fences, and the `limit` furthest
 * out (names only).
 */
export async function selectOutliers(
  db: Database,
  input: {
    organizationId: string;
    relations: ValueRelations;
    filters: ValueFilters;
    lowerFence: number;
    upperFence: number;
    limit: number;
  },
): Promise<{ count: number; learners: { name: string; value: number }[] }> {
  const result = await db.execute<{ total: number; name: string; value: number }>(sql`
    with f as (${filteredValues(input.relations.latest, 'number', input.filters)}),
    outside as (
      select f.* from f
      where f.value_number < ${input.lowerFence}::float8 or f.value_number > ${input.upperFence}::float8
    )
    select (select count(*) from outside)::int as total, ${learnerDisplayName('ln')} as name,
           o.value_number::float8 as value
    from outside o
    join ${learners} ln on ln.organization_id = ${input.organizationId} and ln.id = o.learner_id
    order by greatest(${input.lowerFence}::float8 - o.value_number, o.value_number - ${input.upperFence}::float8) desc,
             o.recorded_at, o.learner_id
    limit ${input.limit}`);
  return {
    count: Number(result.rows[0]?.total ?? 0),
    learners: result.rows.map((row) => ({ name: row.name, value: Number(row.value) })),
  };
}
