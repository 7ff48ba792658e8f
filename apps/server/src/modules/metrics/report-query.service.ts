import {
  BREAKDOWN_LABELS,
  COUNT_MEASURES,
  MAX_QUERY_ROWS,
  MEASURE_LABELS,
  METRIC_DEFINITIONS,
  NUMERIC_MEASURES,
  RATE_MEASURES,
  REPORT_MODEL_MESSAGES,
  TIME_BREAKDOWNS,
  VARIABLE_SUBJECTS,
  defaultMeasure,
  effectiveSort,
  type ReportMeasure,
  type ReportPeriod,
  type ReportQuery,
  type ReportResult,
  type ReportResultRow,
  type ReportSubject,
} from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { VariableDataType } from '../../db/schema';
import { AppError } from '../../errors';
import { withoutEmails } from './privacy';
import { selectReportQuery, type ExecutableQuery, type QueryRow } from './report-query.queries';
import { cachedResult } from './result-cache';
import { chatbotVariableSource, selectChatbotVariables } from './value-source';

// The metrics layer's entry for report items: what a subject is (its name,
// course, data type, whether it still exists), the checks that need the data
// (an average of a text variable is a mistake worth saying), the defaults,
// and the result in the contract's words and units.

export type SubjectInfo = {
  /** False when what the subject names is gone (deleted course, variable or question). */
  isAvailable: boolean;
  label: string;
  courseTitle: string | null;
  dataType: VariableDataType | null;
};

type SubjectRow = {
  label: string | null;
  course_title: string | null;
  data_type: string | null;
  found: number;
  slide_number?: number | null;
  question_number?: number | null;
  question_text?: string | null;
};

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

/** What the subject names, read once per item. */
export async function describeSubject(
  db: Database,
  organizationId: string,
  subject: ReportSubject,
): Promise<SubjectInfo> {
  let query;
  switch (subject.kind) {
    case 'chatbot_variable': {
      // Named as the chatbot variable report names it: its title (else its
      // name), its agents in the place of courses, its type as the value
      // source reads it.
      const rows = await selectChatbotVariables(db, {
        organizationId,
        variableIds: subject.chatbotVariableIds,
      });
      const first = rows[0];
      if (!first)
        return { isAvailable: false, label: 'No longer available', courseTitle: null, dataType: null };
      const agents = [...new Set(rows.map((row) => row.chatbot_name))];
      return {
        isAvailable: true,
        label: rows.find((row) => row.title?.trim())?.title?.trim() ?? first.name,
        courseTitle: agents.join(', '),
        dataType: chatbotVariableSource(organizationId, rows).dataType,
      };
    }
    case 'variable':
      query = sql`
        select coalesce(min(nullif(btrim(v.title), '')), min(v.name)) as label,
               string_agg(distinct c.course_title, ', ') as course_title,
               min(v.data_type) as data_type, count(*)::int as found
        from variables v
        join courses c on c.organization_id = v.organization_id and c.id = v.course_id and not c.is_deleted
        where v.organization_id = ${organizationId}
          and v.id = any(${sql.param([...subject.variableIds])}::uuid[])`;
      break;
    case 'question':
      query = sql`
        select null as label, c.course_title, null as data_type, 1 as found,
               q.slide_number, q.question_number, q.question_text
        from questions q
        join courses c on c.organization_id = q.organization_id and c.id = q.course_id and not c.is_deleted
        where q.organization_id = ${organizationId} and q.id = ${subject.questionId}`;
      break;
    case 'identifier':
      query = sql`
        select ${questionLabel(subject)} as label, c.course_title, null as data_type, 1 as found
        from courses c
        where c.organization_id = ${organizationId} and c.id = ${subject.courseId} and not c.is_deleted`;
      break;
    case 'questions':
    case 'courses': {
      const noun = subject.kind === 'questions' ? 'Questions' : 'Courses';
      if (subject.courseIds.length === 0) {
        return { isAvailable: true, label: `${noun} of every course`, courseTitle: null, dataType: null };
      }
      query = sql`
        select ${noun} || ' of ' || string_agg(c.course_title, ', ' order by lower(c.course_title)) as label,
               string_agg(c.course_title, ', ' order by lower(c.course_title)) as course_title,
               null as data_type, count(*)::int as found
        from courses c
        where c.organization_id = ${organizationId}
          and c.id = any(${sql.param([...subject.courseIds])}::uuid[]) and not c.is_deleted`;
      break;
    }
  }
  const row = (await db.execute<SubjectRow>(query)).rows[0];
  if (!row || Number(row.found) === 0) {
    return { isAvailable: false, label: 'No longer available', courseTitle: null, dataType: null };
  }
  const dataTypes = row.data_type;
  const label =
    subject.kind === 'question'
      ? questionLabel({
          slideNumber: row.slide_number ?? null,
          questionNumber: row.question_number ?? null,
          questionText: row.question_text ?? null,
        })
      : (row.label ?? 'Untitled');
  return {
    isAvailable: true,
    label,
    courseTitle: row.course_title,
    dataType: (dataTypes as VariableDataType | null) ?? null,
  };
}

/** The measure to run: the one asked for, else the subject's default, checked against the data type. */
export function resolveMeasure(query: ReportQuery, info: SubjectInfo): ReportMeasure {
  const measure = query.measure ?? defaultMeasure(query.subject.kind, info.dataType);
  if (VARIABLE_SUBJECTS.includes(query.subject.kind) && info.dataType !== null) {
    if (NUMERIC_MEASURES.includes(measure.fn) && info.dataType !== 'number') {
      throw new AppError(
        'VALIDATION_ERROR',
        `${MEASURE_LABELS[measure.fn]} needs a number variable; ${info.label} is a ${info.dataType} variable`,
      );
    }
    if (measure.fn === 'pass_rate') {
      if (info.dataType === 'number' && measure.mark === null) {
        throw new AppError('VALIDATION_ERROR', REPORT_MODEL_MESSAGES.markRequired);
      }
      if (info.dataType !== 'number' && info.dataType !== 'boolean') {
        throw new AppError(
          'VALIDATION_ERROR',
          `Pass rate needs a number or true/false variable; ${info.label} is a ${info.dataType} variable`,
        );
      }
    }
  }
  return measure;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** The period as instants [from, to), presets resolved against `now` in UTC. */
export function resolvePeriod(period: ReportPeriod, now: Date): { from: Date | null; to: Date | null } {
  if (!period) return { from: null, to: null };
  const utc = (year: number, month: number, day = 1) => new Date(Date.UTC(year, month, day));
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  switch (period.kind) {
    case 'last_days': {
      // From the start of the current minute: "the last 30 days" asked twice
      // in a minute is one period, so its result can be kept (result-cache.ts).
      const minute = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
      return { from: new Date(minute - period.days * DAY_MS), to: null };
    }
    case 'between':
      return {
        from: new Date(`${period.from}T00:00:00Z`),
        to: new Date(new Date(`${period.to}T00:00:00Z`).getTime() + DAY_MS),
      };
    case 'this':
    case 'last': {
      const offset = period.kind === 'this' ? 0 : -1;
      switch (period.unit) {
        case 'week': {
          // ISO weeks start on Monday.
          const today = utc(year, month, now.getUTCDate());
          const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * DAY_MS);
          const from = new Date(monday.getTime() + offset * 7 * DAY_MS);
          return { from, to: offset === 0 ? null : new Date(from.getTime() + 7 * DAY_MS) };
        }
        case 'month':
          return { from: utc(year, month + offset), to: offset === 0 ? null : utc(year, month) };
        case 'quarter': {
          const start = Math.floor(month / 3) * 3;
          return { from: utc(year, start + offset * 3), to: offset === 0 ? null : utc(year, start) };
        }
        case 'year':
          return { from: utc(year + offset, 0), to: offset === 0 ? null : utc(year, 0) };
      }
    }
  }
}

export type RunOptions = {
  now: Date;
  /** The report's "last N days" when the item has no period of its own. */
  defaultPeriodDays?: number | null;
  /** The report's top N when the item has none. */
  defaultLimit?: number | null;
  /** A public payload: free text a learner typed is stripped of e-mail addresses. */
  isPublic?: boolean;
};

/** The query with its defaults resolved (what a data response says it ran). */
export function effectiveQuery(query: ReportQuery, info: SubjectInfo, options: RunOptions): ReportQuery {
  const period =
    query.filters.period ??
    (options.defaultPeriodDays ? { kind: 'last_days' as const, days: options.defaultPeriodDays } : null);
  return {
    ...query,
    measure: resolveMeasure(query, info),
    filters: { ...query.filters, period },
    sort: effectiveSort(query),
    limit: query.limit ?? options.defaultLimit ?? null,
  };
}

/** Runs one item's query; the subject must be available. */
export async function runReportQuery(
  db: Database,
  organizationId: string,
  query: ReportQuery,
  info: SubjectInfo,
  options: RunOptions,
): Promise<{ query: ReportQuery; result: ReportResult }> {
  const effective = effectiveQuery(query, info, options);
  const measure = effective.measure as ReportMeasure;
  const hasOwnValueCondition = effective.filters.values.some((condition) => condition.variableName === null);
  if (hasOwnValueCondition && !VARIABLE_SUBJECTS.includes(query.subject.kind)) {
    throw new AppError(
      'VALIDATION_ERROR',
      'A condition on the item’s own value needs a variable; name the variable the condition reads',
    );
  }
  const period = resolvePeriod(effective.filters.period, options.now);
  const { period: _period, ...filters } = effective.filters;
  const executable: ExecutableQuery = {
    subject: query.subject,
    measure,
    breakdown: effective.breakdown,
    filters,
    period,
    sort: effective.sort ?? effectiveSort(effective),
    limit: effective.limit ?? MAX_QUERY_ROWS,
    dataType: info.dataType,
  };
  // Kept until the organization's data changes: the statement reads nothing
  // but its organization's data and what the executable query says.
  const rows = await cachedResult(db, organizationId, `report-query:${JSON.stringify(executable)}`, () =>
    selectReportQuery(db, organizationId, executable),
  );
  return { query: effective, result: toResult(rows, executable, options) };
}

function toResult(rows: QueryRow[], query: ExecutableQuery, options: RunOptions): ReportResult {
  const fn = query.measure.fn;
  const unit = RATE_MEASURES.includes(fn) ? 'percent' : COUNT_MEASURES.includes(fn) ? 'count' : 'number';
  const number = (value: number | string | null) => (value === null ? null : Number(value));
  const isTime = TIME_BREAKDOWNS.includes(query.breakdown.kind);
  const clean = (text: string | null) => (text !== null && options.isPublic ? withoutEmails(text) : text);
  const asRow = (row: QueryRow): ReportResultRow => ({
    key: row.key ?? '',
    label: clean(row.label) ?? '',
    value: number(row.value),
    learners: Number(row.learners),
    count: Number(row.count),
    detail: clean(row.detail),
    isPartial: isTime && row.key !== null && bucketEnd(row.key, query.breakdown.kind, options.now),
    groups: null,
  });
  // Rows come back in no particular order (a union, joins after ranking): their rank says.
  let groupRows = rows
    .filter((row) => row.part === 'row')
    .sort((a, b) => Number(a.n) - Number(b.n))
    .map(asRow);
  // Time reads forwards (the query kept the latest buckets).
  if (isTime) groupRows = groupRows.sort((a, b) => a.key.localeCompare(b.key));
  const othersRow = rows.find((row) => row.part === 'others');
  const total = rows.find((row) => row.part === 'total');
  return {
    measure: {
      fn,
      label: MEASURE_LABELS[fn],
      unit,
      definition: METRIC_DEFINITIONS[fn],
    },
    breakdown: {
      kind: query.breakdown.kind,
      label:
        query.breakdown.kind === 'variable' && query.breakdown.variableName
          ? query.breakdown.variableName
          : BREAKDOWN_LABELS[query.breakdown.kind],
    },
    total: {
      value: total ? number(total.value) : null,
      learners: total ? Number(total.learners) : 0,
      count: total ? Number(total.count) : 0,
    },
    rows: groupRows,
    others: othersRow
      ? { ...asRow(othersRow), key: 'others', label: 'Others', isPartial: false, groups: Number(othersRow.n) }
      : null,
    groupCount: total ? Number(total.n) : 0,
    period: {
      from: query.period.from?.toISOString() ?? null,
      to: query.period.to?.toISOString() ?? null,
    },
  };
}

/** True when the bucket starting on `key` (YYYY-MM-DD) has not ended at `now`. */
function bucketEnd(key: string, kind: string, now: Date): boolean {
  const start = new Date(`${key}T00:00:00Z`);
  if (Number.isNaN(start.getTime())) return false;
  const end =
    kind === 'day'
      ? new Date(start.getTime() + DAY_MS)
      : kind === 'week'
        ? new Date(start.getTime() + 7 * DAY_MS)
        : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  return end > now;
}
