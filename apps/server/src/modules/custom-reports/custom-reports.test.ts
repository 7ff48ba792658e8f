import { randomUUID } from 'node:crypto';
import type {
  CustomReport,
  ListCustomReportsResponse,
  PublicReportResponse,
  ReportData,
  ReportItemData,
  ReportSharing,
} from '@courselens/contracts';
import { and, eq } from 'drizzle-orm';
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
import {
  activityEvents,
  customReportItems,
  customReports,
  questions,
  type Course,
  type Learner,
  type Question,
  type Variable,
} from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { withoutEmails } from '../metrics/privacy';
import { copyName, newShareToken } from './custom-reports.service';

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
let safety: Course;
let sales: Course;
let score: Variable;
let passed: Variable;
let contact: Variable;
let oldQuestion: Question;
let strangerVariable: Variable;
let ann: Learner;
let bob: Learner;
let cyd: Learner;
let dee: Learner;
let eve: Learner;

const inject = (options: InjectOptions) => testApp.app.inject(options);
const as = (who: SignedUp, method: InjectOptions['method'], url: string, payload?: unknown) =>
  inject({
    method,
    url,
    headers: who.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const create = (payload: unknown, who: SignedUp = owner) => as(who, 'POST', '/api/custom-reports', payload);
const db = () => testApp.database.db;

async function createReport(payload: unknown): Promise<CustomReport> {
  const response = await create(payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CustomReport>();
}

async function dataOf(reportId: string): Promise<ReportData> {
  const response = await as(owner, 'GET', `/api/custom-reports/${reportId}/data`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: ReportData }>().data;
}

const rowsOf = (item: ReportItemData | undefined) =>
  item?.result?.rows.map((row) => ({
    label: row.label,
    value: row.value,
    learners: row.learners,
    count: row.count,
  }));
const subjectOf = (item: CustomReport['items'][number]) => item.query.subject;

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  stranger = await signUpViaApi(testApp.app);
  const organizationId = owner.organization.id;
  safety = await insertCourse(db(), { organizationId, courseTitle: 'Workplace Safety' });
  sales = await insertCourse(db(), { organizationId, courseTitle: 'Sales Basics' });
  score = await insertVariable(db(), {
    organizationId,
    courseId: safety.id,
    name: 'final_score',
    title: 'Final score',
    dataType: 'number',
  });
  passed = await insertVariable(db(), {
    organizationId,
    courseId: safety.id,
    name: 'passed',
    title: 'Passed',
    dataType: 'boolean',
  });
  contact = await insertVariable(db(), {
    organizationId,
    courseId: sales.id,
    name: 'contact',
    title: 'Contact',
    dataType: 'text',
  });
  ann = await insertLearner(db(), { organizationId, name: 'Ann', email: 'ann@learners.example' });
  bob = await insertLearner(db(), { organizationId, name: 'Bob', email: 'bob@learners.example' });
  cyd = await insertLearner(db(), { organizationId, name: null, email: 'cyd@learners.example' });
  dee = await insertLearner(db(), { organizationId, name: 'Dee', email: 'dee@learners.example' });
  // A name that is an address must never reach a report either.
  eve = await insertLearner(db(), {
    organizationId,
    name: 'eve@learners.example',
    email: 'eve@learners.example',
  });

  const value = (variable: Variable, learner: Learner, raw: string | number | boolean, at: string) =>
    insertVariableValue(db(), {
      organizationId,
      variableId: variable.id,
      courseId: variable.courseId,
      learnerId: learner.id,
      raw,
      dataType: variable.dataType,
      recordedAt: new Date(at),
    });
  // final_score: Ann 80 then 90 (week of 2025-12-29), Bob 70 and Cyd 60 (week of 2026-01-05).
  await value(score, ann, 80, '2026-01-01T10:00:00Z');
  await value(score, ann, 90, '2026-01-02T10:00:00Z');
  await value(score, bob, 70, '2026-01-07T10:00:00Z');
  await value(score, cyd, 60, '2026-01-08T10:00:00Z');
  await value(passed, ann, true, '2026-01-02T10:00:00Z');
  await value(passed, bob, false, '2026-01-07T10:00:00Z');
  await value(contact, eve, 'write to eve@learners.example', '2026-01-07T10:00:00Z');

  // Question 3 on slide 6 as first published: Ann right twice, Bob wrong once.
  oldQuestion = await insertQuestion(db(), {
    organizationId,
    courseId: safety.id,
    interactionId: 'q3-v1',
    slideNumber: 6,
    questionNumber: 3,
    questionText: 'How often should you take a break?',
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
      correct,
      pointsAssigned: correct ? 10 : 0,
      createdAt: new Date(at),
    });
  await answer(oldQuestion, ann, true, '2026-01-02T10:00:00Z');
  await answer(oldQuestion, bob, false, '2026-01-07T10:00:00Z');
  await answer(oldQuestion, ann, true, '2026-01-08T10:00:00Z');

  const strangerCourse = await insertCourse(db(), {
    organizationId: stranger.organization.id,
    courseTitle: 'Workplace Safety',
  });
  strangerVariable = await insertVariable(db(), {
    organizationId: stranger.organization.id,
    courseId: strangerCourse.id,
    name: 'final_score',
    dataType: 'number',
  });
});

afterAll(async () => {
  await testApp.close();
});

describe('creating, reading, updating and deleting reports', () => {
  it('answers 401 "User not authenticated" when creating without a user, and writes nothing', async () => {
    const before = await db().select().from(customReports);
    const response = await inject({ method: 'POST', url: '/api/custom-reports', payload: { name: 'X' } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'User not authenticated', code: 'UNAUTHENTICATED' });
    expect(await db().select().from(customReports)).toHaveLength(before.length);
  });

  it('creates a report with organization, creator and items in display order', async () => {
    const report = await createReport({
      name: '  Safety overview ',
      description: 'For managers',
      reportType: 'bar',
      items: [
        { kind: 'question', questionId: oldQuestion.id, comparisonType: 'by_course' },
        { kind: 'variable', variableId: score.id, displayName: 'Score', comparisonType: 'by_learner' },
        { kind: 'identifier', courseId: safety.id, slideNumber: 6, questionNumber: 3 },
      ],
    });
    expect(report).toMatchObject({
      name: 'Safety overview',
      description: 'For managers',
      reportType: 'bar',
      isPublic: false,
      publicShareToken: null,
      viewCount: 0,
      itemCount: 3,
      createdByName: owner.user.name,
      config: { periodDays: null, limit: null },
    });
    // Items of the first version's shape read as queries of the report model.
    expect(
      report.items.map((item) => [
        subjectOf(item).kind,
        item.displayOrder,
        item.displayName,
        item.query.breakdown.kind,
        item.query.measure,
        item.chart,
      ]),
    ).toEqual([
      ['question', 0, null, 'course', null, 'auto'],
      ['variable', 1, 'Score', 'learner', null, 'auto'],
      ['identifier', 2, null, 'learner', null, 'auto'],
    ]);
    expect(report.items[0]).toMatchObject({
      label: 'Slide 6 · Question 3: How often should you take a break?',
      courseTitle: 'Workplace Safety',
    });
    expect(report.items[1]).toMatchObject({ label: 'Final score', dataType: 'number' });
    const [row] = await db().select().from(customReports).where(eq(customReports.id, report.id));
    expect(row).toMatchObject({ organizationId: owner.organization.id, createdBy: owner.user.id });
    const activity = await db()
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.subjectId, report.id), eq(activityEvents.kind, 'report.created')));
    expect(activity).toHaveLength(1);

    const read = await as(owner, 'GET', `/api/custom-reports/${report.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(report);
  });

  it('lists newest first, searches by name and pages', async () => {
    const organization = await signUpViaApi(testApp.app);
    const names = ['Alpha weekly', 'Beta monthly', 'Gamma weekly'];
    for (const name of names) {
      const response = await create({ name }, organization);
      expect(response.statusCode).toBe(201);
    }
    const list = await as(organization, 'GET', '/api/custom-reports');
    const body = list.json<ListCustomReportsResponse>();
    expect(body.items.map((item) => item.name)).toEqual(['Gamma weekly', 'Beta monthly', 'Alpha weekly']);
    expect(body.total).toBe(3);
    const search = await as(organization, 'GET', '/api/custom-reports?q=WEEK');
    expect(search.json<ListCustomReportsResponse>().items.map((item) => item.name)).toEqual([
      'Gamma weekly',
      'Alpha weekly',
    ]);
    const page = await as(organization, 'GET', '/api/custom-reports?page=2&pageSize=2');
    expect(page.json<ListCustomReportsResponse>()).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page.json<ListCustomReportsResponse>().items.map((item) => item.name)).toEqual(['Alpha weekly']);
    // Another organization's reports never show.
    const mine = await as(stranger, 'GET', '/api/custom-reports?q=weekly');
    expect(mine.json<ListCustomReportsResponse>().total).toBe(0);
  });

  it('replaces the fields and the whole item list on update', async () => {
    const report = await createReport({
      name: 'To change',
      items: [
        { kind: 'variable', variableId: score.id },
        { kind: 'variable', variableId: passed.id },
      ],
    });
    const response = await as(owner, 'PUT', `/api/custom-reports/${report.id}`, {
      name: 'Changed',
      reportType: 'pie',
      config: { periodDays: 30, limit: 5 },
      items: [
        { kind: 'variable', variableId: passed.id, comparisonType: 'by_course', displayName: 'Pass rate' },
        { kind: 'question', questionId: oldQuestion.id },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const updated = response.json<CustomReport>();
    expect(updated).toMatchObject({
      name: 'Changed',
      reportType: 'pie',
      config: { periodDays: 30, limit: 5 },
    });
    expect(updated.items.map((item) => [subjectOf(item), item.displayName])).toEqual([
      [{ kind: 'variable', variableIds: [passed.id] }, 'Pass rate'],
      [{ kind: 'question', questionId: oldQuestion.id }, null],
    ]);
  });

  it('keeps the old version when an update is refused', async () => {
    const report = await createReport({
      name: 'Stable',
      items: [{ kind: 'variable', variableId: score.id }],
    });
    const response = await as(owner, 'PUT', `/api/custom-reports/${report.id}`, {
      name: 'Broken',
      items: [{ kind: 'variable', variableId: strangerVariable.id }],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toBe(
      'Some variables of the report do not exist in this organization',
    );
    const read = await as(owner, 'GET', `/api/custom-reports/${report.id}`);
    expect(read.json<CustomReport>()).toMatchObject({ name: 'Stable', itemCount: 1 });
  });

  it('duplicates a report as a private copy with the same items', async () => {
    const report = await createReport({
      name: 'Original',
      reportType: 'line',
      items: [
        { kind: 'variable', variableId: score.id, comparisonType: 'over_time', displayName: 'Trend' },
        { kind: 'identifier', courseId: safety.id, questionNumber: 3 },
      ],
    });
    await as(owner, 'PUT', `/api/custom-reports/${report.id}/public`, { isPublic: true });
    const response = await as(owner, 'POST', `/api/custom-reports/${report.id}/duplicate`);
    expect(response.statusCode).toBe(201);
    const copy = response.json<CustomReport>();
    expect(copy.id).not.toBe(report.id);
    expect(copy).toMatchObject({
      name: 'Copy of Original',
      reportType: 'line',
      isPublic: false,
      viewCount: 0,
    });
    const strip = (item: CustomReport['items'][number]) => ({ ...item, id: '' });
    expect(copy.items.map(strip)).toEqual(report.items.map(strip));
  });

  it('deletes a report with its items', async () => {
    const report = await createReport({
      name: 'Doomed',
      items: [{ kind: 'question', questionId: oldQuestion.id }],
    });
    const response = await as(owner, 'DELETE', `/api/custom-reports/${report.id}`);
    expect(response.statusCode).toBe(204);
    expect((await as(owner, 'GET', `/api/custom-reports/${report.id}`)).statusCode).toBe(404);
    expect(
      await db().select().from(customReportItems).where(eq(customReportItems.reportId, report.id)),
    ).toEqual([]);
  });
});

describe('validation', () => {
  const cases: [string, unknown, string][] = [
    ['an empty name', { name: '   ' }, 'Report name is required'],
    ['a long name', { name: 'x'.repeat(201) }, 'Report name must be at most 200 characters long'],
    ['an unknown type', { name: 'R', reportType: 'donut' }, 'Report type must be one of'],
    [
      'too many items',
      {
        name: 'R',
        items: Array.from({ length: 21 }, () => ({
          kind: 'identifier',
          courseId: randomUUID(),
          slideNumber: 1,
        })),
      },
      'A report can have at most 20 variables and questions',
    ],
    [
      'an id that is no uuid',
      { name: 'R', items: [{ kind: 'variable', variableId: '12' }] },
      'Variable must be a variable id',
    ],
    [
      'an empty variable id',
      { name: 'R', items: [{ kind: 'variable', variableId: '' }] },
      'Variable must be a variable id',
    ],
    [
      'a measure the subject does not have',
      {
        name: 'R',
        items: [
          {
            kind: 'query',
            query: { subject: { kind: 'question', questionId: randomUUID() }, measure: { fn: 'average' } },
          },
        ],
      },
      'A question report can measure: Correct rate, Responses, Learners, Points',
    ],
    [
      'a breakdown the subject does not have',
      {
        name: 'R',
        items: [
          {
            kind: 'query',
            query: { subject: { kind: 'courses', courseIds: [] }, breakdown: { kind: 'answer' } },
          },
        ],
      },
      'A course report can be broken down by:',
    ],
    [
      'a breakdown by variable without its name',
      {
        name: 'R',
        items: [
          {
            kind: 'query',
            query: { subject: { kind: 'courses', courseIds: [] }, breakdown: { kind: 'variable' } },
          },
        ],
      },
      'Name the variable to break down by',
    ],
    [
      'a reversed period',
      {
        name: 'R',
        items: [
          {
            kind: 'query',
            query: {
              subject: { kind: 'courses', courseIds: [] },
              filters: { period: { kind: 'between', from: '2026-02-01', to: '2026-01-01' } },
            },
          },
        ],
      },
      'The start date must be on or before the end date',
    ],
    [
      'an identifier without numbers or text',
      { name: 'R', items: [{ kind: 'identifier', courseId: randomUUID() }] },
      'A question chosen by identifier needs a slide number, a question number or its text',
    ],
    [
      'an unknown breakdown',
      { name: 'R', items: [{ kind: 'variable', variableId: randomUUID(), comparisonType: 'by_team' }] },
      'Breakdown must be one of',
    ],
    ['a period of 0 days', { name: 'R', config: { periodDays: 0 } }, 'Period must be a whole number of days'],
    ['an unknown field', { name: 'R', organizationId: randomUUID() }, ''],
  ];

  it.each(cases)('refuses %s with 400 and writes nothing', async (_, payload, message) => {
    const before = (await db().select().from(customReports)).length;
    const response = await create(payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ error: string }>().error).toContain(message);
    expect(await db().select().from(customReports)).toHaveLength(before);
  });

  it('accepts the same variable twice, measured or broken down differently', async () => {
    const report = await createReport({
      name: 'Twice',
      items: [
        { kind: 'variable', variableId: score.id },
        { kind: 'variable', variableId: score.id, comparisonType: 'over_time' },
      ],
    });
    expect(report.itemCount).toBe(2);
  });

  it('refuses what the data cannot answer: an average of text, a pass rate without a mark (400)', async () => {
    const preview = (query: unknown) =>
      as(owner, 'POST', '/api/custom-reports/preview', { items: [{ kind: 'query', query }] });
    const average = await preview({
      subject: { kind: 'variable', variableIds: [contact.id] },
      measure: { fn: 'average' },
    });
    expect(average.statusCode).toBe(400);
    expect(average.json<{ error: string }>().error).toBe(
      'Average needs a number variable; Contact is a text variable',
    );
    const pass = await preview({
      subject: { kind: 'variable', variableIds: [score.id] },
      measure: { fn: 'pass_rate' },
    });
    expect(pass.statusCode).toBe(400);
    expect(pass.json<{ error: string }>().error).toBe('A pass rate of a number variable needs a pass mark');
    const mixed = await preview({ subject: { kind: 'variable', variableIds: [score.id, contact.id] } });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json<{ error: string }>().error).toBe(
      'The variables of one item must all be of the same type (number, text, true/false or date)',
    );
    const unknownName = await preview({
      subject: { kind: 'variable', variableIds: [score.id] },
      breakdown: { kind: 'variable', variableName: 'departmnt' },
    });
    expect(unknownName.statusCode).toBe(400);
    expect(unknownName.json<{ error: string }>().error).toBe(
      'Some variables a breakdown or condition names do not exist in this organization',
    );
  });

  it("refuses another organization's variable, question or course (400, nothing written)", async () => {
    const before = (await db().select().from(customReports)).length;
    for (const [items, message] of [
      [
        [{ kind: 'variable', variableId: score.id }],
        'Some variables of the report do not exist in this organization',
      ],
      [
        [{ kind: 'question', questionId: oldQuestion.id }],
        'Some questions of the report do not exist in this organization',
      ],
      [
        [{ kind: 'identifier', courseId: safety.id, slideNumber: 1 }],
        'Some courses of the report do not exist in this organization',
      ],
    ] as const) {
      const response = await create({ name: 'Theirs', items }, stranger);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: string }>().error).toBe(message);
    }
    expect(await db().select().from(customReports)).toHaveLength(before);
  });
});

describe('scoping', () => {
  it('answers 404 to another organization exactly as for a report that does not exist', async () => {
    const report = await createReport({
      name: 'Private',
      items: [{ kind: 'variable', variableId: score.id }],
    });
    const calls: [InjectOptions['method'], string, unknown?][] = [
      ['GET', ''],
      ['PUT', '', { name: 'Mine now' }],
      ['DELETE', ''],
      ['POST', '/duplicate'],
      ['GET', '/data'],
      ['GET', '/export'],
      ['PUT', '/public', { isPublic: true }],
      ['POST', '/public/rotate'],
    ];
    for (const [method, suffix, payload] of calls) {
      const theirs = await as(stranger, method, `/api/custom-reports/${report.id}${suffix}`, payload);
      const missing = await as(stranger, method, `/api/custom-reports/${randomUUID()}${suffix}`, payload);
      expect(theirs.statusCode, `${method} ${suffix}`).toBe(404);
      expect(theirs.body).toBe(missing.body);
      expect(theirs.json()).toEqual({ error: 'Report not found', code: 'NOT_FOUND' });
    }
    const read = await as(owner, 'GET', `/api/custom-reports/${report.id}`);
    expect(read.json<CustomReport>()).toMatchObject({ name: 'Private', isPublic: false });
  });
});

describe('report data, assembled in the database', () => {
  it("gives each learner's latest value, per-course figures and weekly trends of variables", async () => {
    const report = await createReport({
      name: 'Numbers',
      items: [
        { kind: 'variable', variableId: score.id, comparisonType: 'by_learner' },
        { kind: 'variable', variableId: passed.id, comparisonType: 'by_course' },
      ],
    });
    const trend = await createReport({
      name: 'Trend',
      items: [{ kind: 'variable', variableId: score.id, comparisonType: 'over_time' }],
    });
    const [byLearner, byCourse] = (await dataOf(report.id)).items;
    // A number variable's default measure is the average of each learner's latest value.
    expect(byLearner?.result?.measure).toMatchObject({ fn: 'average', label: 'Average', unit: 'number' });
    expect(byLearner?.result?.total).toMatchObject({ learners: 3, count: 3 });
    expect(byLearner?.result?.total.value).toBeCloseTo(220 / 3);
    expect(byLearner?.result?.rows.map((row) => [row.label, row.value, row.detail])).toEqual([
      ['Ann', 90, '90'],
      ['Bob', 70, '70'],
      ['Unnamed learner', 60, '60'],
    ]);
    expect(byLearner?.chart).toBe('leaderboard');
    // A true/false variable's default is its pass rate (the share of true).
    expect(byCourse?.result?.measure).toMatchObject({ fn: 'pass_rate', unit: 'percent' });
    expect(rowsOf(byCourse)).toEqual([{ label: 'Workplace Safety', value: 0.5, learners: 2, count: 2 }]);
    const [weekly] = (await dataOf(trend.id)).items;
    expect(rowsOf(weekly)).toEqual([
      { label: '2025-12-29', value: 85, learners: 1, count: 2 },
      { label: '2026-01-05', value: 65, learners: 2, count: 2 },
    ]);
    expect(weekly?.result?.rows.every((row) => !row.isPartial)).toBe(true);
    expect(weekly?.result?.total).toMatchObject({ count: 4, learners: 3, value: 75 });
    expect(weekly?.chart).toBe('line');
  });

  it("gives correct rates of questions, and points as each learner's best (retries do not add up)", async () => {
    const report = await createReport({
      name: 'Question',
      items: [
        { kind: 'question', questionId: oldQuestion.id, comparisonType: 'by_learner' },
        {
          kind: 'query',
          query: {
            subject: { kind: 'question', questionId: oldQuestion.id },
            measure: { fn: 'points' },
            breakdown: { kind: 'learner' },
          },
        },
      ],
    });
    const [rate, points] = (await dataOf(report.id)).items;
    expect(rate?.result?.total).toMatchObject({ count: 3, learners: 2 });
    expect(rate?.result?.total.value).toBeCloseTo(2 / 3);
    expect(rate?.result?.rows.map((row) => [row.label, row.count, row.value])).toEqual([
      ['Ann', 2, 1],
      ['Bob', 1, 0],
    ]);
    // Ann answered right twice for 10 points each: her points are 10, not 20.
    expect(points?.result?.rows.map((row) => [row.label, row.value])).toEqual([
      ['Ann', 10],
      ['Bob', 0],
    ]);
    expect(points?.result?.total.value).toBe(5);
  });

  it('honours the period and the top N, summing up the rest as Others', async () => {
    const report = await createReport({
      name: 'Recent',
      config: { periodDays: 30, limit: 2 },
      items: [
        { kind: 'variable', variableId: score.id },
        { kind: 'question', questionId: oldQuestion.id },
      ],
    });
    const data = await dataOf(report.id);
    expect(data.since).not.toBeNull();
    // Every value and answer of the dataset is older than 30 days.
    expect(data.items.map((item) => item.result?.total.count)).toEqual([0, 0]);
    expect(data.items[0]?.query.filters.period).toEqual({ kind: 'last_days', days: 30 });

    const top = await createReport({
      name: 'Top 2',
      reportType: 'leaderboard',
      config: { limit: 2 },
      items: [{ kind: 'variable', variableId: score.id }],
    });
    const [leaders] = (await dataOf(top.id)).items;
    expect(leaders?.result?.rows.map((row) => row.label)).toEqual(['Ann', 'Bob']);
    expect(leaders?.result?.groupCount).toBe(3);
    expect(leaders?.result?.others).toMatchObject({
      label: 'Others',
      groups: 1,
      learners: 1,
      count: 1,
      value: 60,
    });
  });

  it('exports the assembled data as CSV', async () => {
    const report = await createReport({
      name: 'Export me',
      items: [{ kind: 'variable', variableId: score.id, displayName: 'Score' }],
    });
    const response = await as(owner, 'GET', `/api/custom-reports/${report.id}/export`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain('Export-me.csv');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Item,Course,Agent,Measure,Breakdown,Group,Value,Learners,Count,Latest value,Partial period',
    );
    expect(lines.slice(1)).toEqual([
      'Score,Workplace Safety,,Average,Learner,Ann,90,1,1,90,',
      'Score,Workplace Safety,,Average,Learner,Bob,70,1,1,70,',
      'Score,Workplace Safety,,Average,Learner,Unnamed learner,60,1,1,60,',
    ]);
  });

  it('keeps a question chosen by identifier across a course republish', async () => {
    const report = await createReport({
      name: 'Survives',
      items: [
        {
          kind: 'identifier',
          courseId: safety.id,
          slideNumber: 6,
          questionNumber: 3,
          comparisonType: 'by_learner',
        },
        { kind: 'question', questionId: oldQuestion.id },
      ],
    });
    const before = await dataOf(report.id);
    expect(before.items.map((item) => item.result?.total.count)).toEqual([3, 3]);

    // Republish: the course's question gets a new row (new interaction id), the old one goes with its answers.
    const organizationId = owner.organization.id;
    const republished = await insertQuestion(db(), {
      organizationId,
      courseId: safety.id,
      interactionId: 'q3-v2',
      slideNumber: 6,
      questionNumber: 3,
      questionText: 'How often should you take a short break?',
    });
    await insertResponse(db(), {
      organizationId,
      courseId: safety.id,
      questionId: republished.id,
      learnerId: dee.id,
      slideNumber: 6,
      questionNumber: 3,
      questionText: republished.questionText,
      correct: true,
      pointsAssigned: 10,
      createdAt: new Date('2026-02-01T10:00:00Z'),
    });
    const during = await dataOf(report.id);
    expect(during.items[0]?.result?.total).toMatchObject({ count: 4, learners: 3 });
    await db().delete(questions).where(eq(questions.id, oldQuestion.id));

    // The item of the deleted question stays, saying it is no longer available.
    const after = await as(owner, 'GET', `/api/custom-reports/${report.id}`);
    expect(after.json<CustomReport>().items.map((item) => [subjectOf(item).kind, item.label])).toEqual([
      ['identifier', 'Slide 6 · Question 3'],
      ['question', 'No longer available'],
    ]);
    const [item, gone] = (await dataOf(report.id)).items;
    expect(item?.result?.total).toMatchObject({ count: 1, learners: 1, value: 1 });
    expect(item?.result?.rows.map((row) => row.label)).toEqual(['Dee']);
    expect(gone).toMatchObject({ available: false, result: null });
    // Later tests use the course's question as it is now.
    oldQuestion = republished;
  });
});

describe('catalog', () => {
  it('offers the values of category-like text variables, never free text or e-mail addresses', async () => {
    const organizationId = owner.organization.id;
    const region = await insertVariable(db(), {
      organizationId,
      courseId: sales.id,
      name: 'region',
      dataType: 'text',
    });
    for (const [learner, value] of [
      [ann, 'North'],
      [bob, 'South'],
      [dee, 'North'],
    ] as const) {
      await insertVariableValue(db(), {
        organizationId,
        variableId: region.id,
        courseId: sales.id,
        learnerId: learner.id,
        raw: value,
        dataType: 'text',
        recordedAt: new Date('2026-01-03T10:00:00Z'),
      });
    }
    const response = await as(owner, 'GET', '/api/custom-reports/catalog');
    expect(response.statusCode).toBe(200);
    const { values } = response.json<{ values: { variableName: string; values: string[] }[] }>();
    expect(values).toEqual([{ variableName: 'region', values: ['North', 'South'] }]);
    expect(response.body).not.toContain('eve@learners.example');
  });
});

describe('public links', () => {
  let report: CustomReport;
  const publicGet = (token: string) => inject({ method: 'GET', url: `/api/public-reports/${token}` });
  const share = (isPublic: boolean) =>
    as(owner, 'PUT', `/api/custom-reports/${report.id}/public`, { isPublic });

  beforeAll(async () => {
    report = await createReport({
      name: 'Shared',
      description: 'For everyone',
      reportType: 'leaderboard',
      items: [
        { kind: 'variable', variableId: score.id, displayName: 'Score' },
        { kind: 'variable', variableId: contact.id },
        { kind: 'identifier', courseId: safety.id, questionNumber: 3 },
      ],
    });
  });

  it('answers 404 {error} for a report that is not shared and for any other token', async () => {
    for (const token of ['x', 'a'.repeat(43), randomUUID(), 'a'.repeat(99)]) {
      const response = await publicGet(token);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'This report is not available', code: 'NOT_FOUND' });
    }
  });

  it('shares with an unguessable token and serves the same numbers without sign-in', async () => {
    const response = await share(true);
    expect(response.statusCode).toBe(200);
    const sharing = response.json<ReportSharing>();
    expect(sharing.isPublic).toBe(true);
    // 32 random bytes, base64url: 43 characters, 256 bits.
    expect(sharing.publicShareToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const visit = await publicGet(sharing.publicShareToken ?? '');
    expect(visit.statusCode).toBe(200);
    expect(visit.headers['cache-control']).toBe('no-store');
    const body = visit.json<PublicReportResponse>();
    // Like every shared view, it names the organization that shares it.
    expect(body.organization).toEqual({ name: owner.organization.name });
    expect(body.report).toMatchObject({
      name: 'Shared',
      description: 'For everyone',
      reportType: 'leaderboard',
    });
    expect(body.report.items.map((item) => item.title)).toEqual(['Score', 'Contact', 'Question 3']);
    const member = await dataOf(report.id);
    const numbers = (data: ReportData) =>
      data.items.map((item) => ({
        total: item.result?.total,
        rows: item.result?.rows.map((row) => [row.label, row.value, row.learners, row.count]),
      }));
    expect(numbers(body.data)).toEqual(numbers(member));
    expect(body.data.items[0]?.result?.rows.map((row) => row.label)).toEqual([
      'Ann',
      'Bob',
      'Unnamed learner',
    ]);
  });

  it('has no e-mail address anywhere in the public body', async () => {
    const token = (await as(owner, 'GET', `/api/custom-reports/${report.id}`)).json<CustomReport>()
      .publicShareToken;
    const visit = await publicGet(token ?? '');
    expect(visit.statusCode).toBe(200);
    expect(visit.body).not.toMatch(/@/);
    for (const email of [owner.user.email, ann.email, eve.email]) expect(visit.body).not.toContain(email);
    const contactRows = visit.json<PublicReportResponse>().data.items[1]?.result?.rows;
    expect(contactRows?.map((row) => [row.label, row.detail])).toEqual([
      ['Unnamed learner', 'write to (hidden)'],
    ]);
    expect(visit.body).not.toContain(owner.user.name);
  });

  it('counts visits', async () => {
    const before = (await as(owner, 'GET', `/api/custom-reports/${report.id}`)).json<CustomReport>();
    await publicGet(before.publicShareToken ?? '');
    await publicGet(before.publicShareToken ?? '');
    await publicGet('not-the-token-at-all-not-the-token-at-all-x');
    const after = (await as(owner, 'GET', `/api/custom-reports/${report.id}`)).json<CustomReport>();
    expect(after.viewCount).toBe(before.viewCount + 2);
  });

  it('rotating replaces the link: the old token answers 404, the new one 200', async () => {
    const old = (await as(owner, 'GET', `/api/custom-reports/${report.id}`)).json<CustomReport>()
      .publicShareToken;
    const response = await as(owner, 'POST', `/api/custom-reports/${report.id}/public/rotate`);
    expect(response.statusCode).toBe(200);
    const fresh = response.json<ReportSharing>().publicShareToken;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(old);
    expect((await publicGet(old ?? '')).statusCode).toBe(404);
    expect((await publicGet(old ?? '')).json()).toEqual({
      error: 'This report is not available',
      code: 'NOT_FOUND',
    });
    expect((await publicGet(fresh ?? '')).statusCode).toBe(200);
  });

  it('switching off revokes at once; switching on again gives a new link', async () => {
    const token = (await as(owner, 'GET', `/api/custom-reports/${report.id}`)).json<CustomReport>()
      .publicShareToken;
    const off = await share(false);
    expect(off.json<ReportSharing>()).toMatchObject({ isPublic: false, publicShareToken: null });
    const gone = await publicGet(token ?? '');
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'This report is not available', code: 'NOT_FOUND' });
    expect((await as(owner, 'POST', `/api/custom-reports/${report.id}/public/rotate`)).statusCode).toBe(409);

    const on = (await share(true)).json<ReportSharing>();
    expect(on.publicShareToken).not.toBe(token);
    expect((await publicGet(token ?? '')).statusCode).toBe(404);
    expect((await publicGet(on.publicShareToken ?? '')).statusCode).toBe(200);
  });

  it('records sharing in the activity feed', async () => {
    const kinds = await db()
      .select({ kind: activityEvents.kind })
      .from(activityEvents)
      .where(eq(activityEvents.subjectId, report.id));
    const counted = kinds.map((row) => row.kind);
    expect(counted.filter((kind) => kind === 'report.unshared')).toHaveLength(1);
    expect(counted.filter((kind) => kind === 'report.shared').length).toBeGreaterThanOrEqual(3);
  });

  it('refuses a body that is not {isPublic: boolean}', async () => {
    const response = await as(owner, 'PUT', `/api/custom-reports/${report.id}/public`, { isPublic: 'yes' });
    expect(response.statusCode).toBe(400);
  });
});

describe('helpers', () => {
  it('hides e-mail addresses inside public text and leaves other text alone', () => {
    expect(withoutEmails('mail ann.lee+x@corp.example.com now')).toBe('mail (hidden) now');
    expect(withoutEmails('Ann @ the desk')).toBe('Ann @ the desk');
    expect(withoutEmails(null)).toBeNull();
  });

  it('names a copy within the name limit', () => {
    expect(copyName('Weekly')).toBe('Copy of Weekly');
    expect(copyName('x'.repeat(200))).toHaveLength(200);
  });

  it('makes 256-bit URL-safe share tokens that differ', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => newShareToken()));
    expect(tokens.size).toBe(50);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
