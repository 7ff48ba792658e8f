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
import { executeWithMemory } from '../../db/execute-with-memory';
import type { VariableDataType } from '../../db/schema';
import { learnerDisplayName } from './privacy';
import { valueRelations, type ValueSource } from './value-source';

// The report model in SQL. Every item is one statement: the facts of its
// subject (values, answers, or each learner's runs of a course), keyed by
// the breakdown, added up per group and learner, then per group, ranked,
// cut to the top N with the rest summed up as "others", and totalled — all
// in the database, so a report at 100 000 learners moves a few hundred
// rows, never the facts.
//
// Where the facts come from is decided once, by `factSource`, from what the
// item asks: the rollups wherever they hold the answer exactly (see
// `db/schema/rollups.ts`), the fact tables otherwise.
//
// Every measure is added up from per-group-and-learner parts (how many
// facts, the sum, count, smallest and largest of the numbers, the right
// and graded yes/no), so groups, "others" and the total come from the same
// parts without reading the facts again, and the database can hash rather
// than sort. Distinct learners need the (group, learner) pairs: groups that
// split the learners (none, learner, another variable's value) add them up,
// the others count each learner once. A median reads the numbers themselves.

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
  /** The subject variables' data type (course and agent variables only). */
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

/**
 * Where an item's facts are read:
 * - `latest_values`: each learner's latest value per variable (the rollup
 *   `learner_variable_latest`; for agent variables, the value source's
 *   `latest` relation);
 * - `value_history`: every value recorded (`learner_variable_values`; for
 *   agent variables the value source's `history`), for time breakdowns;
 * - `value_days`: the same over whole days and every learner, added up per
 *   day (`variable_daily_stats`), with the learners of each bucket read
 *   from the values' index (learner and time only, no row);
 * - `answers`: every answer (`course_run_questions`), when the item needs
 *   answers one by one (a period, a time or answer breakdown, an identifier);
 * - `question_learners`: one row per question and learner with their
 *   answers, right and graded answers and best points (the rollup);
 * - `question_days`: the answers per question and day (`question_daily_stats`),
 *   for responses, correct rates and learners per question or course, over
 *   all time and every learner: learners of one question are those first
 *   seen on some day, learners of courses those with an answer in them
 *   (`course_learners.question_ids`);
 * - `course_learners`: one row per learner and course with what their runs
 *   add up to (the rollup);
 * - `course_runs`: the same rows grouped from the runs themselves, never
 *   chosen (the rollup holds them exactly): the reference the tests hold
 *   the rollup to.
 */
export type FactSource =
  | 'latest_values'
  | 'value_history'
  | 'value_days'
  | 'answers'
  | 'question_learners'
  | 'question_days'
  | 'course_learners'
  | 'course_runs';

const TIME_UNITS: Partial<Record<BreakdownKind, string>> = { day: 'day', week: 'week', month: 'month' };
const QUESTION_DAY_MEASURES: readonly MeasureFn[] = ['responses', 'correct_rate', 'learners'];
const VALUE_DAY_MEASURES: readonly MeasureFn[] = [
  'learners',
  'values',
  'average',
  'sum',
  'min',
  'max',
  'pass_rate',
];

/** No bound, or a bound at a UTC midnight (a day rollup can honour it). */
function isWholeDay(instant: Date | null): boolean {
  return instant === null || instant.getTime() % 86_400_000 === 0;
}
const QUESTION_DAY_BREAKDOWNS: readonly BreakdownKind[] = ['none', 'question', 'course'];
const QUESTION_LEARNER_BREAKDOWNS: readonly BreakdownKind[] = [
  'none',
  'learner',
  'question',
  'course',
  'variable',
];
/** Breakdowns whose groups split the learners: each learner is in one group. */
const SPLITS_LEARNERS: readonly BreakdownKind[] = ['none', 'learner', 'variable'];

/** The one place that decides where an item's facts are read (see `FactSource`). */
export function factSource(query: ExecutableQuery): FactSource {
  const { subject, measure, breakdown, filters, period } = query;
  const isTime = TIME_UNITS[breakdown.kind] !== undefined;
  switch (subject.kind) {
    case 'variable':
      if (!isTime) return 'latest_values';
      return VALUE_DAY_MEASURES.includes(measure.fn) &&
        (measure.fn !== 'pass_rate' || query.dataType === 'boolean') &&
        filters.values.length === 0 &&
        filters.activity.length === 0 &&
        isWholeDay(period.from) &&
        isWholeDay(period.to)
        ? 'value_days'
        : 'value_history';
    // Agents capture a handful of values per conversation and keep no rollup.
    case 'chatbot_variable':
      return isTime ? 'value_history' : 'latest_values';
    case 'courses':
      return 'course_learners';
    case 'identifier':
      return 'answers';
    case 'question':
    case 'questions': {
      // The rollups count every answer ever given: a period needs the answers.
      if (period.from !== null || period.to !== null) return 'answers';
      const byLearner = filters.values.length > 0 || filters.activity.length > 0;
      if (
        !byLearner &&
        QUESTION_DAY_MEASURES.includes(measure.fn) &&
        QUESTION_DAY_BREAKDOWNS.includes(breakdown.kind)
      ) {
        return 'question_days';
      }
      return QUESTION_LEARNER_BREAKDOWNS.includes(breakdown.kind) ? 'question_learners' : 'answers';
    }
  }
}

/** Runs one item's query; rows come in rank order, then others (if any), then the total. */
export async function selectReportQuery(
  db: Database,
  organizationId: string,
  query: ExecutableQuery,
): Promise<QueryRow[]> {
  return executeReportStatement<QueryRow>(db, buildReportQuery(organizationId, query));
}

/**
 * Memory one report statement may hash and sort in before spilling to disk.
 * PostgreSQL's default (4 MB) holds a few tens of thousands of (group,
 * learner) pairs; an item over 100 000 learners then sorts on disk instead
 * of hashing in memory, several times slower. Set for the statement only.
 */
export const REPORT_WORK_MEM = '64MB' as const;

/** Runs a report statement with `REPORT_WORK_MEM` (in a transaction of its own, so the setting ends with it). */
export async function executeReportStatement<T extends Record<string, unknown>>(
  db: Database,
  statement: SQL,
): Promise<T[]> {
  return executeWithMemory<T>(db, statement, { workMem: REPORT_WORK_MEM });
}

/**
 * The item's statement. `source` overrides where the facts are read (tests
 * and benchmarks compare the rollups with the facts); it must be able to
 * answer the item: the facts (`answers`, `value_history`, `course_runs`)
 * always can.
 */
export function buildReportQuery(
  organizationId: string,
  query: ExecutableQuery,
  options: { source?: FactSource } = {},
): SQL {
  const source = options.source ?? factSource(query);
  const body =
    source === 'question_days'
      ? questionDaysBody(organizationId, query)
      : source === 'value_days'
        ? valueDaysBody(organizationId, query)
        : factsBody(organizationId, query, source);
  return rankAndTotal(organizationId, query, body);
}

/**
 * What a source hands to the ranking: CTEs ending with `valued` (one row
 * per group: gkey, label, learners, w, sn, cn, mn, mx, okn, okc,
 * ok_learners, last_at, value), and how the others and the total count
 * their learners and measure.
 */
type Body = {
  ctes: SQL;
  /** CTEs run after `top` (they may read it): learner counts of the others and the total. */
  afterTop: SQL | null;
  othersLearners: SQL;
  othersOkLearners: SQL;
  totalLearners: SQL;
  totalOkLearners: SQL;
  /** A median's others and total (they read the numbers again). */
  othersMedian: SQL | null;
  totalMedian: SQL | null;
  /** A by-learner item's detail per ranked row (aliased `t`), or null. */
  detail: SQL | null;
  /** CTEs after `top` that the detail reads, and how the ranked rows join them. */
  detailCtes: SQL | null;
  detailJoin: SQL | null;
};

// ---- ranking, others and total ---------------------------------------------------

function rankAndTotal(organizationId: string, query: ExecutableQuery, body: Body): SQL {
  const fn = query.measure.fn;
  const isTime = TIME_UNITS[query.breakdown.kind] !== undefined;
  const limit = query.limit;
  const namesAfter = query.breakdown.kind === 'learner' && query.sort.by !== 'label';
  // Time reads in order and keeps the latest buckets; everything else ranks by the sort.
  const rankOrder = isTime ? sql`v.gkey desc` : sortOrder(query.sort);
  const sums = (alias: string) => ({
    learners: sql.raw(`sum(${alias}.learners)`),
    w: sql.raw(`sum(${alias}.w)`),
    sn: sql.raw(`sum(${alias}.sn)`),
    cn: sql.raw(`sum(${alias}.cn)`),
    mn: sql.raw(`min(${alias}.mn)`),
    mx: sql.raw(`max(${alias}.mx)`),
    okn: sql.raw(`sum(${alias}.okn)`),
    okc: sql.raw(`sum(${alias}.okc)`),
  });
  const others = sums('v');
  const afterTop = [body.afterTop, body.detailCtes].filter((part): part is SQL => part !== null);
  return sql`
    with ${body.ctes},
    top as (
      select v.*, row_number() over (order by ${rankOrder}) as rn
      from (select v.* from valued v order by ${rankOrder} limit ${limit}) v
    )${afterTop.length > 0 ? sql`, ${sql.join(afterTop, sql`, `)}` : sql``}
    select 'row' as part, ${isTime ? sql`to_char(t.gkey, 'YYYY-MM-DD')` : sql`t.gkey::text`} as key,
           ${namesAfter ? learnerDisplayName('l') : isTime ? sql`to_char(t.gkey, 'YYYY-MM-DD')` : sql`t.label`} as label,
           t.value::float8 as value, t.learners::int as learners, t.w::int as count,
           ${body.detail ?? sql`null::text`} as detail, t.rn::int as n
    from top t
    ${namesAfter ? sql`left join learners l on l.organization_id = ${organizationId} and l.id = t.gkey` : sql``}
    ${body.detailJoin ?? sql``}
    union all
    select 'others', null, null,
           ${fn === 'median' ? (body.othersMedian ?? sql`null::float8`) : combine(fn, { ...others, learners: body.othersLearners, okLearners: body.othersOkLearners })},
           (${body.othersLearners})::int, coalesce(${others.w}, 0)::int, null, count(*)::int
    from valued v
    where v.gkey not in (select t.gkey from top t where t.gkey is not null) ${isTime ? sql`and false` : sql``}
    having count(*) > 0
    union all
    select 'total', null, null,
           ${fn === 'median' ? (body.totalMedian ?? sql`null::float8`) : combine(fn, { ...others, learners: body.totalLearners, okLearners: body.totalOkLearners })},
           (${body.totalLearners})::int, coalesce(${others.w}, 0)::int, null, count(*)::int
    from valued v`;
}

type Parts = {
  learners: SQL;
  okLearners: SQL;
  w: SQL;
  sn: SQL;
  cn: SQL;
  mn: SQL;
  mx: SQL;
  okn: SQL;
  okc: SQL;
};

/** The measure from added-up parts (a group's, the others' or the total's). */
function combine(fn: MeasureFn, p: Parts): SQL {
  switch (fn) {
    case 'learners':
      return sql`(${p.learners})::float8`;
    case 'values':
    case 'responses':
      return sql`coalesce(${p.w}, 0)::float8`;
    case 'completions':
      return sql`(${p.okLearners})::float8`;
    case 'average':
    case 'points':
      return sql`(${p.sn} / nullif(${p.cn}, 0))::float8`;
    case 'sum':
      return sql`(case when ${p.cn} > 0 then ${p.sn} end)::float8`;
    case 'min':
      return sql`(${p.mn})::float8`;
    case 'max':
      return sql`(${p.mx})::float8`;
    case 'median':
      return sql`null::float8`;
    case 'pass_rate':
    case 'completion_rate':
    case 'correct_rate':
      return sql`(${p.okn}::float8 / nullif(${p.okc}, 0))::float8`;
  }
}

function sortOrder(sort: ReportSort): SQL {
  const direction = sql.raw(sort.order === 'asc' ? 'asc' : 'desc');
  if (sort.by === 'label') return sql`lower(v.label) ${direction}, v.gkey`;
  return sql`v.value ${direction} nulls last, v.learners desc, lower(v.label), v.gkey`;
}

// ---- facts, one by one or per learner ------------------------------------------

/**
 * Items read from facts (or rollup rows standing for several): rows keyed
 * by group, added up per group and learner (`pairs`), then per group.
 */
function factsBody(
  organizationId: string,
  query: ExecutableQuery,
  source: Exclude<FactSource, 'question_days' | 'value_days'>,
): Body {
  const fn = query.measure.fn;
  const kind = query.breakdown.kind;
  const isMedian = fn === 'median';
  // A source with one row per learner (one variable's latest values, one
  // question's learners, one course's learners) needs no adding up per
  // learner, and its groups split the learners whatever they are.
  const rowPerLearner =
    (source === 'latest_values' &&
      query.subject.kind === 'variable' &&
      query.subject.variableIds.length === 1) ||
    (source === 'latest_values' &&
      query.subject.kind === 'chatbot_variable' &&
      query.subject.chatbotVariableIds.length === 1) ||
    (source === 'question_learners' && query.subject.kind === 'question') ||
    ((source === 'course_learners' || source === 'course_runs') &&
      query.subject.kind === 'courses' &&
      query.subject.courseIds.length === 1);
  const rowPerPair =
    rowPerLearner ||
    (source === 'question_learners' && kind === 'question') ||
    ((source === 'course_learners' || source === 'course_runs') && kind === 'course');
  const splitsLearners = rowPerLearner || SPLITS_LEARNERS.includes(kind);
  // By learner, each (group, learner) pair is a group of its own.
  const rowPerGroup = kind === 'learner';
  // Learners are named after ranking (a few hundred rows), unless the
  // ranking itself is by name: joining every fact to its learner first cost
  // most of a by-learner item at 100 000 learners.
  const namesFirst = kind === 'learner' && query.sort.by === 'label';
  // Points are each learner's best on a question: retries do not add up
  // (rows of question_learners already hold the best).
  const collapsesPoints = fn === 'points' && source === 'answers';
  // Grouped by another variable's value, with several facts per learner:
  // each learner has one value, so the facts are added up per learner first
  // and each learner's value joined after. Hashing learners (one id) rather
  // than (value, learner) pairs, and joining a value per learner rather than
  // per fact, took a quarter less for the pass rate of every course by
  // department at 100 000 learners. A median reads each fact's group, so it
  // keeps the value on the facts.
  const valueAfterPairs = kind === 'variable' && !rowPerPair && !collapsesPoints && !isMedian;
  const byValue =
    kind === 'variable' && query.breakdown.variableName
      ? sql`, by_value as (${latestValueByName(organizationId, query.breakdown.variableName)})`
      : sql``;
  const keyed = sql`
    select ${valueAfterPairs ? sql`null::text` : groupKey(query.breakdown)} as gkey,
           ${namesFirst ? learnerDisplayName('l') : sql`null::text`} as glabel,
           b.learner_id, b.question_id, b.w, b.n, b.sn, b.cn, b.okn, b.okc, b.at, b.shown,
           case when b.shown is not null then b.at end as shown_at
    from base b
    ${namesFirst ? sql`join learners l on l.organization_id = ${organizationId} and l.id = b.learner_id` : sql``}
    ${kind === 'variable' && !valueAfterPairs ? sql`left join by_value bv on bv.learner_id = b.learner_id` : sql``}
    where ${filterConditions(organizationId, query)}`;
  const facts = collapsesPoints
    ? sql`, facts as (
        select k.gkey, min(k.glabel) as glabel, k.learner_id, sum(k.w) as w, max(k.n) as n, max(k.n) as sn,
               (count(k.n) > 0)::int as cn, null::bigint as okn, null::bigint as okc, max(k.shown_at) as shown_at
        from keyed k group by k.gkey, k.learner_id, k.question_id
      )`
    : sql``;
  const from = sql.raw(collapsesPoints ? 'facts' : 'keyed');
  const medians = isMedian
    ? sql`, medians as (
        select f.gkey, (percentile_cont(0.5) within group (order by f.n))::float8 as value
        from ${from} f group by f.gkey
      )`
    : sql``;
  const groupParts: Parts = {
    learners: sql`g.learners`,
    okLearners: sql`g.ok_learners`,
    w: sql`g.w`,
    sn: sql`g.sn`,
    cn: sql`g.cn`,
    mn: sql`g.mn`,
    mx: sql`g.mx`,
    okn: sql`g.okn`,
    okc: sql`g.okc`,
  };
  // Only the parts the measure reads are added up (hashing a hundred
  // thousand pairs costs by the width), and every aggregate can hash: no
  // DISTINCT and no ordered aggregate.
  const isTime = TIME_UNITS[kind] !== undefined;
  const needed = new Set<string>(['w']);
  if (['average', 'points', 'sum'].includes(fn)) ['sn', 'cn'].forEach((name) => needed.add(name));
  if (fn === 'min') needed.add('mn');
  if (fn === 'max') needed.add('mx');
  if (['pass_rate', 'completion_rate', 'correct_rate', 'completions'].includes(fn)) {
    ['okn', 'okc'].forEach((name) => needed.add(name));
  }
  if (kind === 'learner' && source !== 'question_learners') needed.add('last_at');
  const part = (name: string, expression: string): SQL =>
    needed.has(name)
      ? sql.raw(expression)
      : sql.raw(name === 'last_at' ? 'null::timestamptz' : 'null::float8');
  const sum = (name: string, column: string): SQL => part(name, `sum(${column})`);
  // Only learners named first carry a label per fact; any other group is
  // named from its key once grouped.
  const label = namesFirst ? null : sql`null::text`;
  const perLearner = sql`${sum('w', 'f.w')} as w,
               ${sum('sn', 'f.sn')} as sn, ${sum('cn', 'f.cn')} as cn, ${part('mn', 'min(f.n)')} as mn,
               ${part('mx', 'max(f.n)')} as mx, ${sum('okn', 'f.okn')} as okn, ${sum('okc', 'f.okc')} as okc,
               ${part('last_at', 'max(f.shown_at)')} as last_at`;
  const pairs =
    rowPerPair && !collapsesPoints
      ? sql`select f.gkey, f.learner_id, ${label ?? sql`f.glabel`} as glabel, ${part('w', 'f.w')} as w,
               ${part('sn', 'f.sn')} as sn, ${part('cn', 'f.cn')} as cn, ${part('mn', 'f.n')} as mn,
               ${part('mx', 'f.n')} as mx, ${part('okn', 'f.okn')} as okn, ${part('okc', 'f.okc')} as okc,
               ${part('last_at', 'f.shown_at')} as last_at
            from ${from} f`
      : valueAfterPairs
        ? sql`select ${groupKey(query.breakdown)} as gkey, p.learner_id, null::text as glabel, p.w, p.sn, p.cn,
                 p.mn, p.mx, p.okn, p.okc, p.last_at
              from (select f.learner_id, ${perLearner} from ${from} f group by f.learner_id) p
              left join by_value bv on bv.learner_id = p.learner_id`
        : sql`select f.gkey, f.learner_id, ${label ?? sql`min(f.glabel)`} as glabel, ${perLearner}
            from ${from} f group by f.gkey, f.learner_id`;
  // The facts are read once, into the pairs; groups, others and the total
  // are added up from the pairs.
  const ctes = sql`
    base as (${subjectFacts(organizationId, query, source)})${byValue},
    keyed as (${keyed})${facts},
    pairs as (${pairs}),
    grouped as (${
      rowPerGroup
        ? sql`select p.gkey, p.glabel as label, 1 as learners, p.w, p.sn, p.cn, p.mn, p.mx, p.okn, p.okc,
                     ${part('okn', '(p.okn > 0)::int')} as ok_learners, p.last_at
              from pairs p`
        : sql`select p.gkey, ${labelOfKey(organizationId, query, 'p.gkey')} as label, count(*) as learners,
                     ${sum('w', 'p.w')} as w, ${sum('sn', 'p.sn')} as sn, ${sum('cn', 'p.cn')} as cn,
                     ${part('mn', 'min(p.mn)')} as mn, ${part('mx', 'max(p.mx)')} as mx,
                     ${sum('okn', 'p.okn')} as okn, ${sum('okc', 'p.okc')} as okc,
                     ${part('okn', 'count(*) filter (where p.okn > 0)')} as ok_learners,
                     ${part('last_at', 'max(p.last_at)')} as last_at
              from pairs p group by p.gkey`
    })${medians},
    valued as (
      select g.*, ${isMedian ? sql`m.value` : combine(fn, groupParts)} as value
      from grouped g ${isMedian ? sql`left join medians m on m.gkey = g.gkey` : sql``}
    )`;
  const inOthers = (column: string) =>
    sql`${sql.raw(column)} not in (select t.gkey from top t where t.gkey is not null)`;
  // Groups that split the learners add up; otherwise each learner is counted once.
  // Over a time breakdown there are no others: a known total needs no pass.
  const knownTotal = isTime ? learnersOfWholeSubject(organizationId, query) : null;
  const afterTop =
    splitsLearners || knownTotal
      ? null
      : sql`learner_totals as (
        select count(*) as learners, count(*) filter (where x.ok) as ok_learners,
               count(*) filter (where x.other) as other_learners,
               count(*) filter (where x.other_ok) as other_ok_learners
        from (
          select p.learner_id, ${needed.has('okn') ? sql`bool_or(p.okn > 0)` : sql`false`} as ok,
                 ${isTime ? sql`false` : sql`bool_or(${inOthers('p.gkey')})`} as other,
                 ${isTime || !needed.has('okn') ? sql`false` : sql`bool_or(p.okn > 0 and ${inOthers('p.gkey')})`} as other_ok
          from pairs p group by p.learner_id
        ) x
      )`;
  let detail: SQL | null = null;
  let detailCtes: SQL | null = null;
  let detailJoin: SQL | null = null;
  if (kind === 'learner' && source === 'question_learners') {
    // Rollup rows hold no answer: each ranked learner's last one is looked up.
    detail = sql`(select a.answer_choice from course_run_questions a
      join questions q on q.organization_id = a.organization_id and q.id = a.question_id
      join courses c on c.organization_id = q.organization_id and c.id = q.course_id and not c.is_deleted
      where ${answerConditions(organizationId, query.subject)} and a.learner_id = t.gkey
        ${query.filters.courseIds.length > 0 ? sql`and q.course_id = any(${sql.param([...query.filters.courseIds])}::uuid[])` : sql``}
        and a.answer_choice is not null
      order by a.created_at desc limit 1)`;
  } else if (kind === 'learner') {
    // The text of each ranked learner's latest fact (the greatest on a tie).
    detailCtes = sql`details as (
      select k.gkey, max(k.shown) as shown
      from keyed k join top t on t.gkey = k.gkey and k.shown_at = t.last_at
      group by k.gkey
    )`;
    detail = sql`d.shown`;
    detailJoin = sql`left join details d on d.gkey = t.gkey`;
  }
  return {
    ctes,
    afterTop,
    othersLearners: splitsLearners
      ? sql`sum(v.learners)`
      : knownTotal
        ? sql`0`
        : sql`(select other_learners from learner_totals)`,
    othersOkLearners: splitsLearners
      ? sql`sum(v.ok_learners)`
      : knownTotal
        ? sql`0`
        : sql`(select other_ok_learners from learner_totals)`,
    totalLearners: splitsLearners
      ? sql`coalesce(sum(v.learners), 0)`
      : (knownTotal ?? sql`(select learners from learner_totals)`),
    totalOkLearners: splitsLearners
      ? sql`coalesce(sum(v.ok_learners), 0)`
      : knownTotal
        ? sql`0`
        : sql`(select ok_learners from learner_totals)`,
    othersMedian: isMedian
      ? sql`(select (percentile_cont(0.5) within group (order by f.n))::float8 from ${from} f where ${inOthers('f.gkey')})`
      : null,
    totalMedian: isMedian
      ? sql`(select (percentile_cont(0.5) within group (order by f.n))::float8 from ${from} f)`
      : null,
    detail,
    detailCtes,
    detailJoin,
  };
}

/**
 * The learners of an item that reads every fact of one variable or one
 * question (no period, no filter), counted by the rollups as facts come:
 * its total needs no pass over the learners. Null otherwise.
 */
function learnersOfWholeSubject(organizationId: string, query: ExecutableQuery): SQL | null {
  const { subject, filters, period } = query;
  const isWhole =
    period.from === null &&
    period.to === null &&
    filters.courseIds.length === 0 &&
    filters.values.length === 0 &&
    filters.activity.length === 0;
  if (!isWhole) return null;
  if (subject.kind === 'question') {
    return sql`(select coalesce(sum(d.new_learners), 0) from question_daily_stats d
                where d.organization_id = ${organizationId} and d.question_id = ${subject.questionId})`;
  }
  if (subject.kind === 'variable' && subject.variableIds.length === 1) {
    return sql`(select coalesce(sum(s.learner_count), 0) from variable_stats s
                where s.organization_id = ${organizationId} and s.variable_id = ${subject.variableIds[0]})`;
  }
  return null;
}

// ---- a variable over time, from the daily rollup ------------------------------

/**
 * A variable's values per day, week or month: how many, their sum,
 * smallest and largest, and the share of true from `variable_daily_stats`;
 * the learners of each bucket, and in all, from the (learner, time) pairs
 * of the values' index.
 */
function valueDaysBody(organizationId: string, query: ExecutableQuery): Body {
  const { subject, breakdown, filters, period } = query;
  if (subject.kind !== 'variable') throw new Error('a day rollup of values needs a variable');
  const unit = TIME_UNITS[breakdown.kind] ?? 'day';
  const courseFilter =
    filters.courseIds.length > 0
      ? sql`and v.course_id = any(${sql.param([...filters.courseIds])}::uuid[])`
      : sql``;
  // The subject's variables of live courses (a variable belongs to one course).
  const variableIds = sql`array(
    select v.id from variables v
    join courses c on c.organization_id = v.organization_id and c.id = v.course_id and not c.is_deleted
    where v.organization_id = ${organizationId} and v.id = any(${sql.param([...subject.variableIds])}::uuid[])
      ${courseFilter})`;
  const times = (column: string, asDay: boolean) => {
    const conditions: SQL[] = [];
    const bound = (instant: Date) =>
      asDay ? sql`${instant.toISOString().slice(0, 10)}::date` : sql`${instant.toISOString()}::timestamptz`;
    if (period.from) conditions.push(sql`${sql.raw(column)} >= ${bound(period.from)}`);
    if (period.to) conditions.push(sql`${sql.raw(column)} < ${bound(period.to)}`);
    return conditions.length > 0 ? sql`and ${sql.join(conditions, sql` and `)}` : sql``;
  };
  const fn = query.measure.fn;
  const knownTotal = learnersOfWholeSubject(organizationId, query);
  const parts: Parts = {
    learners: sql`g.learners`,
    okLearners: sql`0`,
    w: sql`g.w`,
    sn: sql`g.sn`,
    cn: sql`g.cn`,
    mn: sql`g.mn`,
    mx: sql`g.mx`,
    okn: sql`g.okn`,
    okc: sql`g.okc`,
  };
  const ctes = sql`
    pairs as (
      select date_trunc(${unit}, h.recorded_at at time zone 'UTC')::date as gkey, h.learner_id
      from learner_variable_values h
      where h.organization_id = ${organizationId} and h.variable_id = any(${variableIds})
        ${times('h.recorded_at', false)}
      group by 1, 2
    ),
    sums as (
      select date_trunc(${unit}, d.day::timestamp)::date as gkey, sum(d.values) as w, sum(d.number_sum) as sn,
             sum(d.numbers) as cn, min(d.number_min) as mn, max(d.number_max) as mx, sum(d.trues) as okn,
             sum(d.booleans) as okc
      from variable_daily_stats d
      where d.organization_id = ${organizationId} and d.variable_id = any(${variableIds})
        ${times('d.day', true)}
      group by 1
    ),
    grouped as (
      select s.gkey, null::text as label, coalesce(l.learners, 0) as learners, s.w, s.sn, s.cn, s.mn, s.mx,
             s.okn, s.okc, 0 as ok_learners, null::timestamptz as last_at
      from sums s
      left join (select p.gkey, count(*) as learners from pairs p group by p.gkey) l on l.gkey = s.gkey
    ),
    valued as (select g.*, ${combine(fn, parts)} as value from grouped g)`;
  return {
    ctes,
    afterTop: knownTotal
      ? null
      : sql`learner_totals as (
          select count(*) as learners from (select p.learner_id from pairs p group by p.learner_id) x
        )`,
    othersLearners: sql`0`,
    othersOkLearners: sql`0`,
    totalLearners: knownTotal ?? sql`(select learners from learner_totals)`,
    totalOkLearners: sql`0`,
    othersMedian: null,
    totalMedian: null,
    detail: null,
    detailCtes: null,
    detailJoin: null,
  };
}

// ---- questions over all time, from the daily rollup ------------------------------

/**
 * Responses, correct rates and learners per question or course (or in all)
 * from `question_daily_stats`: a question's learners are those first seen
 * on some day; learners of courses (and of every question of some courses)
 * are those with an answer in them, each once (`course_learners.question_ids`).
 */
function questionDaysBody(organizationId: string, query: ExecutableQuery): Body {
  const { subject, breakdown, filters } = query;
  const fn = query.measure.fn;
  const isOne = subject.kind === 'question';
  const subjectCourses = subject.kind === 'questions' ? subject.courseIds : [];
  const courseConditions = (column: string): SQL => {
    const conditions: SQL[] = [];
    if (subjectCourses.length > 0) {
      conditions.push(sql`${sql.raw(column)} = any(${sql.param([...subjectCourses])}::uuid[])`);
    }
    if (filters.courseIds.length > 0) {
      conditions.push(sql`${sql.raw(column)} = any(${sql.param([...filters.courseIds])}::uuid[])`);
    }
    return conditions.length > 0 ? sql`and ${sql.join(conditions, sql` and `)}` : sql``;
  };
  const withCourse = subject.kind === 'questions' && subjectCourses.length !== 1;
  const perQuestion = sql`
    select d.question_id, q.course_id, min(c.course_title) as course_title,
           min(${questionText(withCourse)}) as question_label,
           sum(d.responses) as w, sum(d.correct) as okn, sum(d.graded) as okc, sum(d.new_learners) as learners
    from question_daily_stats d
    join questions q on q.organization_id = d.organization_id and q.id = d.question_id
    join courses c on c.organization_id = q.organization_id and c.id = q.course_id and not c.is_deleted
    where d.organization_id = ${organizationId}
      ${isOne ? sql`and d.question_id = ${subject.questionId}` : sql``}
      ${courseConditions('q.course_id')}
    group by d.question_id, q.course_id`;
  // Learners with an answer in the courses (every question of them), each
  // once: grouped, so the database hashes rather than sorts.
  const answeredIn = (courses: SQL | null) => sql`(
    select count(*) from (
      select cl.learner_id from course_learners cl
      join courses c on c.organization_id = cl.organization_id and c.id = cl.course_id and not c.is_deleted
      where cl.organization_id = ${organizationId} and cardinality(cl.question_ids) > 0
        ${courseConditions('cl.course_id')} ${courses ? sql`and cl.course_id in (${courses})` : sql``}
      group by cl.learner_id
    ) x)`;
  const learners =
    isOne || breakdown.kind === 'question'
      ? sql`sum(p.learners)`
      : breakdown.kind === 'course'
        ? sql`coalesce(max(ca.learners), 0)`
        : answeredIn(null);
  const key =
    breakdown.kind === 'question'
      ? sql`p.question_id::text`
      : breakdown.kind === 'course'
        ? sql`p.course_id::text`
        : sql`'all'`;
  const label =
    breakdown.kind === 'question'
      ? sql`min(p.question_label)`
      : breakdown.kind === 'course'
        ? sql`min(p.course_title)`
        : sql`'All'`;
  const byCourse = !isOne && breakdown.kind === 'course';
  const grouped = sql`
    select ${key} as gkey, ${label} as label, ${learners} as learners, sum(p.w) as w,
           null::float8 as sn, 0 as cn, null::float8 as mn, null::float8 as mx, sum(p.okn) as okn,
           sum(p.okc) as okc, 0 as ok_learners, null::timestamptz as last_at
    from per_question p
    ${byCourse ? sql`left join course_answered ca on ca.course_id = p.course_id` : sql``}
    group by 1`;
  const courseAnswered = byCourse
    ? sql`course_answered as (
        select cl.course_id, count(*) as learners from course_learners cl
        where cl.organization_id = ${organizationId} and cardinality(cl.question_ids) > 0
          ${courseConditions('cl.course_id')}
        group by cl.course_id
      ),`
    : sql``;
  const parts: Parts = {
    learners: sql`g.learners`,
    okLearners: sql`0`,
    w: sql`g.w`,
    sn: sql`g.sn`,
    cn: sql`g.cn`,
    mn: sql`g.mn`,
    mx: sql`g.mx`,
    okn: sql`g.okn`,
    okc: sql`g.okc`,
  };
  const ctes = sql`
    per_question as (${perQuestion}),
    ${courseAnswered}
    grouped as (${grouped}),
    valued as (select g.*, ${combine(fn, parts)} as value from grouped g)`;
  // With several questions, a learner counts once in the total and the
  // others, whatever they answered: one pass over the questions each
  // learner answered per course.
  const notTop = (column: string) =>
    sql`${sql.raw(column)} not in (select t.gkey from top t where t.gkey is not null)`;
  const countsAfterTop = !isOne && (breakdown.kind === 'question' || breakdown.kind === 'course');
  const other =
    breakdown.kind === 'question'
      ? sql`coalesce(cl.question_ids && o.question_ids, false)`
      : sql`${notTop('cl.course_id::text')}`;
  const afterTop = countsAfterTop
    ? sql`${
        breakdown.kind === 'question'
          ? sql`others_by_course as (
              select p.course_id, array_agg(p.question_id) as question_ids from per_question p
              where ${notTop('p.question_id::text')}
              group by p.course_id
            ), `
          : sql``
      }answer_learners as (
        select count(*) as learners, count(*) filter (where x.other) as other_learners
        from (
          select cl.learner_id, bool_or(${other}) as other
          from course_learners cl
          join courses c on c.organization_id = cl.organization_id and c.id = cl.course_id and not c.is_deleted
          ${breakdown.kind === 'question' ? sql`left join others_by_course o on o.course_id = cl.course_id` : sql``}
          where cl.organization_id = ${organizationId} and cardinality(cl.question_ids) > 0
            ${courseConditions('cl.course_id')}
          group by cl.learner_id
        ) x
      )`
    : null;
  return {
    ctes,
    afterTop,
    othersLearners: countsAfterTop ? sql`(select other_learners from answer_learners)` : sql`sum(v.learners)`,
    othersOkLearners: sql`0`,
    totalLearners: countsAfterTop
      ? sql`(select learners from answer_learners)`
      : sql`coalesce(sum(v.learners), 0)`,
    totalOkLearners: sql`0`,
    othersMedian: null,
    totalMedian: null,
    detail: null,
    detailCtes: null,
    detailJoin: null,
  };
}

// ---- subjects ------------------------------------------------------------------

function questionText(withCourse: boolean): SQL {
  const text = sql`coalesce(nullif(btrim(q.question_text), ''),
                 'Slide ' || coalesce(q.slide_number::text, '?') || ', question ' || coalesce(q.question_number::text, '?'))`;
  return withCourse ? sql`${text} || ' (' || c.course_title || ')'` : text;
}

/**
 * The facts of the subject as rows of (learner_id, course_id, course_title,
 * question_id, question_label, answer, at, w, n, sn, cn, okn, okc, shown,
 * value_number, value_boolean, value_text): `w` is how many facts the row
 * stands for, `n` the number a median reads, `sn`/`cn` the sum and count of
 * the numbers, `okn`/`okc` the right and the graded yes/no a rate reads,
 * `shown` the text shown beside a learner (their latest).
 */
function subjectFacts(
  organizationId: string,
  query: ExecutableQuery,
  source: Exclude<FactSource, 'question_days' | 'value_days'>,
): SQL {
  const { subject, measure, breakdown } = query;
  const liveCourse = (alias: string) =>
    sql`join courses c on c.organization_id = ${sql.raw(alias)}.organization_id
          and c.id = ${sql.raw(alias)}.course_id and not c.is_deleted`;
  const yesNo = (ok: SQL) => sql`(${ok})::int as okn, ((${ok}) is not null)::int as okc`;
  const numbers = (n: SQL) => sql`${n} as n, ${n} as sn, ((${n}) is not null)::int as cn`;
  // A value passes when true, or when it reaches the mark.
  const valueOk =
    measure.fn !== 'pass_rate'
      ? sql`null::boolean`
      : query.dataType === 'boolean'
        ? sql`v.value_boolean`
        : measure.mark === null
          ? sql`null::boolean`
          : sql`(v.value_number >= ${measure.mark})`;
  const valueColumns = sql`null::uuid as question_id, null::text as question_label,
               null::text as answer, v.recorded_at as at, 1 as w, ${numbers(sql`v.value_number::float8`)},
               ${yesNo(valueOk)}, v.value as shown, v.value_number, v.value_boolean, v.value as value_text`;
  switch (subject.kind) {
    case 'variable': {
      if (source !== 'latest_values' && source !== 'value_history')
        throw new Error(`not a value source: ${source}`);
      const relation = sql.raw(
        source === 'value_history' ? 'learner_variable_values' : 'learner_variable_latest',
      );
      return sql`
        select v.learner_id, v.course_id, c.course_title, ${valueColumns}
        from ${relation} v ${liveCourse('v')}
        where v.organization_id = ${organizationId}
          and v.variable_id = any(${sql.param([...subject.variableIds])}::uuid[])`;
    }
    case 'chatbot_variable': {
      if (source !== 'latest_values' && source !== 'value_history')
        throw new Error(`not a value source: ${source}`);
      // Read through the metrics layer's value source, where the agent
      // stands in the course's columns (course_id, course_title).
      const valueSource: ValueSource = {
        kind: 'chatbot_variable',
        organizationId,
        variableIds: subject.chatbotVariableIds,
        dataType: query.dataType ?? 'text',
      };
      const relations = valueRelations(valueSource);
      return sql`
        select v.learner_id, v.course_id, v.course_title, ${valueColumns}
        from (${source === 'value_history' ? relations.history : relations.latest}) v`;
    }
    case 'question':
    case 'identifier':
    case 'questions': {
      // Across several courses a question is told apart by its course.
      const withCourse = subject.kind === 'questions' && subject.courseIds.length !== 1;
      const text = questionText(withCourse);
      if (source === 'question_learners') {
        const conditions: SQL[] = [sql`l.organization_id = ${organizationId}`];
        if (subject.kind === 'question') conditions.push(sql`l.question_id = ${subject.questionId}`);
        if (subject.kind === 'questions' && subject.courseIds.length > 0) {
          conditions.push(sql`l.course_id = any(${sql.param([...subject.courseIds])}::uuid[])`);
        }
        return sql`
          select l.learner_id, l.course_id, c.course_title, l.question_id, ${text} as question_label,
                 null::text as answer, l.first_answered_at as at, l.responses as w,
                 ${numbers(sql`l.best_points`)}, l.correct as okn, l.graded as okc, null::text as shown,
                 null::float8 as value_number, null::boolean as value_boolean, null::text as value_text
          from question_learners l
          join questions q on q.organization_id = l.organization_id and q.id = l.question_id
          ${liveCourse('l')}
          where ${sql.join(conditions, sql` and `)}`;
      }
      // The answer's text is read only when shown: without it the answers'
      // covering index holds every column (an index-only scan).
      const needsText = breakdown.kind === 'answer' || breakdown.kind === 'learner';
      const answer = needsText ? sql`a.answer_choice` : sql`null::text`;
      return sql`
        select a.learner_id, q.course_id, c.course_title, a.question_id, ${text} as question_label,
               ${answer} as answer, a.created_at as at, 1 as w, ${numbers(sql`a.points_assigned::float8`)},
               ${yesNo(sql`a.correct`)}, ${answer} as shown, null::float8 as value_number,
               null::boolean as value_boolean, ${answer} as value_text
        from course_run_questions a
        join questions q on q.organization_id = a.organization_id and q.id = a.question_id
        join courses c on c.organization_id = q.organization_id and c.id = q.course_id and not c.is_deleted
        where ${answerConditions(organizationId, subject)}`;
    }
    case 'courses': {
      // One row per learner and course: when they started, whether and
      // when they last completed, their outcome and best score (the rollup
      // of their runs, or the runs grouped).
      const courseFilter =
        subject.courseIds.length > 0
          ? sql`and r.course_id = any(${sql.param([...subject.courseIds])}::uuid[])`
          : sql``;
      const runs =
        source === 'course_runs'
          ? sql`(
              select r.organization_id, r.course_id, r.learner_id, min(r.started_at) as first_started_at,
                     max(r.completed_at) as last_completed_at, bool_or(r.passed) as passed,
                     max(r.score) as best_score
              from course_runs r
              where r.organization_id = ${organizationId} ${courseFilter}
              group by r.organization_id, r.course_id, r.learner_id
            )`
          : sql`course_learners`;
      const ok =
        measure.fn === 'pass_rate'
          ? measure.mark === null
            ? sql`r.passed`
            : sql`(r.best_score >= ${measure.mark})`
          : measure.fn === 'completion_rate' || measure.fn === 'completions'
            ? sql`(r.last_completed_at is not null)`
            : sql`null::boolean`;
      return sql`
        select r.learner_id, r.course_id, c.course_title, null::uuid as question_id, null::text as question_label,
               null::text as answer, ${measure.fn === 'completions' ? sql`r.last_completed_at` : sql`r.first_started_at`} as at,
               1 as w, ${numbers(sql`r.best_score`)}, ${yesNo(ok)},
               case when r.last_completed_at is not null then 'Completed' else 'Started' end as shown,
               r.best_score as value_number, null::boolean as value_boolean, null::text as value_text
        from ${runs} r ${liveCourse('r')}
        where r.organization_id = ${organizationId} ${courseFilter}`;
    }
  }
}

/**
 * The subject's answers (alias `a`, joined to their question `q`): one
 * question, a question named by its course, slide, number or text as
 * answered, or every question of some courses.
 */
function answerConditions(organizationId: string, subject: ReportSubject): SQL {
  const conditions: SQL[] = [sql`a.organization_id = ${organizationId}`];
  if (subject.kind === 'question') conditions.push(sql`a.question_id = ${subject.questionId}`);
  if (subject.kind === 'identifier') {
    conditions.push(sql`q.course_id = ${subject.courseId}`);
    if (subject.slideNumber !== null) conditions.push(sql`a.slide_number = ${subject.slideNumber}`);
    if (subject.questionNumber !== null) conditions.push(sql`a.question_number = ${subject.questionNumber}`);
    if (subject.questionText !== null) {
      conditions.push(sql`lower(btrim(a.question_text)) = lower(btrim(${subject.questionText}))`);
    }
  }
  if (subject.kind === 'questions' && subject.courseIds.length > 0) {
    conditions.push(sql`q.course_id = any(${sql.param([...subject.courseIds])}::uuid[])`);
  }
  return sql.join(conditions, sql` and `);
}

// ---- breakdowns ----------------------------------------------------------------

/** A time bucket: the UTC date it starts on (written YYYY-MM-DD only in the rows returned). */
function bucket(unit: string): SQL {
  return sql`date_trunc(${unit}, b.at at time zone 'UTC')::date`;
}

/**
 * A group's key, in its own type (a learner, course or question id, a
 * date): grouping and comparing them costs less than text would, and they
 * are written as text only in the rows returned.
 */
function groupKey(breakdown: ReportBreakdown): SQL {
  switch (breakdown.kind) {
    case 'none':
      return sql`'all'`;
    case 'learner':
      return sql`b.learner_id`;
    // An agent variable's facts carry their agent where a course would be.
    case 'course':
    case 'agent':
      return sql`b.course_id`;
    case 'question':
      return sql`b.question_id`;
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

/**
 * A group's label from its key (alias given): a course's title, a
 * question's text (with its course when several courses are read), the
 * answer or value ("(no answer)", "(no value)" when empty). Learners and
 * time buckets are named elsewhere.
 */
function labelOfKey(organizationId: string, query: ExecutableQuery, key: string): SQL {
  const gkey = sql.raw(key);
  switch (query.breakdown.kind) {
    case 'none':
      return sql`'All'`;
    case 'course':
      return sql`(select c.course_title from courses c where c.organization_id = ${organizationId} and c.id = ${gkey})`;
    case 'agent':
      return sql`(select a.name from chatbots a where a.organization_id = ${organizationId} and a.id = ${gkey})`;
    case 'question': {
      const withCourse = query.subject.kind === 'questions' && query.subject.courseIds.length !== 1;
      return sql`(select ${questionText(withCourse)} from questions q
                  join courses c on c.organization_id = q.organization_id and c.id = q.course_id
                  where q.organization_id = ${organizationId} and q.id = ${gkey})`;
    }
    case 'answer':
      return sql`coalesce(nullif(${gkey}, ''), '(no answer)')`;
    case 'variable':
      return sql`coalesce(nullif(${gkey}, ''), '(no value)')`;
    case 'learner':
    case 'day':
    case 'week':
    case 'month':
      return sql`null::text`;
  }
}

/** Each learner's latest value of any live-course variable with this name (one row per learner). */
function latestValueByName(organizationId: string, name: string): SQL {
  return sql`
    select distinct on (lv.learner_id) lv.learner_id, btrim(lv.value) as value
    from learner_variable_latest lv
    join courses c on c.organization_id = lv.organization_id and c.id = lv.course_id and not c.is_deleted
    where lv.organization_id = ${organizationId} and lv.variable_id = any(${variableIdsNamed(organizationId, name)})
    order by lv.learner_id, lv.recorded_at desc`;
}

/**
 * The ids of the variables with this name, as an array computed first, so
 * their latest values are read through the rollup's key rather than by
 * scanning every latest value of the organization.
 */
function variableIdsNamed(organizationId: string, name: string | null): SQL {
  return sql`array(select v.id from variables v where v.organization_id = ${organizationId} and v.name = ${name})`;
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
      where lv.organization_id = ${organizationId}
        and lv.variable_id = any(${variableIdsNamed(organizationId, condition.variableName)})
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
