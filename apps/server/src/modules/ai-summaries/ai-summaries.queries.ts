import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  aiSummaries,
  courses,
  learnerVariableLatest,
  learnerVariableValues,
  learners,
  variableStats,
  variables,
  type AiEngine,
  type AiSummarySourceKind,
  type VariableDataType,
} from '../../db/schema';

/**
 * Where a summarized variable's values live. Only course variables exist
 * today; agent (chatbot) variables will add their own tables here, and every
 * statistics query below reads through this description, so wiring them is
 * a new case in `valueTables`, not new queries.
 */
export type ValueScope = {
  kind: 'course_variable';
  organizationId: string;
  variableId: string;
  dataType: VariableDataType;
};

type ValueTables = {
  /** One row per learner: its latest value (typed columns, learner_id, recorded_at). */
  latest: SQL;
  /** Every value recorded (typed columns, recorded_at). */
  history: SQL;
  /** The condition on either table's alias that picks the scope's rows. */
  where: (alias: string) => SQL;
};

function valueTables(scope: ValueScope): ValueTables {
  switch (scope.kind) {
    case 'course_variable':
      return {
        latest: sql`${learnerVariableLatest}`,
        history: sql`${learnerVariableValues}`,
        where: (alias) =>
          sql`${sql.raw(alias)}.organization_id = ${scope.organizationId} and ${sql.raw(alias)}.variable_id = ${scope.variableId}`,
      };
  }
}

/** The value a learner is ranked or averaged by: the number, 1/0 for booleans, none otherwise. */
function metricOf(alias: string, dataType: VariableDataType): SQL {
  switch (dataType) {
    case 'number':
      return sql.raw(`${alias}.value_number`);
    case 'boolean':
      return sql.raw(
        `(case when ${alias}.value_boolean then 1.0 when not ${alias}.value_boolean then 0.0 end)`,
      );
    default:
      return sql`null::float8`;
  }
}

/**
 * A learner's name as a summary may show it: never an e-mail address (a
 * course may send one as the name), null when there is nothing to show.
 */
const safeLearnerName = (alias: string) =>
  sql.raw(`case when ${alias}.name is null or btrim(${alias}.name) = '' or ${alias}.name like '%@%'
    then null else btrim(${alias}.name) end`);

export type SubjectRow = {
  variable_id: string;
  name: string;
  title: string | null;
  description: string | null;
  data_type: VariableDataType;
  course_id: string;
  course_title: string;
};

const subjectSelect = sql`
  select v.id as variable_id, v.name, v.title, v.description, v.data_type,
         c.id as course_id, c.course_title
  from ${variables} v
  join ${courses} c on c.organization_id = v.organization_id and c.id = v.course_id and not c.is_deleted`;

/** A variable of a live course of the organization, by course and name. */
export async function findCourseVariableByName(
  db: Database,
  organizationId: string,
  courseId: string,
  name: string,
): Promise<SubjectRow | undefined> {
  const result = await db.execute<SubjectRow>(sql`${subjectSelect}
    where v.organization_id = ${organizationId} and v.course_id = ${courseId} and v.name = ${name}
    limit 1`);
  return result.rows[0];
}

/** A variable of a live course of the organization, by id. */
export async function findCourseVariableById(
  db: Database,
  organizationId: string,
  variableId: string,
): Promise<SubjectRow | undefined> {
  const result = await db.execute<SubjectRow>(sql`${subjectSelect}
    where v.organization_id = ${organizationId} and v.id = ${variableId}
    limit 1`);
  return result.rows[0];
}

export type UsageRow = {
  values: number;
  first_recorded_at: Date | string | null;
  last_recorded_at: Date | string | null;
};

/** How many values were recorded, and the first and last time (rollup + one index probe). */
export async function selectUsage(db: Database, scope: ValueScope): Promise<UsageRow> {
  const tables = valueTables(scope);
  const result = await db.execute<UsageRow>(sql`
    select coalesce((select usage_count from ${variableStats} s where s.variable_id = ${scope.variableId}
                       and s.organization_id = ${scope.organizationId}), 0)::int as values,
           (select min(h.recorded_at) from ${tables.history} h where ${tables.where('h')}) as first_recorded_at,
           (select s.last_recorded_at from ${variableStats} s where s.variable_id = ${scope.variableId}
              and s.organization_id = ${scope.organizationId}) as last_recorded_at`);
  return result.rows[0] ?? { values: 0, first_recorded_at: null, last_recorded_at: null };
}

export type LatestSummaryRow = {
  learners: number;
  distinct_values: number;
  numbers: number;
  mean: number | null;
  median: number | null;
  standard_deviation: number | null;
  min: number | null;
  max: number | null;
  q1: number | null;
  q3: number | null;
  distinct_numbers: number;
  true_count: number;
  false_count: number;
  earliest_date: Date | string | null;
  median_date: Date | string | null;
  latest_date: Date | string | null;
};

/**
 * Count, spread and quartiles of the learners' latest values, in one pass.
 * The standard deviation is the population one: it describes these
 * learners, it does not estimate a larger population.
 */
export async function selectLatestSummary(db: Database, scope: ValueScope): Promise<LatestSummaryRow> {
  const tables = valueTables(scope);
  const result = await db.execute<LatestSummaryRow>(sql`
    select count(*)::int as learners,
           count(distinct l.value)::int as distinct_values,
           count(l.value_number)::int as numbers,
           avg(l.value_number)::float8 as mean,
           (percentile_cont(0.5) within group (order by l.value_number))::float8 as median,
           stddev_samp(l.value_number)::float8 as standard_deviation,
           min(l.value_number)::float8 as min,
           max(l.value_number)::float8 as max,
           (percentile_cont(0.25) within group (order by l.value_number))::float8 as q1,
           (percentile_cont(0.75) within group (order by l.value_number))::float8 as q3,
           count(distinct l.value_number)::int as distinct_numbers,
           (count(*) filter (where l.value_boolean))::int as true_count,
           (count(*) filter (where not l.value_boolean))::int as false_count,
           min(l.value_date) as earliest_date,
           to_timestamp(percentile_cont(0.5) within group (order by extract(epoch from l.value_date))) as median_date,
           max(l.value_date) as latest_date
    from ${tables.latest} l
    where ${tables.where('l')}`);
  const row = result.rows[0];
  if (!row) throw new Error('An aggregate query returned no row');
  return row;
}

/** Learners per equal-width bin of the latest numbers, every bin (empty ones too), lowest first. */
export async function selectHistogram(
  db: Database,
  scope: ValueScope,
  range: { min: number; max: number; bins: number },
): Promise<{ bin: number; count: number }[]> {
  const tables = valueTables(scope);
  const { min, max, bins } = range;
  // A single distinct value is one bin; width_bucket puts the maximum in bin
  // n + 1, so it is folded into the last bin.
  const bucket =
    max > min
      ? sql`least(width_bucket(l.value_number, ${min}::float8, ${max}::float8, ${bins}::int), ${bins}::int)`
      : sql`1`;
  const result = await db.execute<{ bin: number; count: number }>(sql`
    with counted as (
      select ${bucket} as bin, count(*)::int as count
      from ${tables.latest} l
      where ${tables.where('l')} and l.value_number is not null
      group by 1
    )
    select s.bin::int as bin, coalesce(counted.count, 0)::int as count
    from generate_series(1, ${bins}::int) as s(bin)
    left join counted on counted.bin = s.bin
    order by s.bin`);
  return result.rows;
}

/** The most common latest values (text), most learners first. */
export async function selectTopValues(
  db: Database,
  scope: ValueScope,
  limit: number,
): Promise<{ value: string; count: number }[]> {
  const tables = valueTables(scope);
  const result = await db.execute<{ value: string; count: number }>(sql`
    select l.value, count(*)::int as count
    from ${tables.latest} l
    where ${tables.where('l')} and l.value is not null
    group by l.value
    order by count(*) desc, l.value
    limit ${limit}`);
  return result.rows;
}

export type WeekRow = { week_start: Date | string; values: number; mean: number | null };

/**
 * Values recorded in each of the last `weeks` ISO weeks (Monday, UTC) up to
 * `now`, with the week's mean metric; weeks without values are listed too.
 */
export async function selectWeeklyTrend(
  db: Database,
  scope: ValueScope,
  input: { now: Date; weeks: number },
): Promise<WeekRow[]> {
  const tables = valueTables(scope);
  const result = await db.execute<WeekRow>(sql`
    with weeks as (
      select (week at time zone 'UTC') as week_start
      from generate_series(
        date_trunc('week', ${input.now.toISOString()}::timestamptz at time zone 'UTC') - (${input.weeks - 1}::int * interval '1 week'),
        date_trunc('week', ${input.now.toISOString()}::timestamptz at time zone 'UTC'),
        interval '1 week'
      ) as week
    ),
    recorded as (
      select date_trunc('week', h.recorded_at at time zone 'UTC') at time zone 'UTC' as week_start,
             count(*)::int as values,
             avg(${metricOf('h', scope.dataType)})::float8 as mean
      from ${tables.history} h
      where ${tables.where('h')}
        and h.recorded_at >= (select min(week_start) from weeks)
        and h.recorded_at < (select max(week_start) from weeks) + interval '1 week'
      group by 1
    )
    select w.week_start, coalesce(r.values, 0)::int as values, r.mean
    from weeks w left join recorded r on r.week_start = w.week_start
    order by w.week_start`);
  return result.rows;
}

export type RankedRow = { name: string | null; value: string | null };

/**
 * The learners with the highest (`desc`) or lowest (`asc`) latest value:
 * numbers by value, dates by date; ties go to who reached the value first.
 * Names only: the e-mail address is never selected.
 */
export async function selectRankedLearners(
  db: Database,
  scope: ValueScope,
  input: { direction: 'asc' | 'desc'; limit: number },
): Promise<RankedRow[]> {
  const tables = valueTables(scope);
  const column = sql.raw(scope.dataType === 'date' ? 'l.value_date' : 'l.value_number');
  const direction = sql.raw(input.direction);
  const shown =
    scope.dataType === 'date'
      ? sql`to_char(l.value_date at time zone 'UTC', 'YYYY-MM-DD')`
      : sql`l.value_number::text`;
  const result = await db.execute<RankedRow>(sql`
    select ${safeLearnerName('ln')} as name, ${shown} as value
    from ${tables.latest} l
    join ${learners} ln on ln.organization_id = l.organization_id and ln.id = l.learner_id
    where ${tables.where('l')} and ${column} is not null
    order by ${column} ${direction}, l.recorded_at, l.learner_id
    limit ${input.limit}`);
  return result.rows;
}

/** How many latest numbers fall outside the fences, and the furthest-out learners. */
export async function selectOutliers(
  db: Database,
  scope: ValueScope,
  input: { lowerFence: number; upperFence: number; limit: number },
): Promise<{ count: number; learners: RankedRow[] }> {
  const tables = valueTables(scope);
  const outside = sql`(l.value_number < ${input.lowerFence}::float8 or l.value_number > ${input.upperFence}::float8)`;
  const [count, named] = await Promise.all([
    db.execute<{ count: number }>(sql`
      select count(*)::int as count from ${tables.latest} l where ${tables.where('l')} and ${outside}`),
    db.execute<RankedRow>(sql`
      select ${safeLearnerName('ln')} as name, l.value_number::text as value
      from ${tables.latest} l
      join ${learners} ln on ln.organization_id = l.organization_id and ln.id = l.learner_id
      where ${tables.where('l')} and ${outside}
      order by greatest(${input.lowerFence}::float8 - l.value_number, l.value_number - ${input.upperFence}::float8) desc,
               l.recorded_at, l.learner_id
      limit ${input.limit}`),
  ]);
  return { count: count.rows[0]?.count ?? 0, learners: named.rows };
}

export type ComparisonRow = {
  course_id: string;
  course_title: string;
  learners: number;
  mean: number | null;
};

/**
 * The variable of the same name in the organization's other live courses:
 * learners with a value and their mean (numbers) or true rate (booleans)
 * when the other variable has the same data type.
 */
export async function selectOtherCourses(
  db: Database,
  input: {
    organizationId: string;
    variableId: string;
    name: string;
    dataType: VariableDataType;
    limit: number;
  },
): Promise<ComparisonRow[]> {
  const result = await db.execute<ComparisonRow>(sql`
    select c.id as course_id, c.course_title,
           count(l.learner_id)::int as learners,
           (case when v.data_type = ${input.dataType} then avg(${metricOf('l', input.dataType)}) end)::float8 as mean
    from ${variables} v
    join ${courses} c on c.organization_id = v.organization_id and c.id = v.course_id and not c.is_deleted
    left join ${learnerVariableLatest} l on l.organization_id = v.organization_id and l.variable_id = v.id
    where v.organization_id = ${input.organizationId} and v.name = ${input.name} and v.id <> ${input.variableId}
    group by c.id, c.course_title, v.id, v.data_type
    order by count(l.learner_id) desc, lower(c.course_title), c.id
    limit ${input.limit}`);
  return result.rows;
}

// ---- the cache ------------------------------------------------------------------

export type CachedSummaryRow = {
  engine: AiEngine;
  model: string | null;
  content: string;
  statistics: unknown;
  generated_at: Date | string;
};

export async function findCachedSummary(
  db: Database,
  input: { organizationId: string; sourceKind: AiSummarySourceKind; sourceKey: string },
): Promise<CachedSummaryRow | undefined> {
  const result = await db.execute<CachedSummaryRow>(sql`
    select engine, model, content, statistics, generated_at
    from ${aiSummaries}
    where organization_id = ${input.organizationId} and source_kind = ${input.sourceKind}
      and source_key = ${input.sourceKey}
    limit 1`);
  return result.rows[0];
}

/** Stores a source's summary, replacing the previous one (one per organization and source). */
export async function upsertSummary(
  db: Database,
  input: {
    organizationId: string;
    sourceKind: AiSummarySourceKind;
    sourceKey: string;
    engine: AiEngine;
    model: string | null;
    content: string;
    statistics: Record<string, unknown>;
    generatedAt: Date;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(aiSummaries)
      .values(input)
      .onConflictDoUpdate({
        target: [aiSummaries.organizationId, aiSummaries.sourceKind, aiSummaries.sourceKey],
        set: {
          engine: input.engine,
          model: input.model,
          content: input.content,
          statistics: input.statistics,
          generatedAt: input.generatedAt,
          updatedAt: sql`now()`,
        },
      });
  });
}
