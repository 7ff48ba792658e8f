import {
  defaultMeasure,
  effectiveSort,
  generateReportResponse,
  reportItemInput,
  type ReportCatalog,
  type ReportQuery,
  type ReportSubject,
} from '@courselens/contracts';
import { describe, expect, it } from 'vitest';
import { generateBuiltin } from './report-generator/builtin';
import type { GeneratedReport } from './report-generator/types';
import {
  CASES_NOW,
  GENERATOR_CASES,
  HELD_OUT_CASES,
  buildCasesCatalog,
  type CasesCatalog,
  type CatalogVariant,
  type EntityRef,
  type ExpectedItem,
  type ExpectedSubject,
  type GeneratorCase,
} from './report-generator.cases';

// Runs the test set through the built-in engine and compares the essentials
// of each draft with what the case expects. The share right is printed so a
// change to the parser shows what it gained or lost; below 90 % the test fails.

const TARGET = 0.9;

const catalogs: Record<CatalogVariant, CasesCatalog> = {
  demo: buildCasesCatalog('demo'),
  extended: buildCasesCatalog('extended'),
  withValues: buildCasesCatalog('withValues'),
};

/** Ids back to readable names, so a failure says "safety/final_score" rather than a UUID. */
function namer(catalog: ReportCatalog): (id: string) => string {
  const names = new Map<string, string>();
  for (const course of catalog.courses) names.set(course.id, course.courseTitle);
  for (const variable of catalog.variables)
    names.set(variable.id, `${variable.courseTitle}/${variable.name}`);
  for (const variable of catalog.chatbotVariables)
    names.set(variable.id, `${variable.chatbotName}/${variable.name}`);
  for (const question of catalog.questions) {
    names.set(question.id, `${question.courseTitle}/slide ${question.slideNumber}`);
  }
  return (id) => names.get(id) ?? id;
}

function entityId(catalog: CasesCatalog, ref: EntityRef): string {
  switch (ref.kind) {
    case 'course':
      return catalog.courseId(ref.course);
    case 'variable':
      return catalog.variableId(ref.course, ref.name);
    case 'agentVariable':
      return catalog.chatbotVariableId(ref.agent, ref.name);
    case 'question':
      return catalog.questionId(ref.course, ref.slide);
  }
}

function subjectKey(subject: ReportSubject, name: (id: string) => string): string {
  const list = (ids: readonly string[]) => [...ids].map(name).sort().join(', ');
  switch (subject.kind) {
    case 'variable':
      return `variable [${list(subject.variableIds)}]`;
    case 'chatbot_variable':
      return `chatbot variable [${list(subject.chatbotVariableIds)}]`;
    case 'question':
      return `question ${name(subject.questionId)}`;
    case 'identifier':
      return `identifier ${name(subject.courseId)} slide ${subject.slideNumber ?? '-'} question ${subject.questionNumber ?? '-'} text ${subject.questionText ?? '-'}`;
    case 'questions':
      return `questions [${list(subject.courseIds)}]`;
    case 'courses':
      return `courses [${list(subject.courseIds)}]`;
  }
}

function expectedSubject(catalog: CasesCatalog, subject: ExpectedSubject): ReportSubject {
  switch (subject.kind) {
    case 'variable':
      return {
        kind: 'variable',
        variableIds: subject.variables.map((ref) => catalog.variableId(ref.course, ref.name)),
      };
    case 'chatbot_variable':
      return {
        kind: 'chatbot_variable',
        chatbotVariableIds: subject.variables.map((ref) => catalog.chatbotVariableId(ref.agent, ref.name)),
      };
    case 'question':
      return {
        kind: 'question',
        questionId: catalog.questionId(subject.question.course, subject.question.slide),
      };
    case 'identifier':
      return {
        kind: 'identifier',
        courseId: catalog.courseId(subject.course),
        slideNumber: subject.slideNumber ?? null,
        questionNumber: subject.questionNumber ?? null,
        questionText: null,
      };
    case 'questions':
    case 'courses':
      return { kind: subject.kind, courseIds: subject.courses.map((course) => catalog.courseId(course)) };
  }
}

/** The essentials of a query as comparable lines, defaults resolved. */
function essentials(query: ReportQuery, catalog: ReportCatalog): Record<string, string> {
  const name = namer(catalog);
  const firstId =
    query.subject.kind === 'variable'
      ? query.subject.variableIds[0]
      : query.subject.kind === 'chatbot_variable'
        ? query.subject.chatbotVariableIds[0]
        : undefined;
  const firstVariable = [...catalog.variables, ...catalog.chatbotVariables].find(
    (variable) => variable.id === firstId,
  );
  const measure = query.measure ?? defaultMeasure(query.subject.kind, firstVariable?.dataType ?? null);
  const sort = effectiveSort(query);
  return {
    subject: subjectKey(query.subject, name),
    measure: `${measure.fn}${measure.mark === null ? '' : ` mark ${measure.mark}`}`,
    breakdown:
      query.breakdown.kind === 'variable'
        ? `variable ${query.breakdown.variableName ?? ''}`
        : query.breakdown.kind,
    period: JSON.stringify(query.filters.period),
    sort: query.breakdown.kind === 'none' ? '-' : `${sort.by} ${sort.order}`,
    limit: String(query.limit),
    values: JSON.stringify(query.filters.values),
    activity: query.filters.activity
      .map(
        (condition) =>
          `${condition.did ? 'did' : 'did not'} ${condition.event} ${condition.courseId ? name(condition.courseId) : 'any course'}`,
      )
      .join('; '),
    courseFilter: [...query.filters.courseIds].map(name).sort().join(', '),
  };
}

function expectedQuery(catalog: CasesCatalog, item: ExpectedItem): ReportQuery {
  const breakdown = item.breakdown ?? 'none';
  return {
    subject: expectedSubject(catalog, item.subject),
    measure: item.measure ? { fn: item.measure, mark: item.mark ?? null } : null,
    breakdown:
      typeof breakdown === 'string'
        ? { kind: breakdown, variableName: null }
        : { kind: 'variable', variableName: breakdown.variable },
    filters: {
      courseIds: (item.courseFilter ?? []).map((course) => catalog.courseId(course)),
      period: item.period ?? null,
      values: item.values ?? [],
      activity: (item.activity ?? []).map((condition) => ({
        did: condition.did,
        event: condition.event,
        courseId: condition.course ? catalog.courseId(condition.course) : null,
      })),
    },
    sort: item.sort ?? null,
    limit: item.limit ?? null,
  };
}

/** What differs between the case and the engine's answer, in words; empty when right. */
function differences(testCase: GeneratorCase, result: GeneratedReport): string[] {
  const catalog = catalogs[testCase.catalog ?? 'demo'];
  const name = namer(catalog);
  const problems: string[] = [];
  const items = result.draft.items;
  if (items.length !== testCase.items.length) {
    problems.push(
      `${items.length} items instead of ${testCase.items.length}: ${items.map((item) => subjectKey(item.query.subject, name)).join(' | ') || 'none'}`,
    );
  }
  testCase.items.forEach((expectedItem, index) => {
    const actualItem = items[index];
    if (!actualItem) return;
    const expected = essentials(expectedQuery(catalog, expectedItem), catalog);
    const actual = essentials(actualItem.query, catalog);
    for (const [field, value] of Object.entries(expected)) {
      if (actual[field] !== value)
        problems.push(`item ${index + 1} ${field}: got ${actual[field]}, expected ${value}`);
    }
    const chart = expectedItem.chart ?? 'auto';
    if (actualItem.chart !== chart)
      problems.push(`item ${index + 1} chart: got ${actualItem.chart}, expected ${chart}`);
  });

  const expectedAmbiguities = (testCase.ambiguities ?? [])
    .map(
      (ambiguity) =>
        `${ambiguity.phrase}: ${ambiguity.options
          .map((ref) => name(entityId(catalog, ref)))
          .sort()
          .join(', ')}`,
    )
    .sort();
  const actualAmbiguities = result.ambiguities
    .map(
      (ambiguity) =>
        `${ambiguity.phrase.toLowerCase()}: ${ambiguity.options
          .map((option) => name(option.id))
          .sort()
          .join(', ')}`,
    )
    .sort();
  if (JSON.stringify(expectedAmbiguities) !== JSON.stringify(actualAmbiguities)) {
    problems.push(
      `asked back ${JSON.stringify(actualAmbiguities)}, expected ${JSON.stringify(expectedAmbiguities)}`,
    );
  }

  const wanted = testCase.notFound ?? [];
  const said = result.notFound.join(' | ').toLowerCase();
  if (wanted.length === 0 && result.notFound.length > 0)
    problems.push(`said not found: ${result.notFound.join(' | ')}`);
  for (const word of wanted) {
    if (!said.includes(word.toLowerCase()))
      problems.push(`did not say it could not find “${word}” (said: ${said || 'nothing'})`);
  }
  return problems;
}

function run(testCase: GeneratorCase): GeneratedReport {
  const catalog = catalogs[testCase.catalog ?? 'demo'];
  const choices = (testCase.choices ?? []).map((choice) => ({
    phrase: choice.phrase,
    id: entityId(catalog, choice.option),
  }));
  return generateBuiltin(testCase.prompt, catalog, { choices, now: CASES_NOW });
}

/** Runs a set, prints what went wrong and the share right. */
function score(label: string, cases: readonly GeneratorCase[]): { right: number; total: number } {
  const failures: { prompt: string; problems: string[] }[] = [];
  for (const testCase of cases) {
    const problems = differences(testCase, run(testCase));
    if (problems.length > 0) failures.push({ prompt: testCase.prompt, problems });
  }
  const right = cases.length - failures.length;
  if (failures.length > 0) {
    console.log(
      [
        `${label}: requests it got wrong`,
        ...failures.map(
          ({ prompt, problems }) =>
            `  “${prompt}”\n${problems.map((problem) => `      - ${problem}`).join('\n')}`,
        ),
      ].join('\n'),
    );
  }
  console.log(`${label}: ${right}/${cases.length} right (${((right / cases.length) * 100).toFixed(1)} %)`);
  return { right, total: cases.length };
}

describe('the generator test set', () => {
  it('holds at least 45 requests', () => {
    expect(GENERATOR_CASES.length).toBeGreaterThanOrEqual(45);
  });

  it(`gets at least ${TARGET * 100} % of the requests right with the built-in engine`, () => {
    const { right, total } = score('generator', GENERATOR_CASES);
    expect(right / total).toBeGreaterThanOrEqual(TARGET);
  });

  it(`gets at least ${TARGET * 100} % of the held-out requests right`, () => {
    const { right, total } = score('generator (held out)', HELD_OUT_CASES);
    expect(right / total).toBeGreaterThanOrEqual(TARGET);
  });

  it('answers schema-valid drafts whose items the create endpoint accepts', () => {
    for (const testCase of [...GENERATOR_CASES, ...HELD_OUT_CASES]) {
      const result = run(testCase);
      expect(() => generateReportResponse.parse(result)).not.toThrow();
      for (const item of result.draft.items) {
        const parsed = reportItemInput.safeParse({ kind: 'query', ...item });
        expect(parsed.success, `${testCase.prompt}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      }
    }
  });
});
