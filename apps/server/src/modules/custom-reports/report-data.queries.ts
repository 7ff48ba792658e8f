import type { ComparisonType } from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';

// The data of a report, aggregated in the database: each query returns the
// few rows a table or chart shows (learners, courses or weeks), never the
// values or answers behind them. Variables read the rollup of each learner's
// latest value (learner_variable_latest) and, over time, the value history;
// questions read the answers (course_run_questions), whose slide and question
// numbers are kept as answered, so an item by identifier still finds the
// answers of a republished course.

/** Aggregates of one group, as the database returns them (numbers may come as strings). */
export type AggregateRow = {
  key: string;
  label: string;
  count: number | string;
  learners: number | string;
  mean: number | string | null;
  min: number | string | null;
  max: number | string | null;
  rate: number | string | null;
  points: number | string | null;
  value: string | null;
};

export type TotalsRow = Omit<AggregateRow, 'key' | 'label' | 'value'>;

/** A learner's name as shown in reports; never the e-mail address (and no name that is one). */
const learnerLabel = (alias: string) =>
  sql.raw(`case when ${alias}.name is null or btrim(${alias}.name) = '' or ${alias}.name like '%@%'
              then 'Unnamed learner' else ${alias}.name end`);

const WEEK_KEY = (column: string) =>
  sql.raw(`to_char(date_trunc('week', ${column} at time zone 'UTC'), 'YYYY-MM-DD')`);

// ---- variables -----------------------------------------------------------------

export type VariableScope = { organizationId: string; variableId: string; since: Date | null };

function latestWhere(scope: VariableScope, alias = 'lv'): SQL {
  const conditions: SQL[] = [
    sql`${sql.raw(alias)}.organization_id = ${scope.organizationId}`,
    sql`${sql.raw(alias)}.variable_id = ${scope.variableId}`,
  ];
  if (scope.since) conditions.push(sql`${sql.raw(alias)}.recorded_at >= ${scope.since.toISOString()}`);
  return sql.join(conditions, sql` and `);
}

function historyWhere(scope: VariableScope): SQL {
  const conditions: SQL[] = [
    sql`h.organization_id = ${scope.organizationId}`,
    sql`h.variable_id = ${scope.variableId}`,
  ];
  if (scope.since) conditions.push(sql`h.recorded_at >= ${scope.since.toISOString()}`);
  return sql.join(conditions, sql` and `);
}

/** Mean, min and max of the numbers, and the share of true among the booleans. */
const numberAggregates = (alias: string) =>
  sql.raw(`avg(${alias}.value_number)::float8 as mean, min(${alias}.value_number)::float8 as min,
           max(${alias}.value_number)::float8 as max,
           avg(case when ${alias}.value_boolean then 1.0 when not ${alias}.value_boolean then 0.0 end)::float8
             as rate`);

/** Totals of a variable item: over the latest values, or over the history for a trend. */
export async function selectVariableTotals(
  db: Database,
  scope: VariableScope,
  comparison: ComparisonType,
): Promise<TotalsRow> {
  const query =
    comparison === 'over_time'
      ? sql`select count(*)::int as count, count(distinct h.learner_id)::int as learners,
               ${numberAggregates('h')}, null::float8 as points
            from learner_variable_values h where ${historyWhere(scope)}`
      : sql`select count(*)::int as count, count(*)::int as learners,
               ${numberAggregates('lv')}, null::float8 as points
            from learner_variable_latest lv where ${latestWhere(scope)}`;
  const result = await db.execute<TotalsRow>(query);
  return result.rows[0] ?? emptyTotals();
}

/** A variable's groups by learner, course or week (at most `limit` rows). */
export async function selectVariableRows(
  db: Database,
  scope: VariableScope,
  comparison: ComparisonType,
  limit: number,
): Promise<AggregateRow[]> {
  let query: SQL;
  switch (comparison) {
    case 'by_learner':
      // Highest numbers first (a leaderboard), then true before false, then newest dates.
      query = sql`
        select lv.learner_id::text as key, ${learnerLabel('l')} as label, 1 as count, 1 as learners,
               lv.value_number::float8 as mean, lv.value_number::float8 as min, lv.value_number::float8 as max,
               case when lv.value_boolean then 1.0 when not lv.value_boolean then 0.0 end::float8 as rate,
               null::float8 as points, lv.value as value
        from learner_variable_latest lv
        join learners l on l.organization_id = lv.organization_id and l.id = lv.learner_id
        where ${latestWhere(scope)}
        order by lv.value_number desc nulls last, lv.value_boolean desc nulls last,
                 lv.value_date desc nulls last, lower(l.name) nulls last, lv.learner_id
        limit ${limit}`;
      break;
    case 'by_course':
      query = sql`
        select lv.course_id::text as key, c.course_title as label, count(*)::int as count,
               count(*)::int as learners, ${numberAggregates('lv')}, null::float8 as points, null as value
        from learner_variable_latest lv
        join courses c on c.organization_id = lv.organization_id and c.id = lv.course_id
        where ${latestWhere(scope)}
        group by lv.course_id, c.course_title
        order by count(*) desc, lower(c.course_title), lv.course_id
        limit ${limit}`;
      break;
    case 'over_time':
      // The latest weeks (newest first here; the service puts them in calendar order).
      query = sql`
        select ${WEEK_KEY('h.recorded_at')} as key, ${WEEK_KEY('h.recorded_at')} as label,
               count(*)::int as count, count(distinct h.learner_id)::int as learners,
               ${numberAggregates('h')}, null::float8 as points, null as value
        from learner_variable_values h
        where ${historyWhere(scope)}
        group by 1
        order by 1 desc
        limit ${limit}`;
      break;
  }
  const result = await db.execute<AggregateRow>(query);
  return result.rows;
}

// ---- questions -----------------------------------------------------------------

/** Which answers a question item covers: one question's, or those matching an identifier. */
export type QuestionMatch =
  | { by: 'id'; questionId: string }
  | {
      by: 'identifier';
      courseId: string;
      slideNumber: number | null;
      questionNumber: number | null;
      questionText: string | null;
    };

export type QuestionScope = { organizationId: string; match: QuestionMatch; since: Date | null };

function answersWhere(scope: QuestionScope): SQL {
  const conditions: SQL[] = [sql`a.organization_id = ${scope.organizationId}`];
  const match = scope.match;
  if (match.by === 'id') {
    conditions.push(sql`a.question_id = ${match.questionId}`);
  } else {
    conditions.push(sql`a.course_id = ${match.courseId}`);
    if (match.slideNumber !== null) conditions.push(sql`a.slide_number = ${match.slideNumber}`);
    if (match.questionNumber !== null) conditions.push(sql`a.question_number = ${match.questionNumber}`);
    if (match.questionText !== null) {
      conditions.push(sql`lower(btrim(a.question_text)) = lower(btrim(${match.questionText}))`);
    }
  }
  if (scope.since) conditions.push(sql`a.created_at >= ${scope.since.toISOString()}`);
  return sql.join(conditions, sql` and `);
}

const answerAggregates = sql.raw(`count(*)::int as count, count(distinct a.learner_id)::int as learners,
  avg(a.points_assigned)::float8 as mean, min(a.points_assigned)::float8 as min,
  max(a.points_assigned)::float8 as max,
  avg(case when a.correct then 1.0 when not a.correct then 0.0 end)::float8 as rate,
  sum(a.points_assigned)::float8 as points`);

export async function selectQuestionTotals(db: Database, scope: QuestionScope): Promise<TotalsRow> {
  const result = await db.execute<TotalsRow>(
    sql`select ${answerAggregates} from course_run_questions a where ${answersWhere(scope)}`,
  );
  return result.rows[0] ?? emptyTotals();
}

/** A question item's groups by learner, course or week (at most `limit` rows). */
export async function selectQuestionRows(
  db: Database,
  scope: QuestionScope,
  comparison: ComparisonType,
  limit: number,
): Promise<AggregateRow[]> {
  let query: SQL;
  switch (comparison) {
    case 'by_learner':
      // Most points first, then the best correct rate: the question's leaders.
      query = sql`
        select a.learner_id::text as key, ${learnerLabel('l')} as label, ${answerAggregates},
               (array_agg(a.answer_choice order by a.created_at desc))[1] as value
        from course_run_questions a
        join learners l on l.organization_id = a.organization_id and l.id = a.learner_id
        where ${answersWhere(scope)}
        group by a.learner_id, l.name
        order by sum(a.points_assigned) desc nulls last,
                 avg(case when a.correct then 1.0 when not a.correct then 0.0 end) desc nulls last,
                 lower(l.name) nulls last, a.learner_id
        limit ${limit}`;
      break;
    case 'by_course':
      query = sql`
        select a.course_id::text as key, c.course_title as label, ${answerAggregates}, null as value
        from course_run_questions a
        join courses c on c.organization_id = a.organization_id and c.id = a.course_id
        where ${answersWhere(scope)}
        group by a.course_id, c.course_title
        order by count(*) desc, lower(c.course_title), a.course_id
        limit ${limit}`;
      break;
    case 'over_time':
      query = sql`
        select ${WEEK_KEY('a.created_at')} as key, ${WEEK_KEY('a.created_at')} as label,
               ${answerAggregates}, null as value
        from course_run_questions a
        where ${answersWhere(scope)}
        group by 1
        order by 1 desc
        limit ${limit}`;
      break;
  }
  const result = await db.execute<AggregateRow>(query);
  return result.rows;
}

function emptyTotals(): TotalsRow {
  return { count: 0, learners: 0, mean: null, min: null, max: null, rate: null, points: null };
}
