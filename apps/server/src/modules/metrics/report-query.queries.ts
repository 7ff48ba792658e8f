import type {
  ActivityCondition,
  BreakdownKind,
  MeasureFn,
  ReportBreakdown,
  ReportFilters,
  ReportMeasure,
  ReportSort,
  ReportSubject,
  ValueCondition,
} from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { VariableDataType } from '../../db/schema';
import { learnerDisplayName } from './privacy';

// The report model in SQL. Every item is one statement over a `base` of
// facts (a value, an answer, or a learner's runs of a course), keyed by the
// breakdown, aggregated by the measure, ranked, cut to the top N with the
// rest summed up as "others", and totalled — all in the database, so a
// report at 100 000 learners moves a few hundred rows, never the facts.
//
// Where the facts live is decided here once:
// - a variable's latest values are the rollup `learner_variable_latest`
//   (one row per learner, variable and course); over time, every value in
//   `learner_variable_values`;
// - answers are `course_run_questions`, with the slide and question numbers
//   kept as answered (an identifier item finds the answers of a republish);
// - a course's runs are folded per learner and course: started, completed,
//   passed, best score.

/** A query whose defaults are resolved: a concrete measure, the period as instants. */
export type ExecutableQuery = {
  subject: ReportSubject;
  measure: ReportMeasure;
  breakdown: ReportBreakdown;
  filters: Omit<ReportFilters, 'period'>;
  period: { from: Date | null; to: Date | null };
  sort: ReportSort;
  /** Groups kept; the rest become "others". */
  limit: number;
  /** The subject variables' data type (variables only). */
  dataType: VariableDataType | null;
};

export type QueryRow = {
  part: 'row' | 'others' | 'total';
  key: string | null;
  label: string | null;
  value: number | string | null;
  learners: number;
  count: number;
  detail: string | null;
  /** Rows: their rank. Others: how many groups they sum up. Total: groups in all. */
  n: number;
};

const TIME_UNITS: Partial<Record<BreakdownKind, string>> = { day: 'day', week: 'week', month: 'month' };

/** Runs one item's query; rows come in rank order, then others (if any), then the total. */
export async function selectReportQuery(
  db: Database,
  organizationId: string,
  query: ExecutableQuery,
): Promise<QueryRow[]> {
  const statement = buildReportQuery(organizationId, query);
  const result = await db.execute<QueryRow>(statement);
  return result.rows;
}

export function buildReportQuery(organizationId: string, query: ExecutableQuery): SQL {
  const fn = query.measure.fn;
  const isTime = TIME_UNITS[query.breakdown.kind] !== undefined;
  const isPoints = fn === 'points';
  const limit = query.limit;

  // Learners are named after ranking (a few hundred rows), unless the
  // ranking itself is by name: joining every fact to its learner first cost
  // most of a by-learner item at 100 000 learners.
  const namesFirst = query.breakdown.kind === 'learner' && query.sort.by === 'label';
  const namesAfter = query.breakdown.kind === 'learner' && !namesFirst;
  const keyed = sql`
    select b.*, ${groupKey(query.breakdown)} as gkey,
           ${namesAfter ? sql`null::text` : groupLabel(query.breakdown)} as glabel
    from base b
    ${namesFirst ? sql`join learners l on l.organization_id = ${organizationId} and l.id = b.learner_id` : sql``}
    ${query.breakdown.kind === 'variable' ? sql`left join by_value bv on bv.learner_id = b.learner_id` : sql``}
    where ${filterConditions(organizationId, query)}`;

  // Points are each learner's best on a question: retries do not add up.
  const facts = isPoints
    ? sql`select k.gkey, min(k.glabel) as glabel, k.learner_id, k.question_id, max(k.n) as n,
             null::boolean as ok, count(*)::int as w, max(k.at) as at, null::text as shown
          from keyed k group by k.gkey, k.learner_id, k.question_id`
    : sql`select k.gkey, k.glabel, k.learner_id, k.n, k.ok, 1 as w, k.at, k.shown from keyed k`;

  const measure = aggregate(fn);
  const detail =
    query.breakdown.kind === 'learner'
      ? sql`(array_agg(f.shown order by f.at desc nulls last) filter (where f.shown is not null))[1]`
      : sql`null::text`;
  // Time reads in order and keeps the latest buckets; everything else ranks by the sort.
  const rankOrder = isTime ? sql`g.gkey desc` : sortOrder(query.sort);
  const byValue =
    query.breakdown.kind === 'variable' && query.breakdown.variableName
      ? sql`, by_value as (${latestValueByName(organizationId, query.breakdown.variableName)})`
      : sql``;

  return sql`
    with base as (${subjectFacts(organizationId, query)})${byValue},
    keyed as (${keyed}),
    facts as (${facts}),
    grouped as (
      select f.gkey, min(f.glabel) as label, ${measure} as value,
             count(distinct f.learner_id)::int as learners, sum(f.w)::int as count, ${detail} as detail
      from facts f group by f.gkey
    ),
    ranked as (
      select g.*, row_number() over (order by ${rankOrder}) as rn from grouped g
    )
    select 'row' as part, r.gkey as key, ${namesAfter ? learnerDisplayName('l') : sql`r.label`} as label,
           r.value, r.learners, r.count, r.detail, r.rn::int as n
    from ranked r
    ${namesAfter ? sql`left join learners l on l.organization_id = ${organizationId} and l.id::text = r.gkey` : sql``}
    where r.rn <= ${limit}
    union all
    select 'others', null, null, ${measure}, count(distinct f.learner_id)::int, sum(f.w)::int, null,
           (select count(*) from ranked where rn > ${limit})::int
    from facts f join ranked r on r.gkey = f.gkey
    where r.rn > ${limit} ${isTime ? sql`and false` : sql``}
    having count(*) > 0
    union all
    select 'total', null, null, ${measure}, count(distinct f.learner_id)::int, coalesce(sum(f.w), 0)::int, null,
           (select count(*) from grouped)::int
    from facts f`;
}

// ---- subjects ------------------------------------------------------------------

/**
 * The facts of the subject as rows of (learner_id, course_id, course_title,
 * question_id, question_label, answer, at, n, ok, shown): `n` is the number
 * the measure reads, `ok` the yes/no a rate reads, `shown` the text shown
 * beside a learner.
 */
function subjectFacts(organizationId: string, query: ExecutableQuery): SQL {
  const { subject, measure } = query;
  const liveCourse = (alias: string) =>
    sql`join courses c on c.organization_id = ${sql.raw(alias)}.organization_id
          and c.id = ${sql.raw(alias)}.course_id and not c.is_deleted`;
  switch (subject.kind) {
    case 'variable': {
      const isHistory = TIME_UNITS[query.breakdown.kind] !== undefined;
      const relation = sql.raw(isHistory ? 'learner_variable_values' : 'learner_variable_latest');
      const ok =
        measure.fn !== 'pass_rate'
          ? sql`null::boolean`
          : query.dataType === 'boolean'
            ? sql`v.value_boolean`
            : measure.mark === null
              ? sql`null::boolean`
              : sql`(v.value_number >= ${measure.mark})`;
      return sql`
        select v.learner_id, v.course_id, c.course_title, null::uuid as question_id, null::text as question_label,
               null::text as answer, v.recorded_at as at, v.value_number::float8 as n, ${ok} as ok,
               v.value as shown, v.value_number, v.value_boolean, v.value as value_text
        from ${relation} v ${liveCourse('v')}
        where v.organization_id = ${organizationId}
          and v.variable_id = any(${sql.param([...subject.variableIds])}::uuid[])`;
    }
    case 'question':
    case 'identifier':
    case 'questions': {
      const conditions: SQL[] = [sql`a.organization_id = ${organizationId}`];
      if (subject.kind === 'question') conditions.push(sql`a.question_id = ${subject.questionId}`);
      if (subject.kind === 'identifier') {
        conditions.push(sql`a.course_id = ${subject.courseId}`);
        if (subject.slideNumber !== null) conditions.push(sql`a.slide_number = ${subject.slideNumber}`);
        if (subject.questionNumber !== null)
          conditions.push(sql`a.question_number = ${subject.questionNumber}`);
        if (subject.questionText !== null) {
          conditions.push(sql`lower(btrim(a.question_text)) = lower(btrim(${subject.questionText}))`);
        }
      }
      if (subject.kind === 'questions' && subject.courseIds.length > 0) {
        conditions.push(sql`a.course_id = any(${sql.param([...subject.courseIds])}::uuid[])`);
      }
      // Across several courses a question is told apart by its course.
      const withCourse = subject.kind === 'questions' && subject.courseIds.length !== 1;
      const text = sql`coalesce(nullif(btrim(q.question_text), ''),
                 'Slide ' || coalesce(q.slide_number::text, '?') || ', question ' || coalesce(q.question_number::text, '?'))`;
      return sql`
        select a.learner_id, a.course_id, c.course_title, a.question_id,
               ${withCourse ? sql`${text} || ' (' || c.course_title || ')'` : text} as question_label,
               a.answer_choice as answer, a.created_at as at, a.points_assigned::float8 as n, a.correct as ok,
               a.answer_choice as shown, null::float8 as value_number, null::boolean as value_boolean,
               a.answer_choice as value_text
        from course_run_questions a ${liveCourse('a')}
        join questions q on q.organization_id = a.organization_id and q.id = a.question_id
        where ${sql.join(conditions, sql` and `)}`;
    }
    case 'courses': {
      // One row per learner and course: when they started, whether and when
      // they completed, their outcome and best score.
      const courseFilter =
        subject.courseIds.length > 0
          ? sql`and r.course_id = any(${sql.param([...subject.courseIds])}::uuid[])`
          : sql``;
      const completionTime = measure.fn === 'completions';
      const ok =
        measure.fn === 'pass_rate'
          ? measure.mark === null
            ? sql`case when bool_or(r.passed is not null) then coalesce(bool_or(r.passed), false) end`
            : sql`(max(r.score) >= ${measure.mark})`
          : measure.fn === 'completion_rate' || measure.fn === 'completions'
            ? sql`bool_or(r.completed_at is not null)`
            : sql`null::boolean`;
      return sql`
        select r.learner_id, r.course_id, min(c.course_title) as course_title, null::uuid as question_id,
               null::text as question_label, null::text as answer,
               ${completionTime ? sql`max(r.completed_at)` : sql`min(r.started_at)`} as at,
               max(r.score)::float8 as n, ${ok} as ok,
               case when bool_or(r.completed_at is not null) then 'Completed' else 'Started' end as shown,
               max(r.score)::float8 as value_number, null::boolean as value_boolean, null::text as value_text
        from course_runs r ${liveCourse('r')}
        where r.organization_id = ${organizationId} ${courseFilter}
        group by r.learner_id, r.course_id`;
    }
  }
}

// ---- breakdowns ----------------------------------------------------------------

function bucket(unit: string): SQL {
  return sql`to_char(date_trunc(${unit}, b.at at time zone 'UTC'), 'YYYY-MM-DD')`;
}

function groupKey(breakdown: ReportBreakdown): SQL {
  switch (breakdown.kind) {
    case 'none':
      return sql`'all'`;
    case 'learner':
      return sql`b.learner_id::text`;
    case 'course':
      return sql`b.course_id::text`;
    case 'question':
      return sql`b.question_id::text`;
    case 'answer':
      return sql`coalesce(btrim(b.answer), '')`;
    case 'day':
    case 'week':
    case 'month':
      return bucket(breakdown.kind);
    case 'variable':
      return sql`coalesce(bv.value, '')`;
  }
}

function groupLabel(breakdown: ReportBreakdown): SQL {
  switch (breakdown.kind) {
    case 'none':
      return sql`'All'`;
    case 'learner':
      return learnerDisplayName('l');
    case 'course':
      return sql`b.course_title`;
    case 'question':
      return sql`b.question_label`;
    case 'answer':
      return sql`coalesce(nullif(btrim(b.answer), ''), '(no answer)')`;
    case 'day':
    case 'week':
    case 'month':
      return bucket(breakdown.kind);
    case 'variable':
      return sql`coalesce(nullif(btrim(bv.value), ''), '(no value)')`;
  }
}

/** Each learner's latest value of any live-course variable with this name (one row per learner). */
function latestValueByName(organizationId: string, name: string): SQL {
  return sql`
    select distinct on (lv.learner_id) lv.learner_id, btrim(lv.value) as value
    from learner_variable_latest lv
    join variables v on v.organization_id = lv.organization_id and v.id = lv.variable_id
    join courses c on c.organization_id = lv.organization_id and c.id = lv.course_id and not c.is_deleted
    where lv.organization_id = ${organizationId} and v.name = ${name}
    order by lv.learner_id, lv.recorded_at desc`;
}

// ---- measures and order --------------------------------------------------------

function aggregate(fn: MeasureFn): SQL {
  switch (fn) {
    case 'learners':
      return sql`count(distinct f.learner_id)::float8`;
    case 'values':
    case 'responses':
      return sql`coalesce(sum(f.w), 0)::float8`;
    case 'completions':
      return sql`count(distinct f.learner_id) filter (where f.ok)::float8`;
    case 'average':
    case 'points':
      return sql`avg(f.n)::float8`;
    case 'median':
      return sql`(percentile_cont(0.5) within group (order by f.n))::float8`;
    case 'min':
      return sql`min(f.n)::float8`;
    case 'max':
      return sql`max(f.n)::float8`;
    case 'sum':
      return sql`sum(f.n)::float8`;
    case 'pass_rate':
    case 'completion_rate':
    case 'correct_rate':
      return sql`avg(case when f.ok then 1.0 when not f.ok then 0.0 end)::float8`;
  }
}

function sortOrder(sort: ReportSort): SQL {
  const direction = sql.raw(sort.order === 'asc' ? 'asc' : 'desc');
  if (sort.by === 'label') return sql`lower(g.label) ${direction}, g.gkey`;
  return sql`g.value ${direction} nulls last, g.learners desc, lower(g.label), g.gkey`;
}

// ---- filters -------------------------------------------------------------------

function filterConditions(organizationId: string, query: ExecutableQuery): SQL {
  const conditions: SQL[] = [sql`true`];
  const { filters, period } = query;
  if (filters.courseIds.length > 0) {
    conditions.push(sql`b.course_id = any(${sql.param([...filters.courseIds])}::uuid[])`);
  }
  if (period.from) conditions.push(sql`b.at >= ${period.from.toISOString()}`);
  if (period.to) conditions.push(sql`b.at < ${period.to.toISOString()}`);
  for (const condition of filters.values) {
    conditions.push(
      condition.variableName === null
        ? ownValueCondition(condition, query.dataType)
        : sql`b.learner_id in (${learnersWithValue(organizationId, condition)})`,
    );
  }
  for (const activity of filters.activity) conditions.push(activityCondition(organizationId, activity));
  return sql.join(conditions, sql` and `);
}

const COMPARATORS: Record<Exclude<ValueCondition['op'], 'contains'>, string> = {
  eq: '=',
  ne: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
};

/** A condition on a row's value columns (value_number, value_boolean, value_text) under `alias`. */
function valueTest(alias: string, condition: ValueCondition, dataType: VariableDataType | null): SQL {
  const column = (name: string) => sql.raw(`${alias}.${name}`);
  const { op, value } = condition;
  if (op === 'contains') {
    return sql`${column('value_text')} ilike ${`%${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;
  }
  const comparator = sql.raw(COMPARATORS[op]);
  if (typeof value === 'boolean' || (dataType === 'boolean' && (value === 'true' || value === 'false'))) {
    const flag = typeof value === 'boolean' ? value : value === 'true';
    return sql`${column('value_boolean')} ${comparator} ${flag}`;
  }
  if (typeof value === 'number' || (dataType === 'number' && Number.isFinite(Number(value)))) {
    return sql`${column('value_number')} ${comparator} ${Number(value)}`;
  }
  return sql`lower(btrim(${column('value_text')})) ${comparator} lower(btrim(${String(value)}))`;
}

function ownValueCondition(condition: ValueCondition, dataType: VariableDataType | null): SQL {
  return valueTest('b', condition, dataType);
}

/** Learners whose latest value of the variable named in the condition passes it. */
function learnersWithValue(organizationId: string, condition: ValueCondition): SQL {
  return sql`
    select x.learner_id from (
      select lv.learner_id, lv.value_number, lv.value_boolean, lv.value as value_text
      from learner_variable_latest lv
      join variables v on v.organization_id = lv.organization_id and v.id = lv.variable_id
      where lv.organization_id = ${organizationId} and v.name = ${condition.variableName}
    ) x
    where ${valueTest('x', condition, null)}`;
}

function activityCondition(organizationId: string, activity: ActivityCondition): SQL {
  const event = {
    started: sql`true`,
    completed: sql`r2.completed_at is not null`,
    passed: sql`r2.passed`,
    failed: sql`r2.passed = false`,
  }[activity.event];
  const exists = sql`exists (
    select 1 from course_runs r2
    where r2.organization_id = ${organizationId} and r2.learner_id = b.learner_id
      ${activity.courseId ? sql`and r2.course_id = ${activity.courseId}` : sql``}
      and ${event})`;
  return activity.did ? exists : sql`not ${exists}`;
}
