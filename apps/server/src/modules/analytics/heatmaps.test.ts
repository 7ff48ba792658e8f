import {
  HEATMAP_LEARNER_SORTS,
  type HeatmapActivityResponse,
  type HeatmapLearnersResponse,
  type HeatmapQuestionsResponse,
  type IngestionEventInput,
} from '@courselens/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { undated } from '../../test/undated';
import { loadAnalyticsScope } from './analytics-settings.service';
import { selectLearnerPage } from './heatmaps.queries';

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
let ingestKey: string;
let courseId: string;
let quietCourseId: string;
let sequence = 0;

const inject = (options: InjectOptions) => testApp.app.inject(options);
const get = (url: string, as: SignedUp = owner) => inject({ method: 'GET', url, headers: as.headers });

async function send(events: IngestionEventInput[]) {
  const response = await inject({
    method: 'POST',
    url: '/api/v1/events',
    headers: { authorization: `Bearer ${ingestKey}` },
    payload: { events },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json<{ rejected: unknown[] }>().rejected).toEqual([]);
}

const COURSE = 'heat-course';
const learner = (handle: string) => ({
  email: `${handle}@example.com`,
  name: handle.charAt(0).toUpperCase() + handle.slice(1),
});

function answer(
  handle: string,
  interactionId: string,
  correct: boolean | null,
  timestamp: string,
  extra: { slideNumber?: number; questionNumber?: number; answer?: string; email?: string } = {},
): IngestionEventInput {
  return {
    id: `evt-${++sequence}`,
    type: 'question.answered',
    timestamp,
    course: { externalCourseId: COURSE, title: 'Heat course' },
    learner: extra.email ? { email: extra.email, name: handle } : learner(handle),
    question: {
      interactionId,
      slideNumber: extra.slideNumber,
      questionNumber: extra.questionNumber,
      text: `Question ${interactionId}`,
      answer: extra.answer ?? (correct ? 'right' : 'wrong'),
      correct,
    },
  };
}

async function courseIdOf(externalCourseId: string): Promise<string> {
  const response = await get(`/api/courses?q=${encodeURIComponent(externalCourseId)}`);
  const found = response
    .json<{ items: { id: string; externalCourseId: string | null }[] }>()
    .items.find((course) => course.externalCourseId === externalCourseId);
  if (!found) throw new Error(`course ${externalCourseId} not found`);
  return found.id;
}

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

  const q1 = { slideNumber: 2, questionNumber: 1 };
  const q2 = { slideNumber: 2, questionNumber: 2 };
  const q3 = { slideNumber: 5, questionNumber: 1 };
  const events: IngestionEventInput[] = [
    // q1: Ann wrong then right (her last answer counts), Bob, Cid, Dee right, Eve wrong: 4 of 5.
    answer('ann', 'q1', false, '2026-03-02T09:00:00Z', q1),
    answer('ann', 'q1', true, '2026-03-02T09:05:00Z', q1),
    answer('bob', 'q1', true, '2026-03-02T10:00:00Z', q1),
    answer('cid', 'q1', true, '2026-03-03T10:00:00Z', q1),
    answer('dee', 'q1', true, '2026-03-03T11:00:00Z', q1),
    answer('eve', 'q1', false, '2026-03-04T11:00:00Z', q1),
    // q2: two learners, one ungraded answer.
    answer('ann', 'q2', false, '2026-03-02T09:06:00Z', q2),
    answer('bob', 'q2', null, '2026-03-02T10:01:00Z', { ...q2, answer: 'essay' }),
    // q3 on slide 5: Bob wrong; a test account right (left out by the settings).
    answer('bob', 'q3', false, '2026-03-02T10:02:00Z', q3),
    answer('tester', 'q3', true, '2026-03-02T10:03:00Z', { ...q3, email: 'qa@test.example' }),
    // Outside the period asked below.
    answer('fay', 'q1', false, '2026-04-20T10:00:00Z', q1),
  ];
  await send(events);
  // A second course with only a start: no questions, some activity.
  await send([
    {
      id: `evt-${++sequence}`,
      type: 'course.started',
      timestamp: '2026-03-07T23:30:00Z',
      course: { externalCourseId: 'quiet-course' },
      learner: learner('gus'),
    },
  ]);
  courseId = await courseIdOf(COURSE);
  quietCourseId = await courseIdOf('quiet-course');
  const settings = await inject({
    method: 'PATCH',
    url: '/api/analytics/settings',
    headers: owner.headers,
    payload: { excludedDomains: ['test.example'], timeZone: 'America/New_York' },
  });
  expect(settings.statusCode, settings.body).toBe(200);
});

afterAll(async () => {
  await testApp.close();
});

const PERIOD = 'from=2026-03-01&to=2026-03-31';

describe('GET /api/analytics/heatmaps/questions', () => {
  it('lays the questions out by slide with each learner’s last answer, the Wilson interval and the too-few mark', async () => {
    const response = await get(`/api/analytics/heatmaps/questions?courseId=${courseId}&${PERIOD}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<HeatmapQuestionsResponse>();
    expect(body.course).toEqual({ id: courseId, title: 'Heat course' });
    expect(body.basis).toMatchObject({ timeZone: 'America/New_York', excludedLearners: 1 });
    expect(body.slides).toEqual([2, 5]);
    expect(body.positions).toBe(2);
    const byId = Object.fromEntries(body.cells.map((cell) => [cell.interactionId, cell]));
    expect(byId.q1).toMatchObject({
      slideNumber: 2,
      position: 1,
      learners: 5,
      correct: 4,
      responses: 6,
      correctRate: 0.8,
    });
    // 4 of 5: 0.3755..0.9638 (SciPy, Wilson), 0.59 wide: too few to trust.
    expect(byId.q1?.low).toBeCloseTo(0.375535, 5);
    expect(byId.q1?.high).toBeCloseTo(0.963776, 5);
    expect(byId.q1?.isTooFew).toBe(true);
    // The ungraded answer is a response but no graded learner.
    expect(byId.q2).toMatchObject({ position: 2, learners: 1, correct: 0, responses: 2, correctRate: 0 });
    // The test account is left out.
    expect(byId.q3).toMatchObject({ slideNumber: 5, position: 1, learners: 1, correct: 0, responses: 1 });
    expect(body.thresholds).toEqual({ minResponses: 5, maxIntervalWidth: 0.3, confidence: 0.95 });
  });

  it('reads only the period asked', async () => {
    const body = (
      await get(`/api/analytics/heatmaps/questions?courseId=${courseId}&from=2026-04-01`)
    ).json<HeatmapQuestionsResponse>();
    const q1 = body.cells.find((cell) => cell.interactionId === 'q1');
    expect(q1).toMatchObject({ learners: 1, correct: 0, correctRate: 0, isTooFew: true });
    // Questions without answers in the period stay in the grid, blank.
    expect(body.cells.find((cell) => cell.interactionId === 'q3')).toMatchObject({
      learners: 0,
      correctRate: null,
      low: null,
      isTooFew: true,
    });
  });

  it('answers 404 for a course of another organization or an unknown one, 400 for a bad id or period', async () => {
    expect((await get(`/api/analytics/heatmaps/questions?courseId=${courseId}`, stranger)).statusCode).toBe(
      404,
    );
    const unknown = await get(
      '/api/analytics/heatmaps/questions?courseId=00000000-0000-4000-8000-000000000000',
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ error: string }>().error).toBe('Course not found');
    expect((await get('/api/analytics/heatmaps/questions?courseId=nope')).statusCode).toBe(400);
    expect((await get('/api/analytics/heatmaps/questions')).statusCode).toBe(400);
    const reversed = await get(
      `/api/analytics/heatmaps/questions?courseId=${courseId}&from=2026-03-05&to=2026-03-01`,
    );
    expect(reversed.statusCode).toBe(400);
  });
});

describe('GET /api/analytics/heatmaps/learners', () => {
  it('lists each learner’s last answer per question, most wrong first by default', async () => {
    const response = await get(`/api/analytics/heatmaps/learners?courseId=${courseId}&${PERIOD}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<HeatmapLearnersResponse>();
    expect(body).toMatchObject({ total: 5, page: 1, pageSize: 50, sort: 'wrong', order: 'desc' });
    expect(body.questions.map((question) => question.interactionId)).toEqual(['q1', 'q2', 'q3']);
    expect(body.items.map((row) => [row.name, row.answered, row.correct, row.wrong])).toEqual([
      // Equal wrong answers: more answered first.
      ['Bob', 3, 1, 1],
      ['Ann', 2, 1, 1],
      ['Eve', 1, 0, 1],
      ['Cid', 1, 1, 0],
      ['Dee', 1, 1, 0],
    ]);
    const ann = body.items[1];
    const annQ1 = ann?.answers.find((cell) => cell.questionId === body.questions[0]?.questionId);
    expect(annQ1).toMatchObject({ correct: true, answer: 'right', answeredAt: '2026-03-02T09:05:00.000Z' });
    const bob = body.items[0];
    expect(bob?.answers.find((cell) => cell.answer === 'essay')?.correct).toBeNull();
    expect(bob?.score).toBe(0.5);
  });

  it('sorts by name and by score, and pages', async () => {
    const byName = (
      await get(`/api/analytics/heatmaps/learners?courseId=${courseId}&${PERIOD}&sort=name&order=desc`)
    ).json<HeatmapLearnersResponse>();
    expect(byName.items.map((row) => row.name)).toEqual(['Eve', 'Dee', 'Cid', 'Bob', 'Ann']);
    const byScore = (
      await get(`/api/analytics/heatmaps/learners?courseId=${courseId}&${PERIOD}&sort=score`)
    ).json<HeatmapLearnersResponse>();
    expect(byScore.order).toBe('asc');
    expect(byScore.items.map((row) => [row.name, row.score])).toEqual([
      ['Eve', 0],
      ['Ann', 0.5],
      ['Bob', 0.5],
      ['Cid', 1],
      ['Dee', 1],
    ]);
    const past = (
      await get(`/api/analytics/heatmaps/learners?courseId=${courseId}&${PERIOD}&page=3`)
    ).json<HeatmapLearnersResponse>();
    expect(past).toMatchObject({ items: [], total: 5, page: 3 });
  });

  it('cuts pages of any size at the same place as the whole list, ties at the edge included', async () => {
    // Pages of two put the edge inside ties (Ann and Bob both score 0.5 with one wrong; Cid and Dee both
    // score 1): the learners kept before naming must include the tied ones, or a page skips or repeats one.
    const scope = await loadAnalyticsScope(testApp.database.db, owner.organization.id);
    const period = { from: '2026-03-01', to: '2026-03-31' };
    for (const sort of HEATMAP_LEARNER_SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const page = async (limit: number, offset: number) =>
          (
            await selectLearnerPage(testApp.database.db, scope, {
              courseId,
              period,
              sort,
              order,
              limit,
              offset,
            })
          ).map((row) => [row.name, Number(row.total)]);
        const whole = await page(50, 0);
        expect(whole).toHaveLength(5);
        const paged = [...(await page(2, 0)), ...(await page(2, 2)), ...(await page(2, 4))];
        expect(paged, `${sort} ${order}`).toEqual(whole);
        expect(await page(1, 1), `${sort} ${order}`).toEqual([whole[1]]);
      }
    }
  });

  it('refuses an unknown sort with a message', async () => {
    const response = await get(`/api/analytics/heatmaps/learners?courseId=${courseId}&sort=age`);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Sort by one of: name, wrong, score');
  });
});

describe('GET /api/analytics/heatmaps/activity', () => {
  it('counts events and learners by weekday and hour in the organization’s time zone', async () => {
    const response = await get(`/api/analytics/heatmaps/activity?courseId=${courseId}&${PERIOD}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<HeatmapActivityResponse>();
    expect(body.course?.id).toBe(courseId);
    // 2026-03-02 09:00Z is Monday 04:00 in New York (EST, UTC−5).
    const slot = (weekday: number, hour: number) =>
      body.cells.find((cell) => cell.weekday === weekday && cell.hour === hour);
    expect(slot(1, 4)).toEqual({ weekday: 1, hour: 4, events: 3, learners: 1 });
    expect(slot(1, 5)).toEqual({ weekday: 1, hour: 5, events: 3, learners: 1 });
    // The test account's answer is left out: 9 answers in March of 5 learners.
    expect(body.totals).toEqual({ events: 9, learners: 5 });
  });

  it('reads the whole organization when no course is chosen', async () => {
    const body = (await get(`/api/analytics/heatmaps/activity?${PERIOD}`)).json<HeatmapActivityResponse>();
    expect(body.course).toBeNull();
    expect(body.totals).toEqual({ events: 10, learners: 6 });
    // 2026-03-07 23:30Z is Saturday 18:30 in New York.
    expect(body.cells).toContainEqual({ weekday: 6, hour: 18, events: 1, learners: 1 });
    const quiet = (
      await get(`/api/analytics/heatmaps/activity?courseId=${quietCourseId}&${PERIOD}`)
    ).json<HeatmapActivityResponse>();
    expect(quiet.totals).toEqual({ events: 1, learners: 1 });
  });
});

describe('GET /api/analytics/heatmaps/activity in a zone half an hour off UTC', () => {
  it('splits each UTC hour at the local hour and day it straddles', async () => {
    const kolkata = await signUpViaApi(testApp.app);
    const key = await inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: kolkata.headers,
      payload: { name: 'LMS', scope: 'ingest' },
    });
    const settings = await inject({
      method: 'PATCH',
      url: '/api/analytics/settings',
      headers: kolkata.headers,
      payload: { timeZone: 'Asia/Kolkata' },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const started = (handle: string, timestamp: string): IngestionEventInput => ({
      id: `evt-${++sequence}`,
      type: 'course.started',
      timestamp,
      course: { externalCourseId: 'kolkata-course' },
      learner: learner(handle),
    });
    const sent = await inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${key.json<{ key: string }>().key}` },
      payload: {
        events: [
          // UTC 03:00–04:00 on Monday 2 March is 08:30–09:30 in Kolkata (UTC+05:30).
          started('ann', '2026-03-02T03:20:00Z'),
          started('ann', '2026-03-02T03:40:00Z'),
          started('bob', '2026-03-02T03:50:00Z'),
          // 18:29 UTC is 23:59 on Monday; 18:31 UTC is already Tuesday, outside the day asked for.
          started('bob', '2026-03-02T18:29:00Z'),
          started('cid', '2026-03-02T18:31:00Z'),
        ],
      },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const response = await get('/api/analytics/heatmaps/activity?from=2026-03-02&to=2026-03-02', kolkata);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<HeatmapActivityResponse>();
    expect(body.cells).toEqual([
      { weekday: 1, hour: 8, events: 1, learners: 1 },
      { weekday: 1, hour: 9, events: 2, learners: 2 },
      { weekday: 1, hour: 23, events: 1, learners: 1 },
    ]);
    expect(body.totals).toEqual({ events: 4, learners: 2 });
  });
});

describe('heatmaps over all time', () => {
  it('give what a period holding every answer gives, from each learner’s last answer kept per question', async () => {
    const q2 = { slideNumber: 2, questionNumber: 2 };
    await send([
      // Cid's right answer, then an older wrong one arriving late: the right one stays his last.
      answer('cid', 'q2', true, '2026-03-05T10:00:00Z', q2),
      answer('cid', 'q2', false, '2026-03-04T10:00:00Z', q2),
      // Two of Dee's answers at one instant: the last is the one with the greater id, as in the period's read.
      answer('dee', 'q2', false, '2026-03-05T12:00:00Z', q2),
      answer('dee', 'q2', true, '2026-03-05T12:00:00Z', q2),
    ]);
    const everyAnswer = 'from=2026-03-01&to=2026-04-30';
    const questions = async (query: string) => {
      const response = await get(`/api/analytics/heatmaps/questions?courseId=${courseId}${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<HeatmapQuestionsResponse>();
    };
    const allTime = await questions('');
    // Fay's April answer counts over all time; the test account stays out.
    expect(allTime.cells.find((cell) => cell.interactionId === 'q1')).toMatchObject({
      learners: 6,
      correct: 4,
      responses: 7,
    });
    expect(allTime.cells.find((cell) => cell.interactionId === 'q2')).toMatchObject({
      learners: 3,
      responses: 6,
    });
    expect(allTime.cells.find((cell) => cell.interactionId === 'q3')).toMatchObject({
      learners: 1,
      correct: 0,
    });
    expect(undated(allTime)).toEqual(undated(await questions(`&${everyAnswer}`)));

    const learners = async (query: string) => {
      const response = await get(`/api/analytics/heatmaps/learners?courseId=${courseId}${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<HeatmapLearnersResponse>();
    };
    const byWrong = await learners('');
    expect(byWrong.total).toBe(6);
    const cid = byWrong.items.find((row) => row.name === 'Cid');
    expect(cid).toMatchObject({ answered: 2, correct: 2, wrong: 0 });
    for (const sort of HEATMAP_LEARNER_SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const query = `&sort=${sort}&order=${order}`;
        expect(undated(await learners(query)), `${sort} ${order}`).toEqual(
          undated(await learners(`${query}&${everyAnswer}`)),
        );
      }
    }
  });
});
