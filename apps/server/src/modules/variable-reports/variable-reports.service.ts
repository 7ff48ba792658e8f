import {
  LEARNING_MESSAGES,
  VARIABLE_COUNT_DEFINITIONS,
  VARIABLE_LEADERS_DEFINITION,
  VARIABLE_REPORT_MESSAGES,
  type LeaderRow,
  type SortOrder,
  type VariableChartResponse,
  type VariableDistribution,
  type VariableHistoryResponse,
  type VariableLeadersResponse,
  type VariableReportFilters,
  type VariableReportResponse,
  type VariableReportRow,
  type VariableReportSortKey,
  type VariableReportSubject,
  type VariableSummary,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import type { VariableDataType } from '../../db/schema';
import { AppError } from '../../errors';
import type { CsvColumn } from '../../lib/csv';
import { withoutEmails } from '../metrics/privacy';
import { cachedResult } from '../metrics/result-cache';
import {
  chooseTrendInterval,
  getCategories,
  getDateMonths,
  getHistogram,
  getLeaders,
  getNumberRange,
  getTrend,
  getValueSummary,
  isRankable,
  type ValueSummary,
} from '../metrics/statistics.service';
import {
  chatbotVariableSource,
  courseVariableSource,
  selectChatbotVariables,
  selectCourseVariables,
  valueRelations,
  type ValueRelations,
  type ValueSource,
} from '../metrics/value-source';
import {
  countSearchedRows,
  selectHistory,
  selectReportRows,
  type ReportRow,
} from './variable-reports.queries';

/**
 * What a variable report is about: every variable of the organization with
 * that name in its live courses (optionally one course of them), or one
 * course's variable.
 */
export type VariableSource =
  | { kind: 'variable'; organizationId: string; name: string; courseId?: string | undefined }
  | { kind: 'course_variable'; organizationId: string; courseId: string; name: string }
  /** The chatbot variables of one name, every agent's or one agent's (`chatbotId`). */
  | { kind: 'chatbot_variable'; organizationId: string; name: string; chatbotId?: string | undefined };

export type ResolvedSource = {
  organizationId: string;
  subject: VariableReportSubject;
  dataType: VariableDataType;
  /** The metrics layer's value source the report reads. */
  source: ValueSource;
  relations: ValueRelations;
};

const TOP_VALUES = 10;
const HISTORY_LIMIT = 200;

function toIso(value: Date | string): string;
function toIso(value: Date | string | null): string | null;
function toIso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/**
 * Finds the source's variables; a name or course the organization does not
 * have (or has only in deleted courses) is a 404, the same as another
 * organization's. Variables of one name in several courses may disagree on
 * the type: they are then read as text, which every value has.
 */
export async function resolveVariableSource(db: Database, input: VariableSource): Promise<ResolvedSource> {
  if (input.kind === 'chatbot_variable') return resolveChatbotVariableSource(db, input);
  const rows = await selectCourseVariables(db, {
    organizationId: input.organizationId,
    name: input.name,
    courseId: input.courseId,
  });
  const first = rows[0];
  if (!first) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.variableNotFound);
  const source = courseVariableSource(input.organizationId, rows);
  return {
    organizationId: input.organizationId,
    dataType: source.dataType,
    subject: {
      name: first.name,
      title: rows.find((row) => row.title)?.title ?? null,
      dataType: source.dataType,
      courseId: input.kind === 'course_variable' ? input.courseId : null,
      courses: rows.map((row) => ({ id: row.course_id, courseTitle: row.course_title, variableId: row.id })),
    },
    source,
    relations: valueRelations(source),
  };
}

/** Chatbot variables read as course variables do, with the agents in the place of the courses. */
async function resolveChatbotVariableSource(
  db: Database,
  input: Extract<VariableSource, { kind: 'chatbot_variable' }>,
): Promise<ResolvedSource> {
  const rows = await selectChatbotVariables(db, input);
  const first = rows[0];
  if (!first) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.variableNotFound);
  const source = chatbotVariableSource(input.organizationId, rows);
  return {
    organizationId: input.organizationId,
    dataType: source.dataType,
    subject: {
      name: first.name,
      title: rows.find((row) => row.title)?.title ?? null,
      dataType: source.dataType,
      courseId: null,
      courses: rows.map((row) => ({ id: row.chatbot_id, courseTitle: row.chatbot_name, variableId: row.id })),
    },
    source,
    relations: valueRelations(source),
  };
}

function toReportRow(row: ReportRow, includeEmail: boolean): VariableReportRow {
  return {
    learnerId: row.learner_id,
    // Members see the name as sent beside the e-mail; a public payload shows neither an address nor a name that is one.
    learnerName: includeEmail ? row.learner_name : row.learner_display_name,
    ...(includeEmail ? { learnerEmail: row.learner_email } : {}),
    courseId: row.course_id,
    courseTitle: row.course_title,
    variableId: row.variable_id,
    value: includeEmail ? row.value : withoutEmails(row.value),
    valueNumber: row.value_number === null ? null : Number(row.value_number),
    valueBoolean: row.value_boolean,
    valueDate: toIso(row.value_date),
    recordedAt: toIso(row.recorded_at),
  };
}

function toVariableSummary(
  dataType: VariableDataType,
  summary: ValueSummary,
  topValues: { value: string; count: number }[],
): VariableSummary {
  const isNumber = dataType === 'number';
  const isBoolean = dataType === 'boolean';
  const isDate = dataType === 'date';
  const numeric = isNumber ? summary.numeric : null;
  const answered = summary.trueCount + summary.falseCount;
  return {
    dataType,
    learners: summary.learners,
    values: summary.values,
    count: summary.values,
    definitions: { ...VARIABLE_COUNT_DEFINITIONS },
    distinct: summary.distinctValues,
    mean: numeric?.mean ?? null,
    median: numeric?.median ?? null,
    min: numeric?.min ?? null,
    max: numeric?.max ?? null,
    stddev: numeric?.standardDeviation ?? null,
    topValues,
    trueCount: isBoolean ? summary.trueCount : null,
    falseCount: isBoolean ? summary.falseCount : null,
    trueRate: isBoolean && answered > 0 ? summary.trueCount / answered : null,
    earliest: isDate ? summary.dates.earliest : null,
    latest: isDate ? summary.dates.latest : null,
  };
}

/** The statistics of the filtered latest values, the fields of the variable's type filled. */
export async function getVariableSummary(
  db: Database,
  resolved: ResolvedSource,
  filters: VariableReportFilters,
): Promise<VariableSummary> {
  const { source, dataType } = resolved;
  const [summary, categories] = await Promise.all([
    getValueSummary(db, source, filters),
    dataType === 'text' ? getCategories(db, source, TOP_VALUES, filters) : Promise.resolve([]),
  ]);
  const topValues = categories.flatMap((category) =>
    category.value === null ? [] : [{ value: category.value, count: category.count }],
  );
  return toVariableSummary(dataType, summary, topValues);
}

export type ReportInput = {
  filters: VariableReportFilters;
  q?: string | undefined;
  sort: VariableReportSortKey;
  order: SortOrder;
  page: number;
  pageSize: number;
};

/**
 * One page of latest values with the statistics. E-mails only for members:
 * a shared view (`includeEmail: false`) gets display names and values with
 * any e-mail address hidden.
 */
export async function getVariableReport(
  db: Database,
  source: ResolvedSource,
  input: ReportInput,
  options: { includeEmail: boolean },
): Promise<VariableReportResponse> {
  const base = {
    organizationId: source.organizationId,
    relations: source.relations,
    dataType: source.dataType,
    filters: input.filters,
    q: input.q,
  };
  // The page and the count are kept until the organization's data changes,
  // as the summary is (the source and these arguments are all they read).
  const page = {
    sort: input.sort,
    order: input.order,
    limit: input.pageSize,
    offset: (input.page - 1) * input.pageSize,
  };
  const kept = <T>(statement: string, args: unknown, compute: () => Promise<T>) =>
    cachedResult(
      db,
      source.organizationId,
      `variable-report:${statement}:${JSON.stringify([source.source, input.filters, input.q ?? null, args])}`,
      compute,
    );
  // Without a search the rows counted are the summary's values (the same
  // filtered latest values), so only a search needs a count of its own.
  const { q } = input;
  const [rows, searched, summary] = await Promise.all([
    kept('rows', page, () => selectReportRows(db, { ...base, ...page })),
    q ? kept('count', null, () => countSearchedRows(db, { ...base, q })) : Promise.resolve(null),
    getVariableSummary(db, source, input.filters),
  ]);
  return {
    variable: source.subject,
    items: rows.map((row) => toReportRow(row, options.includeEmail)),
    total: searched ?? summary.values,
    page: input.page,
    pageSize: input.pageSize,
    summary,
  };
}

/** Every matching latest value (up to `maxRows`) in the report's order, for a CSV export. */
export async function exportVariableReport(
  db: Database,
  source: ResolvedSource,
  input: Omit<ReportInput, 'page' | 'pageSize'>,
  maxRows: number,
): Promise<VariableReportRow[]> {
  const rows = await selectReportRows(db, {
    organizationId: source.organizationId,
    relations: source.relations,
    dataType: source.dataType,
    filters: input.filters,
    q: input.q,
    sort: input.sort,
    order: input.order,
    limit: maxRows,
    offset: 0,
  });
  return rows.map((row) => toReportRow(row, true));
}

export const variableReportCsvColumns: readonly CsvColumn<VariableReportRow>[] = [
  { header: 'Learner', value: (row) => row.learnerName },
  { header: 'Email', value: (row) => row.learnerEmail },
  { header: 'Course', value: (row) => row.courseTitle },
  { header: 'Value', value: (row) => row.value },
  { header: 'Recorded at', value: (row) => row.recordedAt },
  { header: 'Learner ID', value: (row) => row.learnerId },
  { header: 'Course ID', value: (row) => row.courseId },
];

/**
 * The distribution of the latest values: numbers in the metrics layer's
 * nice bins (the AI summary names the same ones), text as the top values
 * and "Other", true/false/unset, dates by month. Charts leave no e-mail
 * address in a label.
 */
export async function getVariableDistribution(
  db: Database,
  resolved: ResolvedSource,
  filters: VariableReportFilters,
): Promise<VariableDistribution> {
  const { source } = resolved;
  switch (resolved.dataType) {
    case 'number': {
      const range = await getNumberRange(db, source, filters);
      return { kind: 'histogram', bins: await getHistogram(db, source, range, filters) };
    }
    case 'text': {
      const categories = await getCategories(db, source, TOP_VALUES, filters);
      return {
        kind: 'categories',
        items: categories.map((category) => ({
          label: category.value === null ? 'Other' : category.value === '' ? '(empty)' : category.value,
          count: category.count,
        })),
      };
    }
    case 'boolean': {
      const summary = await getValueSummary(db, source, filters);
      const unset = summary.values - summary.trueCount - summary.falseCount;
      return {
        kind: 'categories',
        items:
          summary.values === 0
            ? []
            : [
                { label: 'True', count: summary.trueCount },
                { label: 'False', count: summary.falseCount },
                { label: 'Unset', count: unset },
              ],
      };
    }
    case 'date': {
      const months = await getDateMonths(db, source, filters);
      return { kind: 'categories', items: months.map((row) => ({ label: row.month, count: row.count })) };
    }
  }
}

/**
 * Distribution of the latest values and the trend of every value over the
 * filtered range, the bucket not over yet (today, this week) flagged.
 */
export async function getVariableChart(
  db: Database,
  resolved: ResolvedSource,
  input: { filters: VariableReportFilters; interval?: 'day' | 'week' | undefined; now?: Date },
): Promise<VariableChartResponse> {
  const { source, dataType } = resolved;
  const now = input.now ?? new Date();
  const interval = input.interval ?? (await chooseTrendInterval(db, source, input.filters));
  const [distribution, trend] = await Promise.all([
    getVariableDistribution(db, resolved, input.filters),
    getTrend(db, source, { interval, axis: { kind: 'data' }, now, filters: input.filters }),
  ]);
  return {
    variable: resolved.subject,
    distribution,
    trend: {
      interval,
      points: trend.map((point) => ({
        date: point.date,
        count: point.count,
        mean: dataType === 'number' ? point.mean : null,
        isPartial: point.isPartial,
      })),
    },
  };
}

/**
 * The learners ranked by their latest value, each once: numbers highest
 * first by default, dates latest first; `order=asc` reverses. Text and
 * true/false values have no order a ranking could honestly use: 400.
 */
export async function getVariableLeaders(
  db: Database,
  resolved: ResolvedSource,
  input: { filters: VariableReportFilters; order: SortOrder; limit: number },
): Promise<VariableLeadersResponse> {
  const { source } = resolved;
  const dataType = source.dataType;
  if (!isRankable(dataType)) {
    throw new AppError(
      'BAD_REQUEST',
      VARIABLE_REPORT_MESSAGES.notRankable(dataType === 'boolean' ? 'true/false' : dataType),
    );
  }
  const leaders = await getLeaders(db, { ...source, dataType }, input);
  const items: LeaderRow[] = leaders.map((leader) => ({
    rank: leader.rank,
    learnerId: leader.learnerId,
    learnerName: leader.learnerName,
    courseTitle: leader.courseTitle,
    value: leader.value,
    valueNumber: leader.valueNumber,
    recordedAt: leader.recordedAt,
  }));
  return {
    variable: resolved.subject,
    order: input.order,
    limit: input.limit,
    definition: VARIABLE_LEADERS_DEFINITION,
    items,
  };
}

/** One learner's values of the source, newest first (the latest 200). */
export async function getVariableHistory(
  db: Database,
  source: ResolvedSource,
  learnerId: string,
): Promise<VariableHistoryResponse> {
  const rows = await selectHistory(db, { relations: source.relations, learnerId, limit: HISTORY_LIMIT });
  return {
    learnerId,
    items: rows.map((row) => ({
      courseId: row.course_id,
      courseTitle: row.course_title,
      value: row.value,
      recordedAt: toIso(row.recorded_at),
    })),
  };
}

/** The filter fields of a parsed query. */
export function pickFilters(query: VariableReportFilters): VariableReportFilters {
  return {
    from: query.from,
    to: query.to,
    min: query.min,
    max: query.max,
    contains: query.contains,
    value: query.value,
  };
}
