import {
  AI_SUMMARY_COUNT_DEFINITIONS,
  AI_SUMMARY_MESSAGES,
  type VariableAiSummary,
} from '@courselens/contracts';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertCourse,
  insertLearner,
  insertVariable,
  insertVariableValue,
} from '../../db/factories/learning';
import { aiSummaries, type Course, type Learner, type Variable } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { startLlmStub, type LlmStub } from '../../test/llm-stub';
import { UNNAMED_LEARNER } from '../metrics/privacy';
import { computeStatistics, resolveVariableSource } from './ai-summaries.service';

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
let alpha: Course;
let beta: Course;
let score: Variable;
let passed: Variable;
let department: Variable;
let startDate: Variable;
let empty: Variable;
let foreignVariable: Variable;
let foreignCourse: Course;
const people: Record<string, Learner> = {};

const inject = (options: InjectOptions) => testApp.app.inject(options);
const byId = (method: 'GET' | 'POST', id: string, as: SignedUp = owner) =>
  inject({ method, url: `/api/ai-summaries/variables/${id}`, headers: as.headers });
const byName = (method: 'GET' | 'POST', courseId: string, name: string, as: SignedUp = owner) =>
  inject({
    method,
    url: `/api/ai-summaries/courses/${courseId}/variables/${encodeURIComponent(name)}`,
    headers: as.headers,
  });

/** The sample standard deviation, as the variable report shows it (so both screens agree). */
const stddevSample = (values: number[]) => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1));
};

async function addValue(variable: Variable, learner: Learner, raw: string | number | boolean, at: string) {
  await insertVariableValue(testApp.database.db, {
    organizationId: variable.organizationId,
    variableId: variable.id,
    courseId: variable.courseId,
    learnerId: learner.id,
    raw,
    dataType: variable.dataType,
    recordedAt: new Date(at),
  });
}

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  stranger = await signUpViaApi(testApp.app);
  const db = testApp.database.db;
  const organizationId = owner.organization.id;
  alpha = await insertCourse(db, { organizationId, courseTitle: 'Alpha safety' });
  beta = await insertCourse(db, { organizationId, courseTitle: 'Beta sales' });
  const gone = await insertCourse(db, {
    organizationId,
    courseTitle: 'Gone course',
    isDeleted: true,
    deletedAt: new Date(),
  });
  score = await insertVariable(db, {
    organizationId,
    courseId: alpha.id,
    name: 'final_score',
    title: 'Final score',
    dataType: 'number',
  });
  passed = await insertVariable(db, {
    organizationId,
    courseId: alpha.id,
    name: 'passed',
    dataType: 'boolean',
  });
  department = await insertVariable(db, { organizationId, courseId: alpha.id, name: 'department' });
  startDate = await insertVariable(db, {
    organizationId,
    courseId: alpha.id,
    name: 'start',
    dataType: 'date',
  });
  empty = await insertVariable(db, { organizationId, courseId: alpha.id, name: 'empty', dataType: 'number' });
  const betaScore = await insertVariable(db, {
    organizationId,
    courseId: beta.id,
    name: 'final_score',
    dataType: 'number',
  });
  const goneScore = await insertVariable(db, {
    organizationId,
    courseId: gone.id,
    name: 'final_score',
    dataType: 'number',
  });

  for (const name of ['Ann', 'Bob', 'Cyd', 'Dan', 'Eve']) {
    people[name] = await insertLearner(db, {
      organizationId,
      name,
      email: `${name.toLowerCase()}@example.com`,
    });
  }
  // A course that sent the e-mail address as the name: it must never be shown.
  people.Fay = await insertLearner(db, { organizationId, name: 'fay@example.com', email: 'fay@example.com' });
  const { Ann, Bob, Cyd, Dan, Eve, Fay } = people;
  if (!Ann || !Bob || !Cyd || !Dan || !Eve || !Fay) throw new Error('learners missing');

  // final_score: Ann's 60 is history; latest values 80, 70, 90, 85, 10, 75.
  await addValue(score, Ann, 60, '2026-01-06T10:00:00Z');
  await addValue(score, Ann, 80, '2026-01-21T10:00:00Z');
  await addValue(score, Bob, 70, '2026-01-20T10:00:00Z');
  await addValue(score, Cyd, 90, '2026-01-20T11:00:00Z');
  await addValue(score, Dan, 85, '2026-01-20T12:00:00Z');
  await addValue(score, Eve, 10, '2026-01-20T13:00:00Z');
  await addValue(score, Fay, 75, '2026-01-20T14:00:00Z');
  await addValue(betaScore, Ann, 50, '2026-01-10T10:00:00Z');
  await addValue(betaScore, Bob, 70, '2026-01-10T10:00:00Z');
  await addValue(goneScore, Ann, 5, '2026-01-10T10:00:00Z');

  await addValue(passed, Ann, true, '2026-01-20T10:00:00Z');
  await addValue(passed, Bob, false, '2026-01-20T10:00:00Z');
  await addValue(passed, Cyd, 'yes', '2026-01-20T10:00:00Z');
  await addValue(passed, Dan, 'maybe', '2026-01-20T10:00:00Z');

  await addValue(department, Ann, 'Sales', '2026-01-20T10:00:00Z');
  await addValue(department, Bob, 'Sales', '2026-01-20T10:00:00Z');
  await addValue(department, Cyd, 'Ops', '2026-01-20T10:00:00Z');

  await addValue(startDate, Ann, '2026-01-01T00:00:00Z', '2026-01-20T10:00:00Z');
  await addValue(startDate, Bob, '2026-01-11T00:00:00Z', '2026-01-20T10:00:00Z');
  await addValue(startDate, Cyd, '2026-01-31T00:00:00Z', '2026-01-20T10:00:00Z');

  foreignCourse = await insertCourse(db, {
    organizationId: stranger.organization.id,
    courseTitle: 'Alpha safety',
  });
  foreignVariable = await insertVariable(db, {
    organizationId: stranger.organization.id,
    courseId: foreignCourse.id,
    name: 'final_score',
    dataType: 'number',
  });
});

afterAll(async () => {
  await testApp.close();
});

describe('statistics computed in the database', () => {
  it('give one learner a spread of 0 (the sample deviation has none) and keep the other figures', async () => {
    const single = await insertVariable(testApp.database.db, {
      organizationId: owner.organization.id,
      courseId: alpha.id,
      name: 'single_score',
      dataType: 'number',
    });
    await addValue(single, people.Ann!, 42, '2026-01-20T10:00:00Z');
    const source = await resolveVariableSource(testApp.database.db, {
      organizationId: owner.organization.id,
      variableId: single.id,
    });
    const stats = await computeStatistics(testApp.database.db, source, new Date('2026-01-25T12:00:00Z'));
    expect(stats.numeric).toEqual({
      mean: 42,
      median: 42,
      standardDeviation: 0,
      min: 42,
      max: 42,
      q1: 42,
      q3: 42,
    });
  });

  it('are exact for numbers: spread, quartiles, histogram, outliers, ranking, trend and other courses', async () => {
    const source = await resolveVariableSource(testApp.database.db, {
      organizationId: owner.organization.id,
      variableId: score.id,
    });
    const stats = await computeStatistics(testApp.database.db, source, new Date('2026-01-25T12:00:00Z'));
    const latest = [80, 70, 90, 85, 10, 75];
    expect(stats.subject).toMatchObject({
      variableType: 'course',
      variableName: 'final_score',
      courseTitle: 'Alpha safety',
      dataType: 'number',
    });
    expect(stats).toMatchObject({
      learners: 6,
      values: 6,
      recordedValues: 7,
      definitions: AI_SUMMARY_COUNT_DEFINITIONS,
      distinctValues: 6,
      firstRecordedAt: '2026-01-06T10:00:00.000Z',
      lastRecordedAt: '2026-01-21T10:00:00.000Z',
    });
    const numeric = stats.numeric!;
    expect(numeric.mean).toBeCloseTo(410 / 6, 10);
    expect(numeric.median).toBe(77.5);
    expect(numeric.q1).toBe(71.25);
    expect(numeric.q3).toBe(83.75);
    expect(numeric.min).toBe(10);
    expect(numeric.max).toBe(90);
    expect(numeric.standardDeviation).toBeCloseTo(stddevSample(latest), 10);

    expect(stats.distribution?.kind).toBe('histogram');
    if (stats.distribution?.kind !== 'histogram') return;
    // The chart's nice bins: 10–20, 20–30, … 80–90.
    expect(stats.distribution.bins.map((bin) => bin.count)).toEqual([1, 0, 0, 0, 0, 0, 2, 3]);
    expect(stats.distribution.bins[0]).toEqual({ from: 10, to: 20, label: '10–20', count: 1 });
    expect(stats.distribution.bins.at(-1)).toEqual({ from: 80, to: 90, label: '80–90', count: 3 });

    expect(stats.outliers).toEqual({
      lowerFence: 52.5,
      upperFence: 102.5,
      count: 1,
      learners: [{ name: 'Eve', value: '10' }],
    });
    expect(stats.topLearners).toEqual([
      { name: 'Cyd', value: '90' },
      { name: 'Dan', value: '85' },
      { name: 'Ann', value: '80' },
    ]);
    // Fay's "name" is an e-mail address: shown as an unnamed learner.
    expect(stats.bottomLearners).toEqual([
      { name: 'Eve', value: '10' },
      { name: 'Bob', value: '70' },
      { name: UNNAMED_LEARNER, value: '75' },
    ]);

    expect(stats.trend.weeks).toHaveLength(12);
    expect(stats.trend.weeks[0]?.weekStart).toBe('2025-11-03T00:00:00.000Z');
    expect(stats.trend.weeks.at(-1)?.weekStart).toBe('2026-01-19T00:00:00.000Z');
    const active = stats.trend.weeks.filter((week) => week.values > 0);
    // The week of 19 January is not over on the 25th.
    expect(active).toEqual([
      { weekStart: '2026-01-05T00:00:00.000Z', values: 1, mean: 60, isPartial: false },
      {
        weekStart: '2026-01-19T00:00:00.000Z',
        values: 6,
        mean: expect.closeTo(410 / 6, 10) as number,
        isPartial: true,
      },
    ]);
    expect(stats.trend.weeks.filter((week) => week.isPartial)).toHaveLength(1);
    // The week still running is no comparison: one whole week with values is too few.
    expect(stats.trend).toMatchObject({ metric: 'mean', direction: 'not-enough-data', from: 60, to: 60 });
    const monday = await computeStatistics(testApp.database.db, source, new Date('2026-01-26T12:00:00Z'));
    expect(monday.trend).toMatchObject({ metric: 'mean', direction: 'up', from: 60 });
    expect(monday.trend.to).toBeCloseTo(410 / 6, 10);

    // The deleted course's variable is not compared.
    expect(stats.otherCourses).toEqual([
      { courseId: beta.id, courseTitle: 'Beta sales', learners: 2, mean: 60 },
    ]);
    expect(JSON.stringify(stats)).not.toContain('@');
  });

  it('give the true rate of booleans, top values of text and the range of dates', async () => {
    const db = testApp.database.db;
    const organizationId = owner.organization.id;
    const now = new Date('2026-01-25T12:00:00Z');
    const of = async (variable: Variable) =>
      computeStatistics(
        db,
        await resolveVariableSource(db, { organizationId, variableId: variable.id }),
        now,
      );

    const booleans = await of(passed);
    expect(booleans.learners).toBe(4);
    expect(booleans.distribution).toEqual({ kind: 'boolean', trueCount: 2, falseCount: 1, trueRate: 2 / 3 });
    expect(booleans.trend.metric).toBe('true-rate');
    expect(booleans.trend.weeks.at(-1)).toEqual({
      weekStart: '2026-01-19T00:00:00.000Z',
      values: 4,
      mean: 2 / 3,
      isPartial: true,
    });
    expect(booleans.numeric).toBeNull();
    expect(booleans.topLearners).toEqual([]);

    const texts = await of(department);
    expect(texts.distribution).toEqual({
      kind: 'top-values',
      values: [
        { value: 'Sales', count: 2, share: 2 / 3 },
        { value: 'Ops', count: 1, share: 1 / 3 },
      ],
      otherCount: 0,
    });
    expect(texts.distinctValues).toBe(2);
    expect(texts.trend.metric).toBe('values');

    const dates = await of(startDate);
    expect(dates.distribution).toEqual({
      kind: 'date-range',
      earliest: '2026-01-01T00:00:00.000Z',
      median: '2026-01-11T00:00:00.000Z',
      latest: '2026-01-31T00:00:00.000Z',
      spanDays: 30,
    });
    expect(dates.topLearners[0]).toEqual({ name: 'Cyd', value: '2026-01-31' });
    expect(dates.bottomLearners[0]).toEqual({ name: 'Ann', value: '2026-01-01' });
  });

  it('never lists a learner as both highest and lowest, splitting a small group', async () => {
    const db = testApp.database.db;
    const organizationId = owner.organization.id;
    const trio = await insertVariable(db, {
      organizationId,
      courseId: alpha.id,
      name: 'trio',
      dataType: 'number',
    });
    await addValue(trio, people.Ann!, 1, '2026-01-20T10:00:00Z');
    await addValue(trio, people.Bob!, 2, '2026-01-20T10:00:00Z');
    await addValue(trio, people.Cyd!, 3, '2026-01-20T10:00:00Z');
    const stats = await computeStatistics(
      db,
      await resolveVariableSource(db, { organizationId, variableId: trio.id }),
      new Date('2026-01-25T12:00:00Z'),
    );
    expect(stats.topLearners).toEqual([
      { name: 'Cyd', value: '3' },
      { name: 'Bob', value: '2' },
    ]);
    expect(stats.bottomLearners).toEqual([{ name: 'Ann', value: '1' }]);

    const summary = (await byId('POST', trio.id)).json<VariableAiSummary>();
    expect(summary.content).toContain('- Highest: Cyd (3) and Bob (2)\n- Lowest: Ann (1)');
  });
});

describe('GET and POST /api/ai-summaries', () => {
  it('writes a built-in summary on the first request, then answers it from the cache', async () => {
    const first = await byName('GET', alpha.id, 'final_score');
    expect(first.statusCode, first.body).toBe(200);
    const summary = first.json<VariableAiSummary>();
    expect(summary).toMatchObject({ engine: 'builtin', model: null, notice: null, hasNewerData: false });
    expect(summary.content).toContain('“Final score” (final_score) in Alpha safety: 6 learners have a value');
    expect(summary.content).toContain('Eve (10)');
    expect(summary.content).not.toContain('fay@example.com');
    expect(summary.statistics.numeric?.median).toBe(77.5);

    // The page by id shows the same cached summary.
    const again = await byId('GET', score.id);
    expect(again.statusCode).toBe(200);
    expect(again.json<VariableAiSummary>()).toEqual(summary);
    const rows = await testApp.database.db
      .select()
      .from(aiSummaries)
      .where(eq(aiSummaries.organizationId, owner.organization.id));
    expect(rows.filter((row) => row.sourceKey === `${alpha.id}:final_score`)).toHaveLength(1);
  });

  it('says when newer values arrived and regenerates in place on POST', async () => {
    const before = (await byId('GET', score.id)).json<VariableAiSummary>();
    const { Bob } = people;
    await addValue(score, Bob!, 95, '2026-01-22T10:00:00Z');

    const stale = (await byId('GET', score.id)).json<VariableAiSummary>();
    expect(stale.hasNewerData).toBe(true);
    expect(stale.generatedAt).toBe(before.generatedAt);
    expect(stale.statistics).toMatchObject({ values: 6, recordedValues: 7 });

    const regenerated = await byId('POST', score.id);
    expect(regenerated.statusCode).toBe(200);
    const fresh = regenerated.json<VariableAiSummary>();
    expect(fresh.hasNewerData).toBe(false);
    // Bob's new value replaces his latest: still 6 values, 8 recorded.
    expect(fresh.statistics).toMatchObject({ values: 6, recordedValues: 8 });
    expect(fresh.statistics.topLearners[0]).toEqual({ name: 'Bob', value: '95' });
    expect(new Date(fresh.generatedAt).getTime()).toBeGreaterThan(new Date(before.generatedAt).getTime());

    const cached = (await byName('GET', alpha.id, 'final_score')).json<VariableAiSummary>();
    expect(cached.generatedAt).toBe(fresh.generatedAt);
    const rows = await testApp.database.db
      .select()
      .from(aiSummaries)
      .where(
        and(
          eq(aiSummaries.organizationId, owner.organization.id),
          eq(aiSummaries.sourceKey, `${alpha.id}:final_score`),
        ),
      );
    expect(rows).toHaveLength(1);
  });

  it('summarizes an empty variable honestly', async () => {
    const response = await byId('GET', empty.id);
    expect(response.statusCode).toBe(200);
    const summary = response.json<VariableAiSummary>();
    expect(summary.statistics).toMatchObject({
      learners: 0,
      values: 0,
      recordedValues: 0,
      numeric: null,
      distribution: null,
    });
    expect(summary.content).toContain('no learner has a value yet');
  });

  it('answers 404 for a missing variable, a deleted course, and another organization’s rows', async () => {
    const missing = await byName('GET', alpha.id, 'no_such_variable');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'Variable not found', code: 'NOT_FOUND' });

    for (const response of [
      await byId('GET', foreignVariable.id),
      await byId('POST', foreignVariable.id),
      await byName('GET', foreignCourse.id, 'final_score'),
      await byId('GET', score.id, stranger),
      await byName('POST', alpha.id, 'final_score', stranger),
    ]) {
      expect(response.statusCode).toBe(404);
    }
    const rows = await testApp.database.db
      .select()
      .from(aiSummaries)
      .where(eq(aiSummaries.organizationId, stranger.organization.id));
    expect(rows).toEqual([]);
  });

  it('summarizes an agent variable from the values agents captured, and 404s a course variable id there', async () => {
    const created = await inject({
      method: 'POST',
      url: '/api/chatbots',
      headers: owner.headers,
      payload: { name: 'Coach', variables: [{ name: 'confidence', type: 'number' }] },
    });
    const agent = created.json<{ id: string; variables: { id: string }[] }>();
    for (const [email, value] of [
      ['c1@example.com', '6'],
      ['c2@example.com', '8'],
    ]) {
      const said = await inject({
        method: 'POST',
        url: `/api/chat/${agent.id}/messages`,
        payload: { message: value, learner: { email } },
      });
      expect(said.statusCode, said.body).toBe(200);
    }
    const summary = await inject({
      method: 'GET',
      url: `/api/ai-summaries/chatbot-variable?variableId=${agent.variables[0]?.id}`,
      headers: owner.headers,
    });
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json()).toMatchObject({
      engine: 'builtin',
      statistics: {
        learners: 2,
        subject: { variableType: 'chatbot', variableName: 'confidence', courseId: null },
      },
    });
    const response = await inject({
      method: 'GET',
      url: `/api/ai-summaries/chatbot-variable?variableId=${score.id}`,
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(404);
    const invalid = await inject({
      method: 'GET',
      url: '/api/ai-summaries/chatbot-variable?variableId=nope',
      headers: owner.headers,
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain(AI_SUMMARY_MESSAGES.variableIdInvalid);
  });
});

describe('the LLM engine', () => {
  let stub: LlmStub;
  let llmApp: TestApp;
  let person: SignedUp;
  let course: Course;

  beforeAll(async () => {
    stub = await startLlmStub();
    llmApp = await createTestApp({ llm: stub.config });
    person = await signUpViaApi(llmApp.app);
    const db = llmApp.database.db;
    const organizationId = person.organization.id;
    course = await insertCourse(db, { organizationId, courseTitle: 'Gamma' });
    const variable = await insertVariable(db, {
      organizationId,
      courseId: course.id,
      name: 'final_score',
      title: 'Final score',
      description: 'Ask grace@example.org if unsure',
      dataType: 'number',
    });
    const names = ['Grace', 'heidi@example.net', 'Ivan'];
    for (const [index, name] of names.entries()) {
      const learner = await insertLearner(db, { organizationId, name, email: `learner${index}@example.com` });
      await insertVariableValue(db, {
        organizationId,
        variableId: variable.id,
        courseId: course.id,
        learnerId: learner.id,
        raw: 60 + index * 10,
        dataType: 'number',
      });
    }
  });

  afterAll(async () => {
    await llmApp.close();
    await stub.close();
  });

  const summarize = (method: 'GET' | 'POST') =>
    llmApp.app.inject({
      method,
      url: `/api/ai-summaries/courses/${course.id}/variables/final_score`,
      headers: person.headers,
    });

  it('sends the statistics and never an e-mail address, and shows the model’s text with its name', async () => {
    stub.reply(() => '## Summary\n\nScores are **solid**: the mean is 70.\n\n* Ivan leads.');
    const response = await summarize('GET');
    expect(response.statusCode, response.body).toBe(200);
    const summary = response.json<VariableAiSummary>();
    expect(summary).toMatchObject({ engine: 'llm', model: 'stub-model', notice: null });
    expect(summary.content).toBe('Summary\n\nScores are solid: the mean is 70.\n\n- Ivan leads.');

    expect(stub.requests).toHaveLength(1);
    const sent = stub.requests[0]!.text;
    expect(sent).toContain('"mean": 70');
    expect(sent).toContain('"median": 70');
    expect(sent).toContain('"variableName": "final_score"');
    expect(sent).toContain('Ivan');
    for (const request of stub.requests) {
      expect(request.text).not.toMatch(/[^\s@]+@[^\s@]+\.[a-z]+/i);
      expect(request.text).not.toContain('@');
    }
  });

  it('falls back to the built-in engine and says so when the model fails', async () => {
    stub.reply(() => ({ status: 500 }));
    const response = await summarize('POST');
    expect(response.statusCode).toBe(200);
    const summary = response.json<VariableAiSummary>();
    expect(summary).toMatchObject({
      engine: 'builtin',
      model: null,
      notice: AI_SUMMARY_MESSAGES.llmFailedFellBack,
    });
    expect(summary.content).toContain('3 learners have a value');
    // The cached copy keeps the notice.
    const cached = (await summarize('GET')).json<VariableAiSummary>();
    expect(cached.notice).toBe(AI_SUMMARY_MESSAGES.llmFailedFellBack);
    for (const request of stub.requests) expect(request.text).not.toContain('@');
  });
});
