import {
  LEARNING_MESSAGES,
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
import {
  countReportRows,
  courseVariableRelations,
  selectBooleanDistribution,
  selectDateDistribution,
  selectHistogram,
  selectHistory,
  selectHistorySpanDays,
  selectLeaders,
  selectReportRows,
  selectSourceVariables,
  selectSummary,
  selectTextDistribution,
  selectTopValues,
  selectTrend,
  type ReportRow,
  type ValueRelations,
} from './variable-reports.queries';

/**
 * What a variable report is about: every variable of the organization with
 * that name in its live courses (optionally one course of them), or one
 * course's variable. The chatbot variables will be a third kind.
 */
export type VariableSource =
  | { kind: 'variable'; organizationId: string; name: string; courseId?: string | undefined }
  | { kind: 'course_variable'; organizationId: string; courseId: string; name: string };

export type ResolvedSource = {
  organizationId: string;
  subject: VariableReportSubject;
  dataType: VariableDataType;
  relations: ValueRelations;
};

const HISTOGRAM_BINS = 10;
const TOP_VALUES = 10;
const HISTORY_LIMIT = 200;
/** Above this many days of values, the trend counts by week instead of by day. */
const DAILY_TREND_MAX_DAYS = 45;

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
export async function resolveVariableSource(db: Database, source: VariableSource): Promise<ResolvedSource> {
  const rows = await selectSourceVariables(db, source);
  const first = rows[0];
  if (!first) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.variableNotFound);
  const dataType: VariableDataType = rows.every((row) => row.data_type === first.data_type)
    ? first.data_type
    : 'text';
  return {
    organizationId: source.organizationId,
    dataType,
    subject: {
      name: first.name,
      title: rows.find((row) => row.title)?.title ?? null,
      dataType,
      courseId: source.kind === 'course_variable' ? source.courseId : null,
      courses: rows.map((row) => ({ id: row.course_id, courseTitle: row.course_title, variableId: row.id })),
    },
    relations: courseVariableRelations(
      source.organizationId,
      rows.map((row) => row.id),
    ),
  };
}

function toReportRow(row: ReportRow, includeEmail: boolean): VariableReportRow {
  return {
    learnerId: row.learner_id,
    learnerName: row.learner_name,
    ...(includeEmail ? { learnerEmail: row.learner_email } : {}),
    courseId: row.course_id,
    courseTitle: row.course_title,
    variableId: row.variable_id,
    value: row.value,
    valueNumber: row.value_number === null ? null : Number(row.value_number),
    valueBoolean: row.value_boolean,
    valueDate: toIso(row.value_date),
    recordedAt: toIso(row.recorded_at),
  };
}

const num = (value: number | string | null): number | null => (value === null ? null : Number(value));

/** The statistics of the filtered latest values, the fields of the variable's type filled. */
export async function getVariableSummary(
  db: Database,
  source: ResolvedSource,
  filters: VariableReportFilters,
): Promise<VariableSummary> {
  const { dataType, relations } = source;
  const [row, topValues] = await Promise.all([
    selectSummary(db, { relations, dataType, filters }),
    dataType === 'text'
      ? selectTopValues(db, { relations, dataType, filters, limit: TOP_VALUES })
      : Promise.resolve([]),
  ]);
  const isNumber = dataType === 'number';
  const isBoolean = dataType === 'boolean';
  const isDate = dataType === 'date';
  const answered = row.true_count + row.false_count;
  return {
    dataType,
    count: row.count,
    distinct: row.distinct_values,
    mean: isNumber ? num(row.mean) : null,
    median: isNumber ? num(row.median) : null,
    min: isNumber ? num(row.min) : null,
    max: isNumber ? num(row.max) : null,
    stddev: isNumber ? num(row.stddev) : null,
    topValues: topValues.map((top) => ({ value: top.value, count: top.count })),
    trueCount: isBoolean ? row.true_count : null,
    falseCount: isBoolean ? row.false_count : null,
    trueRate: isBoolean && answered > 0 ? row.true_count / answered : null,
    earliest: isDate ? toIso(row.earliest) : null,
    latest: isDate ? toIso(row.latest) : null,
  };
}

export type ReportInput = {
  filters: VariableReportFilters;
  q?: string | undefined;
  sort: VariableReportSortKey;
  order: SortOrder;
  page: number;
  pageSize: number;
};

/** One page of latest values with the statistics; e-mails only for members (never in shared views). */
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
  const [rows, total, summary] = await Promise.all([
    selectReportRows(db, {
      ...base,
      sort: input.sort,
      order: input.order,
      limit: input.pageSize,
      offset: (input.page - 1) * input.pageSize,
    }),
    countReportRows(db, base),
    getVariableSummary(db, source, input.filters),
  ]);
  return {
    variable: source.subject,
    items: rows.map((row) => toReportRow(row, options.includeEmail)),
    total,
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
  { header: 'E-mail', value: (row) => row.learnerEmail },
  { header: 'Course', value: (row) => row.courseTitle },
  { header: 'Value', value: (row) => row.value },
  { header: 'Recorded at', value: (row) => row.recordedAt },
  { header: 'Learner ID', value: (row) => row.learnerId },
  { header: 'Course ID', value: (row) => row.courseId },
];

export async function getVariableDistribution(
  db: Database,
  source: ResolvedSource,
  filters: VariableReportFilters,
): Promise<VariableDistribution> {
  const { relations } = source;
  switch (source.dataType) {
    case 'number': {
      const bins = await selectHistogram(db, { relations, filters, bins: HISTOGRAM_BINS });
      return {
        kind: 'histogram',
        bins: bins.map((bin) => ({ from: Number(bin.low), to: Number(bin.high), count: bin.count })),
      };
    }
    case 'text': {
      const rows = await selectTextDistribution(db, { relations, filters, top: TOP_VALUES });
      return {
        kind: 'categories',
        items: rows.map((row) => ({
          label: row.is_other ? 'Other' : row.label === '' || row.label === null ? '(empty)' : row.label,
          count: row.count,
        })),
      };
    }
    case 'boolean': {
      const counts = await selectBooleanDistribution(db, { relations, filters });
      const total = counts.true_count + counts.false_count + counts.unset_count;
      return {
        kind: 'categories',
        items:
          total === 0
            ? []
            : [
                { label: 'True', count: counts.true_count },
                { label: 'False', count: counts.false_count },
                { label: 'Unset', count: counts.unset_count },
              ],
      };
    }
    case 'date': {
      const months = await selectDateDistribution(db, { relations, filters });
      return { kind: 'categories', items: months.map((row) => ({ label: row.month, count: row.count })) };
    }
  }
}

/** Distribution of the latest values and the trend of every value over the filtered range. */
export async function getVariableChart(
  db: Database,
  source: ResolvedSource,
  input: { filters: VariableReportFilters; interval?: 'day' | 'week' | undefined },
): Promise<VariableChartResponse> {
  const { relations, dataType } = source;
  const interval =
    input.interval ??
    ((await selectHistorySpanDays(db, { relations, dataType, filters: input.filters })) > DAILY_TREND_MAX_DAYS
      ? 'week'
      : 'day');
  const [distribution, trend] = await Promise.all([
    getVariableDistribution(db, source, input.filters),
    selectTrend(db, { relations, dataType, filters: input.filters, interval }),
  ]);
  return {
    variable: source.subject,
    distribution,
    trend: {
      interval,
      points: trend.map((point) => ({
        date: point.bucket,
        count: point.count,
        mean: dataType === 'number' ? num(point.mean) : null,
      })),
    },
  };
}

/**
 * The learners ranked by their latest value: numbers highest first by
 * default, dates latest first; `order=asc` reverses. Text and true/false
 * values have no order a ranking could honestly use: 400.
 */
export async function getVariableLeaders(
  db: Database,
  source: ResolvedSource,
  input: { filters: VariableReportFilters; order: SortOrder; limit: number },
): Promise<VariableLeadersResponse> {
  const { dataType } = source;
  if (dataType !== 'number' && dataType !== 'date') {
    throw new AppError(
      'BAD_REQUEST',
      VARIABLE_REPORT_MESSAGES.notRankable(dataType === 'boolean' ? 'true/false' : dataType),
    );
  }
  const rows = await selectLeaders(db, {
    organizationId: source.organizationId,
    relations: source.relations,
    dataType,
    filters: input.filters,
    order: input.order,
    limit: input.limit,
  });
  const items: LeaderRow[] = rows.map((row) => ({
    rank: row.rank,
    learnerId: row.learner_id,
    learnerName: row.learner_name,
    courseTitle: row.course_title,
    value: row.value,
    valueNumber: num(row.value_number),
    recordedAt: toIso(row.recorded_at),
  }));
  return { variable: source.subject, order: input.order, limit: input.limit, items };
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
