import type { SortOrder, VariableReportFilters, VariableReportSortKey } from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { boundedSpan } from '../../lib/time-axis';
import type { Database } from '../../db/client';
import { courses, learners, variables, type VariableDataType } from '../../db/schema';
import { escapeLike } from '../variables/variables.queries';

/**
 * Where a report's values come from. Every query below reads two relations
 * with the same columns (learner_id, course_id, course_title, variable_id,
 * value, value_number, value_boolean, value_date, recorded_at): `latest`,
 * each learner's latest value, and `history`, every value. A new source (the
 * chatbot variables) only needs to provide those two.
 */
export type ValueRelations = { latest: SQL; history: SQL };

export type VariableSourceRow = {
  id: string;
  name: string;
  title: string | null;
  course_id: string;
  course_title: string;
  data_type: VariableDataType;
};

/** The live-course variables a source names (one, or every one with the name). */
export async function selectSourceVariables(
  db: Database,
  input: { organizationId: string; name: string; courseId?: string | undefined },
): Promise<VariableSourceRow[]> {
  const result = await db.execute<VariableSourceRow>(sql`
    select v.id, v.name, v.title, v.course_id, c.course_title, v.data_type
    from ${variables} v
    join ${courses} c on c.organization_id = v.organization_id and c.id = v.course_id
    where v.organization_id = ${input.organizationId} and v.name = ${input.name} and not c.is_deleted
      ${input.courseId ? sql`and v.course_id = ${input.courseId}` : sql``}
    order by lower(c.course_title), c.id`);
  return result.rows;
}

/** The course variables' relations: the rollup of latest values and the raw history. */
export function courseVariableRelations(
  organizationId: string,
  variableIds: readonly string[],
): ValueRelations {
  const ids = sql`any(${sql.param([...variableIds])}::uuid[])`;
  return {
    latest: sql`
      select l.learner_id, l.course_id, c.course_title, l.variable_id, l.value, l.value_number,
             l.value_boolean, l.value_date, l.recorded_at
      from learner_variable_latest l
      join ${courses} c on c.organization_id = l.organization_id and c.id = l.course_id
      where l.organization_id = ${organizationId} and l.variable_id = ${ids}`,
    history: sql`
      select h.learner_id, h.course_id, c.course_title, h.variable_id, h.value, h.value_number,
             h.value_boolean, h.value_date, h.recorded_at
      from learner_variable_values h
      join ${courses} c on c.organization_id = h.organization_id and c.id = h.course_id
      where h.organization_id = ${organizationId} and h.variable_id = ${ids}`,
  };
}

const utcDay = (day: string) => sql`(${day}::date)::timestamp at time zone 'UTC'`;

/** WHERE conditions of the filters on a relation aliased `r`; a value filter applies to its type only. */
export function filterConditions(dataType: VariableDataType, filters: VariableReportFilters): SQL {
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

function filtered(relation: SQL, dataType: VariableDataType, filters: VariableReportFilters): SQL {
  return sql`select r.* from (${relation}) r where ${filterConditions(dataType, filters)}`;
}

export type ReportRow = {
  learner_id: string;
  learner_name: string | null;
  learner_email: string;
  course_id: string;
  course_title: string;
  variable_id: string;
  value: string | null;
  value_number: number | null;
  value_boolean: boolean | null;
  value_date: Date | string | null;
  recorded_at: Date | string;
};

function valueOrder(dataType: VariableDataType): SQL {
  switch (dataType) {
    case 'number':
      return sql`f.value_number`;
    case 'boolean':
      return sql`f.value_boolean`;
    case 'date':
      return sql`f.value_date`;
    case 'text':
      return sql`lower(f.value)`;
  }
}

function reportOrder(dataType: VariableDataType, sort: VariableReportSortKey, order: SortOrder): SQL {
  const direction = sql.raw(order === 'asc' ? 'asc' : 'desc');
  switch (sort) {
    case 'learner':
      return sql`lower(ln.name) ${direction} nulls last, ln.email ${direction}, f.learner_id, f.course_id`;
    case 'value':
      // Values that did not parse as the type go last either way.
      return sql`${valueOrder(dataType)} ${direction} nulls last, lower(ln.name), f.learner_id, f.course_id`;
    case 'recordedAt':
      return sql`f.recorded_at ${direction}, f.learner_id, f.course_id`;
    case 'course':
      return sql`lower(f.course_title) ${direction}, f.course_id, lower(ln.name), f.learner_id`;
  }
}

function searchCondition(q: string | undefined): SQL {
  if (!q) return sql`true`;
  const pattern = `%${escapeLike(q)}%`;
  return sql`(ln.name ilike ${pattern} or ln.email ilike ${pattern})`;
}

/** One page of latest values (or every one up to `limit`, for an export), with learner name and e-mail. */
export async function selectReportRows(
  db: Database,
  input: {
    organizationId: string;
    relations: ValueRelations;
    dataType: VariableDataType;
    filters: VariableReportFilters;
    q: string | undefined;
    sort: VariableReportSortKey;
    order: SortOrder;
    limit: number;
    offset: number;
  },
): Promise<ReportRow[]> {
  const result = await db.execute<ReportRow>(sql`
    with f as (${filtered(input.relations.latest, input.dataType, input.filters)})
    select f.learner_id, ln.name as learner_name, ln.email as learner_email, f.course_id, f.course_title,
           f.variable_id, f.value, f.value_number, f.value_boolean, f.value_date, f.recorded_at
    from f
    join ${learners} ln on ln.organization_id = ${input.organizationId} and ln.id = f.learner_id
    where ${searchCondition(input.q)}
    order by ${reportOrder(input.dataType, input.sort, input.order)}
    limit ${input.limit} offset ${input.offset}`);
  return result.rows;
}

export async function countReportRows(
  db: Database,
  input: {
    organizationId: string;
    relations: ValueRelations;
    dataType: VariableDataType;
    filters: VariableReportFilters;
    q: string | undefined;
  },
): Promise<number> {
  const result = await db.execute<{ total: number }>(sql`
    with f as (${filtered(input.relations.latest, input.dataType, input.filters)})
    select count(*)::int as total
    from f
    ${input.q ? sql`join ${learners} ln on ln.organization_id = ${input.organizationId} and ln.id = f.learner_id` : sql``}
    where ${searchCondition(input.q)}`);
  return result.rows[0]?.total ?? 0;
}

export type SummaryRow = {
  count: number;
  distinct_values: number;
  mean: number | null;
  median: number | null;
  min: number | null;
  max: number | null;
  stddev: number | null;
  true_count: number;
  false_count: number;
  earliest: Date | string | null;
  latest: Date | string | null;
};

function distinctExpression(dataType: VariableDataType): SQL {
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

/**
 * Statistics of the filtered latest values in one pass. The standard
 * deviation is the sample one (null below two values); numbers that did not
 * parse are left out of the number statistics but counted in `count`.
 */
export async function selectSummary(
  db: Database,
  input: { relations: ValueRelations; dataType: VariableDataType; filters: VariableReportFilters },
): Promise<SummaryRow> {
  const result = await db.execute<SummaryRow>(sql`
    with f as (${filtered(input.relations.latest, input.dataType, input.filters)})
    select count(*)::int as count,
           count(distinct ${distinctExpression(input.dataType)})::int as distinct_values,
           avg(f.value_number)::float8 as mean,
           percentile_cont(0.5) within group (order by f.value_number)::float8 as median,
           min(f.value_number)::float8 as min,
           max(f.value_number)::float8 as max,
           stddev_samp(f.value_number)::float8 as stddev,
           (count(*) filter (where f.value_boolean))::int as true_count,
           (count(*) filter (where not f.value_boolean))::int as false_count,
           min(f.value_date) as earliest,
           max(f.value_date) as latest
    from f`);
  const row = result.rows[0];
  if (!row) throw new Error('summary query returned no row');
  return row;
}

/** The most frequent values (text), most frequent first, ties by value. */
export async function selectTopValues(
  db: Database,
  input: {
    relations: ValueRelations;
    dataType: VariableDataType;
    filters: VariableReportFilters;
    limit: number;
  },
): Promise<{ value: string; count: number }[]> {
  const result = await db.execute<{ value: string; count: number }>(sql`
    with f as (${filtered(input.relations.latest, input.dataType, input.filters)})
    select f.value, count(*)::int as count
    from f where f.value is not null
    group by f.value
    order by count(*) desc, f.value
    limit ${input.limit}`);
  return result.rows;
}

/** Numbers in up to `bins` equal-width bins between the smallest and the largest, empty bins included. */
export async function selectHistogram(
  db: Database,
  input: { relations: ValueRelations; filters: VariableReportFilters; bins: number },
): Promise<{ bucket: number; low: number; high: number; count: number }[]> {
  const result = await db.execute<{ bucket: number; low: number; high: number; count: number }>(sql`
    with f as (${filtered(input.relations.latest, 'number', input.filters)}),
    bounds as (
      select min(value_number) as lo, max(value_number) as hi,
             case when min(value_number) = max(value_number) then 1 else ${input.bins}::int end as n
      from f where value_number is not null
    ),
    counted as (
      select least(width_bucket(f.value_number, b.lo, b.hi + (case when b.n = 1 then 1 else 0 end), b.n), b.n) as bucket,
             count(*)::int as count
      from f cross join bounds b
      where f.value_number is not null
      group by 1
    )
    select s.bucket::int as bucket,
           (b.lo + (b.hi - b.lo) * (s.bucket - 1) / b.n)::float8 as low,
           (b.lo + (b.hi - b.lo) * s.bucket / b.n)::float8 as high,
           coalesce(c.count, 0)::int as count
    from bounds b
    cross join lateral generate_series(1, b.n) as s(bucket)
    left join counted c on c.bucket = s.bucket
    where b.lo is not null
    order by s.bucket`);
  return result.rows;
}

/** Text values: the `top` most frequent and the rest as one "other" row (label null). */
export async function selectTextDistribution(
  db: Database,
  input: { relations: ValueRelations; filters: VariableReportFilters; top: number },
): Promise<{ label: string | null; count: number; is_other: boolean }[]> {
  const result = await db.execute<{ label: string | null; count: number; is_other: boolean }>(sql`
    with f as (${filtered(input.relations.latest, 'text', input.filters)}),
    counts as (select coalesce(value, '') as v, count(*) as c from f group by 1),
    ranked as (select v, c, row_number() over (order by c desc, v) as rn from counts)
    select case when rn <= ${input.top} then v end as label, sum(c)::int as count, rn > ${input.top} as is_other
    from ranked
    group by 1, 3
    order by 3, min(rn)`);
  return result.rows;
}

export async function selectBooleanDistribution(
  db: Database,
  input: { relations: ValueRelations; filters: VariableReportFilters },
): Promise<{ true_count: number; false_count: number; unset_count: number }> {
  const result = await db.execute<{ true_count: number; false_count: number; unset_count: number }>(sql`
    with f as (${filtered(input.relations.latest, 'boolean', input.filters)})
    select (count(*) filter (where value_boolean))::int as true_count,
           (count(*) filter (where not value_boolean))::int as false_count,
           (count(*) filter (where value_boolean is null))::int as unset_count
    from f`);
  return result.rows[0] ?? { true_count: 0, false_count: 0, unset_count: 0 };
}

/** Dates by calendar month (UTC), oldest first. */
export async function selectDateDistribution(
  db: Database,
  input: { relations: ValueRelations; filters: VariableReportFilters },
): Promise<{ month: string; count: number }[]> {
  const result = await db.execute<{ month: string; count: number }>(sql`
    with f as (${filtered(input.relations.latest, 'date', input.filters)})
    select to_char(date_trunc('month', value_date at time zone 'UTC'), 'YYYY-MM') as month, count(*)::int as count
    from f where value_date is not null
    group by 1 order by 1`);
  return result.rows;
}

/** Span in days of the filtered values' times (history), to pick a trend interval. */
export async function selectHistorySpanDays(
  db: Database,
  input: { relations: ValueRelations; dataType: VariableDataType; filters: VariableReportFilters },
): Promise<number> {
  const result = await db.execute<{ days: number | null }>(sql`
    with f as (${filtered(input.relations.history, input.dataType, input.filters)})
    select (extract(epoch from max(recorded_at) - min(recorded_at)) / 86400)::float8 as days from f`);
  return result.rows[0]?.days ?? 0;
}

/**
 * Every recorded value (history) per UTC day or ISO week (Monday), from the
 * first to the last bucket with values, empty buckets included: how many and,
 * for numbers, their mean.
 */
export async function selectTrend(
  db: Database,
  input: {
    relations: ValueRelations;
    dataType: VariableDataType;
    filters: VariableReportFilters;
    interval: 'day' | 'week';
  },
): Promise<{ bucket: string; count: number; mean: number | null }[]> {
  const unit = sql.raw(`'${input.interval}'`);
  const step = sql.raw(`'1 ${input.interval}'`);
  const result = await db.execute<{ bucket: string; count: number; mean: number | null }>(sql`
    with f as (${filtered(input.relations.history, input.dataType, input.filters)}),
    grouped as (
      select date_trunc(${unit}, recorded_at at time zone 'UTC') as bucket, count(*)::int as count,
             avg(value_number)::float8 as mean
      from f group by 1
    ),
    ${boundedSpan(step)}
    select to_char(s.bucket, 'YYYY-MM-DD') as bucket, coalesce(g.count, 0)::int as count, g.mean
    from span
    cross join lateral generate_series(span.first, span.last, ${step}::interval) as s(bucket)
    left join grouped g on g.bucket = s.bucket
    where span.first is not null
    order by s.bucket`);
  return result.rows;
}

export type LeaderRowRecord = {
  rank: number;
  learner_id: string;
  learner_name: string | null;
  course_title: string;
  value: string | null;
  value_number: number | null;
  recorded_at: Date | string;
};

/** The learners ranked by their latest number or date; ties share a rank (`rank()`). */
export async function selectLeaders(
  db: Database,
  input: {
    organizationId: string;
    relations: ValueRelations;
    dataType: 'number' | 'date';
    filters: VariableReportFilters;
    order: SortOrder;
    limit: number;
  },
): Promise<LeaderRowRecord[]> {
  const column = input.dataType === 'number' ? sql`f.value_number` : sql`f.value_date`;
  const direction = sql.raw(input.order === 'asc' ? 'asc' : 'desc');
  const result = await db.execute<LeaderRowRecord>(sql`
    with f as (${filtered(input.relations.latest, input.dataType, input.filters)}),
    -- The top N and everyone tied with the Nth: every better value is among
    -- them, so their rank() is the rank among all, without ranking and
    -- joining every learner of the variable.
    top as (
      select * from f where ${column} is not null
      order by ${column} ${direction}
      fetch first ${input.limit} rows with ties
    ),
    ranked as (
      select rank() over (order by ${column} ${direction})::int as rank, f.learner_id, f.course_title,
             f.value, f.value_number, f.recorded_at
      from top f
    )
    select r.rank, r.learner_id, ln.name as learner_name, r.course_title, r.value, r.value_number, r.recorded_at
    from ranked r
    join ${learners} ln on ln.organization_id = ${input.organizationId} and ln.id = r.learner_id
    order by r.rank, lower(ln.name) nulls last, r.learner_id
    limit ${input.limit}`);
  return result.rows;
}

/** One learner's values of the source, newest first. */
export async function selectHistory(
  db: Database,
  input: { relations: ValueRelations; learnerId: string; limit: number },
): Promise<{ course_id: string; course_title: string; value: string | null; recorded_at: Date | string }[]> {
  const result = await db.execute<{
    course_id: string;
    course_title: string;
    value: string | null;
    recorded_at: Date | string;
  }>(sql`
    select r.course_id, r.course_title, r.value, r.recorded_at
    from (${input.relations.history}) r
    where r.learner_id = ${input.learnerId}
    order by r.recorded_at desc
    limit ${input.limit}`);
  return result.rows;
}
