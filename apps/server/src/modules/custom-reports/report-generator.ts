import {
  CUSTOM_REPORT_TYPE_LABELS,
  COMPARISON_TYPE_LABELS,
  MAX_REPORT_ITEMS,
  MAX_REPORT_PERIOD_DAYS,
  MAX_REPORT_ROWS,
  customReportInput,
  type ComparisonType,
  type CustomReportDraft,
  type CustomReportType,
  type ReportCatalog,
  type ReportItemInput,
} from '@courselens/contracts';
import { z } from 'zod';
import type { LlmEngine } from '../../lib/llm';
import { LlmError } from '../../lib/llm';
import { questionLabel } from './custom-reports.service';

// The natural-language report generator (issue 6, item 7). The built-in
// engine reads the sentence against the organization's real courses,
// variables and questions and a handful of known intents; the LLM engine,
// when configured, gets the same catalog (names and ids, never e-mail
// addresses) and answers the same draft, whose ids are checked again here.

export type GeneratedReport = {
  engine: 'builtin' | 'llm';
  model?: string;
  draft: CustomReportDraft;
  understood: string[];
  notFound: string[];
};

type CatalogCourse = ReportCatalog['courses'][number];
type CatalogVariable = ReportCatalog['variables'][number];

const STOP_WORDS = new Set(
  `a an the of for in on to with and or by per from at as is are be me my our show give want
   i we you it this that these those all each every what which who how much many please report chart
   graph table list data value values over time last past days day weeks week months month years year
   top average mean avg count number total sum min max minimum maximum learner learners course courses
   question questions slide slides compare comparison versus vs trend trends leaderboard ranking ranked
   leaders pie bar line weekly by across between their its also plus include including see about
   during within since than more less most least best worst score scores`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words in course titles that say nothing about which course is meant. */
const GENERIC_TITLE_WORDS = new Set([
  'course',
  'courses',
  'training',
  'essentials',
  'fundamentals',
  'foundations',
  'introduction',
  'intro',
  'basics',
  'new',
  'module',
  'program',
  'programme',
  'for',
  'the',
  'and',
  'of',
  'to',
  'in',
]);

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  fifty: 50,
  hundred: 100,
};

export function normalize(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[_/]+/g, ' ')
    .replace(/[^a-z0-9&\s-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function tokens(text: string): string[] {
  return normalize(text)
    .split(/[\s-]+/)
    .filter(Boolean)
    .map(stem);
}

/** Plural and a few endings, so "scores" finds "score" and "departments" finds "department". */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Edit distance of at most one (a typo) for longer words. */
function closeEnough(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.min(a.length, b.length) < 5 || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i += 1;
      j += 1;
      continue;
    }
    edits += 1;
    if (edits > 1) return false;
    if (a.length > b.length) i += 1;
    else if (b.length > a.length) j += 1;
    else {
      i += 1;
      j += 1;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

function containsWord(words: readonly string[], word: string): boolean {
  return words.some((candidate) => closeEnough(candidate, word));
}

function numberFrom(word: string | undefined): number | null {
  if (!word) return null;
  if (/^\d+$/.test(word)) return Number(word);
  return NUMBER_WORDS[word] ?? null;
}

const NUMBER =
  '(\\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|fifty|hundred)';

// ---- intents -------------------------------------------------------------------

type Intents = {
  reportType: CustomReportType | null;
  comparison: ComparisonType | null;
  periodDays: number | null;
  limit: number | null;
  understood: string[];
};

function readIntents(text: string): Intents {
  const understood: string[] = [];
  let reportType: CustomReportType | null = null;
  let comparison: ComparisonType | null = null;
  let periodDays: number | null = null;
  let limit: number | null = null;

  if (/\b(average|mean|avg)\b/.test(text)) understood.push('Average (mean) of each item');
  if (/\b(count|how many|number of)\b/.test(text)) understood.push('Counts of values and answers');

  const top = new RegExp(`\\b(?:top|best|first)\\s+${NUMBER}\\b`).exec(text);
  if (top) {
    limit = Math.min(numberFrom(top[1]) ?? 10, MAX_REPORT_ROWS);
    reportType = 'leaderboard';
    comparison = 'by_learner';
    understood.push(`Top ${limit}`);
  } else if (/\b(leaderboard|leaders|ranking|ranked|rank)\b/.test(text)) {
    reportType = 'leaderboard';
    comparison = 'by_learner';
    limit = 10;
  }

  if (/\bpie\b/.test(text)) reportType = 'pie';
  else if (/\bbar(s| chart| graph)?\b/.test(text)) reportType = 'bar';
  else if (/\bline (chart|graph)\b/.test(text)) reportType = 'line';
  else if (/\b(compare|comparison|comparing|versus|vs)\b/.test(text)) reportType ??= 'comparison';
  else if (/\btable\b/.test(text)) reportType = 'table';

  if (/\b(over time|trend|trends|weekly|per week|by week|each week|every week|progress)\b/.test(text)) {
    comparison = 'over_time';
    reportType ??= 'line';
  } else if (/\b(by|per|for each|each|across|between) (course|courses)\b/.test(text)) {
    comparison = 'by_course';
  } else if (
    /\b(by|per|for each|each|every) (learner|learners|student|students|person|people)\b/.test(text)
  ) {
    comparison = 'by_learner';
  }

  const period = new RegExp(
    `\\b(?:last|past|previous|recent)\\s+${NUMBER}?\\s*(day|week|month|year)s?\\b`,
  ).exec(text);
  if (period) {
    const amount = numberFrom(period[1]) ?? 1;
    const unit = period[2] as 'day' | 'week' | 'month' | 'year';
    const days = amount * { day: 1, week: 7, month: 30, year: 365 }[unit];
    periodDays = Math.min(Math.max(days, 1), MAX_REPORT_PERIOD_DAYS);
    understood.push(`Period: the last ${amount} ${unit}${amount === 1 ? '' : 's'}`);
  } else if (/\b(this|current) (week|month|year)\b/.test(text)) {
    const unit = /\b(?:this|current) (week|month|year)\b/.exec(text)?.[1] as 'week' | 'month' | 'year';
    periodDays = { week: 7, month: 30, year: 365 }[unit];
    understood.push(`Period: the last ${periodDays} days`);
  }

  if (reportType) understood.push(`Report type: ${CUSTOM_REPORT_TYPE_LABELS[reportType]}`);
  if (comparison) understood.push(`Breakdown: ${COMPARISON_TYPE_LABELS[comparison]}`);
  return { reportType, comparison, periodDays, limit, understood };
}

// ---- matching against the catalog --------------------------------------------------

/** The courses a piece of text names, best match first. */
function matchCourses(clause: string, courses: readonly CatalogCourse[]): CatalogCourse[] {
  const words = tokens(clause);
  const scored = courses
    .map((course) => {
      const titleWords = tokens(course.courseTitle).filter(
        (word) => !GENERIC_TITLE_WORDS.has(word) && word.length > 1,
      );
      const hits = titleWords.filter((word) => containsWord(words, word)).length;
      const phrase = normalize(course.courseTitle);
      const exact = phrase.length > 0 && normalize(clause).includes(phrase);
      return { course, score: exact ? 100 : hits === 0 ? 0 : hits / Math.max(titleWords.length, 1) + hits };
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score);
  if (scored.length === 0) return [];
  const best = scored[0]?.score ?? 0;
  return scored.filter((entry) => entry.score === best).map((entry) => entry.course);
}

function variableWords(variable: CatalogVariable): string[] {
  return [...new Set([...tokens(variable.name), ...tokens(variable.title ?? '')])].filter(
    (word) => !/^\d+$/.test(word),
  );
}

/** Variables a clause names: by their whole title or name first, else by a distinctive word. */
function matchVariables(clause: string, variables: readonly CatalogVariable[]): CatalogVariable[] {
  const text = ` ${normalize(clause)} `;
  const words = tokens(clause);
  const phrases = (variable: CatalogVariable) =>
    [variable.title ?? '', variable.name]
      .map((phrase) => normalize(phrase.replace(/\(.*?\)/g, '')))
      .filter((phrase) => phrase.length > 2);
  const whole = variables.filter((variable) =>
    phrases(variable).some(
      (phrase) =>
        text.includes(` ${phrase} `) ||
        tokens(phrase).every((word) => containsWord(words, word) || /^\d+$/.test(word)),
    ),
  );
  if (whole.length > 0) return whole;
  return variables.filter((variable) =>
    variableWords(variable).some(
      (word) => word.length >= 4 && !STOP_WORDS.has(word) && containsWord(words, word),
    ),
  );
}

type QuestionRef = { questionNumber: number | null; slideNumber: number | null; text: string | null };

function readQuestionRefs(clause: string): QuestionRef[] {
  const refs: QuestionRef[] = [];
  const slide = /\bslide\s*(?:#|no |number )?(\d+)\b/.exec(clause);
  const questionPattern = /\b(?:question|q)\s*(?:#|no |number )?(\d+)\b/g;
  for (const match of clause.matchAll(questionPattern)) {
    refs.push({
      questionNumber: Number(match[1]),
      slideNumber: slide ? Number(slide[1]) : null,
      text: null,
    });
  }
  if (refs.length === 0 && slide)
    refs.push({ questionNumber: null, slideNumber: Number(slide[1]), text: null });
  return refs;
}

function quoted(prompt: string): string[] {
  return [...prompt.matchAll(/["“”']([^"“”']{4,200})["“”']/g)].map((match) => match[1]?.trim() ?? '');
}

/** Leftover words of a clause once intents and stop words are gone: what the person may have meant. */
function leftover(clause: string, known: readonly string[]): string {
  const knownWords = new Set(known.flatMap((phrase) => tokens(phrase)));
  return normalize(clause)
    .split(/[\s-]+/)
    .filter((word) => {
      const stemmed = stem(word);
      return (
        word.length > 2 &&
        !/^\d+$/.test(word) &&
        !STOP_WORDS.has(word) &&
        !STOP_WORDS.has(stemmed) &&
        !NUMBER_WORDS[word] &&
        !knownWords.has(stemmed)
      );
    })
    .join(' ');
}

function splitClauses(text: string): string[] {
  return text
    .split(/[,;.]|\b(?:with|and also|and|plus|as well as|together with)\b/)
    .map((clause) => clause.trim())
    .filter(Boolean);
}

function reportName(prompt: string): string {
  const clean = prompt
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?]+$/, '');
  const first = clean.charAt(0).toUpperCase() + clean.slice(1);
  return first.length <= 120 ? first : `${first.slice(0, 119).trimEnd()}…`;
}

/**
 * The built-in engine: intents from known phrases, and items from the
 * catalog's own names (fuzzy), clause by clause so "question 3 of the safety
 * course" picks that course's question while "final score by course" keeps
 * every course's final score.
 */
export function generateBuiltin(prompt: string, catalog: ReportCatalog): GeneratedReport {
  const text = normalize(prompt);
  const intents = readIntents(text);
  const understood = [...intents.understood];
  const notFound: string[] = [];
  const items: ReportItemInput[] = [];
  const comparisonType: ComparisonType = intents.comparison ?? 'by_learner';
  const seen = new Set<string>();
  const add = (item: ReportItemInput, key: string, description: string) => {
    if (seen.has(key) || items.length >= MAX_REPORT_ITEMS) return;
    seen.add(key);
    items.push(item);
    understood.push(description);
  };

  for (const phrase of quoted(prompt)) {
    const wanted = normalize(phrase);
    const question = catalog.questions.find((candidate) =>
      normalize(candidate.questionText ?? '').includes(wanted),
    );
    if (question) {
      add(
        { kind: 'question', questionId: question.id, comparisonType, displayName: null },
        `q:${question.id}`,
        `Question “${questionLabel(question)}” (${question.courseTitle})`,
      );
    }
  }

  for (const clause of splitClauses(text)) {
    const refs = readQuestionRefs(clause);
    const courses = matchCourses(clause, catalog.courses);
    if (refs.length > 0) {
      const course = courses[0];
      for (const ref of refs) {
        const what = questionLabel({
          slideNumber: ref.slideNumber,
          questionNumber: ref.questionNumber,
          questionText: null,
        }).toLowerCase();
        if (!course) {
          notFound.push(`${what}: say which course (no course of yours matches “${clause}”)`);
          continue;
        }
        const exists = catalog.questions.some(
          (question) =>
            question.courseId === course.id &&
            (ref.questionNumber === null || question.questionNumber === ref.questionNumber) &&
            (ref.slideNumber === null || question.slideNumber === ref.slideNumber),
        );
        if (!exists) {
          notFound.push(`${what} of ${course.courseTitle}`);
          continue;
        }
        // By identifier, so the report keeps working after the course is republished.
        add(
          {
            kind: 'identifier',
            courseId: course.id,
            slideNumber: ref.slideNumber,
            questionNumber: ref.questionNumber,
            questionText: null,
            comparisonType,
            displayName: null,
          },
          `i:${course.id}:${ref.slideNumber}:${ref.questionNumber}`,
          `${questionLabel({ slideNumber: ref.slideNumber, questionNumber: ref.questionNumber, questionText: null })} of ${course.courseTitle}`,
        );
      }
      continue;
    }

    const matched = matchVariables(clause, catalog.variables);
    const inCourses =
      courses.length > 0 ? matched.filter((variable) => courses.some((c) => c.id === variable.courseId)) : [];
    const chosen = inCourses.length > 0 ? inCourses : matched;
    for (const variable of chosen) {
      add(
        { kind: 'variable', variableId: variable.id, comparisonType, displayName: null },
        `v:${variable.id}`,
        `Variable “${variable.title ?? variable.name}” (${variable.courseTitle})`,
      );
    }
    if (chosen.length === 0) {
      const rest = leftover(
        clause,
        courses.map((course) => course.courseTitle),
      );
      if (rest) notFound.push(`“${rest}”: no variable, question or course of yours has that name`);
      else if (courses.length > 0) {
        understood.push(...courses.map((course) => `Course “${course.courseTitle}”`));
      }
    }
  }

  if (items.length === 0 && notFound.length === 0) {
    notFound.push(
      'Name a variable (e.g. “final score”) or a question (e.g. “question 3 of the safety course”)',
    );
  }
  const draft = customReportInput.parse({
    name: reportName(prompt),
    description: `Generated from: ${prompt.trim().slice(0, 500)}`,
    reportType: intents.reportType ?? (comparisonType === 'over_time' ? 'line' : 'table'),
    config: { periodDays: intents.periodDays, limit: intents.limit },
    items,
  });
  return { engine: 'builtin', draft, understood: [...new Set(understood)], notFound: [...new Set(notFound)] };
}

// ---- LLM engine ----------------------------------------------------------------

/** What the model answers: every field present (nullable), which strict structured output wants. */
export const llmDraftSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  reportType: z.enum(['table', 'bar', 'line', 'pie', 'leaderboard', 'comparison']),
  periodDays: z.number().int().nullable(),
  limit: z.number().int().nullable(),
  items: z.array(
    z.object({
      kind: z.enum(['variable', 'question', 'identifier']),
      variableId: z.string().nullable(),
      questionId: z.string().nullable(),
      courseId: z.string().nullable(),
      slideNumber: z.number().int().nullable(),
      questionNumber: z.number().int().nullable(),
      questionText: z.string().nullable(),
      displayName: z.string().nullable(),
      comparisonType: z.enum(['by_learner', 'by_course', 'over_time']),
    }),
  ),
  understood: z.array(z.string()),
  notFound: z.array(z.string()),
});
export type LlmDraft = z.infer<typeof llmDraftSchema>;

const LLM_SYSTEM = `You turn a request for a learning-analytics report into a report draft.
Use ONLY ids from the catalog you are given; never invent ids. Items are variables (by variableId),
questions (by questionId), or questions by identifier (courseId with slideNumber and/or questionNumber,
used when the person names "question N of course X"). comparisonType is how each item is broken down:
by_learner (each learner's latest value, leaderboards), by_course, or over_time (weekly trend).
reportType is one of table, bar, line, pie, leaderboard, comparison. periodDays limits the data to the
last N days (null for all time); limit is the top N rows (null for no limit). In "understood" list in
short phrases what you took from the request; in "notFound" list what the person asked for that the
catalog does not have. Leave unused fields null.`;

/** The catalog as the model sees it: names and ids only. */
export function catalogForModel(catalog: ReportCatalog): string {
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
  });
}

/** The model's draft with every id checked against the organization's catalog; unknown ones are dropped. */
export function draftFromLlm(
  answer: LlmDraft,
  catalog: ReportCatalog,
): { draft: CustomReportDraft; dropped: number } {
  const variableIds = new Set(catalog.variables.map((variable) => variable.id));
  const questionIds = new Set(catalog.questions.map((question) => question.id));
  const courseIds = new Set(catalog.courses.map((course) => course.id));
  let dropped = 0;
  const items: ReportItemInput[] = [];
  const seen = new Set<string>();
  for (const item of answer.items) {
    const common = {
      comparisonType: item.comparisonType,
      displayName: item.displayName?.slice(0, 200) ?? null,
    };
    let next: ReportItemInput | null = null;
    if (item.kind === 'variable' && item.variableId && variableIds.has(item.variableId)) {
      next = { kind: 'variable', variableId: item.variableId, ...common };
    } else if (item.kind === 'question' && item.questionId && questionIds.has(item.questionId)) {
      next = { kind: 'question', questionId: item.questionId, ...common };
    } else if (
      item.kind === 'identifier' &&
      item.courseId &&
      courseIds.has(item.courseId) &&
      (item.slideNumber !== null || item.questionNumber !== null || item.questionText)
    ) {
      next = {
        kind: 'identifier',
        courseId: item.courseId,
        slideNumber: item.slideNumber,
        questionNumber: item.questionNumber,
        questionText: item.questionText?.slice(0, 2000) ?? null,
        ...common,
      };
    }
    const key = next ? JSON.stringify({ ...next, comparisonType: null, displayName: null }) : null;
    if (!next || !key || seen.has(key) || items.length >= MAX_REPORT_ITEMS) {
      dropped += 1;
      continue;
    }
    seen.add(key);
    items.push(next);
  }
  const clamp = (value: number | null, max: number) =>
    value === null || value < 1 ? null : Math.min(Math.round(value), max);
  const draft = customReportInput.parse({
    name: answer.name.trim().slice(0, 200) || 'Generated report',
    description: answer.description?.slice(0, 2000) ?? null,
    reportType: answer.reportType,
    config: {
      periodDays: clamp(answer.periodDays, MAX_REPORT_PERIOD_DAYS),
      limit: clamp(answer.limit, MAX_REPORT_ROWS),
    },
    items,
  });
  return { draft, dropped };
}

/**
 * The draft for a sentence: the LLM engine when the app has one (falling
 * back to the built-in engine when the model fails), else the built-in one.
 */
export async function generateReport(
  prompt: string,
  catalog: ReportCatalog,
  llm: LlmEngine | null,
): Promise<GeneratedReport> {
  if (!llm) return generateBuiltin(prompt, catalog);
  try {
    const answer = await llm.generateObject({
      system: LLM_SYSTEM,
      prompt: `Catalog of the organization:\n${catalogForModel(catalog)}\n\nRequest:\n${prompt}`,
      schema: llmDraftSchema,
    });
    const { draft, dropped } = draftFromLlm(answer, catalog);
    const notFound = [...answer.notFound];
    if (dropped > 0) {
      notFound.push(
        `${dropped} item${dropped === 1 ? '' : 's'} the model proposed that ${dropped === 1 ? 'is' : 'are'} not in your organization`,
      );
    }
    if (draft.items.length === 0 && notFound.length === 0) {
      notFound.push('No variable or question of yours matched the request');
    }
    return { engine: 'llm', model: llm.model, draft, understood: answer.understood, notFound };
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    const builtin = generateBuiltin(prompt, catalog);
    return {
      ...builtin,
      understood: [
        'The language model did not answer; the built-in engine read your request',
        ...builtin.understood,
      ],
    };
  }
}
