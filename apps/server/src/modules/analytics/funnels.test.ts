import type {
  FunnelComputeInput,
  FunnelComputeResult,
  FunnelDefinitionInput,
  FunnelDroppedOffResponse,
  IngestEventsResponse,
  ListFunnelsResponse,
  SavedFunnel,
} from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
let ingestKey: string;
let safety: string;
let ethics: string;
let q1: string;
let q2: string;
let department: string;
let ethicsQuestion: string;

const inject = (options: InjectOptions) => testApp.app.inject(options);
const db = () => testApp.database.db;
let sequence = 0;

type Extra = Record<string, unknown>;
function event(type: string, course: string, email: string, at: string, extra: Extra = {}) {
  return {
    id: `funnel-${process.pid}-${++sequence}`,
    type,
    timestamp: at,
    course: { externalCourseId: course, title: course === 'safety' ? 'Safety' : 'Ethics' },
    learner: { email, name: email.split('@')[0]?.replace(/^\w/, (c) => c.toUpperCase()) },
    ...extra,
  };
}
const started = (course: string, email: string, at: string) => event('course.started', course, email, at);
const completed = (course: string, email: string, at: string) => event('course.completed', course, email, at);
const slide = (course: string, email: string, at: string, number: number) =>
  event('slide.viewed', course, email, at, { slide: { number } });
const answered = (course: string, email: string, at: string, interactionId: string, slideNumber: number) =>
  event('question.answered', course, email, at, {
    question: {
      interactionId,
      slideNumber,
      questionNumber: slideNumber - 1,
      text: `Question ${interactionId}`,
      answer: 'A',
      correct: true,
    },
  });
const setVariable = (course: string, email: string, at: string, name: string, value: string) =>
  event('variable.set', course, email, at, { variable: { name, value } });

async function send(events: unknown[]) {
  const response = await inject({
    method: 'POST',
    url: '/api/v1/events',
    headers: { authorization: `Bearer ${ingestKey}` },
    payload: { events },
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<IngestEventsResponse>();
  expect(body.rejected).toEqual([]);
}

const post = (url: string, payload: unknown, as: SignedUp = owner) =>
  inject({ method: 'POST', url, headers: as.headers, payload: payload as InjectOptions['payload'] });

async function compute(input: FunnelComputeInput): Promise<FunnelComputeResult> {
  const response = await post('/api/analytics/funnels/compute', input);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<FunnelComputeResult>();
}

const MARCH = { from: '2026-03-01', to: '2026-03-31' };
const startedQ1Completed = (): FunnelDefinitionInput => ({
  courseId: safety,
  steps: [{ kind: 'course_started' }, { kind: 'question_answered', questionId: q1 }, { kind: 'completed' }],
});
const fourSteps = (order: 'sequential' | 'strict' | 'any'): FunnelDefinitionInput => ({
  courseId: safety,
  order,
  steps: [
    { kind: 'course_started' },
    { kind: 'question_answered', questionId: q1 },
    { kind: 'question_answered', questionId: q2 },
    { kind: 'completed' },
  ],
});

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  stranger = await signUpViaApi(testApp.app);
  const key = await inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: owner.headers,
    payload: { name: 'LMS', scope: 'ingest' },
  });
  ingestKey = key.json<{ key: string }>().key;

  await send([
    // Ann: everything in order; slide 1 at the very instant she starts.
    started('safety', 'ann@example.com', '2026-03-02T09:00:00Z'),
    slide('safety', 'ann@example.com', '2026-03-02T09:00:00Z', 1),
    answered('safety', 'ann@example.com', '2026-03-02T09:05:00Z', 'q1', 2),
    answered('safety', 'ann@example.com', '2026-03-02T09:10:00Z', 'q2', 3),
    completed('safety', 'ann@example.com', '2026-03-02T09:20:00Z'),
    setVariable('safety', 'ann@example.com', '2026-03-02T09:01:00Z', 'department', 'Sales'),
    // Bob: answers Q1 twice, never Q2, completes, then starts Ethics.
    started('safety', 'bob@example.com', '2026-03-03T10:00:00Z'),
    answered('safety', 'bob@example.com', '2026-03-03T10:02:00Z', 'q1', 2),
    answered('safety', 'bob@example.com', '2026-03-03T10:03:00Z', 'q1', 2),
    completed('safety', 'bob@example.com', '2026-03-03T10:30:00Z'),
    setVariable('safety', 'bob@example.com', '2026-03-03T10:01:00Z', 'department', 'Sales'),
    started('ethics', 'bob@example.com', '2026-03-04T08:00:00Z'),
    answered('ethics', 'bob@example.com', '2026-03-04T08:05:00Z', 'e1', 2),
    // Cid: Q2 before Q1.
    started('safety', 'cid@example.com', '2026-03-04T10:58:00Z'),
    answered('safety', 'cid@example.com', '2026-03-04T11:00:00Z', 'q2', 3),
    answered('safety', 'cid@example.com', '2026-03-04T11:05:00Z', 'q1', 2),
    completed('safety', 'cid@example.com', '2026-03-04T11:10:00Z'),
    setVariable('safety', 'cid@example.com', '2026-03-04T11:01:00Z', 'department', 'Ops'),
    // Dan: completes 20 days later, outside the 14-day window.
    started('safety', 'dan@example.com', '2026-03-05T12:00:00Z'),
    answered('safety', 'dan@example.com', '2026-03-05T12:10:00Z', 'q1', 2),
    completed('safety', 'dan@example.com', '2026-03-25T12:00:00Z'),
    // Fay: a test account.
    started('safety', 'fay@test.example', '2026-03-06T12:00:00Z'),
    answered('safety', 'fay@test.example', '2026-03-06T12:01:00Z', 'q1', 2),
    // Eve: started in February, completes in March: she entered in the previous period.
    started('safety', 'eve@example.com', '2026-02-20T12:00:00Z'),
    answered('safety', 'eve@example.com', '2026-02-20T12:05:00Z', 'q1', 2),
    completed('safety', 'eve@example.com', '2026-03-02T12:00:00Z'),
    // Gus: all of it in February.
    started('safety', 'gus@example.com', '2026-02-10T12:00:00Z'),
    answered('safety', 'gus@example.com', '2026-02-10T12:05:00Z', 'q1', 2),
    completed('safety', 'gus@example.com', '2026-02-10T12:30:00Z'),
    // Hal: 28 February at 23:30 UTC, which is 1 March in Berlin.
    started('safety', 'hal@example.com', '2026-02-28T23:30:00Z'),
  ]);

  const ids = await db().execute<{ kind: string; id: string; key: string }>(sql`
    select 'course' as kind, id, external_course_id as key from courses where organization_id = ${owner.organization.id}
    union all
    select 'question', id, interaction_id from questions where organization_id = ${owner.organization.id}
    union all
    select 'variable', id, name from variables where organization_id = ${owner.organization.id}`);
  const find = (kind: string, key: string) =>
    ids.rows.find((row) => row.kind === kind && row.key === key)?.id ?? '';
  safety = find('course', 'safety');
  ethics = find('course', 'ethics');
  q1 = find('question', 'q1');
  q2 = find('question', 'q2');
  ethicsQuestion = find('question', 'e1');
  department = find('variable', 'department');
  expect([safety, ethics, q1, q2, ethicsQuestion, department].every(Boolean)).toBe(true);
});

afterAll(async () => {
  await testApp.close();
});

describe('POST /api/analytics/funnels/compute', () => {
  it('counts learners step by step in order, with drop-off and time to convert', async () => {
    const result = await compute({ definition: startedQ1Completed(), period: MARCH });
    // Ann, Bob, Cid, Dan and the test account Fay (no exclusions yet); Dan completes outside the window.
    expect(result.steps.map((step) => step.count)).toEqual([5, 5, 3]);
    expect(result).toMatchObject({
      entered: 5,
      converted: 3,
      conversion: 0.6,
      windowDays: 14,
      isDefaultWindow: true,
    });
    expect(result.steps[0]).toMatchObject({
      label: 'Started the course',
      courseTitle: 'Safety',
      conversionFromFirst: 1,
    });
    expect(result.steps[1]?.label).toBe('Answered Q1 · Question q1');
    expect(result.steps[2]).toMatchObject({
      droppedOff: 2,
      conversionFromPrevious: 0.6,
      conversionFromFirst: 0.6,
    });
    // Started → Q1: Ann 300 s, Bob 120 s, Cid 420 s, Dan 600 s, Fay 60 s: median 300.
    expect(result.steps[1]?.medianSeconds).toBe(300);
    const bins = result.steps[1]?.histogram ?? [];
    expect(bins.slice(0, 3).map((bin) => [bin.label, bin.count])).toEqual([
      ['Under 1 min', 0],
      ['1 min–5 min', 2],
      ['5 min–15 min', 3],
    ]);
    // The window is 14 days: no bin starts at 14 days or later.
    expect(bins.at(-1)?.label).toBe('7 d or more');
    expect(result.basis).toMatchObject({ timeZone: 'UTC', completion: 'completed', excludedLearners: 0 });
    expect(result.comparison).toBeNull();
  });

  it('honours a longer window', async () => {
    const result = await compute({ definition: { ...startedQ1Completed(), windowDays: 30 }, period: MARCH });
    expect(result.steps.map((step) => step.count)).toEqual([5, 5, 4]);
    expect(result.isDefaultWindow).toBe(false);
  });

  it('tells sequential, strict and any order apart', async () => {
    const sequential = await compute({ definition: fourSteps('sequential'), period: MARCH });
    // Cid answered Q2 before Q1; Bob and Dan never answered Q2.
    expect(sequential.steps.map((step) => step.count)).toEqual([5, 5, 1, 1]);
    const strict = await compute({ definition: fourSteps('strict'), period: MARCH });
    // Bob's second Q1 is a repeat (skipped) but his next funnel event is "completed", not Q2;
    // Cid's next funnel event after starting is Q2, not Q1.
    expect(strict.steps.map((step) => step.count)).toEqual([5, 4, 1, 1]);
    const any = await compute({ definition: fourSteps('any'), period: MARCH });
    // Any step enters: Eve's completion on 2 March too. Steps done within the window:
    // Ann 4, Cid 4, Bob 3, Dan 2 (completed too late), Fay 2, Eve 1.
    expect(any.steps.map((step) => step.count)).toEqual([6, 5, 3, 2]);
  });

  it('keeps the funnel order for events sent with one timestamp', async () => {
    for (const steps of [
      [{ kind: 'slide_viewed', slideNumber: 1 }, { kind: 'course_started' }],
      [{ kind: 'course_started' }, { kind: 'slide_viewed', slideNumber: 1 }],
    ] as FunnelDefinitionInput['steps'][]) {
      const result = await compute({ definition: { courseId: safety, steps }, period: MARCH });
      expect(result.steps.map((step) => step.count)).toEqual(
        steps[0]?.kind === 'slide_viewed' ? [1, 1] : [5, 1],
      );
    }
  });

  it('follows learners across courses, and matches any course when a step names none', async () => {
    const across = await compute({
      definition: {
        steps: [
          { kind: 'completed', courseId: safety },
          { kind: 'course_started', courseId: ethics },
          { kind: 'question_answered', courseId: ethics, questionId: ethicsQuestion },
        ],
      },
      period: MARCH,
    });
    // Safety completed in March: Ann, Bob, Cid, Dan and Eve; only Bob went on to Ethics.
    expect(across.steps.map((step) => step.count)).toEqual([5, 1, 1]);
    expect(across.steps.map((step) => step.courseTitle)).toEqual(['Safety', 'Ethics', 'Ethics']);

    const anyCourse = await compute({
      definition: { steps: [{ kind: 'course_started' }, { kind: 'completed' }] },
      period: MARCH,
      breakdown: { kind: 'course' },
    });
    // Ann, Bob, Cid, Dan, Fay; Bob's first start in March is Safety's.
    expect(anyCourse.steps.map((step) => step.count)).toEqual([5, 3]);
    expect(anyCourse.steps[0]?.courseTitle).toBeNull();
    expect(anyCourse.breakdown?.groups).toEqual([
      { key: safety, label: 'Safety', isOther: false, counts: [5, 3], conversion: 0.6 },
    ]);
  });

  it('matches a variable set to a value', async () => {
    const result = await compute({
      definition: {
        courseId: safety,
        steps: [{ kind: 'course_started' }, { kind: 'variable_set', variableId: department, value: 'Sales' }],
      },
      period: MARCH,
    });
    expect(result.steps.map((step) => step.count)).toEqual([5, 2]);
    expect(result.steps[1]?.label).toBe('Set department to “Sales”');
  });

  it('breaks down by the latest value of a variable, top N and Other', async () => {
    const result = await compute({
      definition: startedQ1Completed(),
      period: MARCH,
      breakdown: { kind: 'variable', variableName: 'department', top: 1 },
    });
    expect(result.breakdown).toEqual({
      kind: 'variable',
      label: 'department',
      groups: [
        { key: 'Sales', label: 'Sales', isOther: false, counts: [2, 2, 2], conversion: 1 },
        { key: null, label: 'Other', isOther: true, counts: [1, 1, 1], conversion: 1 },
        { key: null, label: '(no value)', isOther: false, counts: [2, 2, 0], conversion: 0 },
      ],
    });
  });

  it('compares with the previous period of equal length', async () => {
    const result = await compute({ definition: startedQ1Completed(), period: MARCH, compare: true });
    expect(result.previousPeriod).toEqual({ from: '2026-01-29', to: '2026-02-28' });
    // February: Gus, Eve and Hal (UTC) entered; Gus and Eve answered Q1 and completed.
    expect(result.comparison).toMatchObject({ previousCount: 2, previousBase: 3, isSignificant: false });
    expect(result.comparison?.change).toBeCloseTo(0.6 - 2 / 3, 10);
    expect(result.steps[0]?.comparison).toBeNull();
    expect(result.steps[1]?.comparison).toMatchObject({ previousCount: 2, previousBase: 3 });
    expect(result.steps[2]?.comparison).toMatchObject({ previousCount: 2, previousBase: 2 });
  });

  it('refuses steps without what they need, and more than 10 steps', async () => {
    const noSlide = await post('/api/analytics/funnels/compute', {
      definition: { courseId: safety, steps: [{ kind: 'course_started' }, { kind: 'slide_viewed' }] },
    });
    expect(noSlide.statusCode).toBe(400);
    expect(noSlide.json<{ error: string }>().error).toMatch(/slide number/);

    const tooMany = await post('/api/analytics/funnels/compute', {
      definition: { courseId: safety, steps: Array.from({ length: 11 }, () => ({ kind: 'course_started' })) },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ error: string }>().error).toMatch(/at most 10 steps/);

    const noCourse = await post('/api/analytics/funnels/compute', {
      definition: { steps: [{ kind: 'course_started' }, { kind: 'question_answered' }] },
    });
    expect(noCourse.statusCode).toBe(400);
    expect(noCourse.json<{ error: string }>().error).toMatch(/course/);

    const wrongCourse = await post('/api/analytics/funnels/compute', {
      definition: {
        courseId: safety,
        steps: [{ kind: 'course_started' }, { kind: 'question_answered', questionId: ethicsQuestion }],
      },
    });
    expect(wrongCourse.statusCode).toBe(400);
    expect(wrongCourse.json<{ error: string }>().error).toMatch(/not a question of the step’s course/);

    const theirs = await post(
      '/api/analytics/funnels/compute',
      { definition: startedQ1Completed() },
      stranger,
    );
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json<{ error: string }>().error).toMatch(/no longer exists/);

    const longPeriod = await post('/api/analytics/funnels/compute', {
      definition: startedQ1Completed(),
      period: { from: '2024-01-01', to: '2026-01-01' },
    });
    expect(longPeriod.statusCode).toBe(400);
    expect(longPeriod.json<{ error: string }>().error).toMatch(/at most 366 days/);
  });
});

describe('dropped-off learners', () => {
  it('lists who reached a step and not the next, by page, and exports them as CSV', async () => {
    const body = { definition: startedQ1Completed(), period: MARCH, stepIndex: 2, pageSize: 1 };
    const first = await post('/api/analytics/funnels/dropped-off', body);
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json<FunnelDroppedOffResponse>();
    expect(page1.total).toBe(2);
    // Latest first: Fay reached Q1 on 6 March, Dan on 5 March.
    expect(page1.items).toEqual([
      {
        learnerId: expect.any(String),
        name: 'Fay',
        email: 'fay@test.example',
        lastStepIndex: 1,
        lastStepLabel: '2. Answered Q1 · Question q1',
        reachedAt: '2026-03-06T12:01:00.000Z',
      },
    ]);
    const page2 = (
      await post('/api/analytics/funnels/dropped-off', { ...body, page: 2 })
    ).json<FunnelDroppedOffResponse>();
    expect(page2.items.map((item) => item.email)).toEqual(['dan@example.com']);
    const beyond = (
      await post('/api/analytics/funnels/dropped-off', { ...body, page: 9 })
    ).json<FunnelDroppedOffResponse>();
    expect(beyond).toMatchObject({ total: 2, items: [] });

    const csv = await post('/api/analytics/funnels/dropped-off/export', {
      definition: startedQ1Completed(),
      period: MARCH,
      stepIndex: 2,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toContain(
      'funnel-dropped-off-step-3-2026-03-01-to-2026-03-31.csv',
    );
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toEqual([
      'Name,E-mail,Last step reached,Reached at',
      'Fay,fay@test.example,2. Answered Q1 · Question q1,2026-03-06T12:01:00.000Z',
      'Dan,dan@example.com,2. Answered Q1 · Question q1,2026-03-05T12:10:00.000Z',
    ]);

    const outOfRange = await post('/api/analytics/funnels/dropped-off', { ...body, stepIndex: 3 });
    expect(outOfRange.statusCode).toBe(400);
    expect(outOfRange.json<{ error: string }>().error).toBe('The funnel has no such step');
  });
});

describe('saved funnels', () => {
  const url = '/api/analytics/funnels';

  async function activity(subjectId: string) {
    const rows = await db().execute<{ kind: string; summary: string }>(sql`
      select kind, summary from activity_events
      where organization_id = ${owner.organization.id} and subject_id = ${subjectId} order by created_at, id`);
    return rows.rows;
  }

  it('suggests a funnel while none is saved', async () => {
    const response = await inject({ method: 'GET', url, headers: owner.headers });
    expect(response.statusCode, response.body).toBe(200);
    const list = response.json<ListFunnelsResponse>();
    expect(list.items).toEqual([]);
    expect(list.suggestion).toEqual({
      name: 'Safety: start to completion',
      config: {
        definition: {
          courseId: safety,
          order: 'sequential',
          windowDays: null,
          steps: [
            { kind: 'course_started' },
            { kind: 'question_answered', questionId: q1 },
            { kind: 'completed' },
          ],
        },
        breakdown: { kind: 'none' },
      },
    });
  });

  it('saves, renames and deletes a funnel, each recorded in the activity', async () => {
    const created = await post(url, {
      name: '  Safety funnel ',
      config: { definition: startedQ1Completed(), breakdown: { kind: 'course' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const funnel = created.json<SavedFunnel>();
    expect(funnel).toMatchObject({ name: 'Safety funnel', description: null, problem: null });
    expect(funnel.config?.breakdown).toEqual({ kind: 'course', top: 5 });

    const list = (await inject({ method: 'GET', url, headers: owner.headers })).json<ListFunnelsResponse>();
    expect(list.items.map((item) => item.name)).toEqual(['Safety funnel']);
    expect(list.suggestion).toBeNull();

    const renamed = await inject({
      method: 'PUT',
      url: `${url}/${funnel.id}`,
      headers: owner.headers,
      payload: { name: 'Safety start to finish' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<SavedFunnel>()).toMatchObject({
      name: 'Safety start to finish',
      config: funnel.config,
    });

    const theirs = await inject({ method: 'GET', url: `${url}/${funnel.id}`, headers: stranger.headers });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json<{ error: string }>().error).toBe('Funnel not found');

    const deleted = await inject({ method: 'DELETE', url: `${url}/${funnel.id}`, headers: owner.headers });
    expect(deleted.statusCode).toBe(204);
    const gone = await inject({ method: 'GET', url: `${url}/${funnel.id}`, headers: owner.headers });
    expect(gone.statusCode).toBe(404);

    expect(await activity(funnel.id)).toEqual([
      { kind: 'analytics.funnel_saved', summary: 'Funnel “Safety funnel” saved' },
      {
        kind: 'analytics.funnel_saved',
        summary: 'Funnel “Safety funnel” renamed to “Safety start to finish”',
      },
      { kind: 'analytics.funnel_deleted', summary: 'Funnel “Safety start to finish” deleted' },
    ]);
  });

  it('validates the configuration on write and on read', async () => {
    const bad = await post(url, {
      name: 'Broken',
      config: { definition: { courseId: safety, steps: [{ kind: 'course_started' }] } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/at least 2 steps/);

    const saved = (
      await post(url, { name: 'Will break', config: { definition: startedQ1Completed() } })
    ).json<SavedFunnel>();
    await db().execute(sql`
      update analytics_funnels set config = '{"definition":{"steps":"nonsense"}}'::jsonb where id = ${saved.id}::uuid`);
    const read = (
      await inject({ method: 'GET', url: `${url}/${saved.id}`, headers: owner.headers })
    ).json<SavedFunnel>();
    expect(read.config).toBeNull();
    expect(read.problem).toMatch(/cannot read/);
    // A rename still works; a new configuration repairs it.
    const repaired = await inject({
      method: 'PUT',
      url: `${url}/${saved.id}`,
      headers: owner.headers,
      payload: { name: 'Repaired', config: { definition: startedQ1Completed() } },
    });
    expect(repaired.json<SavedFunnel>()).toMatchObject({ name: 'Repaired', problem: null });
  });
});

describe('analytics settings', () => {
  it('leaves test accounts out and counts days in the organization’s time zone', async () => {
    const settings = await inject({
      method: 'PATCH',
      url: '/api/analytics/settings',
      headers: owner.headers,
      payload: { excludedDomains: ['test.example'], timeZone: 'Europe/Berlin' },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const result = await compute({ definition: startedQ1Completed(), period: MARCH });
    // Fay is left out; Hal (23:30 UTC on 28 February) started on 1 March in Berlin.
    expect(result.steps.map((step) => step.count)).toEqual([5, 4, 3]);
    expect(result.basis).toMatchObject({ timeZone: 'Europe/Berlin', excludedLearners: 1 });
  });

  it('counts "completed" by the completion rule', async () => {
    await inject({
      method: 'PATCH',
      url: '/api/analytics/settings',
      headers: owner.headers,
      payload: { completion: 'last_slide' },
    });
    const result = await compute({
      definition: { courseId: safety, steps: [{ kind: 'course_started' }, { kind: 'completed' }] },
      period: MARCH,
    });
    // The last slide viewed in the course is slide 1 (only Ann viewed a slide).
    expect(result.steps.map((step) => step.count)).toEqual([5, 1]);
    expect(result.basis.completion).toBe('last_slide');
  });
});
