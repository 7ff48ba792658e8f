import {
  BREAKDOWN_KINDS,
  ACTIVITY_EVENTS,
  MAX_REPORT_ITEMS,
  MEASURE_FNS,
  NUMERIC_MEASURES,
  PERIOD_UNITS,
  REPORT_CHARTS,
  SUBJECT_KINDS,
  VALUE_OPERATORS,
  customReportDraftSchema,
  reportQuerySchema,
  type ReportPeriod,
  type ReportQuery,
  type ReportQueryInput,
  type ReportSubject,
} from '@courselens/contracts';
import { z } from 'zod';
import type { LlmEngine } from '../../lib/llm';
import { LlmError } from '../../lib/llm';
import { generateBuiltin, questionLabel, reportTypeOf } from './report-generator/builtin';
import type {
  Ambiguity,
  DraftItem,
  GeneratedReport,
  GeneratorCatalog,
  GeneratorChoice,
} from './report-generator/types';

// The natural-language report generator: a manager's sentence becomes a
// report draft in the report model (what each item reads, measures, groups
// by and keeps). Two engines behind one entry: the built-in engine
// (report-generator/builtin.ts) reads the sentence against the
// organization's own names; the LLM engine, when configured, gets the same
// catalog (names and ids, never e-mail addresses) and answers queries whose
// ids are checked here again before anything reaches the draft.

// ---- LLM engine ----------------------------------------------------------------

// The subjects and breakdowns the model is told about. Agent variables are
// left to the builder for now: the catalog the model reads names course
// variables, questions and courses only.
const LLM_SUBJECT_KINDS = z.enum(SUBJECT_KINDS).exclude(['chatbot_variable']);
const LLM_BREAKDOWN_KINDS = z.enum(BREAKDOWN_KINDS).exclude(['agent']);

/**
 * What the model answers. Every field is present (nullable or empty), as
 * strict structured output wants; `draftFromLlm` turns it into report-model
 * queries and checks every id.
 */
const llmItemSchema = z.object({
  displayName: z.string().nullable(),
  chart: z.enum(REPORT_CHARTS),
  subject: z.object({
    kind: LLM_SUBJECT_KINDS,
    variableIds: z.array(z.string()),
    questionId: z.string().nullable(),
    courseIds: z.array(z.string()),
    courseId: z.string().nullable(),
    slideNumber: z.number().int().nullable(),
    questionNumber: z.number().int().nullable(),
    questionText: z.string().nullable(),
  }),
  measure: z.enum(MEASURE_FNS).nullable(),
  mark: z.number().nullable(),
  breakdown: LLM_BREAKDOWN_KINDS,
  breakdownVariableName: z.string().nullable(),
  period: z.object({
    kind: z.enum(['all_time', 'last_days', 'this', 'last', 'between']),
    days: z.number().int().nullable(),
    unit: z.enum(PERIOD_UNITS).nullable(),
    from: z.string().nullable(),
    to: z.string().nullable(),
  }),
  conditions: z.array(
    z.object({
      variableName: z.string().nullable(),
      op: z.enum(VALUE_OPERATORS),
      value: z.union([z.string(), z.number(), z.boolean()]),
    }),
  ),
  activity: z.array(
    z.object({ did: z.boolean(), event: z.enum(ACTIVITY_EVENTS), courseId: z.string().nullable() }),
  ),
  sort: z.object({ by: z.enum(['measure', 'label']), order: z.enum(['asc', 'desc']) }).nullable(),
  limit: z.number().int().nullable(),
});
export type LlmItem = z.infer<typeof llmItemSchema>;

export const llmDraftSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  items: z.array(llmItemSchema),
  understood: z.array(z.string()),
  notFound: z.array(z.string()),
  /** Names that fit several things equally: asked back instead of guessed. */
  questions: z.array(
    z.object({
      phrase: z.string(),
      message: z.string(),
      options: z.array(z.object({ kind: z.enum(['course', 'variable', 'question']), id: z.string() })),
    }),
  ),
});
export type LlmDraft = z.infer<typeof llmDraftSchema>;

const LLM_SYSTEM = `You turn a request for a learning-analytics report into report items. Use ONLY ids from
the catalog you are given; never invent ids. Each item is one query:
- subject.kind: "variable" (variableIds: one variable, or the variable of the same name in several courses
  to compare them by course), "question" (questionId), "identifier" (courseId with slideNumber and/or
  questionNumber, when the person says "question 3 of course X"), "questions" (courseIds: every question of
  those courses, empty for all, to rank questions), "courses" (courseIds: course runs, empty for all).
  Leave the other subject fields null or empty.
- measure (null for the subject's default): variable: learners, values, average, median, min, max, sum,
  pass_rate (a true/false variable, or a number with a mark); question/identifier/questions: correct_rate,
  responses, learners, points; courses: learners, completions, completion_rate, pass_rate, average, median,
  min, max (of run scores). "How many finished" is completions; "hardest questions" is correct_rate sorted asc.
- breakdown: none, learner, course, question (questions only), answer (question only), day, week, month, or
  variable with breakdownVariableName set to a catalog variable name (e.g. "department") to group learners by
  their value of it.
- period: all_time, last_days (days), this or last (unit week, month, quarter or year), or between (from and
  to as YYYY-MM-DD). Today is {today}.
- conditions: filters on values (variableName null for the item's own value, else a catalog variable name).
- activity: only learners who did (or did not) start, complete, pass or fail a course (courseId or null).
- sort (by measure or label, asc or desc) and limit (top N) when the request ranks; chart: usually auto.
When a name fits two courses or variables equally, leave that item out and add a question with the options.
In "understood" list in short plain phrases what you took from the request; in "notFound" what the catalog
does not have.`;

/** The catalog as the model sees it: names and ids only. */
export function catalogForModel(catalog: GeneratorCatalog): string {
  return JSON.stringify({
    courses: catalog.courses.slice(0, 200).map((course) => ({ id: course.id, title: course.courseTitle })),
    variables: catalog.variables.slice(0, 400).map((variable) => ({
      id: variable.id,
      name: variable.name,
      title: variable.title,
      dataType: variable.dataType,
      courseId: variable.courseId,
    })),
    questions: catalog.questions.slice(0, 400).map((question) => ({
      id: question.id,
      courseId: question.courseId,
      slideNumber: question.slideNumber,
      questionNumber: question.questionNumber,
      text: question.questionText,
    })),
    ...(catalog.values ? { values: catalog.values.slice(0, 50) } : {}),
  });
}

function periodOf(period: LlmItem['period']): ReportPeriod {
  switch (period.kind) {
    case 'all_time':
      return null;
    case 'last_days':
      return period.days === null ? null : { kind: 'last_days', days: period.days };
    case 'this':
    case 'last':
      return period.unit === null ? null : { kind: period.kind, unit: period.unit };
    case 'between':
      return period.from === null || period.to === null
        ? null
        : { kind: 'between', from: period.from, to: period.to };
  }
}

/**
 * One item of the model's answer as a report-model query, every id checked
 * against the organization's catalog. A string says why it was dropped.
 */
function queryFromLlm(item: LlmItem, catalog: GeneratorCatalog): ReportQuery | string {
  const courses = new Set(catalog.courses.map((course) => course.id));
  const questions = new Set(catalog.questions.map((question) => question.id));
  const variableNames = new Set(catalog.variables.map((variable) => variable.name));
  const { subject: raw } = item;
  let subject: ReportSubject;
  let dataType: string | null = null;
  switch (raw.kind) {
    case 'variable': {
      const variables = raw.variableIds.map((id) => catalog.variables.find((variable) => variable.id === id));
      if (variables.length === 0 || variables.some((variable) => !variable)) {
        return 'it names a variable that is not in your organization';
      }
      const found = variables.filter((variable) => variable !== undefined);
      if (new Set(found.map((variable) => variable.name)).size > 1) {
        return 'it mixes variables of different names in one item';
      }
      dataType = found[0]?.dataType ?? null;
      subject = { kind: 'variable', variableIds: found.map((variable) => variable.id) };
      break;
    }
    case 'question':
      if (!raw.questionId || !questions.has(raw.questionId)) {
        return 'it names a question that is not in your organization';
      }
      subject = { kind: 'question', questionId: raw.questionId };
      break;
    case 'identifier':
      if (!raw.courseId || !courses.has(raw.courseId))
        return 'it names a course that is not in your organization';
      subject = {
        kind: 'identifier',
        courseId: raw.courseId,
        slideNumber: raw.slideNumber,
        questionNumber: raw.questionNumber,
        questionText: raw.questionText?.slice(0, 2000) ?? null,
      };
      break;
    case 'questions':
    case 'courses':
      if (raw.courseIds.some((id) => !courses.has(id)))
        return 'it names a course that is not in your organization';
      subject = { kind: raw.kind, courseIds: [...new Set(raw.courseIds)] };
      break;
  }
  if (
    item.breakdown === 'variable' &&
    (!item.breakdownVariableName || !variableNames.has(item.breakdownVariableName))
  ) {
    return 'it groups by a variable that is not in your organization';
  }
  if (item.activity.some((condition) => condition.courseId !== null && !courses.has(condition.courseId))) {
    return 'it keeps learners of a course that is not in your organization';
  }
  if (
    item.conditions.some(
      (condition) => condition.variableName !== null && !variableNames.has(condition.variableName),
    )
  ) {
    return 'it filters on a variable that is not in your organization';
  }
  let measure = item.measure ? { fn: item.measure, mark: item.mark } : null;
  // The metrics layer refuses an average of text; the draft keeps the default measure instead.
  if (measure && dataType !== null && dataType !== 'number' && NUMERIC_MEASURES.includes(measure.fn))
    measure = null;
  if (measure?.fn === 'pass_rate' && dataType === 'number' && measure.mark === null) measure = null;
  const input: ReportQueryInput = {
    subject,
    measure,
    breakdown: {
      kind: item.breakdown,
      variableName: item.breakdown === 'variable' ? item.breakdownVariableName : null,
    },
    filters: {
      courseIds: [],
      period: periodOf(item.period),
      values: item.conditions.map((condition) => ({
        variableName: condition.variableName,
        op: condition.op,
        value: typeof condition.value === 'string' ? condition.value.slice(0, 200) : condition.value,
      })),
      activity: item.activity,
    },
    sort: item.sort,
    limit: item.limit,
  };
  const parsed = reportQuerySchema.safeParse(input);
  if (!parsed.success) return parsed.error.issues.map((issue) => issue.message).join('; ');
  return parsed.data;
}

/** The model's answer with every id checked against the organization's catalog; what fails is said. */
export function draftFromLlm(
  answer: LlmDraft,
  catalog: GeneratorCatalog,
): Pick<GeneratedReport, 'draft' | 'notFound' | 'ambiguities'> {
  const notFound: string[] = [];
  const items: DraftItem[] = [];
  const seen = new Set<string>();
  answer.items.forEach((item, position) => {
    const query = queryFromLlm(item, catalog);
    const name = item.displayName?.trim() ? `“${item.displayName.trim()}”` : `${position + 1}`;
    if (typeof query === 'string') {
      notFound.push(`Item ${name} the model proposed was left out: ${query}`);
      return;
    }
    const key = JSON.stringify(query);
    if (seen.has(key) || items.length >= MAX_REPORT_ITEMS) return;
    seen.add(key);
    items.push({ displayName: item.displayName?.trim().slice(0, 200) || null, chart: item.chart, query });
  });

  const label = (kind: 'course' | 'variable' | 'question', id: string): string | null => {
    if (kind === 'course') return catalog.courses.find((course) => course.id === id)?.courseTitle ?? null;
    if (kind === 'variable') {
      const variable = catalog.variables.find((entry) => entry.id === id);
      return variable ? `${variable.title?.trim() || variable.name} (${variable.courseTitle})` : null;
    }
    const question = catalog.questions.find((entry) => entry.id === id);
    return question ? `${questionLabel(question)} (${question.courseTitle})` : null;
  };
  const ambiguities: Ambiguity[] = [];
  for (const question of answer.questions) {
    const options = question.options.flatMap((option) => {
      const text = label(option.kind, option.id);
      return text ? [{ kind: option.kind, id: option.id, label: text }] : [];
    });
    if (options.length >= 2) {
      ambiguities.push({
        phrase: question.phrase.slice(0, 200),
        message: question.message.slice(0, 500),
        options,
      });
    }
  }

  const draft = customReportDraftSchema.parse({
    name: answer.name.trim().slice(0, 200) || 'Generated report',
    description: answer.description?.slice(0, 2000) ?? null,
    reportType: reportTypeOf(items[0] ?? null),
    config: { periodDays: null, limit: null },
    items,
  });
  return { draft, notFound, ambiguities };
}

function choicesForModel(choices: readonly GeneratorChoice[], catalog: GeneratorCatalog): string {
  if (choices.length === 0) return '';
  const names = new Map<string, string>([
    ...catalog.courses.map((course): [string, string] => [course.id, course.courseTitle]),
    ...catalog.variables.map((variable): [string, string] => [
      variable.id,
      `${variable.name} (${variable.courseTitle})`,
    ]),
    ...catalog.questions.map((question): [string, string] => [question.id, questionLabel(question)]),
  ]);
  const lines = choices.map(
    (choice) => `- “${choice.phrase}” means id ${choice.id} (${names.get(choice.id) ?? 'unknown'})`,
  );
  return `\n\nThe person already answered your questions back:\n${lines.join('\n')}`;
}

/**
 * The draft for a sentence: the LLM engine when the app has one (falling
 * back to the built-in engine when the model fails), else the built-in one.
 * `choices` answer an earlier call's questions back (`ambiguities`).
 */
export async function generateReport(
  prompt: string,
  catalog: GeneratorCatalog,
  llm: LlmEngine | null,
  choices: readonly GeneratorChoice[] = [],
  now: Date = new Date(),
): Promise<GeneratedReport> {
  if (!llm) return generateBuiltin(prompt, catalog, { choices, now });
  try {
    const answer = await llm.generateObject({
      system: LLM_SYSTEM.replace('{today}', now.toISOString().slice(0, 10)),
      prompt: `Catalog of the organization:\n${catalogForModel(catalog)}${choicesForModel(choices, catalog)}\n\nRequest:\n${prompt}`,
      schema: llmDraftSchema,
    });
    const { draft, notFound, ambiguities } = draftFromLlm(answer, catalog);
    const allNotFound = [...answer.notFound.map((text) => text.slice(0, 500)), ...notFound];
    if (draft.items.length === 0 && allNotFound.length === 0 && ambiguities.length === 0) {
      allNotFound.push('No course, variable or question of yours matched the request');
    }
    return {
      engine: 'llm',
      model: llm.model,
      draft,
      understood: answer.understood.map((text) => text.slice(0, 500)),
      notFound: allNotFound,
      ambiguities,
    };
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    const builtin = generateBuiltin(prompt, catalog, { choices, now });
    return {
      ...builtin,
      understood: [
        'The language model did not answer; the built-in engine read your request',
        ...builtin.understood,
      ],
    };
  }
}
