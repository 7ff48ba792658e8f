import type { SortOrder, VariableReportSortKey } from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { learners, type VariableDataType } from '../../db/schema';
import { learnerDisplayName } from '../metrics/privacy';
import { filteredValues, typedValueColumn, type ValueFilters } from '../metrics/statistics.queries';
import type { ValueRelations } from '../metrics/value-source';
import { escapeLike } from '../variables/variables.queries';

// The variable report's own reads: a page of latest values with the
// learner beside each, and one learner's history. Where the values live
// (`metrics/value-source.ts`) and their statistics (`metrics/statistics.*`)
// belong to the metrics layer.

export type ReportRow = {
  learner_id: string;
  learner_name: string | null;
  /** The name as a public payload may show it (never an e-mail address). */
  learner_display_name: string;
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

/** How values sort: by their typed value, text without regard to case. */
function valueOrder(dataType: VariableDataType): SQL {
  return dataType === 'text' ? sql`lower(f.value)` : typedValueColumn(dataType);
}

/**
 * How a page sorts: `full` is the order, `valueRowFirst` its leading keys
 * that read only the value row (none for the learner's name). Rows that
 * come before the page by these keys come before it by the full order too.
 */
function reportOrder(
  dataType: VariableDataType,
  sort: VariableReportSortKey,
  order: SortOrder,
): { full: SQL; valueRowFirst: SQL | null } {
  const direction = sql.raw(order === 'asc' ? 'asc' : 'desc');
  switch (sort) {
    case 'learner':
      return {
        full: sql`lower(ln.name) ${direction} nulls last, ln.email ${direction}, f.learner_id, f.course_id`,
        valueRowFirst: null,
      };
    case 'value': {
      // Values that did not parse as the type go last either way.
      const value = sql`${valueOrder(dataType)} ${direction} nulls last`;
      return { full: sql`${value}, lower(ln.name), f.learner_id, f.course_id`, valueRowFirst: value };
    }
    case 'recordedAt': {
      const recorded = sql`f.recorded_at ${direction}, f.learner_id, f.course_id`;
      return { full: recorded, valueRowFirst: recorded };
    }
    case 'course': {
      const course = sql`lower(f.course_title) ${direction}, f.course_id`;
      return { full: sql`${course}, lower(ln.name), f.learner_id`, valueRowFirst: course };
    }
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
    filters: ValueFilters;
    q: string | undefined;
    sort: VariableReportSortKey;
    order: SortOrder;
    limit: number;
    offset: number;
  },
): Promise<ReportRow[]> {
  const values = filteredValues(input.relations.latest, input.dataType, input.filters);
  const order = reportOrder(input.dataType, input.sort, input.order);
  // Without a search, and sorted first by what the value row holds, the
  // rows up to the page's end (and every row tied with the last of them)
  // are cut from the values before any learner is looked up: one lookup per
  // row kept, not a join of every value with every learner. The full order
  // then picks the same page, because every latest value has its learner
  // (deleting a learner deletes its values, and the rollup follows in the
  // same statement).
  const source =
    !input.q && order.valueRowFirst
      ? sql`(select f.* from (${values}) f order by ${order.valueRowFirst}
              fetch first ${input.offset + input.limit} rows with ties)`
      : sql`(${values})`;
  const result = await db.execute<ReportRow>(sql`
    with f as ${source}
    select f.learner_id, ln.name as learner_name, ${learnerDisplayName('ln')} as learner_display_name,
           ln.email as learner_email, f.course_id, f.course_title,
           f.variable_id, f.value, f.value_number, f.value_boolean, f.value_date, f.recorded_at
    from f
    join ${learners} ln on ln.organization_id = ${input.organizationId} and ln.id = f.learner_id
    where ${searchCondition(input.q)}
    order by ${order.full}
    limit ${input.limit} offset ${input.offset}`);
  return result.rows;
}

/** How many latest values match a search of their learner (without one, the summary counts them). */
export async function countSearchedRows(
  db: Database,
  input: {
    organizationId: string;
    relations: ValueRelations;
    dataType: VariableDataType;
    filters: ValueFilters;
    q: string;
  },
): Promise<number> {
  const result = await db.execute<{ total: number }>(sql`
    with f as (${filteredValues(input.relations.latest, input.dataType, input.filters)})
    select count(*)::int as total
    from f
    join ${learners} ln on ln.organization_id = ${input.organizationId} and ln.id = f.learner_id
    where ${searchCondition(input.q)}`);
  return result.rows[0]?.total ?? 0;
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
