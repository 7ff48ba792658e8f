import { randomBytes } from 'node:crypto';
import {
  CUSTOM_REPORT_MESSAGES,
  MAX_REPORT_NAME_LENGTH,
  MAX_REPORT_ROWS,
  customReportConfigSchema,
  type CustomReport,
  type CustomReportConfig,
  type CustomReportDraft,
  type CustomReportListItem,
  type PublicReportResponse,
  type ReportCatalog,
  type ReportData,
  type ReportDataRow,
  type ReportItemData,
  type ReportItemView,
  type ReportSharing,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { CsvColumn } from '../../lib/csv';
import {
  claimPublicVisit,
  countReports,
  deleteReportRow,
  duplicateReportRows,
  findCreatorName,
  findReport,
  insertReport,
  replaceReport,
  selectCatalog,
  selectReportItems,
  selectReportPage,
  updateSharing,
  type CustomReportRow,
  type ReportItemRow,
  type UnknownKind,
  type WriteOutcome,
} from './custom-reports.queries';
import {
  selectQuestionRows,
  selectQuestionTotals,
  selectVariableRows,
  selectVariableTotals,
  type AggregateRow,
  type TotalsRow,
} from './report-data.queries';

const DAY_MS = 24 * 60 * 60 * 1000;

function toIso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function numberOrNull(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
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

/** "Slide 3 · Question 2: What is…" from whatever of the three parts is known. */
export function questionLabel(parts: {
  slideNumber: number | null;
  questionNumber: number | null;
  questionText: string | null;
}): string {
  const where = [
    parts.slideNumber !== null ? `Slide ${parts.slideNumber}` : null,
    parts.questionNumber !== null ? `Question ${parts.questionNumber}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const text = parts.questionText?.trim();
  if (where && text) return `${where}: ${text}`;
  return where || text || 'Question';
}

function toItemView(row: ReportItemRow): ReportItemView {
  const label =
    row.kind === 'variable'
      ? row.variable_title?.trim() || row.variable_name || 'Variable'
      : questionLabel({
          slideNumber: row.slide_number,
          questionNumber: row.question_number,
          questionText: row.question_text,
        });
  return {
    id: row.id,
    kind: row.kind,
    displayOrder: row.display_order,
    displayName: row.display_name,
    comparisonType: row.comparison_type,
    variableId: row.variable_id,
    questionId: row.question_id,
    courseId: row.course_id,
    slideNumber: row.slide_number,
    questionNumber: row.question_number,
    questionText: row.question_text,
    label,
    courseTitle: row.course_title,
    dataType: row.data_type,
  };
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
    items: rows.map(toItemView),
  };
}

// ---- writes ------------------------------------------------------------------

const UNKNOWN_MESSAGES: Record<UnknownKind, string> = {
  variables: CUSTOM_REPORT_MESSAGES.unknownVariables,
  questions: CUSTOM_REPORT_MESSAGES.unknownQuestions,
  courses: CUSTOM_REPORT_MESSAGES.unknownCourses,
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

function toTotals(row: TotalsRow): ReportItemData['totals'] {
  return {
    count: Number(row.count),
    learners: Number(row.learners),
    mean: numberOrNull(row.mean),
    min: numberOrNull(row.min),
    max: numberOrNull(row.max),
    rate: numberOrNull(row.rate),
    points: numberOrNull(row.points),
  };
}

function toDataRow(row: AggregateRow): ReportDataRow {
  return { ...toTotals(row), key: String(row.key), label: String(row.label), value: row.value };
}

async function assembleItem(
  db: Database,
  organizationId: string,
  item: ReportItemRow,
  since: Date | null,
  limit: number,
): Promise<ReportItemData> {
  const view = toItemView(item);
  const base = {
    itemId: item.id,
    kind: item.kind,
    title: item.display_name ?? view.label,
    comparisonType: item.comparison_type,
    courseTitle: item.course_title,
    dataType: item.kind === 'variable' ? item.data_type : null,
  };
  if (!item.available) {
    return { ...base, available: false, totals: toTotals(emptyTotals()), rows: [], truncated: false };
  }
  // One row more than shown tells whether the breakdown was cut.
  const [totals, rows] =
    item.kind === 'variable' && item.variable_id
      ? await Promise.all([
          selectVariableTotals(
            db,
            { organizationId, variableId: item.variable_id, since },
            item.comparison_type,
          ),
          selectVariableRows(
            db,
            { organizationId, variableId: item.variable_id, since },
            item.comparison_type,
            limit + 1,
          ),
        ])
      : await (() => {
          const scope = {
            organizationId,
            since,
            match:
              item.kind === 'question' && item.question_id
                ? ({ by: 'id', questionId: item.question_id } as const)
                : ({
                    by: 'identifier',
                    courseId: item.course_id ?? '',
                    slideNumber: item.slide_number,
                    questionNumber: item.question_number,
                    questionText: item.question_text,
                  } as const),
          };
          return Promise.all([
            selectQuestionTotals(db, scope),
            selectQuestionRows(db, scope, item.comparison_type, limit + 1),
          ]);
        })();
  const shown = rows.slice(0, limit).map(toDataRow);
  // Weeks come newest first (so the cut keeps the latest); show them in calendar order.
  if (item.comparison_type === 'over_time') shown.reverse();
  return { ...base, available: true, totals: toTotals(totals), rows: shown, truncated: rows.length > limit };
}

function emptyTotals(): TotalsRow {
  return { count: 0, learners: 0, mean: null, min: null, max: null, rate: null, points: null };
}

/**
 * A report's data: for each item its totals and its breakdown, each computed
 * by the database (a few rows per item, at most `limit` or MAX_REPORT_ROWS).
 */
export async function assembleReportData(
  db: Database,
  organizationId: string,
  config: CustomReportConfig,
  items: readonly ReportItemRow[],
  now: Date = new Date(),
): Promise<ReportData> {
  const since = config.periodDays ? new Date(now.getTime() - config.periodDays * DAY_MS) : null;
  const limit = Math.min(config.limit ?? MAX_REPORT_ROWS, MAX_REPORT_ROWS);
  const data: ReportItemData[] = [];
  // One item after another: a 20-item report must not take every pooled connection at once.
  for (const item of items) data.push(await assembleItem(db, organizationId, item, since, limit));
  return { generatedAt: now.toISOString(), since: since?.toISOString() ?? null, items: data };
}

export async function getReportData(
  db: Database,
  organizationId: string,
  reportId: string,
): Promise<{ report: CustomReportRow; data: ReportData }> {
  const report = await loadReport(db, organizationId, reportId);
  const items = await selectReportItems(db, organizationId, reportId);
  return { report, data: await assembleReportData(db, organizationId, readConfig(report.config), items) };
}

export type CsvRow = { item: ReportItemData; row: ReportDataRow | null };

/** The report's data as rows of a CSV: one per group of each item (or one per item without data). */
export function reportCsvRows(data: ReportData): CsvRow[] {
  return data.items.flatMap((item): CsvRow[] =>
    item.rows.length === 0 ? [{ item, row: null }] : item.rows.map((row) => ({ item, row })),
  );
}

const COMPARISON_HEADERS = { by_learner: 'Learner', by_course: 'Course', over_time: 'Week of' } as const;

export const reportCsvColumns: readonly CsvColumn<CsvRow>[] = [
  { header: 'Item', value: ({ item }) => item.title },
  { header: 'Course', value: ({ item }) => item.courseTitle },
  { header: 'Breakdown', value: ({ item }) => COMPARISON_HEADERS[item.comparisonType] },
  { header: 'Group', value: ({ row }) => row?.label },
  { header: 'Value', value: ({ row }) => row?.value },
  { header: 'Count', value: ({ row }) => row?.count ?? 0 },
  { header: 'Learners', value: ({ row }) => row?.learners ?? 0 },
  { header: 'Mean', value: ({ row }) => row?.mean },
  { header: 'Min', value: ({ row }) => row?.min },
  { header: 'Max', value: ({ row }) => row?.max },
  { header: 'Rate', value: ({ row }) => row?.rate },
  { header: 'Points', value: ({ row }) => row?.points },
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

const EMAIL_ANYWHERE = /[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[^\s@<>()"',;:]+/g;

/** Text for a public page: an e-mail address inside it (a learner's answer, a name) is hidden. */
export function withoutEmails(text: string): string;
export function withoutEmails(text: string | null): string | null;
export function withoutEmails(text: string | null): string | null {
  return text === null ? null : text.replace(EMAIL_ANYWHERE, '(hidden)');
}

/**
 * The report behind a public link, counting the visit: only while it is
 * public and the token is its current one. Anything else is the same 404,
 * which says nothing about whether a report exists.
 */
export async function getPublicReport(db: Database, token: string): Promise<PublicReportResponse> {
  const report = TOKEN_SHAPE.test(token) ? await claimPublicVisit(db, token) : undefined;
  if (!report) throw new AppError('NOT_FOUND', CUSTOM_REPORT_MESSAGES.publicNotFound);
  const items = await selectReportItems(db, report.organizationId, report.id);
  const config = readConfig(report.config);
  const data = await assembleReportData(db, report.organizationId, config, items);
  return {
    report: {
      name: report.name,
      description: report.description,
      reportType: report.reportType,
      config,
      items: items.map((item) => ({
        id: item.id,
        kind: item.kind,
        title: withoutEmails(item.display_name ?? toItemView(item).label),
        comparisonType: item.comparison_type,
      })),
      updatedAt: report.updatedAt.toISOString(),
    },
    data: {
      ...data,
      items: data.items.map((item) => ({
        ...item,
        title: withoutEmails(item.title),
        courseTitle: withoutEmails(item.courseTitle),
        rows: item.rows.map((row) => ({
          ...row,
          label: withoutEmails(row.label),
          value: withoutEmails(row.value),
        })),
      })),
    },
  };
}

// ---- catalog -----------------------------------------------------------------

export async function getCatalog(db: Database, organizationId: string): Promise<ReportCatalog> {
  const rows = await selectCatalog(db, organizationId);
  return {
    courses: rows.courses.map((row) => ({ id: row.id, courseTitle: row.course_title })),
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
