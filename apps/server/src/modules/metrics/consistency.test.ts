import {
  METRIC_DEFINITIONS,
  binLabel,
  niceBins,
  type ReportData,
  type QuestionLeadersResponse,
  type QuestionReportResponse,
  type ReportQueryInput,
  type ReportResult,
  type VariableAiSummary,
  type VariableChartResponse,
  type VariableReportResponse,
} from '@courselens/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertCourse,
  insertLearner,
  insertQuestion,
  insertResponse,
  insertVariable,
  insertVariableValue,
} from '../../db/factories/learning';
import type { Course, Learner, Question, Variable } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';

// One small organization seen through every screen that shows its numbers:
// the variable report, its chart, the AI summary, the question report and
// its leaders, and a custom report of the same data. They must tell the
// same story: learners counted once, values one per learner and course,
// the same mean, the same bins, and retries that never add up.

let testApp: TestApp;
let owner: SignedUp;
let alpha: Course;
let beta: Course;
let scoreAlpha: Variable;
let scoreBeta: Variable;
let question: Question;
const people: Record<string, Learner> = {};

const inject = (options: InjectOptions) => testApp.app.inject({ ...options, headers: owner.headers });
const get = async <T>(url: string): Promise<T> => {
  const response = await inject({ method: 'GET', url });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json<T>();
};

/** One custom report item through the builder's preview, as a person building the report would see it. */
async function customReport(query: ReportQueryInput): Promise<ReportResult> {
  const response = await inject({
    method: 'POST',
    url: '/api/custom-reports/preview',
    payload: { items: [{ kind: 'query', query }] },
  });
  expect(response.statusCode, response.body).toBe(200);
  const result = response.json<{ data: ReportData }>().data.items[0]?.result;
  if (!result) throw new Error('the preview has no result');
  return result;
}

const at = (day: string, hour = 12) => new Date(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  const db = testApp.database.db;
  const organizationId = owner.organization.id;
  alpha = await insertCourse(db, { organizationId, courseTitle: 'Alpha safety' });
  beta = await insertCourse(db, { organizationId, courseTitle: 'Beta sales' });
  for (const name of ['Ann', 'Bob', 'Cid', 'Dee', 'Eve']) {
    people[name] = await insertLearner(db, {
      organizationId,
      name,
      email: `${name.toLowerCase()}@example.com`,
    });
  }

  scoreAlpha = await insertVariable(db, {
    organizationId,
    courseId: alpha.id,
    name: 'final_score',
    dataType: 'number',
  });
  scoreBeta = await insertVariable(db, {
    organizationId,
    courseId: beta.id,
    name: 'final_score',
    dataType: 'number',
  });
  const value = (variable: Variable, learner: string, raw: number | string, day: string, hour = 12) =>
    insertVariableValue(db, {
      organizationId,
      variableId: variable.id,
      courseId: variable.courseId,
      learnerId: people[learner]?.id ?? '',
      raw,
      dataType: 'number',
      recordedAt: at(day, hour),
    });
  // Ann and Bob take both courses; earlier values are history, not latest values.
  await value(scoreAlpha, 'Ann', 40, '2026-03-01', 9);
  await value(scoreAlpha, 'Ann', 72.5, '2026-03-02');
  await value(scoreAlpha, 'Bob', 88, '2026-03-03');
  await value(scoreAlpha, 'Cid', 61, '2026-03-04');
  await value(scoreAlpha, 'Eve', 'absent', '2026-03-04');
  await value(scoreBeta, 'Ann', 95, '2026-03-05');
  await value(scoreBeta, 'Bob', 55, '2026-03-05', 9);
  await value(scoreBeta, 'Bob', 58, '2026-03-06');
  await value(scoreBeta, 'Dee', 79, '2026-03-07');

  // A 10-point question with retries: Ann 4 then 10, Bob 10 twice, Cid 6.
  question = await insertQuestion(db, {
    organizationId,
    courseId: alpha.id,
    interactionId: 'q-final',
    questionText: 'Which exit?',
    correctAnswer: 'B',
  });
  const answer = (learner: string, choice: string, points: number, day: string, hour: number) =>
    insertResponse(db, {
      organizationId,
      courseId: alpha.id,
      questionId: question.id,
      learnerId: people[learner]?.id ?? '',
      answerChoice: choice,
      correct: choice === 'B',
      correctAnswer: 'B',
      pointsAssigned: points,
      createdAt: at(day, hour),
    });
  await answer('Ann', 'A', 4, '2026-03-02', 9);
  await answer('Ann', 'B', 10, '2026-03-02', 10);
  await answer('Bob', 'B', 10, '2026-03-03', 9);
  await answer('Bob', 'B', 10, '2026-03-03', 10);
  await answer('Cid', 'C', 6, '2026-03-04', 9);
});

afterAll(async () => {
  await testApp.close();
});

describe('a variable in two courses', () => {
  it('has the same learners, values and mean in the variable report and a custom report', async () => {
    const report = await get<VariableReportResponse>('/api/variable-reports/report?name=final_score');
    const variableIds = [scoreAlpha.id, scoreBeta.id];
    const average = await customReport({ subject: { kind: 'variable', variableIds } });
    const learners = await customReport({
      subject: { kind: 'variable', variableIds },
      measure: { fn: 'learners' },
    });
    const values = await customReport({
      subject: { kind: 'variable', variableIds },
      measure: { fn: 'values' },
    });

    // Ann, Bob, Cid, Dee, Eve: five people; seven latest values (Ann and Bob twice).
    expect(report.summary).toMatchObject({ learners: 5, values: 7, count: 7 });
    expect(learners.total.value).toBe(report.summary.learners);
    expect(average.total.learners).toBe(report.summary.learners);
    expect(values.total.value).toBe(report.summary.values);
    expect(average.total.count).toBe(report.summary.values);
    const numbers = [72.5, 88, 61, 95, 58, 79];
    const mean = numbers.reduce((sum, n) => sum + n, 0) / numbers.length;
    expect(report.summary.mean).toBeCloseTo(mean, 10);
    expect(average.total.value).toBeCloseTo(report.summary.mean ?? NaN, 10);

    // The same words for the same counts.
    expect(report.summary.definitions.learners).toBe(learners.measure.definition);
    expect(report.summary.definitions.values).toBe(values.measure.definition);
    expect(report.summary.definitions.values).toBe(METRIC_DEFINITIONS.values);
  });

  it('agrees within a period too', async () => {
    const report = await get<VariableReportResponse>(
      '/api/variable-reports/report?name=final_score&from=2026-03-03&to=2026-03-05',
    );
    const result = await customReport({
      subject: { kind: 'variable', variableIds: [scoreAlpha.id, scoreBeta.id] },
      filters: { period: { kind: 'between', from: '2026-03-03', to: '2026-03-05' } },
    });
    // Bob (alpha), Cid, Eve (alpha) and Ann (beta); Bob's beta value came on the 6th.
    expect(report.summary).toMatchObject({ learners: 4, values: 4 });
    expect(result.total).toMatchObject({ learners: report.summary.learners, count: report.summary.values });
    expect(result.total.value).toBeCloseTo(report.summary.mean ?? NaN, 10);
  });

  it('draws the histogram on nice bins that hold every number of the summary', async () => {
    const report = await get<VariableReportResponse>('/api/variable-reports/report?name=final_score');
    const chart = await get<VariableChartResponse>('/api/variable-reports/chart?name=final_score');
    if (chart.distribution.kind !== 'histogram') throw new Error('expected a histogram');
    const { bins } = chart.distribution;
    const { min, max } = report.summary;
    if (min === null || max === null) throw new Error('expected numbers');
    const expected = niceBins(min, max, 10);
    expect(bins.map(({ from, to, label }) => ({ from, to, label }))).toEqual(
      expected.map((bin) => ({ ...bin, label: binLabel(bin) })),
    );
    // Eve's "absent" is a value but not a number.
    expect(bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(report.summary.values - 1);
  });
});

describe('one course’s variable', () => {
  it('has the same learners, values, mean and bins in its report, chart, AI summary and a custom report', async () => {
    const base = `/api/courses/${alpha.id}/variables/final_score`;
    const report = await get<VariableReportResponse>(`${base}/report`);
    const chart = await get<VariableChartResponse>(`${base}/chart`);
    const summary = await get<VariableAiSummary>(
      `/api/ai-summaries/courses/${alpha.id}/variables/final_score`,
    );
    const custom = await customReport({ subject: { kind: 'variable', variableIds: [scoreAlpha.id] } });
    const { statistics } = summary;

    expect(report.summary).toMatchObject({ learners: 4, values: 4 });
    expect(statistics.learners).toBe(report.summary.learners);
    expect(statistics.values).toBe(report.summary.values);
    expect(custom.total.learners).toBe(report.summary.learners);
    expect(custom.total.count).toBe(statistics.values);
    // Every value ever recorded (Ann's 40 too) is a separate, named figure.
    expect(statistics.recordedValues).toBe(5);

    expect(statistics.numeric?.mean).toBeCloseTo(report.summary.mean ?? NaN, 10);
    expect(custom.total.value).toBeCloseTo(statistics.numeric?.mean ?? NaN, 10);
    expect(statistics.numeric?.median).toBe(report.summary.median);
    expect(statistics.numeric?.standardDeviation).toBeCloseTo(report.summary.stddev ?? NaN, 10);

    if (chart.distribution.kind !== 'histogram' || statistics.distribution?.kind !== 'histogram') {
      throw new Error('expected histograms');
    }
    expect(statistics.distribution.bins).toEqual(chart.distribution.bins);
    const crowded = chart.distribution.bins.reduce((best, bin) => (bin.count > best.count ? bin : best));
    expect(summary.content).toContain(`The most crowded range is ${crowded.label},`);

    // Three learners ranked: two highest, one lowest, nobody twice.
    const top = statistics.topLearners.map((learner) => learner.name);
    const bottom = statistics.bottomLearners.map((learner) => learner.name);
    expect(top).toEqual(['Bob', 'Ann']);
    expect(bottom).toEqual(['Cid']);
  });
});

describe('a question answered with retries', () => {
  it('has the same responses, learners, correct rate and points in its report, leaders and a custom report', async () => {
    const report = await get<QuestionReportResponse>(`/api/questions/${question.id}/report`);
    const leaders = await get<QuestionLeadersResponse>(`/api/questions/${question.id}/leaders`);
    const subject = { kind: 'question' as const, questionId: question.id };
    const responses = await customReport({ subject, measure: { fn: 'responses' } });
    const points = await customReport({ subject, measure: { fn: 'points' } });
    const correct = await customReport({ subject, measure: { fn: 'correct_rate' } });
    const byLearner = await customReport({
      subject,
      measure: { fn: 'points' },
      breakdown: { kind: 'learner' },
    });

    expect(report.totals).toMatchObject({ responses: 5, learners: 3, correct: 3 });
    expect(responses.total.value).toBe(report.totals.responses);
    expect(points.total.learners).toBe(report.totals.learners);
    expect(leaders.items).toHaveLength(report.totals.learners);
    expect(correct.total.value).toBeCloseTo(report.totals.correctRate ?? NaN, 10);

    // Best points: Ann 10 (not 14), Bob 10 (not 20), Cid 6.
    expect(leaders.items.map((row) => [row.learnerName, row.points])).toEqual([
      ['Ann', 10],
      ['Bob', 10],
      ['Cid', 6],
    ]);
    expect(report.totals.points).toBeCloseTo(26 / 3, 10);
    expect(points.total.value).toBeCloseTo(report.totals.points ?? NaN, 10);
    const customByLearner = new Map(byLearner.rows.map((row) => [row.label, row.value]));
    for (const row of leaders.items) expect(customByLearner.get(row.learnerName ?? '')).toBe(row.points);
    expect(report.totals.definitions.points).toBe(points.measure.definition);
    expect(report.totals.definitions.responses).toBe(responses.measure.definition);
  });
});
