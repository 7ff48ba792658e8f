import {
  BREAKDOWN_LABELS,
  MAX_PREVIEW_ITEMS,
  MEASURE_LABELS,
  NUMERIC_MEASURES,
  REPORT_MODEL_MESSAGES,
  SUBJECT_BREAKDOWNS,
  SUBJECT_MEASURES,
  VARIABLE_SUBJECTS,
  customReportConfigSchema,
  defaultMeasure,
  reportItemInput,
  type BreakdownKind,
  type CustomReport,
  type CustomReportConfig,
  type CustomReportDraft,
  type CustomReportInput,
  type CustomReportType,
  type MeasureFn,
  type ReportBreakdown,
  type ReportCatalog,
  type ReportChart,
  type ReportMeasure,
  type ReportPeriod,
  type ReportPreviewInput,
  type ReportQuery,
  type ReportSubject,
  type SubjectKind,
} from '@courselens/contracts';

// The builder's form model and the words it uses for a query: plain
// functions, so the builder, the preview, the generator and the tests agree.

/** One item as the builder edits it: always in the report model (`kind: 'query'`). */
export type ReportFormItem = {
  kind: 'query';
  displayName: string;
  chart: ReportChart;
  query: ReportQuery;
};

export type ReportFormValues = {
  name: string;
  description: string;
  reportType: CustomReportType;
  config: CustomReportConfig;
  items: ReportFormItem[];
};

/** A report drafted elsewhere (the generator) or parsed from the form: items without their `kind`. */
type DraftLike = Pick<CustomReportDraft, 'name' | 'description' | 'reportType' | 'config'> & {
  items: readonly { displayName: string | null; chart: ReportChart; query: ReportQuery }[];
};

export const SUBJECT_KIND_LABELS: Record<SubjectKind, string> = {
  variable: 'a variable',
  chatbot_variable: 'an agent variable',
  question: 'a question',
  identifier: 'a question by position',
  questions: 'every question of…',
  courses: 'course runs of…',
};

export function emptySubject(kind: SubjectKind): ReportSubject {
  switch (kind) {
    case 'variable':
      return { kind, variableIds: [] };
    case 'chatbot_variable':
      return { kind, chatbotVariableIds: [] };
    case 'question':
      return { kind, questionId: '' };
    case 'identifier':
      return { kind, courseId: '', slideNumber: null, questionNumber: null, questionText: null };
    case 'questions':
    case 'courses':
      return { kind, courseIds: [] };
  }
}

export function emptyQuery(kind: SubjectKind = 'variable'): ReportQuery {
  return {
    subject: emptySubject(kind),
    measure: null,
    breakdown: { kind: 'none', variableName: null },
    filters: { courseIds: [], period: null, values: [], activity: [] },
    sort: null,
    limit: null,
  };
}

export function newFormItem(kind: SubjectKind = 'variable'): ReportFormItem {
  return { kind: 'query', displayName: '', chart: 'auto', query: emptyQuery(kind) };
}

function toFormItem(item: {
  displayName: string | null;
  chart: ReportChart;
  query: ReportQuery;
}): ReportFormItem {
  // Stored and generated queries may leave defaults out; the editor wants every part.
  const base = emptyQuery(item.query.subject.kind);
  return {
    kind: 'query',
    displayName: item.displayName ?? '',
    chart: item.chart,
    query: {
      ...base,
      ...item.query,
      breakdown: { ...base.breakdown, ...item.query.breakdown },
      filters: { ...base.filters, ...item.query.filters },
    },
  };
}

/** The form's starting values from a saved report. */
export function formValuesFromReport(report: CustomReport): ReportFormValues {
  return {
    name: report.name,
    description: report.description ?? '',
    reportType: report.reportType,
    config: report.config,
    items: [...report.items].sort((a, b) => a.displayOrder - b.displayOrder).map(toFormItem),
  };
}

/** The form's starting values from a generated draft (or nothing: an empty report). */
export function formValuesFromDraft(draft: DraftLike | null): ReportFormValues {
  return {
    name: draft?.name ?? '',
    description: draft?.description ?? '',
    reportType: draft?.reportType ?? 'table',
    config: draft?.config ?? { periodDays: null, limit: null },
    items: (draft?.items ?? []).map(toFormItem),
  };
}

/** What the API takes to save a report: the parsed form (or a draft) with its items in the report model. */
export function toReportInput(draft: DraftLike): CustomReportInput {
  return {
    name: draft.name,
    description: draft.description,
    reportType: draft.reportType,
    config: draft.config,
    items: draft.items.map((item) => ({
      kind: 'query' as const,
      displayName: item.displayName,
      chart: item.chart,
      query: item.query,
    })),
  };
}

// ---- the catalog's words ---------------------------------------------------------

type CatalogVariable = ReportCatalog['variables'][number];
type CatalogChatbotVariable = ReportCatalog['chatbotVariables'][number];
type CatalogQuestion = ReportCatalog['questions'][number];

export function variableLabel(variable: Pick<CatalogVariable, 'name' | 'title'>): string {
  return variable.title?.trim() || variable.name;
}

export function questionLabel(parts: {
  slideNumber?: number | null;
  questionNumber?: number | null;
  questionText?: string | null;
}): string {
  const where = [
    parts.slideNumber != null ? `Slide ${parts.slideNumber}` : null,
    parts.questionNumber != null ? `Question ${parts.questionNumber}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  const text = parts.questionText?.trim();
  if (where && text) return `${where}: ${text}`;
  return where || text || 'Question';
}

/** Variable names of the catalog, each once, A to Z (what a breakdown or a condition can name). */
export function variableNames(catalog: ReportCatalog | undefined): string[] {
  return [...new Set((catalog?.variables ?? []).map((variable) => variable.name))].sort((a, b) =>
    a.localeCompare(b),
  );
}

/** "Score — Onboarding buddy": an agent variable named with its agent, as the pickers list it. */
export function chatbotVariableLabel(
  variable: Pick<CatalogChatbotVariable, 'name' | 'title' | 'chatbotName'>,
): string {
  return `${variableLabel(variable)} — ${variable.chatbotName}`;
}

/** The variables a subject reads, from the catalog (unknown ids are left out). */
export function subjectVariables(subject: ReportSubject, catalog: ReportCatalog | undefined) {
  if (subject.kind !== 'variable') return [];
  return (catalog?.variables ?? []).filter((variable) => subject.variableIds.includes(variable.id));
}

/** The agent variables a subject reads, from the catalog (unknown ids are left out). */
export function subjectChatbotVariables(subject: ReportSubject, catalog: ReportCatalog | undefined) {
  if (subject.kind !== 'chatbot_variable') return [];
  return (catalog?.chatbotVariables ?? []).filter((variable) =>
    subject.chatbotVariableIds.includes(variable.id),
  );
}

/** The data type of a variable subject, a course's or an agent's (null for other subjects or before one is chosen). */
export function subjectDataType(subject: ReportSubject, catalog: ReportCatalog | undefined): string | null {
  const variables =
    subject.kind === 'chatbot_variable'
      ? subjectChatbotVariables(subject, catalog)
      : subjectVariables(subject, catalog);
  return variables[0]?.dataType ?? null;
}

function courseTitles(ids: readonly string[], catalog: ReportCatalog | undefined): string[] {
  return ids.map(
    (id) => catalog?.courses.find((course) => course.id === id)?.courseTitle ?? 'a deleted course',
  );
}

function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** What the subject reads, in words ("Final score", "Every question of Safety"). Null before it is chosen. */
export function subjectLabel(subject: ReportSubject, catalog: ReportCatalog | undefined): string | null {
  switch (subject.kind) {
    case 'variable': {
      const variables = subjectVariables(subject, catalog);
      const first = variables[0];
      if (!first) return subject.variableIds.length > 0 ? 'Variable' : null;
      return variables.length > 1
        ? `${variableLabel(first)} (${variables.length} courses)`
        : variableLabel(first);
    }
    case 'chatbot_variable': {
      const variables = subjectChatbotVariables(subject, catalog);
      const first = variables[0];
      if (!first) return subject.chatbotVariableIds.length > 0 ? 'Agent variable' : null;
      return variables.length > 1
        ? `${variableLabel(first)} (${variables.length} agents)`
        : chatbotVariableLabel(first);
    }
    case 'question': {
      if (!subject.questionId) return null;
      const question = catalog?.questions.find((candidate) => candidate.id === subject.questionId);
      return question ? questionLabel(question) : 'Question';
    }
    case 'identifier':
      return subject.courseId ? questionLabel(subject) : null;
    case 'questions':
      return subject.courseIds.length === 0
        ? 'Every question'
        : `Every question of ${listWords(courseTitles(subject.courseIds, catalog))}`;
    case 'courses':
      return subject.courseIds.length === 0
        ? 'Every course'
        : `Runs of ${listWords(courseTitles(subject.courseIds, catalog))}`;
  }
}

/** The course the subject reads, for a second line. */
export function subjectCourse(subject: ReportSubject, catalog: ReportCatalog | undefined): string | null {
  switch (subject.kind) {
    case 'variable': {
      const titles = [...new Set(subjectVariables(subject, catalog).map((variable) => variable.courseTitle))];
      return titles.length > 0 ? listWords(titles) : null;
    }
    case 'chatbot_variable': {
      const agents = [...new Set(subjectChatbotVariables(subject, catalog).map((v) => v.chatbotName))];
      return agents.length > 0 ? listWords(agents) : null;
    }
    case 'question':
      return catalog?.questions.find((question) => question.id === subject.questionId)?.courseTitle ?? null;
    case 'identifier':
      return catalog?.courses.find((course) => course.id === subject.courseId)?.courseTitle ?? null;
    default:
      return null;
  }
}

/** The name an item goes by in the builder: its display name, else what it reads. */
export function itemLabel(item: ReportFormItem, catalog: ReportCatalog | undefined): string {
  return item.displayName.trim() || subjectLabel(item.query.subject, catalog) || 'New item';
}

// ---- what each subject can do -----------------------------------------------------

/**
 * The measures a subject offers: the contract's list, narrowed by the
 * variable's data type (no average of a text, no pass rate of a date), as
 * the server refuses them.
 */
export function measuresFor(subject: SubjectKind, dataType: string | null): MeasureFn[] {
  const measures = [...SUBJECT_MEASURES[subject]];
  if (!VARIABLE_SUBJECTS.includes(subject) || dataType === null) return measures;
  return measures.filter((fn) => {
    if (NUMERIC_MEASURES.includes(fn)) return dataType === 'number';
    if (fn === 'pass_rate') return dataType === 'number' || dataType === 'boolean';
    return true;
  });
}

export function breakdownsFor(subject: SubjectKind): BreakdownKind[] {
  return [...SUBJECT_BREAKDOWNS[subject]];
}

/** The measure the item runs: its own, else the subject's default for the data type. */
export function effectiveMeasure(query: ReportQuery, dataType: string | null): ReportMeasure {
  return query.measure ?? defaultMeasure(query.subject.kind, dataType);
}

/**
 * The breakdown an item gets when its subject is chosen: a variable of
 * several courses compares the courses; a number by learner (a
 * leaderboard); true/false as one rate; a text or date variable by its own
 * values (how many learners said what); a question by answer; every
 * question by question (to rank them); course runs by course.
 */
export function defaultBreakdown(
  subject: ReportSubject,
  catalog: ReportCatalog | undefined,
): ReportBreakdown {
  const none: ReportBreakdown = { kind: 'none', variableName: null };
  switch (subject.kind) {
    case 'variable': {
      const variables = subjectVariables(subject, catalog);
      const first = variables[0];
      if (!first) return none;
      if (variables.length > 1) return { kind: 'course', variableName: null };
      if (first.dataType === 'number') return { kind: 'learner', variableName: null };
      if (first.dataType === 'boolean') return none;
      return { kind: 'variable', variableName: first.name };
    }
    case 'chatbot_variable': {
      // As a course variable, except that text is shown learner by learner
      // with their answer: "another variable" names course variables, so
      // an agent's own answers cannot group the learners.
      const variables = subjectChatbotVariables(subject, catalog);
      const first = variables[0];
      if (!first) return none;
      if (variables.length > 1) return { kind: 'agent', variableName: null };
      if (first.dataType === 'boolean') return none;
      return { kind: 'learner', variableName: null };
    }
    case 'question':
    case 'identifier':
      return { kind: 'answer', variableName: null };
    case 'questions':
      return { kind: 'question', variableName: null };
    case 'courses':
      return { kind: 'course', variableName: null };
  }
}

/**
 * The query with a new subject: the breakdown becomes the new subject's
 * default when the kind of subject changed (or none was chosen yet), and a
 * measure the new subject cannot have goes back to Automatic.
 */
export function withSubject(
  query: ReportQuery,
  subject: ReportSubject,
  catalog: ReportCatalog | undefined,
): ReportQuery {
  const previous = query.subject;
  const hadSubject = subjectLabel(previous, catalog) !== null;
  // Reading one variable or the same variable across courses calls for different breakdowns.
  const spread = (of: ReportSubject) =>
    of.kind === 'variable'
      ? of.variableIds.length
      : of.kind === 'chatbot_variable'
        ? of.chatbotVariableIds.length
        : 0;
  const isSpreadChanged = previous.kind === subject.kind && spread(previous) > 1 !== spread(subject) > 1;
  const isNewKind = previous.kind !== subject.kind || !hadSubject || isSpreadChanged;
  const dataType = subjectDataType(subject, catalog);
  const previousType = subjectDataType(previous, catalog);
  const breakdownValid = breakdownsFor(subject.kind).includes(query.breakdown.kind);
  const breakdown =
    isNewKind || !breakdownValid || dataType !== previousType
      ? defaultBreakdown(subject, catalog)
      : query.breakdown;
  const measure =
    query.measure && measuresFor(subject.kind, dataType).includes(query.measure.fn) && !isNewKind
      ? query.measure
      : null;
  return { ...query, subject, breakdown, measure };
}

// ---- checks and the preview ---------------------------------------------------------

/**
 * Problems the contract's schema cannot see because they need the catalog
 * (the server says the same): a pass rate of a number needs a mark.
 */
export function catalogProblems(item: ReportFormItem, catalog: ReportCatalog | undefined): string[] {
  const dataType = subjectDataType(item.query.subject, catalog);
  const measure = item.query.measure;
  if (measure?.fn === 'pass_rate' && dataType === 'number' && measure.mark === null) {
    return [REPORT_MODEL_MESSAGES.markRequired];
  }
  return [];
}

/** The first thing wrong with an item (the contract's message), or null when it can run. */
export function itemProblem(item: ReportFormItem, catalog: ReportCatalog | undefined): string | null {
  const parsed = reportItemInput.safeParse(item);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? 'Check this item';
  return catalogProblems(item, catalog)[0] ?? null;
}

export type PreviewPlan = {
  input: ReportPreviewInput;
  /** For each item sent, its position in the form. */
  sent: number[];
  /** Items left out of the preview, with why. */
  problems: { index: number; message: string }[];
  /** Items that could run but are past the preview's limit. */
  skipped: number;
};

/** What the preview asks for: the items that can run, at most `MAX_PREVIEW_ITEMS`. */
export function previewPlan(values: ReportFormValues, catalog: ReportCatalog | undefined): PreviewPlan {
  const config = customReportConfigSchema.safeParse(values.config);
  const items: ReportPreviewInput['items'] = [];
  const sent: number[] = [];
  const problems: PreviewPlan['problems'] = [];
  let skipped = 0;
  values.items.forEach((item, index) => {
    const problem = itemProblem(item, catalog);
    // An item that reads nothing yet is the empty state's business, not a problem to list.
    if (problem && subjectLabel(item.query.subject, catalog) === null) return;
    if (problem) problems.push({ index, message: problem });
    else if (sent.length >= MAX_PREVIEW_ITEMS) skipped += 1;
    else {
      items.push({
        kind: 'query',
        displayName: item.displayName.trim() || null,
        chart: item.chart,
        query: item.query,
      });
      sent.push(index);
    }
  });
  return {
    input: { config: config.success ? config.data : { periodDays: null, limit: null }, items },
    sent,
    problems,
    skipped,
  };
}

// ---- a query in words ------------------------------------------------------------

const PERIOD_UNIT_WORDS = { week: 'week', month: 'month', quarter: 'quarter', year: 'year' } as const;

export function periodLabel(period: ReportPeriod): string {
  if (!period) return 'all time';
  switch (period.kind) {
    case 'last_days':
      return period.days === 1 ? 'the last day' : `the last ${period.days} days`;
    case 'this':
      return `this ${PERIOD_UNIT_WORDS[period.unit]}`;
    case 'last':
      return `last ${PERIOD_UNIT_WORDS[period.unit]}`;
    case 'between':
      return `${period.from} to ${period.to}`;
  }
}

export function breakdownLabel(breakdown: ReportBreakdown): string {
  if (breakdown.kind === 'variable') return breakdown.variableName ?? 'another variable';
  return BREAKDOWN_LABELS[breakdown.kind].toLowerCase();
}

/** "Pass rate (mark 70) of Final score by department, the last 30 days, top 10". */
export function describeQuery(
  query: ReportQuery,
  catalog: ReportCatalog | undefined,
  dataType: string | null = subjectDataType(query.subject, catalog),
): string {
  const measure = effectiveMeasure(query, dataType);
  const mark = measure.fn === 'pass_rate' && measure.mark !== null ? ` (mark ${measure.mark})` : '';
  const parts = [`${MEASURE_LABELS[measure.fn]}${mark} of ${subjectLabel(query.subject, catalog) ?? '…'}`];
  if (query.breakdown.kind !== 'none') parts[0] += ` by ${breakdownLabel(query.breakdown)}`;
  if (query.filters.period) parts.push(periodLabel(query.filters.period));
  if (query.limit !== null) parts.push(`top ${query.limit}`);
  return parts.join(', ');
}

export type { CatalogChatbotVariable, CatalogQuestion, CatalogVariable };
