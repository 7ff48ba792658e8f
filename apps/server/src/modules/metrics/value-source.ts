import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  courses,
  variableDailyStats,
  variableStats,
  variables,
  type VariableDataType,
} from '../../db/schema';

// Where a value source's values live, written once. Variable reports, AI
// summaries and the statistics behind them read a source only through the
// relations below; a new kind of source (an agent's chatbot variable, a
// pipeline's destination variable) is a new `kind` here and a case in
// `valueRelations`, not new statistics.
//
// Every relation has the same columns: learner_id, course_id, course_title,
// variable_id, value, value_number, value_boolean, value_date, recorded_at.
// - `latest`: each learner's latest value, one row per learner and course
//   (for course variables the rollup `learner_variable_latest`);
// - `history`: every value recorded (`learner_variable_values`);
// - `usage`: one row (recorded, first_recorded_at, last_recorded_at) with
//   how many values were ever recorded and when, read from rollups where
//   there are some;
// - `daily`: every value recorded, added up per UTC day (day, values,
//   numbers, number_sum, booleans, trues), for trends that read no value
//   one by one;
// - `historyBounds(range)`: one row (first, last) with the first and last
//   time a value was recorded in the range of days, found through the
//   values' time index rather than by reading them.

/** The kinds of value source. Destination variables will join this list. */
export const VALUE_SOURCE_KINDS = ['course_variable', 'chatbot_variable'] as const;
export type ValueSourceKind = (typeof VALUE_SOURCE_KINDS)[number];

/**
 * Values read together: one course's variable, or every live-course
 * variable of one name; or the chatbot variables of one name (one agent's,
 * or every agent's). For chatbot variables the relations' `course_id` and
 * `course_title` are the agent's id and name, so a breakdown "by course"
 * reads "by agent".
 */
export type ValueSource = {
  kind: ValueSourceKind;
  organizationId: string;
  /** Variables of live courses, or chatbot variables, of the organization (never empty). */
  variableIds: readonly string[];
  /** How the values are read: the variables' type, or text when they disagree. */
  dataType: VariableDataType;
};

/** Days from and to (inclusive, UTC `YYYY-MM-DD`), either open. */
export type DayRange = { from?: string | undefined; to?: string | undefined };

export type ValueRelations = {
  latest: SQL;
  history: SQL;
  usage: SQL;
  daily: SQL;
  historyBounds: (range: DayRange) => SQL;
};

/**
 * The right side of `variable_id = ...` for the source's variables. One
 * variable is compared as one value: PostgreSQL then reads its index in
 * order (a leaderboard's top ten in a few index entries), which it does not
 * for a list of values.
 */
function variableIdMatch(source: ValueSource): SQL {
  const [only, ...more] = source.variableIds;
  if (only !== undefined && more.length === 0) return sql`${only}::uuid`;
  return sql`any(${sql.param([...source.variableIds])}::uuid[])`;
}

/** The relations of a source (see the columns above). */
export function valueRelations(source: ValueSource): ValueRelations {
  switch (source.kind) {
    case 'course_variable': {
      const { organizationId } = source;
      const ids = variableIdMatch(source);
      const columns = (alias: string) =>
        sql.raw(`${alias}.learner_id, ${alias}.course_id, c.course_title, ${alias}.variable_id, ${alias}.value,
                 ${alias}.value_number, ${alias}.value_boolean, ${alias}.value_date, ${alias}.recorded_at`);
      return {
        latest: sql`
          select ${columns('l')}
          from learner_variable_latest l
          join ${courses} c on c.organization_id = l.organization_id and c.id = l.course_id
          where l.organization_id = ${organizationId} and l.variable_id = ${ids}`,
        history: sql`
          select ${columns('h')}
          from learner_variable_values h
          join ${courses} c on c.organization_id = h.organization_id and c.id = h.course_id
          where h.organization_id = ${organizationId} and h.variable_id = ${ids}`,
        // The counters are kept by triggers; the first time is one index probe.
        usage: sql`
          select coalesce(sum(s.usage_count), 0)::int as recorded,
                 (select min(h.recorded_at) from learner_variable_values h
                   where h.organization_id = ${organizationId} and h.variable_id = ${ids}) as first_recorded_at,
                 max(s.last_recorded_at) as last_recorded_at
          from ${variableStats} s
          where s.organization_id = ${organizationId} and s.variable_id = ${ids}`,
        daily: sql`
          select d.day, d.values, d.numbers, d.number_sum, d.booleans, d.trues
          from ${variableDailyStats} d
          where d.organization_id = ${organizationId} and d.variable_id = ${ids}`,
        // Per variable, the first and the last value in the range: two index probes each.
        historyBounds: (range) => {
          const inRange = (alias: string) =>
            sql.join(
              [
                sql`${sql.raw(alias)}.organization_id = ${organizationId}`,
                sql`${sql.raw(alias)}.variable_id = v.id`,
                ...(range.from
                  ? [
                      sql`${sql.raw(alias)}.recorded_at >= (${range.from}::date)::timestamp at time zone 'UTC'`,
                    ]
                  : []),
                ...(range.to
                  ? [
                      sql`${sql.raw(alias)}.recorded_at < ((${range.to}::date + 1)::timestamp at time zone 'UTC')`,
                    ]
                  : []),
              ],
              sql` and `,
            );
          return sql`
            select min(b.first) as first, max(b.last) as last
            from unnest(${sql.param([...source.variableIds])}::uuid[]) as v(id)
            cross join lateral (
              select (select h.recorded_at from learner_variable_values h where ${inRange('h')}
                      order by h.recorded_at limit 1) as first,
                     (select h.recorded_at from learner_variable_values h where ${inRange('h')}
                      order by h.recorded_at desc limit 1) as last
            ) b`;
        },
      };
    }
    case 'chatbot_variable':
      return chatbotVariableRelations(source);
  }
}

/**
 * Chatbot variables have no rollups (an agent captures a handful of values
 * per conversation): every relation reads `learner_chatbot_variable_values`
 * through its indexes (organization, variable, learner, time).
 */
function chatbotVariableRelations(source: ValueSource): ValueRelations {
  const { organizationId } = source;
  const ids = variableIdMatch(source);
  const values = sql`
    select x.learner_id, v.chatbot_id as course_id, b.name as course_title, x.chatbot_variable_id as variable_id,
      x.value, x.value_number, x.value_boolean, x.value_date, x.recorded_at, x.created_at
    from learner_chatbot_variable_values x
    join chatbot_variables v on v.organization_id = x.organization_id and v.id = x.chatbot_variable_id
    join chatbots b on b.organization_id = v.organization_id and b.id = v.chatbot_id
    where x.organization_id = ${organizationId} and x.chatbot_variable_id = ${ids}`;
  const columns = sql.raw(`h.learner_id, h.course_id, h.course_title, h.variable_id, h.value, h.value_number,
    h.value_boolean, h.value_date, h.recorded_at`);
  return {
    latest: sql`
      select ${columns} from (
        select distinct on (h.learner_id, h.variable_id) h.*
        from (${values}) h
        order by h.learner_id, h.variable_id, h.recorded_at desc, h.created_at desc
      ) h`,
    history: sql`select ${columns} from (${values}) h`,
    usage: sql`
      select count(*)::int as recorded, min(x.recorded_at) as first_recorded_at, max(x.recorded_at) as last_recorded_at
      from learner_chatbot_variable_values x
      where x.organization_id = ${organizationId} and x.chatbot_variable_id = ${ids}`,
    daily: sql`
      select (x.recorded_at at time zone 'UTC')::date as day, count(*)::int as values,
        count(x.value_number)::int as numbers, coalesce(sum(x.value_number), 0)::float8 as number_sum,
        count(x.value_boolean)::int as booleans, count(*) filter (where x.value_boolean)::int as trues
      from learner_chatbot_variable_values x
      where x.organization_id = ${organizationId} and x.chatbot_variable_id = ${ids}
      group by 1`,
    historyBounds: (range) => sql`
      select min(x.recorded_at) as first, max(x.recorded_at) as last
      from learner_chatbot_variable_values x
      where x.organization_id = ${organizationId} and x.chatbot_variable_id = ${ids}
        ${range.from ? sql`and x.recorded_at >= (${range.from}::date)::timestamp at time zone 'UTC'` : sql``}
        ${range.to ? sql`and x.recorded_at < ((${range.to}::date + 1)::timestamp at time zone 'UTC')` : sql``}`,
  };
}

/** How many variables (so, at most how many latest values per learner) a source reads. */
export function valuesPerLearner(source: ValueSource): number {
  return Math.max(1, source.variableIds.length);
}

export type ChatbotVariableRow = {
  id: string;
  name: string;
  title: string | null;
  description: string | null;
  data_type: VariableDataType | 'choice';
  chatbot_id: string;
  chatbot_name: string;
};

/**
 * The organization's chatbot variables: of one name (every agent's, or one
 * agent's), one by id, some by id, or all of them; by agent name, then in
 * the order the agent asks.
 */
export async function selectChatbotVariables(
  db: Database,
  input: {
    organizationId: string;
    name?: string | undefined;
    chatbotId?: string | undefined;
    variableId?: string | undefined;
    variableIds?: readonly string[] | undefined;
  },
): Promise<ChatbotVariableRow[]> {
  const result = await db.execute<ChatbotVariableRow>(sql`
    select v.id, v.name, v.title, v.description, v.data_type, v.chatbot_id, b.name as chatbot_name
    from chatbot_variables v
    join chatbots b on b.organization_id = v.organization_id and b.id = v.chatbot_id
    where v.organization_id = ${input.organizationId}
      ${input.name === undefined ? sql`` : sql`and v.name = ${input.name}`}
      ${input.variableId === undefined ? sql`` : sql`and v.id = ${input.variableId}`}
      ${input.variableIds === undefined ? sql`` : sql`and v.id = any(${sql.param([...input.variableIds])}::uuid[])`}
      ${input.chatbotId === undefined ? sql`` : sql`and v.chatbot_id = ${input.chatbotId}`}
    order by lower(b.name), b.id, v.position, lower(v.name), v.id`);
  return result.rows;
}

/** How a chatbot variable's values are read: a choice is stored, and read, as text. */
export function chatbotValueType(dataType: ChatbotVariableRow['data_type']): VariableDataType {
  return dataType === 'choice' ? 'text' : dataType;
}

/** The source of some chatbot variables (at least one); a choice reads as text. */
export function chatbotVariableSource(
  organizationId: string,
  rows: readonly Pick<ChatbotVariableRow, 'id' | 'data_type'>[],
): ValueSource {
  const types = rows.map((row) => chatbotValueType(row.data_type));
  const first = types[0];
  if (!first) throw new Error('A value source needs at least one variable');
  const dataType = types.every((type) => type === first) ? first : 'text';
  return { kind: 'chatbot_variable', organizationId, variableIds: rows.map((row) => row.id), dataType };
}

export type CourseVariableRow = {
  id: string;
  name: string;
  title: string | null;
  description: string | null;
  data_type: VariableDataType;
  course_id: string;
  course_title: string;
};

/**
 * The live-course variables of the organization that a source names: by id,
 * or by name (every course with it, or one course's). A deleted course's
 * variables are never found. Ordered by course title.
 */
export async function selectCourseVariables(
  db: Database,
  input: {
    organizationId: string;
    variableId?: string | undefined;
    name?: string | undefined;
    courseId?: string | undefined;
  },
): Promise<CourseVariableRow[]> {
  const conditions: SQL[] = [sql`v.organization_id = ${input.organizationId}`, sql`not c.is_deleted`];
  if (input.variableId !== undefined) conditions.push(sql`v.id = ${input.variableId}`);
  if (input.name !== undefined) conditions.push(sql`v.name = ${input.name}`);
  if (input.courseId !== undefined) conditions.push(sql`v.course_id = ${input.courseId}`);
  const result = await db.execute<CourseVariableRow>(sql`
    select v.id, v.name, v.title, v.description, v.data_type, v.course_id, c.course_title
    from ${variables} v
    join ${courses} c on c.organization_id = v.organization_id and c.id = v.course_id
    where ${sql.join(conditions, sql` and `)}
    order by lower(c.course_title), c.id`);
  return result.rows;
}

/**
 * The source of some course variables (at least one). Variables of one name
 * in several courses may disagree on the type: they are then read as text,
 * which every value has.
 */
export function courseVariableSource(
  organizationId: string,
  rows: readonly Pick<CourseVariableRow, 'id' | 'data_type'>[],
): ValueSource {
  const first = rows[0];
  if (!first) throw new Error('A value source needs at least one variable');
  const dataType = rows.every((row) => row.data_type === first.data_type) ? first.data_type : 'text';
  return { kind: 'course_variable', organizationId, variableIds: rows.map((row) => row.id), dataType };
}
