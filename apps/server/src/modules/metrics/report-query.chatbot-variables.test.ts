import type {
  CustomReport,
  PublicReportResponse,
  ReportCatalog,
  ReportData,
  ReportItemData,
  ReportQueryInput,
  ReportResult,
  VariableReportResponse,
} from '@courselens/contracts';
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertChatbot,
  insertChatbotVariable,
  insertChatbotVariableValue,
} from '../../db/factories/chatbots';
import {
  insertCourse,
  insertLearner,
  insertVariable,
  insertVariableValue,
} from '../../db/factories/learning';
import { customReports, type Chatbot, type ChatbotVariable, type Learner } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';

// Agent variables as the subject of a custom report item, through the real
// app and database: the values custom AI agents captured, read through the
// metrics layer's value source (the agent where a course would be), scoped
// to the organization, and named without e-mail addresses in public.
//
// Two agents, four learners: every number below can be counted by hand.
// - Onboarding buddy, score: Ann 6 (Jan 3) then 8 (Jan 10), Bob 5 (Jan 11),
//   Cyd 9 (Feb 2); ready (true/false): Ann true, Bob false, Cyd true; goal
//   (a choice): Ann "Lead a team", Bob "mail me at bob@corp.example".
// - Exit interview, score: Ann 4 (Jan 12), Dee 2 (Jan 13).
// - A course variable `department`: Ann and Bob Sales, Cyd IT.

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
let buddy: Chatbot;
let exit: Chatbot;
let buddyScore: ChatbotVariable;
let exitScore: ChatbotVariable;
let ready: ChatbotVariable;
let goal: ChatbotVariable;
let ann: Learner;
let bob: Learner;
let cyd: Learner;
let dee: Learner;

const db = () => testApp.database.db;

const inject = (options: InjectOptions) => testApp.app.inject(options);

async function previewAs(who: SignedUp, ...queries: ReportQueryInput[]) {
  return inject({
    method: 'POST',
    url: '/api/custom-reports/preview',
    headers: who.headers,
    payload: { items: queries.map((query) => ({ kind: 'query', query })) },
  });
}

async function preview(...queries: ReportQueryInput[]): Promise<ReportItemData[]> {
  const response = await previewAs(owner, ...queries);
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
  stranger = await signUpViaApi(testApp.app);
  const organizationId = owner.organization.id;
  ann = await insertLearner(db(), { organizationId, name: 'Ann', email: 'ann@agents.example' });
  bob = await insertLearner(db(), { organizationId, name: 'Bob', email: 'bob@agents.example' });
  cyd = await insertLearner(db(), { organizationId, name: 'Cyd', email: 'cyd@agents.example' });
  // Some sources send the address as the name: it is never shown.
  dee = await insertLearner(db(), {
    organizationId,
    name: 'dee@agents.example',
    email: 'dee@agents.example',
  });

  buddy = await insertChatbot(db(), { organizationId, name: 'Onboarding buddy' });
  exit = await insertChatbot(db(), { organizationId, name: 'Exit interview' });
  buddyScore = await insertChatbotVariable(db(), {
    organizationId,
    chatbotId: buddy.id,
    name: 'score',
    title: 'Score',
    dataType: 'number',
  });
  exitScore = await insertChatbotVariable(db(), {
    organizationId,
    chatbotId: exit.id,
    name: 'score',
    title: 'Score',
    dataType: 'number',
  });
  ready = await insertChatbotVariable(db(), {
    organizationId,
    chatbotId: buddy.id,
    name: 'ready',
    title: null,
    dataType: 'boolean',
  });
  goal = await insertChatbotVariable(db(), {
    organizationId,
    chatbotId: buddy.id,
    name: 'goal',
    title: 'Goal',
    dataType: 'choice',
    options: ['Lead a team', 'mail me at bob@corp.example'],
  });
  const capture = (variable: ChatbotVariable, learner: Learner, raw: string | number | boolean, at: string) =>
    insertChatbotVariableValue(db(), {
      organizationId,
      chatbotVariableId: variable.id,
      learnerId: learner.id,
      raw,
      dataType: variable.dataType === 'choice' ? 'text' : variable.dataType,
      recordedAt: new Date(at),
    });
  await capture(buddyScore, ann, 6, '2026-01-03T09:00:00Z');
  await capture(buddyScore, ann, 8, '2026-01-10T09:00:00Z');
  await capture(buddyScore, bob, 5, '2026-01-11T09:00:00Z');
  await capture(buddyScore, cyd, 9, '2026-02-02T09:00:00Z');
  await capture(exitScore, ann, 4, '2026-01-12T09:00:00Z');
  await capture(exitScore, dee, 2, '2026-01-13T09:00:00Z');
  await capture(ready, ann, true, '2026-01-10T09:00:00Z');
  await capture(ready, bob, false, '2026-01-11T09:00:00Z');
  await capture(ready, cyd, true, '2026-02-02T09:00:00Z');
  await capture(goal, ann, 'Lead a team', '2026-01-10T09:00:00Z');
  await capture(goal, bob, 'mail me at bob@corp.example', '2026-01-11T09:00:00Z');

  const course = await insertCourse(db(), { organizationId, courseTitle: 'Induction' });
  const department = await insertVariable(db(), {
    organizationId,
    courseId: course.id,
    name: 'department',
    dataType: 'text',
  });
  for (const [learner, value] of [
    [ann, 'Sales'],
    [bob, 'Sales'],
    [cyd, 'IT'],
  ] as const) {
    await insertVariableValue(db(), {
      organizationId,
      variableId: department.id,
      courseId: course.id,
      learnerId: learner.id,
      raw: value,
      dataType: 'text',
      recordedAt: new Date('2026-01-01T09:00:00Z'),
    });
  }
});

afterAll(async () => {
  await testApp.close();
});

describe('an agent variable as the subject', () => {
  it("reads each learner's latest value, averaged by default, with the agent where the course is", async () => {
    const [item] = await preview({
      subject: { kind: 'chatbot_variable', chatbotVariableIds: [buddyScore.id] },
    });
    expect(item).toMatchObject({ title: 'Score', courseTitle: 'Onboarding buddy', dataType: 'number' });
    expect(item?.query.measure).toEqual({ fn: 'average', mark: null });
    // Ann's 6 was replaced by her 8.
    expect(item?.result?.total).toEqual({ value: 22 / 3, learners: 3, count: 3 });
  });

  it('ranks learners by their latest value, with the value beside each', async () => {
    const outcome = await result({
      subject: { kind: 'chatbot_variable', chatbotVariableIds: [buddyScore.id] },
      measure: { fn: 'max' },
      breakdown: { kind: 'learner' },
    });
    expect(outcome.rows.map((row) => [row.label, row.value, row.detail])).toEqual([
      ['Cyd', 9, '9'],
      ['Ann', 8, '8'],
      ['Bob', 5, '5'],
    ]);
  });

  it('compares the same variable across agents, and counts each learner once in the total', async () => {
    const outcome = await result({
      subject: { kind: 'chatbot_variable', chatbotVariableIds: [buddyScore.id, exitScore.id] },
      measure: { fn: 'average' },
      breakdown: { kind: 'agent' },
    });
    expect(outcome.breakdown).toEqual({ kind: 'agent', label: 'Agent' });
    expect(table(outcome)).toEqual([
      ['Onboarding buddy', 7.333, 3],
      ['Exit interview', 3, 2],
    ]);
    expect(outcome.total).toMatchObject({ value: 5.6, learners: 4, count: 5 });
  });

  it('counts every value recorded over time, per month', async () => {
    const outcome = await result({
      subject: { kind: 'chatbot_variable', chatbotVariableIds: [buddyScore.id] },
      measure: { fn: 'values' },
      breakdown: { kind: 'month' },
    });
    expect(outcome.rows.map((row) => [row.key, row.value, row.learners])).toEqual([
      ['2026-01-01', 3, 2],
      ['2026-02-01', 1, 1],
    ]);
    expect(outcome.total).toMatchObject({ value: 4, learners: 3 });
  });

  it("breaks down by a course variable's value and keeps learners by a condition on their own value", async () => {
    const [byDepartment, high] = await preview(
      {
        subject: { kind: 'chatbot_variable', chatbotVariableIds: [buddyScore.id] },
        measure: { fn: 'average' },
        breakdown: { kind: 'variable', variableName: 'department' },
        sort: { by: 'label', order: 'asc' },
      },
      {
        subject: { kind: 'chatbot_variable', chatbotVariableIds: [buddyScore.id] },
        measure: { fn: 'learners' },
        filters: { values: [{ variableName: null, op: 'gte', value: 8 }] },
      },
    );
    expect(table(byDepartment!.result!)).toEqual([
      ['IT', 9, 1],
      ['Sales', 6.5, 2],
    ]);
    expect(high?.result?.total.value).toBe(2);
  });

  it('measures the share of true of a true/false agent variable, and a pass mark of a number', async () => {
    const [share, pass] = await preview(
      { subject: { kind: 'chatbot_variable', chatbotVariableIds: [ready.id] } },
      {
        subject: { kind: 'chatbot_variable', chatbotVariableIds: [buddyScore.id] },
        measure: { fn: 'pass_rate', mark: 8 },
      },
    );
    expect(share?.query.measure).toEqual({ fn: 'pass_rate', mark: null });
    expect(round(share?.result?.total.value ?? null)).toBe(0.667);
    expect(share?.title).toBe('ready');
    expect(round(pass?.result?.total.value ?? null)).toBe(0.667);
  });

  it('refuses what the data cannot answer, saying why (400)', async () => {
    const average = await previewAs(owner, {
      subject: { kind: 'chatbot_variable', chatbotVariableIds: [goal.id] },
      measure: { fn: 'average' },
    });
    expect(average.statusCode).toBe(400);
    expect(average.json<{ error: string }>().error).toBe(
      'Average needs a number variable; Goal is a text variable',
    );
    const byCourse = await previewAs(owner, {
      subject: { kind: 'chatbot_variable', chatbotVariableIds: [goal.id] },
      breakdown: { kind: 'course' },
    });
    expect(byCourse.statusCode).toBe(400);
    expect(byCourse.body).toContain(
      'An agent variable report can be broken down by: Nothing (one number), Learner, Agent, Day, Week, Month, Value of another variable',
    );
    const mixed = await previewAs(owner, {
      subject: { kind: 'chatbot_variable', chatbotVariableIds: [buddyScore.id, goal.id] },
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json<{ error: string }>().error).toBe(
      'The agent variables of one item must all be of the same type (number, text, true/false or date)',
    );
  });
});

describe('the chatbot variable report and a custom report item', () => {
  it('give the same numbers for the same agent and period', async () => {
    const from = '2026-01-01';
    const to = '2026-01-31';
    const report = await inject({
      method: 'GET',
      url: `/api/variable-reports/report?name=score&source=chatbot&courseId=${buddy.id}&from=${from}&to=${to}`,
      headers: owner.headers,
    });
    expect(report.statusCode, report.body).toBe(200);
    const { summary } = report.json<VariableReportResponse>();
    const subject = { kind: 'chatbot_variable' as const, chatbotVariableIds: [buddyScore.id] };
    const period = { kind: 'between', from, to } as const;
    const items = await preview(
      ...(['learners', 'values', 'average', 'median', 'min', 'max'] as const).map((fn) => ({
        subject,
        measure: { fn },
        filters: { period },
      })),
    );
    const [learners, values, average, median, min, max] = items.map((item) => item.result?.total.value);
    expect({ learners, values, average, median, min, max }).toEqual({
      learners: summary.learners,
      values: summary.values,
      average: summary.mean,
      median: summary.median,
      min: summary.min,
      max: summary.max,
    });
    // Counted by hand: Ann's latest (8, Jan 10) and Bob's 5; Cyd's is in February.
    expect(summary).toMatchObject({ learners: 2, values: 2, mean: 6.5 });
  });
});

describe('scoping', () => {
  it("offers the organization's agent variables in the catalog, named by agent, and no one else's", async () => {
    const mine = await inject({ method: 'GET', url: '/api/custom-reports/catalog', headers: owner.headers });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json<ReportCatalog>().chatbotVariables).toEqual([
      expect.objectContaining({ id: exitScore.id, name: 'score', chatbotName: 'Exit interview' }),
      // A choice reads as text.
      expect.objectContaining({ id: goal.id, dataType: 'text', chatbotName: 'Onboarding buddy' }),
      expect.objectContaining({ id: ready.id, dataType: 'boolean' }),
      expect.objectContaining({ id: buddyScore.id, title: 'Score', dataType: 'number' }),
    ]);
    const theirs = await inject({
      method: 'GET',
      url: '/api/custom-reports/catalog',
      headers: stranger.headers,
    });
    expect(theirs.json<ReportCatalog>().chatbotVariables).toEqual([]);
  });

  it("refuses another organization's agent variable exactly as an unknown one (400, nothing written)", async () => {
    const message = 'Some agent variables of the report do not exist in this organization';
    for (const id of [buddyScore.id, randomUUID()]) {
      const previewed = await previewAs(stranger, {
        subject: { kind: 'chatbot_variable', chatbotVariableIds: [id] },
      });
      expect(previewed.statusCode).toBe(400);
      expect(previewed.json()).toMatchObject({ error: message });
    }
    const before = (await db().select().from(customReports)).length;
    const created = await inject({
      method: 'POST',
      url: '/api/custom-reports',
      headers: stranger.headers,
      payload: {
        name: 'Theirs',
        items: [
          {
            kind: 'query',
            query: { subject: { kind: 'chatbot_variable', chatbotVariableIds: [buddyScore.id] } },
          },
        ],
      },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json<{ error: string }>().error).toBe(message);
    expect(await db().select().from(customReports)).toHaveLength(before);
  });
});

describe('a saved report with an agent variable', () => {
  it('is served on its public link with names only: no e-mail address in the body', async () => {
    const created = await inject({
      method: 'POST',
      url: '/api/custom-reports',
      headers: owner.headers,
      payload: {
        name: 'Agents',
        items: [
          {
            kind: 'query',
            query: {
              subject: { kind: 'chatbot_variable', chatbotVariableIds: [buddyScore.id, exitScore.id] },
              measure: { fn: 'min' },
              breakdown: { kind: 'learner' },
            },
          },
          {
            kind: 'query',
            query: {
              subject: { kind: 'chatbot_variable', chatbotVariableIds: [goal.id] },
              breakdown: { kind: 'learner' },
            },
          },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const report = created.json<CustomReport>();
    expect(report.items.map((item) => [item.label, item.courseTitle])).toEqual([
      ['Score', 'Exit interview, Onboarding buddy'],
      ['Goal', 'Onboarding buddy'],
    ]);
    const shared = await inject({
      method: 'PUT',
      url: `/api/custom-reports/${report.id}/public`,
      headers: owner.headers,
      payload: { isPublic: true },
    });
    const token = shared.json<{ publicShareToken: string }>().publicShareToken;
    const visit = await inject({ method: 'GET', url: `/api/public-reports/${token}` });
    expect(visit.statusCode, visit.body).toBe(200);
    expect(visit.body).not.toMatch(/@/);
    const [scores, goals] = visit.json<PublicReportResponse>().data.items;
    expect(scores?.result?.rows.map((row) => row.label)).toContain('Unnamed learner');
    expect(goals?.result?.rows.map((row) => row.detail).sort()).toEqual([
      'Lead a team',
      'mail me at (hidden)',
    ]);
    // Members see the values as captured.
    const data = await inject({
      method: 'GET',
      url: `/api/custom-reports/${report.id}/data`,
      headers: owner.headers,
    });
    expect(data.body).toContain('bob@corp.example');
    expect(data.body).not.toContain('dee@agents.example');
    // The export names the agents in their own column, not as a course.
    const csv = await inject({
      method: 'GET',
      url: `/api/custom-reports/${report.id}/export`,
      headers: owner.headers,
    });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Item,Course,Agent,Measure,Breakdown,Group,Value,Learners,Count,Latest value,Partial period',
    );
    expect(lines[1]).toMatch(/^Score,,"Exit interview, Onboarding buddy",Minimum,Learner,/);
  });
});
