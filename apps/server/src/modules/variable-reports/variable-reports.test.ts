import {
  METRIC_DEFINITIONS,
  VARIABLE_LEADERS_DEFINITION,
  binIndexOf,
  type VariableChartResponse,
  type VariableHistoryResponse,
  type VariableLeadersResponse,
  type VariableReportResponse,
} from '@courselens/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertCourse,
  insertLearner,
  insertVariable,
  insertVariableValue,
} from '../../db/factories/learning';
import type { Course, Learner, Variable, VariableDataType } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { getVariableReport, resolveVariableSource } from './variable-reports.service';

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
let alpha: Course;
let beta: Course;
let gone: Course;
let foreignCourse: Course;
const people: Record<string, Learner> = {};

const inject = (options: InjectOptions) => testApp.app.inject(options);
const get = (url: string, as: SignedUp = owner) => inject({ method: 'GET', url, headers: as.headers });
const at = (day: string) => new Date(`${day}T12:00:00Z`);

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  stranger = await signUpViaApi(testApp.app);
  const db = testApp.database.db;
  const organizationId = owner.organization.id;
  alpha = await insertCourse(db, { organizationId, courseTitle: 'Alpha safety' });
  beta = await insertCourse(db, { organizationId, courseTitle: 'Beta sales' });
  gone = await insertCourse(db, {
    organizationId,
    courseTitle: 'Gone',
    isDeleted: true,
    deletedAt: new Date(),
  });
  foreignCourse = await insertCourse(db, { organizationId: stranger.organization.id, courseTitle: 'Theirs' });
  for (const [name, email] of [
    ['Ann Archer', 'ann@example.com'],
    ['Bob Baker', 'bob@example.com'],
    ['Cid Cole', 'cid@example.com'],
    ['Dee Dunn', 'dee@example.com'],
    ['Eve Eden', 'eve@example.com'],
  ] as const) {
    people[name.slice(0, 3)] = await insertLearner(db, { organizationId, name, email });
  }

  const variable = (course: Course, name: string, dataType: VariableDataType) =>
    insertVariable(db, { organizationId, courseId: course.id, name, dataType, title: null });
  const value = (v: Variable, learner: string, raw: string | number | boolean, day: string) =>
    insertVariableValue(db, {
      organizationId,
      variableId: v.id,
      courseId: v.courseId,
      learnerId: people[learner]?.id ?? '',
      raw,
      dataType: v.dataType,
      recordedAt: at(day),
    });

  const scoreAlpha = await variable(alpha, 'final_score', 'number');
  const scoreBeta = await variable(beta, 'final_score', 'number');
  const scoreGone = await variable(gone, 'final_score', 'number');
  await value(scoreAlpha, 'Ann', 50, '2026-03-01');
  await value(scoreAlpha, 'Ann', 80, '2026-03-05');
  await value(scoreAlpha, 'Bob', 70, '2026-03-02');
  await value(scoreAlpha, 'Cid', 80, '2026-03-03');
  await value(scoreBeta, 'Dee', 60, '2026-03-04');
  await value(scoreBeta, 'Eve', 'n/a', '2026-03-06');
  await value(scoreGone, 'Ann', 1000, '2026-03-05');

  const region = await variable(alpha, 'region', 'text');
  await value(region, 'Ann', 'North', '2026-03-01');
  await value(region, 'Bob', 'South', '2026-03-01');
  await value(region, 'Cid', 'North', '2026-03-02');

  const passed = await variable(alpha, 'passed', 'boolean');
  await value(passed, 'Ann', true, '2026-03-01');
  await value(passed, 'Bob', false, '2026-03-01');
  await value(passed, 'Cid', 'maybe', '2026-03-01');

  const streak = await variable(beta, 'streak_days', 'number');
  await value(streak, 'Dee', 3, '2026-01-01');
  await value(streak, 'Eve', 9, '2026-03-01');

  // Stored before ingestion refused such dates: the chart must still stay small.
  const extreme = await variable(beta, 'clock_drift', 'number');
  await value(extreme, 'Dee', 1, '0001-01-01');
  await value(extreme, 'Eve', 2, '9999-12-31');

  const completed = await variable(beta, 'completed_on', 'date');
  await value(completed, 'Dee', '2026-01-15T00:00:00Z', '2026-03-01');
  await value(completed, 'Eve', '2026-02-20T00:00:00Z', '2026-03-02');

  // Ann and Bob have the variable in both courses: two values each, one learner each.
  const quizAlpha = await variable(alpha, 'quiz_score', 'number');
  const quizBeta = await variable(beta, 'quiz_score', 'number');
  await value(quizAlpha, 'Ann', 0.7, '2026-03-01');
  await value(quizAlpha, 'Bob', 0.2, '2026-03-01');
  await value(quizAlpha, 'Cid', 0.45, '2026-03-01');
  await value(quizBeta, 'Ann', 0.1, '2026-03-02');
  await value(quizBeta, 'Bob', 0.95, '2026-03-02');

  // Recorded now: the current day is not over.
  const today = await variable(beta, 'logins_today', 'number');
  await value(today, 'Dee', 3, new Date().toISOString().slice(0, 10));
  await value(today, 'Eve', 5, '2026-03-01');

  // A course that sent an e-mail address as the name and as a value.
  people.Fay = await insertLearner(db, { organizationId, name: 'fay@example.com', email: 'fay@example.com' });
  const contact = await variable(alpha, 'contact', 'text');
  await value(contact, 'Fay', 'write to fay@example.com', '2026-03-01');
  await value(contact, 'Ann', 'phone', '2026-03-01');

  await insertVariable(db, {
    organizationId: stranger.organization.id,
    courseId: foreignCourse.id,
    name: 'secret_score',
    dataType: 'number',
  });
});

afterAll(async () => {
  await testApp.close();
});

describe('GET /api/variable-reports/report', () => {
  it("lists every learner's latest value across live courses with exact number statistics", async () => {
    const response = await get('/api/variable-reports/report?name=final_score&sort=learner&order=asc');
    expect(response.statusCode).toBe(200);
    const body = response.json<VariableReportResponse>();
    expect(body.variable).toMatchObject({ name: 'final_score', dataType: 'number', courseId: null });
    expect(body.variable.courses.map((course) => course.courseTitle)).toEqual(['Alpha safety', 'Beta sales']);
    expect(body.total).toBe(5);
    expect(body.items.map((row) => [row.learnerName, row.learnerEmail, row.courseTitle, row.value])).toEqual([
      ['Ann Archer', 'ann@example.com', 'Alpha safety', '80'],
      ['Bob Baker', 'bob@example.com', 'Alpha safety', '70'],
      ['Cid Cole', 'cid@example.com', 'Alpha safety', '80'],
      ['Dee Dunn', 'dee@example.com', 'Beta sales', '60'],
      ['Eve Eden', 'eve@example.com', 'Beta sales', 'n/a'],
    ]);
    expect(body.items[0]?.recordedAt).toBe('2026-03-05T12:00:00.000Z');
    const { summary } = body;
    expect(summary).toMatchObject({
      dataType: 'number',
      learners: 5,
      values: 5,
      count: 5,
      distinct: 3,
      mean: 72.5,
      median: 75,
      min: 60,
      max: 80,
    });
    expect(summary.stddev).toBeCloseTo(Math.sqrt(275 / 3), 10);
    expect(summary.trueRate).toBeNull();
    expect(summary.definitions).toEqual({
      learners: METRIC_DEFINITIONS.learners,
      values: METRIC_DEFINITIONS.values,
    });
  });

  it('counts a learner with the variable in two courses once as a learner and twice as values', async () => {
    const body = (await get('/api/variable-reports/report?name=quiz_score')).json<VariableReportResponse>();
    expect(body.total).toBe(5);
    expect(body.summary).toMatchObject({ learners: 3, values: 5, count: 5 });
    expect(body.summary.mean).toBeCloseTo((0.7 + 0.2 + 0.45 + 0.1 + 0.95) / 5, 10);
    const alphaOnly = (
      await get(`/api/courses/${alpha.id}/variables/quiz_score/report`)
    ).json<VariableReportResponse>();
    expect(alphaOnly.summary).toMatchObject({ learners: 3, values: 3 });
  });

  it('gives a shared view display names and values without e-mail addresses', async () => {
    const db = testApp.database.db;
    const source = await resolveVariableSource(db, {
      kind: 'course_variable',
      organizationId: owner.organization.id,
      courseId: alpha.id,
      name: 'contact',
    });
    const input = { filters: {}, sort: 'learner' as const, order: 'asc' as const, page: 1, pageSize: 50 };
    const shared = await getVariableReport(db, source, input, { includeEmail: false });
    expect(shared.items.map((row) => [row.learnerName, row.value])).toEqual([
      ['Ann Archer', 'phone'],
      ['Unnamed learner', 'write to (hidden)'],
    ]);
    expect(JSON.stringify(shared)).not.toContain('@');
    const members = await getVariableReport(db, source, input, { includeEmail: true });
    expect(members.items.map((row) => row.learnerEmail)).toEqual(['ann@example.com', 'fay@example.com']);
  });

  it('filters by course, date range and value, searches, sorts and pages', async () => {
    const byCourse = (
      await get(`/api/variable-reports/report?name=final_score&courseId=${beta.id}`)
    ).json<VariableReportResponse>();
    expect(byCourse.total).toBe(2);
    expect(byCourse.summary).toMatchObject({ count: 2, mean: 60, median: 60, min: 60, max: 60 });
    expect(byCourse.summary.stddev).toBeNull();

    const fromDay = (
      await get('/api/variable-reports/report?name=final_score&from=2026-03-03&to=2026-03-05')
    ).json<VariableReportResponse>();
    expect(fromDay.items.map((row) => row.learnerName).sort()).toEqual([
      'Ann Archer',
      'Cid Cole',
      'Dee Dunn',
    ]);

    const atLeast = (
      await get('/api/variable-reports/report?name=final_score&min=65&max=75')
    ).json<VariableReportResponse>();
    expect(atLeast.items.map((row) => row.learnerName)).toEqual(['Bob Baker']);
    expect(atLeast.summary).toMatchObject({ count: 1, mean: 70 });

    const search = (
      await get('/api/variable-reports/report?name=final_score&q=DEE%40')
    ).json<VariableReportResponse>();
    expect(search.total).toBe(1);
    expect(search.summary).toMatchObject({ learners: 5, values: 5 });

    const byValue = (
      await get('/api/variable-reports/report?name=final_score&sort=value&order=asc&pageSize=2&page=2')
    ).json<VariableReportResponse>();
    expect(byValue.total).toBe(5);
    expect(byValue.items.map((row) => row.value)).toEqual(['80', '80']);
    const last = (
      await get('/api/variable-reports/report?name=final_score&sort=value&order=desc&pageSize=2&page=3')
    ).json<VariableReportResponse>();
    expect(last.items.map((row) => row.value)).toEqual(['n/a']);
  });

  it('pages newest first by default and oldest first on request, each page with its learners and the filtered total', async () => {
    const page = async (query: string) =>
      (
        await get(`/api/variable-reports/report?name=final_score&pageSize=2&${query}`)
      ).json<VariableReportResponse>();
    const names = (body: VariableReportResponse) => body.items.map((row) => [row.learnerName, row.value]);
    const first = await page('page=1');
    expect(first.total).toBe(5);
    expect(names(first)).toEqual([
      ['Eve Eden', 'n/a'],
      ['Ann Archer', '80'],
    ]);
    expect(first.items[1]?.learnerEmail).toBe('ann@example.com');
    expect(names(await page('page=2'))).toEqual([
      ['Dee Dunn', '60'],
      ['Cid Cole', '80'],
    ]);
    expect(names(await page('page=3'))).toEqual([['Bob Baker', '70']]);
    expect(names(await page('page=1&sort=recordedAt&order=asc'))).toEqual([
      ['Bob Baker', '70'],
      ['Cid Cole', '80'],
    ]);
    // Ann and Cid share 80: a page that ends inside a tie still breaks it by name.
    const top = (query: string) =>
      get(`/api/variable-reports/report?name=final_score&pageSize=1&${query}`).then((response) =>
        names(response.json<VariableReportResponse>()),
      );
    expect(await top('sort=value&order=desc&page=1')).toEqual([['Ann Archer', '80']]);
    expect(await top('sort=value&order=desc&page=2')).toEqual([['Cid Cole', '80']]);
    expect(await top('sort=course&order=desc&page=1')).toEqual([['Dee Dunn', '60']]);
    expect(await top('sort=course&order=asc&page=3')).toEqual([['Cid Cole', '80']]);
    const filtered = await page('page=1&min=65');
    expect(filtered.total).toBe(3);
    expect(names(filtered)).toEqual([
      ['Ann Archer', '80'],
      ['Cid Cole', '80'],
    ]);
    const searched = await page('page=1&q=d');
    expect(searched.total).toBe(3);
    expect(names(searched)).toEqual([
      ['Eve Eden', 'n/a'],
      ['Dee Dunn', '60'],
    ]);
    expect(searched.summary.values).toBe(5);
  });

  it('summarizes text, boolean and date variables by their type', async () => {
    const text = (await get('/api/variable-reports/report?name=region')).json<VariableReportResponse>();
    expect(text.summary).toMatchObject({ dataType: 'text', learners: 3, values: 3, distinct: 2, mean: null });
    expect(text.summary.topValues).toEqual([
      { value: 'North', count: 2 },
      { value: 'South', count: 1 },
    ]);
    const contains = (
      await get('/api/variable-reports/report?name=region&contains=nor')
    ).json<VariableReportResponse>();
    expect(contains.total).toBe(2);

    const flag = (await get('/api/variable-reports/report?name=passed')).json<VariableReportResponse>();
    expect(flag.summary).toMatchObject({
      dataType: 'boolean',
      count: 3,
      trueCount: 1,
      falseCount: 1,
      trueRate: 0.5,
    });
    const onlyTrue = (
      await get('/api/variable-reports/report?name=passed&value=true')
    ).json<VariableReportResponse>();
    expect(onlyTrue.items.map((row) => row.learnerName)).toEqual(['Ann Archer']);

    const dates = (
      await get('/api/variable-reports/report?name=completed_on')
    ).json<VariableReportResponse>();
    expect(dates.summary).toMatchObject({
      dataType: 'date',
      count: 2,
      earliest: '2026-01-15T00:00:00.000Z',
      latest: '2026-02-20T00:00:00.000Z',
    });
  });

  it('answers 404 for an unknown name, a course without it, or another organization', async () => {
    for (const url of [
      '/api/variable-reports/report?name=nope',
      `/api/variable-reports/report?name=final_score&courseId=${foreignCourse.id}`,
      `/api/variable-reports/report?name=final_score&courseId=${gone.id}`,
      '/api/variable-reports/chart?name=secret_score',
      '/api/variable-reports/leaders?name=secret_score',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: 'Variable not found', code: 'NOT_FOUND' });
    }
    expect((await get('/api/variable-reports/report?name=final_score', stranger)).statusCode).toBe(404);
  });

  it('says what is wrong with a bad filter', async () => {
    const reversed = await get('/api/variable-reports/report?name=final_score&from=2026-03-05&to=2026-03-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json<{ error: string }>().error).toContain(
      'The start date must be on or before the end date',
    );
    const badDay = await get('/api/variable-reports/report?name=final_score&from=March');
    expect(badDay.json<{ error: string }>().error).toContain('Dates must be written YYYY-MM-DD');
    const range = await get('/api/variable-reports/report?name=final_score&min=9&max=1');
    expect(range.json<{ error: string }>().error).toContain(
      'The minimum value must not be greater than the maximum',
    );
    expect((await get('/api/variable-reports/report')).statusCode).toBe(400);
  });

  it("shows one learner's history newest first", async () => {
    const response = await get(`/api/variable-reports/history?name=final_score&learnerId=${people.Ann?.id}`);
    const body = response.json<VariableHistoryResponse>();
    expect(body.items.map((item) => [item.value, item.recordedAt])).toEqual([
      ['80', '2026-03-05T12:00:00.000Z'],
      ['50', '2026-03-01T12:00:00.000Z'],
    ]);
  });

  it('exports the filtered report as CSV with e-mails', async () => {
    const response = await get('/api/variable-reports/export?name=final_score&sort=learner&order=asc');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe('Learner,Email,Course,Value,Recorded at,Learner ID,Course ID');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toContain('Ann Archer,ann@example.com,Alpha safety,80,2026-03-05T12:00:00.000Z');
  });
});

describe('GET /api/variable-reports/chart', () => {
  it('bins numbers in SQL on nice edges and gives the daily trend with means', async () => {
    const body = (await get('/api/variable-reports/chart?name=final_score')).json<VariableChartResponse>();
    expect(body.distribution.kind).toBe('histogram');
    if (body.distribution.kind !== 'histogram') return;
    expect(body.distribution.bins).toHaveLength(10);
    expect(body.distribution.bins[0]).toEqual({ from: 60, to: 62, label: '60–62', count: 1 });
    expect(body.distribution.bins[5]).toEqual({ from: 70, to: 72, label: '70–72', count: 1 });
    expect(body.distribution.bins[9]).toEqual({ from: 78, to: 80, label: '78–80', count: 2 });
    expect(body.distribution.bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(4);
    expect(body.trend.interval).toBe('day');
    const past = { isPartial: false };
    expect(body.trend.points).toEqual([
      { date: '2026-03-01', count: 1, mean: 50, ...past },
      { date: '2026-03-02', count: 1, mean: 70, ...past },
      { date: '2026-03-03', count: 1, mean: 80, ...past },
      { date: '2026-03-04', count: 1, mean: 60, ...past },
      { date: '2026-03-05', count: 1, mean: 80, ...past },
      { date: '2026-03-06', count: 1, mean: null, ...past },
    ]);
    const weekly = (
      await get('/api/variable-reports/chart?name=final_score&interval=week')
    ).json<VariableChartResponse>();
    expect(weekly.trend.points).toEqual([
      { date: '2026-02-23', count: 1, mean: 50, ...past },
      { date: '2026-03-02', count: 5, mean: 72.5, ...past },
    ]);
  });

  it('puts each value in the bin binIndexOf names, decimal edges included', async () => {
    const body = (await get('/api/variable-reports/chart?name=quiz_score')).json<VariableChartResponse>();
    if (body.distribution.kind !== 'histogram') throw new Error('expected a histogram');
    const { bins } = body.distribution;
    expect(bins.map((bin) => bin.label)).toEqual([
      '0.1–0.2',
      '0.2–0.3',
      '0.3–0.4',
      '0.4–0.5',
      '0.5–0.6',
      '0.6–0.7',
      '0.7–0.8',
      '0.8–0.9',
      '0.9–1',
    ]);
    const expected = bins.map(() => 0);
    for (const value of [0.7, 0.2, 0.45, 0.1, 0.95]) {
      const index = binIndexOf(bins, value);
      expected[index] = (expected[index] ?? 0) + 1;
    }
    expect(bins.map((bin) => bin.count)).toEqual(expected);
    expect(bins[6]?.count).toBe(1);
  });

  it('flags the bucket that is not over yet as partial', async () => {
    const body = (
      await get('/api/variable-reports/chart?name=logins_today&interval=week')
    ).json<VariableChartResponse>();
    expect(body.trend.points.at(-1)).toMatchObject({ count: 1, isPartial: true });
    expect(body.trend.points[0]).toMatchObject({ date: '2026-02-23', count: 1, isPartial: false });
    expect(body.trend.points.filter((point) => point.isPartial)).toHaveLength(1);
  });

  it('counts by week on its own when the values span more than 45 days', async () => {
    const body = (await get('/api/variable-reports/chart?name=streak_days')).json<VariableChartResponse>();
    expect(body.trend.interval).toBe('week');
    expect(body.trend.points).toHaveLength(9);
    expect(body.trend.points[0]).toEqual({ date: '2025-12-29', count: 1, mean: 3, isPartial: false });
    expect(body.trend.points.at(-1)).toEqual({ date: '2026-02-23', count: 1, mean: 9, isPartial: false });
  });

  it('bounds the time axis to the latest 2000 buckets whatever the dates stored', async () => {
    const body = (await get('/api/variable-reports/chart?name=clock_drift')).json<VariableChartResponse>();
    expect(body.trend.points.length).toBeLessThanOrEqual(2000);
    expect(body.trend.points.at(-1)).toMatchObject({ count: 1, mean: 2 });
    expect(body.trend.points.at(-1)?.date.startsWith('9999-12')).toBe(true);
  });

  it('counts categories for text, booleans and dates', async () => {
    const text = (await get('/api/variable-reports/chart?name=region')).json<VariableChartResponse>();
    expect(text.distribution).toEqual({
      kind: 'categories',
      items: [
        { label: 'North', count: 2 },
        { label: 'South', count: 1 },
      ],
    });
    const flag = (await get('/api/variable-reports/chart?name=passed')).json<VariableChartResponse>();
    expect(flag.distribution).toEqual({
      kind: 'categories',
      items: [
        { label: 'True', count: 1 },
        { label: 'False', count: 1 },
        { label: 'Unset', count: 1 },
      ],
    });
    const dates = (await get('/api/variable-reports/chart?name=completed_on')).json<VariableChartResponse>();
    expect(dates.distribution).toEqual({
      kind: 'categories',
      items: [
        { label: '2026-01', count: 1 },
        { label: '2026-02', count: 1 },
      ],
    });
  });
});

describe('GET /api/variable-reports/leaders', () => {
  it('ranks numbers highest first, ties sharing a rank, names only', async () => {
    const body = (
      await get('/api/variable-reports/leaders?name=final_score')
    ).json<VariableLeadersResponse>();
    expect(body.items.map((row) => [row.rank, row.learnerName, row.valueNumber])).toEqual([
      [1, 'Ann Archer', 80],
      [1, 'Cid Cole', 80],
      [3, 'Bob Baker', 70],
      [4, 'Dee Dunn', 60],
    ]);
    expect(body.definition).toBe(VARIABLE_LEADERS_DEFINITION);
    expect(JSON.stringify(body)).not.toContain('@example.com');
    const lowest = (
      await get('/api/variable-reports/leaders?name=final_score&order=asc&limit=2')
    ).json<VariableLeadersResponse>();
    expect(lowest.items.map((row) => [row.rank, row.learnerName])).toEqual([
      [1, 'Dee Dunn'],
      [2, 'Bob Baker'],
    ]);
  });

  it('lists a learner with the variable in two courses once, by the value that ranks them first', async () => {
    const highest = (
      await get('/api/variable-reports/leaders?name=quiz_score')
    ).json<VariableLeadersResponse>();
    expect(highest.items.map((row) => [row.rank, row.learnerName, row.valueNumber, row.courseTitle])).toEqual(
      [
        [1, 'Bob Baker', 0.95, 'Beta sales'],
        [2, 'Ann Archer', 0.7, 'Alpha safety'],
        [3, 'Cid Cole', 0.45, 'Alpha safety'],
      ],
    );
    const lowest = (
      await get('/api/variable-reports/leaders?name=quiz_score&order=asc&limit=2')
    ).json<VariableLeadersResponse>();
    expect(lowest.items.map((row) => [row.rank, row.learnerName, row.valueNumber])).toEqual([
      [1, 'Ann Archer', 0.1],
      [2, 'Bob Baker', 0.2],
    ]);
  });

  it('ranks dates latest first and refuses text and booleans with a reason', async () => {
    const dates = (
      await get('/api/variable-reports/leaders?name=completed_on')
    ).json<VariableLeadersResponse>();
    expect(dates.items.map((row) => [row.rank, row.learnerName])).toEqual([
      [1, 'Eve Eden'],
      [2, 'Dee Dunn'],
    ]);
    const text = await get('/api/variable-reports/leaders?name=region');
    expect(text.statusCode).toBe(400);
    expect(text.json<{ error: string }>().error).toBe(
      'Leaders rank number and date variables; this is a text variable. Use the chart to compare its values.',
    );
    const tooMany = await get('/api/variable-reports/leaders?name=final_score&limit=101');
    expect(tooMany.json<{ error: string }>().error).toContain('Top must be a whole number from 1 to 100');
  });
});

describe('/api/courses/:courseId/variables/:variableName/*', () => {
  it("reports one course's variable", async () => {
    const report = (
      await get(`/api/courses/${alpha.id}/variables/final_score/report`)
    ).json<VariableReportResponse>();
    expect(report.variable.courseId).toBe(alpha.id);
    expect(report.total).toBe(3);
    expect(report.summary.mean).toBeCloseTo(230 / 3, 10);
    const chart = (
      await get(`/api/courses/${alpha.id}/variables/final_score/chart`)
    ).json<VariableChartResponse>();
    expect(chart.trend.points.reduce((sum, point) => sum + point.count, 0)).toBe(4);
    const leaders = (
      await get(`/api/courses/${alpha.id}/variables/final_score/leaders`)
    ).json<VariableLeadersResponse>();
    expect(leaders.items.map((row) => row.rank)).toEqual([1, 1, 3]);
    const csv = await get(`/api/courses/${alpha.id}/variables/final_score/export`);
    expect(csv.body.trim().split('\r\n')).toHaveLength(4);
    const history = await get(
      `/api/courses/${alpha.id}/variables/final_score/history?learnerId=${people.Ann?.id}`,
    );
    expect(history.json<VariableHistoryResponse>().items).toHaveLength(2);
  });

  it('answers 404 for a variable the course does not have, a deleted course, or another organization', async () => {
    const missing = await get(`/api/courses/${beta.id}/variables/region/report`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Variable not found', code: 'NOT_FOUND' });
    expect((await get(`/api/courses/${gone.id}/variables/final_score/chart`)).statusCode).toBe(404);
    const foreign = await get(`/api/courses/${foreignCourse.id}/variables/secret_score/leaders`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'Course not found', code: 'NOT_FOUND' });
    expect((await get(`/api/courses/${alpha.id}/variables/final_score/report`, stranger)).statusCode).toBe(
      404,
    );
  });
});
