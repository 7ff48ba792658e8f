import { randomBytes } from 'node:crypto';
import {
  CUSTOM_REPORT_MESSAGES,
  MAX_REPORT_NAME_LENGTH,
  customReportConfigSchema,
  reportQuerySchema,
  resolveChart,
  type CustomReport,
  type CustomReportConfig,
  type CustomReportDraft,
  type CustomReportListItem,
  type PublicReportResponse,
  type ReportCatalog,
  type ReportData,
  type ReportItem,
  type ReportItemData,
  type ReportItemView,
  type ReportQuery,
  type ReportResultRow,
  type ReportSharing,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { statementSlotsOf } from '../../db/statement-slots';
import { AppError } from '../../errors';
import type { CsvColumn } from '../../lib/csv';
import { withoutEmails } from '../metrics/privacy';
import { cachedRecentResult } from '../metrics/result-cache';
import { findOrganizationById } from '../organizations/organizations.queries';
import {
  describeSubject,
  effectiveQuery,
  resolvePeriod,
  runReportQuery,
  type SubjectInfo,
} from '../metrics/report-query.service';
import { chatbotValueType, selectChatbotVariables } from '../metrics/value-source';
import {
  CATALOG_LIMIT,
  claimPublicVisit,
  countReports,
  deleteReportRow,
  duplicateReportRows,
  findCreatorName,
  findPublicReport,
  findReport,
  findUnknownReferences,
  insertReport,
  replaceReport,
  selectCatalog,
  selectCatalogValues,
  selectReportItems,
  selectReportPage,
  updateSharing,
  type CustomReportRow,
  type ReportItemRow,
  type UnknownKind,
  type WriteOutcome,
} from './custom-reports.queries';

/** The start of the report's own "last N days", as its items resolve it. */
function reportSince(config: CustomReportConfig, now: Date): Date | null {
  return config.periodDays ? resolvePeriod({ kind: 'last_days', days: config.periodDays }, now).from : null;
}

function toIso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** The stored config, read leniently: settings a newer builder wrote and this one does not know are dropped. */
export function readConfig(config: Record<string, unknown>): CustomReportConfig {
  const parsed = customReportConfigSchema.safeParse({
    periodDays: config.periodDays ?? null,
    limit: config.limit ?? null,
  });
  return parsed.success ? parsed.data : { periodDays: null, limit: null };
}

// ---- list and read -----------------------------------------------------------

export async function listReports(
  db: Database,
  input: {
    organizationId: string;
    q?: string | undefined;
    sort: 'createdAt' | 'name' | 'updatedAt';
    order: 'asc' | 'desc';
    page: number;
    pageSize: number;
  },
): Promise<{ items: CustomReportListItem[]; total: number; page: number; pageSize: number }> {
  const [rows, total] = await Promise.all([
    selectReportPage(db, {
      organizationId: input.organizationId,
      q: input.q,
      sort: input.sort,
      order: input.order,
      limit: input.pageSize,
      offset: (input.page - 1) * input.pageSize,
    }),
    countReports(db, input.organizationId, input.q),
  ]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      name: row.name,
      description: row.description,
      reportType: row.report_type,
      isPublic: row.is_public,
      viewCount: Number(row.view_count),
      itemCount: Number(row.item_count),
      createdByName: row.created_by_name,
      createdAt: toIso(row.created_at),
      updatedAt: toIso(row.updated_at),
    })),
    total,
    page: input.page,
    pageSize: input.pageSize,
  };
}

export { questionLabel } from '../metrics/report-query.service';

/**
 * A stored item's query, read leniently: a query that no longer parses (a
 * newer server wrote it, or what it names changed shape) reads as nothing,
 * and its item shows as unavailable rather than failing the report.
 */
export function readItemQuery(stored: unknown): ReportQuery | null {
  const parsed = reportQuerySchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

type ItemWithSubject = { row: ReportItemRow; query: ReportQuery | null; info: SubjectInfo };

const GONE: SubjectInfo = {
  isAvailable: false,
  label: 'No longer available',
  courseTitle: null,
  dataType: null,
};

/** Each item with its query read and its subject described (one small query per item). */
async function describeItems(
  db: Database,
  organizationId: string,
  rows: readonly ReportItemRow[],
): Promise<ItemWithSubject[]> {
  return mapLimited(rows, itemConcurrency(db), async (row) => {
    const query = readItemQuery(row.query);
    const info = query ? await describeSubject(db, organizationId, query.subject) : GONE;
    return { row, query, info };
  });
}

function toItemView({ row, query, info }: ItemWithSubject): ReportItemView {
  return {
    id: row.id,
    displayOrder: row.display_order,
    displayName: row.display_name,
    chart: row.chart,
    query: query as ReportQuery,
    label: info.label,
    courseTitle: info.courseTitle,
    dataType: info.dataType,
  };
}

/**
 * Items of one report computed a few at a time: together rather than one
 * after another, without taking every pooled connection for one report.
 */
const ITEM_CONCURRENCY = 4;

/** Items at once on `db`: one where statements only queue (PGlite), so other requests wait for one at most. */
const itemConcurrency = (db: Database) => Math.min(ITEM_CONCURRENCY, statementSlotsOf(db));

async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function loadReport(db: Database, organizationId: string, reportId: string): Promise<CustomReportRow> {
  const report = await findReport(db, organizationId, reportId);
  if (!report) throw new AppError('NOT_FOUND', CUSTOM_REPORT_MESSAGES.notFound);
  return report;
}

export async function getReport(
  db: Database,
  organizationId: string,
  reportId: string,
): Promise<CustomReport> {
  const report = await loadReport(db, organizationId, reportId);
  const [rows, createdByName] = await Promise.all([
    selectReportItems(db, organizationId, reportId),
    findCreatorName(db, report.createdBy),
  ]);
  const items = await describeItems(db, organizationId, rows);
  return {
    id: report.id,
    name: report.name,
    description: report.description,
    reportType: report.reportType,
    config: readConfig(report.config),
    isPublic: report.isPublic,
    publicShareToken: report.isPublic ? report.publicShareToken : null,
    viewCount: report.viewCount,
    itemCount: rows.length,
    createdByName,
    createdAt: report.createdAt.toISOString(),
    updatedAt: report.updatedAt.toISOString(),
    items: items.filter((item) => item.query !== null).map(toItemView),
  };
}

// ---- writes ------------------------------------------------------------------

const UNKNOWN_MESSAGES: Record<UnknownKind, string> = {
  variables: CUSTOM_REPORT_MESSAGES.unknownVariables,
  chatbotVariables: CUSTOM_REPORT_MESSAGES.unknownChatbotVariables,
  questions: CUSTOM_REPORT_MESSAGES.unknownQuestions,
  courses: CUSTOM_REPORT_MESSAGES.unknownCourses,
  variableNames: CUSTOM_REPORT_MESSAGES.unknownVariableNames,
  mixedTypes: CUSTOM_REPORT_MESSAGES.mixedVariableTypes,
  mixedChatbotTypes: CUSTOM_REPORT_MESSAGES.mixedChatbotVariableTypes,
};

function fieldsOf(draft: CustomReportDraft) {
  return {
    name: draft.name,
    description: draft.description,
    reportType: draft.reportType,
    config: { periodDays: draft.config.periodDays, limit: draft.config.limit },
  };
}

function reportIdOf(outcome: WriteOutcome | { status: 'not-found' }): string {
  if (outcome.status === 'not-found') throw new AppError('NOT_FOUND', CUSTOM_REPORT_MESSAGES.notFound);
  if (outcome.status === 'unknown') throw new AppError('BAD_REQUEST', UNKNOWN_MESSAGES[outcome.what]);
  return outcome.reportId;
}

/**
 * A new report of the organization, made by the signed-in person (spec
 * section 7: organization_id and created_by are set here, never by the
 * client). Every variable, question and course must be the organization's.
 */
export async function createReport(
  db: Database,
  input: { organizationId: string; userId: string; draft: CustomReportDraft },
): Promise<CustomReport> {
  const outcome = await insertReport(db, {
    organizationId: input.organizationId,
    userId: input.userId,
    fields: fieldsOf(input.draft),
    items: input.draft.items,
  });
  return getReport(db, input.organizationId, reportIdOf(outcome));
}

export async function updateReport(
  db: Database,
  input: { organizationId: string; reportId: string; draft: CustomReportDraft },
): Promise<CustomReport> {
  const outcome = await replaceReport(db, {
    organizationId: input.organizationId,
    reportId: input.reportId,
    fields: fieldsOf(input.draft),
    items: input.draft.items,
  });
  return getReport(db, input.organizationId, reportIdOf(outcome));
}

export async function deleteReport(db: Database, organizationId: string, reportId: string): Promise<void> {
  if (!(await deleteReportRow(db, organizationId, reportId))) {
    throw new AppError('NOT_FOUND', CUSTOM_REPORT_MESSAGES.notFound);
  }
}

export function copyName(name: string): string {
  const copy = `Copy of ${name}`;
  return copy.length <= MAX_REPORT_NAME_LENGTH ? copy : `${copy.slice(0, MAX_REPORT_NAME_LENGTH - 1)}…`;
}

export async function duplicateReport(
  db: Database,
  input: { organizationId: string; reportId: string; userId: string },
): Promise<CustomReport> {
  const source = await loadReport(db, input.organizationId, input.reportId);
  const id = await duplicateReportRows(db, { ...input, name: copyName(source.name) });
  if (!id) throw new AppError('NOT_FOUND', CUSTOM_REPORT_MESSAGES.notFound);
  return getReport(db, input.organizationId, id);
}

// ---- data --------------------------------------------------------------------

async function assembleItem(
  db: Database,
  organizationId: string,
  item: ItemWithSubject,
  config: CustomReportConfig,
  options: { now: Date; isPublic: boolean },
): Promise<ReportItemData> {
  const { row, query, info } = item;
  const title = row.display_name ?? info.label;
  const base = { itemId: row.id, title, courseTitle: info.courseTitle, dataType: info.dataType };
  if (!query || !info.isAvailable) {
    return {
      ...base,
      query: (query ?? row.query) as ReportQuery,
      chart: 'table',
      available: false,
      result: null,
    };
  }
  const runOptions = {
    now: options.now,
    defaultPeriodDays: config.periodDays,
    defaultLimit: config.limit,
    isPublic: options.isPublic,
  };
  try {
    const { query: effective, result } = await runReportQuery(db, organizationId, query, info, runOptions);
    return {
      ...base,
      query: effective,
      chart: resolveChart(row.chart, { ...effective, measure: result.measure }, result.groupCount),
      available: true,
      result,
    };
  } catch (error) {
    // A saved item that no longer fits its data (the variable changed type)
    // shows as unavailable instead of failing the whole report.
    if (error instanceof AppError && error.code === 'VALIDATION_ERROR') {
      return { ...base, query, chart: 'table', available: false, result: null };
    }
    throw error;
  }
}

/**
 * A report's data: for each item its query run by the metrics layer (a few
 * rows per item, aggregated in the database).
 */
export async function assembleReportData(
  db: Database,
  organizationId: string,
  config: CustomReportConfig,
  rows: readonly ReportItemRow[],
  options: { now?: Date; isPublic?: boolean } = {},
): Promise<ReportData> {
  const now = options.now ?? new Date();
  const since = reportSince(config, now);
  const items = await describeItems(db, organizationId, rows);
  const data = await mapLimited(items, itemConcurrency(db), (item) =>
    assembleItem(db, organizationId, item, config, { now, isPublic: options.isPublic ?? false }),
  );
  return {
    generatedAt: now.toISOString(),
    refreshing: false,
    since: since?.toISOString() ?? null,
    items: data,
  };
}

/**
 * A saved report's data as a whole, kept (decision 021): a report that was
 * slow to compute over many learners is served as computed a short while
 * ago, with that time and `refreshing`, while its new figures are computed
 * for the next visit; `fresh` waits for current ones. The key is everything
 * the data is made of besides the organization's data (which the version
 * follows): the report's settings and items, and whether it is seen publicly.
 */
async function keptReportData(
  db: Database,
  organizationId: string,
  report: { id: string; config: Record<string, unknown> },
  rows: readonly ReportItemRow[],
  options: { isPublic: boolean; fresh: boolean },
): Promise<ReportData> {
  const key = `custom-report:${JSON.stringify([report.id, options.isPublic, report.config, rows])}`;
  const kept = await cachedRecentResult(
    db,
    organizationId,
    key,
    () =>
      assembleReportData(db, organizationId, readConfig(report.config), rows, { isPublic: options.isPublic }),
    { fresh: options.fresh, learnersOf: reportLearners },
  );
  return { ...kept.value, refreshing: kept.refreshing };
}

/** The most learners any item of the report counts: how large the organization's data behind it is. */
function reportLearners(data: ReportData): number {
  return Math.max(0, ...data.items.map((item) => item.result?.total.learners ?? 0));
}

export async function getReportData(
  db: Database,
  organizationId: string,
  reportId: string,
  options: { fresh?: boolean } = {},
): Promise<{ report: CustomReportRow; data: ReportData }> {
  const report = await loadReport(db, organizationId, reportId);
  const items = await selectReportItems(db, organizationId, reportId);
  const data = await keptReportData(db, organizationId, report, items, {
    isPublic: false,
    fresh: options.fresh ?? false,
  });
  return { report, data };
}

/**
 * The data of a report being built (the builder's live preview): the same
 * checks as saving (everything named must be the organization's), nothing
 * stored. A problem with one item is that item's 400.
 */
export async function previewReport(
  db: Database,
  organizationId: string,
  input: { config: CustomReportConfig; items: readonly ReportItem[] },
): Promise<ReportData> {
  const unknown = await findUnknownReferences(db, organizationId, input.items);
  if (unknown) throw new AppError('BAD_REQUEST', UNKNOWN_MESSAGES[unknown]);
  const now = new Date();
  const rows: ReportItemRow[] = input.items.map((item, index) => ({
    id: `preview-${index}`,
    display_order: index,
    display_name: item.displayName,
    chart: item.chart,
    query: item.query,
  }));
  const described = await describeItems(db, organizationId, rows);
  // Unlike a saved report, a preview says what is wrong with an item.
  for (const item of described) {
    if (item.query && item.info.isAvailable) effectiveQuery(item.query, item.info, { now });
  }
  const data = await mapLimited(described, itemConcurrency(db), (item) =>
    assembleItem(db, organizationId, item, input.config, { now, isPublic: false }),
  );
  const since = reportSince(input.config, now);
  return {
    generatedAt: now.toISOString(),
    refreshing: false,
    since: since?.toISOString() ?? null,
    items: data,
  };
}

export type CsvRow = { item: ReportItemData; row: ReportResultRow | null };

/** The report's data as rows of a CSV: one per group of each item (or one per item without data). */
export function reportCsvRows(data: ReportData): CsvRow[] {
  return data.items.flatMap((item): CsvRow[] => {
    const rows = item.result
      ? [...item.result.rows, ...(item.result.others ? [item.result.others] : [])]
      : [];
    return rows.length === 0 ? [{ item, row: null }] : rows.map((row) => ({ item, row }));
  });
}

const isAgentItem = (item: ReportItemData) => item.query.subject.kind === 'chatbot_variable';

export const reportCsvColumns: readonly CsvColumn<CsvRow>[] = [
  { header: 'Item', value: ({ item }) => item.title },
  // `courseTitle` names the agent (or agents) of an agent variable: its own column, not a course.
  { header: 'Course', value: ({ item }) => (isAgentItem(item) ? null : item.courseTitle) },
  { header: 'Agent', value: ({ item }) => (isAgentItem(item) ? item.courseTitle : null) },
  { header: 'Measure', value: ({ item }) => item.result?.measure.label },
  { header: 'Breakdown', value: ({ item }) => item.result?.breakdown.label },
  { header: 'Group', value: ({ row }) => row?.label },
  { header: 'Value', value: ({ row }) => row?.value },
  { header: 'Learners', value: ({ row }) => row?.learners ?? 0 },
  { header: 'Count', value: ({ row }) => row?.count ?? 0 },
  { header: 'Latest value', value: ({ row }) => row?.detail },
  { header: 'Partial period', value: ({ row }) => (row?.isPartial ? 'yes' : '') },
];

// ---- sharing -----------------------------------------------------------------

/** A share token: 256 random bits, URL-safe (43 characters). */
export function newShareToken(): string {
  return randomBytes(32).toString('base64url');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

function toSharing(row: {
  isPublic: boolean;
  publicShareToken: string | null;
  viewCount: number;
}): ReportSharing {
  return {
    isPublic: row.isPublic,
    publicShareToken: row.isPublic ? row.publicShareToken : null,
    viewCount: row.viewCount,
  };
}

/**
 * Switches public sharing: on creates a new token (unless already on, which
 * keeps the link); off removes the token, so the link stops working at once.
 * The activity feed records each change.
 */
export async function setReportPublic(
  db: Database,
  input: { organizationId: string; reportId: string; userId: string; isPublic: boolean },
): Promise<ReportSharing> {
  const next = await updateSharing(db, {
    organizationId: input.organizationId,
    reportId: input.reportId,
    decide: (current) => {
      if (current.isPublic === input.isPublic) return null;
      return { token: input.isPublic ? newShareToken() : null };
    },
    activity: (_, after) => ({
      organizationId: input.organizationId,
      actorUserId: input.userId,
      kind: after.isPublic ? 'report.shared' : 'report.unshared',
      subjectType: 'custom_report',
      subjectId: input.reportId,
      summary: after.isPublic
        ? `Report “${after.name}” shared with a public link`
        : `Report “${after.name}” public link switched off`,
      details: {},
    }),
  });
  if (!next) throw new AppError('NOT_FOUND', CUSTOM_REPORT_MESSAGES.notFound);
  return toSharing(next);
}

/** Replaces the link of a public report: the old one answers 404 from now on. */
export async function rotateReportToken(
  db: Database,
  input: { organizationId: string; reportId: string; userId: string },
): Promise<ReportSharing> {
  let wasPublic = true;
  const next = await updateSharing(db, {
    organizationId: input.organizationId,
    reportId: input.reportId,
    decide: (current) => {
      wasPublic = current.isPublic;
      return current.isPublic ? { token: newShareToken() } : null;
    },
    activity: (_, after) => ({
      organizationId: input.organizationId,
      actorUserId: input.userId,
      kind: 'report.shared',
      subjectType: 'custom_report',
      subjectId: input.reportId,
      summary: `Report “${after.name}” public link replaced`,
      details: { rotated: true },
    }),
  });
  if (!next) throw new AppError('NOT_FOUND', CUSTOM_REPORT_MESSAGES.notFound);
  if (!wasPublic) throw new AppError('CONFLICT', 'Switch public sharing on before replacing the link');
  return toSharing(next);
}

/**
 * The report behind a public link, counting the visit: only while it is
 * public and the token is its current one. Anything else is the same 404,
 * which says nothing about whether a report exists.
 */
export async function getPublicReport(
  db: Database,
  token: string,
  options: { followUp?: boolean } = {},
): Promise<PublicReportResponse> {
  const report = TOKEN_SHAPE.test(token)
    ? options.followUp
      ? await findPublicReport(db, token)
      : await claimPublicVisit(db, token)
    : undefined;
  if (!report) throw new AppError('NOT_FOUND', CUSTOM_REPORT_MESSAGES.publicNotFound);
  const rows = await selectReportItems(db, report.organizationId, report.id);
  const config = readConfig(report.config);
  const [data, organization] = await Promise.all([
    // No fresh figures on demand here: a visitor without an account cannot
    // make the server compute a slow report again and again.
    keptReportData(db, report.organizationId, report, rows, { isPublic: true, fresh: false }),
    findOrganizationById(db, report.organizationId),
  ]);
  return {
    organization: { name: organization?.name ?? '' },
    report: {
      name: report.name,
      description: report.description,
      reportType: report.reportType,
      config,
      items: data.items.map((item) => ({
        id: item.itemId,
        title: withoutEmails(item.title),
        chart: item.chart,
      })),
      updatedAt: report.updatedAt.toISOString(),
    },
    data: {
      ...data,
      items: data.items.map((item) => ({
        ...item,
        title: withoutEmails(item.title),
        courseTitle: withoutEmails(item.courseTitle),
      })),
    },
  };
}

// ---- catalog -----------------------------------------------------------------

export async function getCatalog(db: Database, organizationId: string): Promise<ReportCatalog> {
  const [rows, values, chatbotVariables] = await Promise.all([
    selectCatalog(db, organizationId),
    selectCatalogValues(db, organizationId),
    selectChatbotVariables(db, { organizationId }),
  ]);
  return {
    values,
    courses: rows.courses.map((row) => ({ id: row.id, courseTitle: row.course_title })),
    chatbotVariables: chatbotVariables.slice(0, CATALOG_LIMIT).map((row) => ({
      id: row.id,
      name: row.name,
      title: row.title,
      dataType: chatbotValueType(row.data_type),
      chatbotId: row.chatbot_id,
      chatbotName: row.chatbot_name,
    })),
    variables: rows.variables.map((row) => ({
      id: row.id,
      name: row.name,
      title: row.title,
      dataType: row.data_type,
      courseId: row.course_id,
      courseTitle: row.course_title,
    })),
    questions: rows.questions.map((row) => ({
      id: row.id,
      courseId: row.course_id,
      courseTitle: row.course_title,
      slideNumber: row.slide_number === null ? null : Number(row.slide_number),
      questionNumber: row.question_number === null ? null : Number(row.question_number),
      questionText: row.question_text,
    })),
  };
}
