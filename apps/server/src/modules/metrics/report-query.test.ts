import {
  reportQuerySchema,
  type ReportData,
  type ReportItemData,
  type ReportQueryInput,
  type ReportResult,
} from '@courselens/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertCourse,
  insertCourseRun,
  insertLearner,
  insertQuestion,
  insertResponse,
  insertVariable,
  insertVariableValue,
} from '../../db/factories/learning';
import type { Course, Learner, Question, Variable } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import {
  buildReportQuery,
  executeReportStatement,
  factSource,
  type ExecutableQuery,
  type FactSource,
  type QueryRow,
} from './report-query.queries';
import { describeSubject, effectiveQuery, resolvePeriod } from './report-query.service';

// The report model run by the metrics layer, through the builder's preview
// endpoint, on a small organization whose every number can be counted by
// hand: two courses, four learners, a department variable, scores, runs and
// answers.

let testApp: TestApp;
let owner: SignedUp;
let safety: Course;
let onboarding: Course;
let department: Variable;
let safetyScore: Variable;
let onboardingScore: Variable;
let fire: Question;
let signs: Question;
let handbook: Question;
let ann: Learner;
let bob: Learner;
let cyd: Learner;
let dee: Learner;

const db = () => testApp.database.db;

async function preview(...queries: ReportQueryInput[]): Promise<ReportItemData[]> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/custom-reports/preview',
    headers: owner.headers,
    payload: { items: queries.map((query) => ({ kind: 'query', query })) },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: ReportData }>().data.items;
}

async function result(query: ReportQueryInput): Promise<ReportResult> {
  const [item] = await preview(query);
  if (!item?.result) throw new Error('the item has no result');
  return item.result;
}

const table = (outcome: ReportResult) =>
  outcome.rows.map((row) => [row.label, round(row.value), row.learners]);
const round = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 1000);

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  const organizationId = owner.organization.id;
  safety = await insertCourse(db(), { organizationId, courseTitle: 'Workplace Safety' });
  onboarding = await insertCourse(db(), { organizationId, courseTitle: 'Onboarding' });
  ann = await insertLearner(db(), { organizationId, name: 'Ann', email: 'ann@metrics.example' });
  bob = await insertLearner(db(), { organizationId, name: 'Bob', email: 'bob@metrics.example' });
  cyd = await insertLearner(db(), { organizationId, name: 'Cyd', email: 'cyd@metrics.example' });
  dee = await insertLearner(db(), { organizationId, name: 'Dee', email: 'dee@metrics.example' });

  department = await insertVariable(db(), {
    organizationId,
    courseId: safety.id,
    name: 'department',
    title: 'Department',
    dataType: 'text',
  });
  safetyScore = await insertVariable(db(), {
    organizationId,
    courseId: safety.id,
    name: 'final_score',
    title: 'Final score',
    dataType: 'number',
  });
  onboardingScore = await insertVariable(db(), {
    organizationId,
    courseId: onboarding.id,
    name: 'final_score',
    title: 'Final score',
    dataType: 'number',
  });
  const value = (variable: Variable, learner: Learner, raw: string | number, at: string) =>
    insertVariableValue(db(), {
      organizationId,
      variableId: variable.id,
      courseId: variable.courseId,
      learnerId: learner.id,
      raw,
      dataType: variable.dataType,
      recordedAt: new Date(at),
    });
  await value(department, ann, 'Sales', '2026-01-05T09:00:00Z');
  await value(department, bob, 'Sales', '2026-01-05T09:00:00Z');
  await value(department, cyd, 'IT', '2026-01-05T09:00:00Z');
  await value(safetyScore, ann, 80, '2026-01-06T09:00:00Z');
  await value(safetyScore, bob, 60, '2026-01-06T09:00:00Z');
  await value(safetyScore, cyd, 90, '2026-02-06T09:00:00Z');
  await value(onboardingScore, ann, 70, '2026-01-07T09:00:00Z');
  await value(onboardingScore, dee, 50, '2026-01-07T09:00:00Z');

  const run = (course: Course, learner: Learner, outcome: 'passed' | 'failed' | 'started', score?: number) =>
    insertCourseRun(db(), {
      organizationId,
      courseId: course.id,
      learnerId: learner.id,
      startedAt: new Date('2026-01-05T08:00:00Z'),
      completedAt: outcome === 'started' ? null : new Date('2026-01-06T08:00:00Z'),
      passed: outcome === 'started' ? null : outcome === 'passed',
      score: score ?? null,
      passMark: outcome === 'started' ? null : 70,
    });
  await run(safety, ann, 'passed', 80);
  await run(safety, bob, 'failed', 60);
  await run(safety, cyd, 'started');
  await run(onboarding, ann, 'passed', 70);
  await run(onboarding, dee, 'started');

  fire = await insertQuestion(db(), {
    organizationId,
    courseId: safety.id,
    slideNumber: 2,
    questionNumber: 1,
    questionText: 'What do you do first in a fire?',
  });
  signs = await insertQuestion(db(), {
    organizationId,
    courseId: safety.id,
    slideNumber: 3,
    questionNumber: 2,
    questionText: 'What does a yellow sign mean?',
  });
  handbook = await insertQuestion(db(), {
    organizationId,
    courseId: onboarding.id,
    slideNumber: 1,
    questionNumber: 1,
    questionText: 'Where is the handbook?',
  });
  const answer = (question: Question, learner: Learner, correct: boolean, at: string) =>
    insertResponse(db(), {
      organizationId,
      courseId: question.courseId,
      questionId: question.id,
      learnerId: learner.id,
      slideNumber: question.slideNumber,
      questionNumber: question.questionNumber,
      questionText: question.questionText,
      answerChoice: correct ? 'Right' : 'Wrong',
      correct,
      pointsAssigned: correct ? 10 : 0,
      createdAt: new Date(at),
    });
  await answer(fire, ann, false, '2026-01-05T10:00:00Z');
  await answer(fire, ann, true, '2026-01-05T10:05:00Z');
  await answer(fire, bob, false, '2026-01-05T11:00:00Z');
  await answer(fire, cyd, true, '2026-02-05T11:00:00Z');
  await answer(signs, ann, true, '2026-01-05T10:10:00Z');
  await answer(signs, bob, true, '2026-01-05T11:10:00Z');
  await answer(handbook, dee, false, '2026-01-07T10:00:00Z');
});

afterAll(async () => {
  await testApp.close();
});

describe('questions ranked', () => {
  it('puts the hardest first, with retries counted as responses', async () => {
    const outcome = await result({
      subject: { kind: 'questions', courseIds: [safety.id] },
      measure: { fn: 'correct_rate' },
      breakdown: { kind: 'question' },
      sort: { by: 'measure', order: 'asc' },
    });
    expect(table(outcome)).toEqual([
      ['What do you do first in a fire?', 0.5, 3],
      ['What does a yellow sign mean?', 1, 2],
    ]);
    expect(outcome.rows.map((row) => row.count)).toEqual([4, 2]);
    expect(outcome.measure).toMatchObject({ label: 'Correct rate', unit: 'percent' });
    expect(outcome.measure.definition).toContain('retries included');
  });

  it('names the course of each question when several courses are ranked', async () => {
    const outcome = await result({
      subject: { kind: 'questions', courseIds: [] },
      measure: { fn: 'correct_rate' },
      breakdown: { kind: 'question' },
      sort: { by: 'measure', order: 'asc' },
      limit: 1,
    });
    expect(table(outcome)).toEqual([['Where is the handbook? (Onboarding)', 0, 1]]);
    // The rest is summed up over its answers (4 right of 6), not added up from rates.
    expect(outcome.others).toMatchObject({ label: 'Others', groups: 2, count: 6, learners: 3 });
    expect(round(outcome.others?.value ?? null)).toBe(0.667);
    expect(outcome.groupCount).toBe(3);
    expect(outcome.total).toMatchObject({ count: 7, learners: 4 });
  });
});

describe('course runs', () => {
  it('counts learners, completions and rates per course', async () => {
    const [learners, completions, completionRate, passRate, marked, average] = await preview(
      {
        subject: { kind: 'courses', courseIds: [] },
        measure: { fn: 'learners' },
        breakdown: { kind: 'course' },
      },
      {
        subject: { kind: 'courses', courseIds: [] },
        measure: { fn: 'completions' },
        breakdown: { kind: 'course' },
      },
      {
        subject: { kind: 'courses', courseIds: [safety.id] },
        measure: { fn: 'completion_rate' },
        breakdown: { kind: 'course' },
      },
      { subject: { kind: 'courses', courseIds: [safety.id] }, measure: { fn: 'pass_rate' } },
      { subject: { kind: 'courses', courseIds: [safety.id] }, measure: { fn: 'pass_rate', mark: 65 } },
      { subject: { kind: 'courses', courseIds: [safety.id] }, measure: { fn: 'average' } },
    );
    expect(table(learners!.result!)).toEqual([
      ['Workplace Safety', 3, 3],
      ['Onboarding', 2, 2],
    ]);
    expect(learners?.result?.total).toMatchObject({ value: 4, learners: 4 });
    expect(table(completions!.result!)).toEqual([
      ['Workplace Safety', 2, 3],
      ['Onboarding', 1, 2],
    ]);
    expect(round(completionRate?.result?.rows[0]?.value ?? null)).toBe(0.667);
    // Passed or failed as the course reported it; Cyd has no outcome yet.
    expect(passRate?.result?.total.value).toBe(0.5);
    expect(passRate?.chart).toBe('number');
    expect(marked?.result?.total.value).toBe(0.5);
    expect(average?.result?.total.value).toBe(70);
  });

  it('keeps the learners who did not complete a course', async () => {
    const outcome = await result({
      subject: { kind: 'courses', courseIds: [] },
      measure: { fn: 'learners' },
      breakdown: { kind: 'learner' },
      sort: { by: 'label', order: 'asc' },
      filters: { activity: [{ did: false, event: 'completed', courseId: safety.id }] },
    });
    expect(outcome.rows.map((row) => row.label)).toEqual(['Cyd', 'Dee']);
  });
});

describe('variables', () => {
  it('compares the same variable across courses', async () => {
    const outcome = await result({
      subject: { kind: 'variable', variableIds: [safetyScore.id, onboardingScore.id] },
      measure: { fn: 'average' },
      breakdown: { kind: 'course' },
    });
    expect(table(outcome)).toEqual([
      ['Workplace Safety', 76.667, 3],
      ['Onboarding', 60, 2],
    ]);
  });

  it('breaks down by the value of another variable, with learners without one apart', async () => {
    const [safetyByDepartment, onboardingByDepartment] = await preview(
      {
        subject: { kind: 'variable', variableIds: [safetyScore.id] },
        measure: { fn: 'average' },
        breakdown: { kind: 'variable', variableName: 'department' },
        sort: { by: 'label', order: 'asc' },
      },
      {
        subject: { kind: 'variable', variableIds: [onboardingScore.id] },
        measure: { fn: 'median' },
        breakdown: { kind: 'variable', variableName: 'department' },
        sort: { by: 'label', order: 'asc' },
      },
    );
    expect(table(safetyByDepartment!.result!)).toEqual([
      ['IT', 90, 1],
      ['Sales', 70, 2],
    ]);
    expect(safetyByDepartment?.result?.breakdown.label).toBe('department');
    expect(table(onboardingByDepartment!.result!)).toEqual([
      ['(no value)', 50, 1],
      ['Sales', 70, 1],
    ]);
  });

  it("breaks down several facts per learner by another variable's value, each learner in one group", async () => {
    // Ann has a score and a course in both courses, every other learner one.
    const [scores, completion] = await preview(
      {
        subject: { kind: 'variable', variableIds: [safetyScore.id, onboardingScore.id] },
        measure: { fn: 'average' },
        breakdown: { kind: 'variable', variableName: 'department' },
        sort: { by: 'label', order: 'asc' },
      },
      {
        subject: { kind: 'courses', courseIds: [] },
        measure: { fn: 'completion_rate' },
        breakdown: { kind: 'variable', variableName: 'department' },
        sort: { by: 'label', order: 'asc' },
      },
    );
    expect(table(scores!.result!)).toEqual([
      ['(no value)', 50, 1],
      ['IT', 90, 1],
      ['Sales', 70, 2],
    ]);
    expect(scores?.result?.total).toMatchObject({ value: 70, learners: 4 });
    // Completion counts each learner's courses: Sales has Ann's two and Bob's one, all completed.
    expect(table(completion!.result!)).toEqual([
      ['(no value)', 0, 1],
      ['IT', 0, 1],
      ['Sales', 1, 2],
    ]);
    expect(completion?.result?.total).toMatchObject({ value: 0.6, learners: 4 });
  });

  it('keeps learners by a condition on another variable, ignoring case', async () => {
    const outcome = await result({
      subject: { kind: 'variable', variableIds: [safetyScore.id] },
      measure: { fn: 'average' },
      filters: { values: [{ variableName: 'department', op: 'eq', value: 'sales' }] },
    });
    expect(outcome.total).toMatchObject({ value: 70, learners: 2 });
  });

  it('measures a pass rate against a mark and filters on its own value', async () => {
    const [pass, high] = await preview(
      {
        subject: { kind: 'variable', variableIds: [safetyScore.id] },
        measure: { fn: 'pass_rate', mark: 75 },
      },
      {
        subject: { kind: 'variable', variableIds: [safetyScore.id] },
        measure: { fn: 'learners' },
        filters: { values: [{ variableName: null, op: 'gte', value: 80 }] },
      },
    );
    expect(round(pass?.result?.total.value ?? null)).toBe(0.667);
    expect(high?.result?.total.value).toBe(2);
  });

  it('reads a period: only the values recorded in it', async () => {
    const outcome = await result({
      subject: { kind: 'variable', variableIds: [safetyScore.id] },
      measure: { fn: 'values' },
      filters: { period: { kind: 'between', from: '2026-02-01', to: '2026-02-28' } },
    });
    expect(outcome.total).toMatchObject({ value: 1, learners: 1 });
    expect(outcome.period).toEqual({ from: '2026-02-01T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' });
  });

  it('marks the bucket that is not over yet as partial', async () => {
    await insertVariableValue(db(), {
      organizationId: owner.organization.id,
      variableId: safetyScore.id,
      courseId: safety.id,
      learnerId: dee.id,
      raw: 40,
      dataType: 'number',
      recordedAt: new Date(),
    });
    const outcome = await result({
      subject: { kind: 'variable', variableIds: [safetyScore.id] },
      measure: { fn: 'values' },
      breakdown: { kind: 'month' },
    });
    expect(outcome.rows.map((row) => row.isPartial)).toEqual([false, false, true]);
    expect(outcome.rows.at(-1)?.value).toBe(1);
  });
});

describe('periods', () => {
  const now = new Date('2026-11-18T15:00:00Z'); // a Wednesday

  it('resolves this and last week, month, quarter and year in UTC', () => {
    const iso = (period: Parameters<typeof resolvePeriod>[0]) => {
      const { from, to } = resolvePeriod(period, now);
      return [from?.toISOString() ?? null, to?.toISOString() ?? null];
    };
    expect(iso({ kind: 'this', unit: 'week' })).toEqual(['2026-11-16T00:00:00.000Z', null]);
    expect(iso({ kind: 'last', unit: 'week' })).toEqual([
      '2026-11-09T00:00:00.000Z',
      '2026-11-16T00:00:00.000Z',
    ]);
    expect(iso({ kind: 'this', unit: 'month' })).toEqual(['2026-11-01T00:00:00.000Z', null]);
    expect(iso({ kind: 'last', unit: 'month' })).toEqual([
      '2026-10-01T00:00:00.000Z',
      '2026-11-01T00:00:00.000Z',
    ]);
    expect(iso({ kind: 'this', unit: 'quarter' })).toEqual(['2026-10-01T00:00:00.000Z', null]);
    expect(iso({ kind: 'last', unit: 'quarter' })).toEqual([
      '2026-07-01T00:00:00.000Z',
      '2026-10-01T00:00:00.000Z',
    ]);
    expect(iso({ kind: 'last', unit: 'year' })).toEqual([
      '2025-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    ]);
    expect(iso({ kind: 'last_days', days: 7 })).toEqual(['2026-11-11T15:00:00.000Z', null]);
    expect(iso(null)).toEqual([null, null]);
  });

  it('starts "the last N days" at the start of the current minute, so a minute asks one period', () => {
    const at = (instant: string) => resolvePeriod({ kind: 'last_days', days: 7 }, new Date(instant)).from;
    expect(at('2026-11-18T15:00:42.123Z')?.toISOString()).toBe('2026-11-11T15:00:00.000Z');
    expect(at('2026-11-18T15:00:59.999Z')).toEqual(at('2026-11-18T15:00:00.000Z'));
    expect(at('2026-11-18T15:01:00.000Z')?.toISOString()).toBe('2026-11-11T15:01:00.000Z');
  });
});

describe('answers of one question', () => {
  it('breaks down by answer and by learner, with the last answer beside each learner', async () => {
    const [byAnswer, byLearner] = await preview(
      {
        subject: { kind: 'question', questionId: fire.id },
        measure: { fn: 'responses' },
        breakdown: { kind: 'answer' },
      },
      { subject: { kind: 'question', questionId: fire.id }, breakdown: { kind: 'learner' } },
    );
    expect(table(byAnswer!.result!)).toEqual([
      ['Right', 2, 2],
      ['Wrong', 2, 2],
    ]);
    expect(byLearner?.result?.rows.map((row) => [row.label, row.value, row.detail])).toEqual([
      ['Cyd', 1, 'Right'],
      ['Ann', 0.5, 'Right'],
      ['Bob', 0, 'Wrong'],
    ]);
  });

  it('reads a question by its position in the course (an identifier)', async () => {
    const outcome = await result({
      subject: { kind: 'identifier', courseId: safety.id, slideNumber: 3, questionNumber: 2 },
    });
    expect(outcome.measure.fn).toBe('correct_rate');
    expect(outcome.total).toMatchObject({ value: 1, count: 2, learners: 2 });
  });
});

describe('rollups and facts', () => {
  // Where an item can be answered from a rollup, the rollup must give the
  // very rows the facts give: the same groups, values, learners, counts,
  // others and total.
  const REFERENCE: Partial<Record<FactSource, FactSource>> = {
    question_days: 'answers',
    question_learners: 'answers',
    course_learners: 'course_runs',
    value_days: 'value_history',
  };
  const now = new Date('2026-03-15T12:00:00Z');

  async function bothWays(input: ReportQueryInput): Promise<{ source: FactSource; rows: QueryRow[][] }> {
    const organizationId = owner.organization.id;
    const query = reportQuerySchema.parse(input);
    const info = await describeSubject(db(), organizationId, query.subject);
    const effective = effectiveQuery(query, info, { now });
    const { period, ...filters } = effective.filters;
    const executable: ExecutableQuery = {
      subject: query.subject,
      measure: effective.measure ?? { fn: 'learners', mark: null },
      breakdown: effective.breakdown,
      filters,
      period: resolvePeriod(period, now),
      sort: effective.sort ?? { by: 'measure', order: 'desc' },
      limit: effective.limit ?? 200,
      dataType: info.dataType,
    };
    const source = factSource(executable);
    const reference = REFERENCE[source];
    if (!reference) throw new Error(`no facts to hold ${source} to`);
    const run = async (chosen: FactSource) => {
      const rows = await executeReportStatement<QueryRow>(
        db(),
        buildReportQuery(organizationId, executable, { source: chosen }),
      );
      const order = { row: 0, others: 1, total: 2 };
      return rows
        .map((row) => ({
          ...row,
          value: row.value === null ? null : Math.round(Number(row.value) * 1e9) / 1e9,
          learners: Number(row.learners),
          count: Number(row.count),
          n: Number(row.n),
        }))
        .sort((a, b) => order[a.part] - order[b.part] || a.n - b.n);
    };
    return { source, rows: [await run(source), await run(reference)] };
  }

  it('give the same rows for every item the rollups answer', async () => {
    const organizationId = owner.organization.id;
    const quiz = await insertVariable(db(), {
      organizationId,
      courseId: safety.id,
      name: 'quiz_passed',
      dataType: 'boolean',
    });
    for (const [learner, raw, day] of [
      [ann, true, '2026-01-05'],
      [ann, false, '2026-01-12'],
      [bob, true, '2026-01-13'],
      [cyd, false, '2026-02-02'],
    ] as const) {
      await insertVariableValue(db(), {
        organizationId,
        variableId: quiz.id,
        courseId: safety.id,
        learnerId: learner.id,
        raw,
        dataType: 'boolean',
        recordedAt: new Date(`${day}T10:00:00Z`),
      });
    }
    const questions = { kind: 'questions' as const, courseIds: [] };
    const courses = { kind: 'courses' as const, courseIds: [] };
    const scores = { kind: 'variable' as const, variableIds: [safetyScore.id, onboardingScore.id] };
    const byDepartment = { kind: 'variable' as const, variableName: 'department' };
    const cases: [FactSource, ReportQueryInput][] = [
      [
        'question_days',
        {
          subject: questions,
          measure: { fn: 'correct_rate' },
          breakdown: { kind: 'question' },
          sort: { by: 'measure', order: 'asc' },
          limit: 1,
        },
      ],
      [
        'question_days',
        { subject: questions, measure: { fn: 'responses' }, breakdown: { kind: 'course' }, limit: 1 },
      ],
      ['question_days', { subject: questions, measure: { fn: 'learners' } }],
      [
        'question_days',
        { subject: { kind: 'questions', courseIds: [safety.id] }, breakdown: { kind: 'question' } },
      ],
      [
        'question_days',
        { subject: { kind: 'question', questionId: fire.id }, breakdown: { kind: 'course' } },
      ],
      [
        'question_learners',
        {
          subject: { kind: 'question', questionId: fire.id },
          measure: { fn: 'points' },
          breakdown: { kind: 'learner' },
        },
      ],
      ['question_learners', { subject: questions, measure: { fn: 'points' }, breakdown: { kind: 'course' } }],
      ['question_learners', { subject: questions, measure: { fn: 'correct_rate' }, breakdown: byDepartment }],
      [
        'question_learners',
        {
          subject: questions,
          measure: { fn: 'responses' },
          breakdown: { kind: 'question' },
          filters: { values: [{ variableName: 'department', op: 'eq', value: 'Sales' }] },
          limit: 1,
        },
      ],
      ['course_learners', { subject: courses, measure: { fn: 'learners' }, breakdown: { kind: 'course' } }],
      [
        'course_learners',
        { subject: courses, measure: { fn: 'completions' }, breakdown: { kind: 'course' }, limit: 1 },
      ],
      [
        'course_learners',
        { subject: courses, measure: { fn: 'completion_rate' }, breakdown: { kind: 'week' } },
      ],
      ['course_learners', { subject: courses, measure: { fn: 'pass_rate' }, breakdown: byDepartment }],
      [
        'course_learners',
        { subject: courses, measure: { fn: 'pass_rate', mark: 65 }, breakdown: { kind: 'learner' } },
      ],
      ['course_learners', { subject: courses, measure: { fn: 'median' }, breakdown: { kind: 'course' } }],
      [
        'course_learners',
        {
          subject: courses,
          measure: { fn: 'completions' },
          filters: { period: { kind: 'between', from: '2026-01-06', to: '2026-01-31' } },
        },
      ],
      ['value_days', { subject: scores, measure: { fn: 'average' }, breakdown: { kind: 'week' } }],
      ['value_days', { subject: scores, measure: { fn: 'learners' }, breakdown: { kind: 'month' } }],
      ['value_days', { subject: scores, measure: { fn: 'min' }, breakdown: { kind: 'day' } }],
      [
        'value_days',
        {
          subject: scores,
          measure: { fn: 'max' },
          breakdown: { kind: 'month' },
          filters: {
            courseIds: [safety.id],
            period: { kind: 'between', from: '2026-01-01', to: '2026-01-31' },
          },
        },
      ],
      [
        'value_days',
        {
          subject: { kind: 'variable', variableIds: [quiz.id] },
          measure: { fn: 'pass_rate' },
          breakdown: { kind: 'week' },
        },
      ],
    ];
    // A whole question or variable over time: its learners, each once, from the rollups' counts.
    const [fireWeekly, scoreWeekly] = await preview(
      { subject: { kind: 'question', questionId: fire.id }, breakdown: { kind: 'week' } },
      { subject: { kind: 'variable', variableIds: [safetyScore.id] }, breakdown: { kind: 'week' } },
    );
    expect(fireWeekly?.result?.total).toMatchObject({ learners: 3, count: 4 });
    expect(scoreWeekly?.result?.total.learners).toBe(4);
    for (const [expected, input] of cases) {
      const { source, rows } = await bothWays(input);
      const name = JSON.stringify(input);
      expect(source, name).toBe(expected);
      expect(rows[0]!.length, name).toBeGreaterThan(0);
      expect(rows[0], name).toEqual(rows[1]);
    }
  });
});
