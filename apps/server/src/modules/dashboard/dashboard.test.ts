import { localToday, type DashboardResponse } from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertCourse,
  insertCourseRun,
  insertLearner,
  insertQuestion,
  insertResponse,
} from '../../db/factories/learning';
import { activityEvents, learningEventKeys } from '../../db/schema';
import { foldAllRollups } from '../../jobs/rollup-folder';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { localPeriod, periodBounds } from './dashboard.service';

const DAY = 86_400_000;
let testApp: TestApp;
let owner: SignedUp;
let other: SignedUp;
const now = new Date();
const startOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
/** First instant of the 7-day period: the start of the day six days ago. */
const from7 = new Date(startOfToday - 6 * DAY);
const startOfTomorrow = new Date(startOfToday + DAY);
const day = (offset: number) => new Date(startOfToday + offset * DAY).toISOString().slice(0, 10);

const ids: Record<string, string> = {};

async function getDashboard(user: SignedUp, query = '') {
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/api/dashboard${query}`,
    headers: user.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DashboardResponse>();
}

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app, { name: 'Olive Owner' });
  other = await signUpViaApi(testApp.app);
  const { db } = testApp.database;
  const organizationId = owner.organization.id;

  const alpha = await insertCourse(db, { organizationId, courseTitle: 'Alpha' });
  const beta = await insertCourse(db, { organizationId, courseTitle: 'Beta' });
  const gone = await insertCourse(db, {
    organizationId,
    courseTitle: 'Gone',
    isDeleted: true,
    deletedAt: new Date(),
  });
  Object.assign(ids, { alpha: alpha.id, beta: beta.id, gone: gone.id });

  // Active within 7 days: l1, l2; within 30 days: l1, l2, l3; new in the 7-day period: l1, l4.
  const l1 = await insertLearner(db, {
    organizationId,
    createdAt: new Date(now.getTime() - 2 * DAY),
    lastActivityAt: new Date(now.getTime() - 3_600_000),
  });
  const l2 = await insertLearner(db, {
    organizationId,
    createdAt: new Date(from7.getTime() - 1),
    lastActivityAt: new Date(now.getTime() - 7 * DAY + 60_000),
  });
  await insertLearner(db, {
    organizationId,
    createdAt: new Date(now.getTime() - 100 * DAY),
    lastActivityAt: new Date(now.getTime() - 7 * DAY - 60_000),
  });
  await insertLearner(db, { organizationId, createdAt: now, lastActivityAt: null });
  Object.assign(ids, { l1Email: l1.email });

  const run = (courseId: string, learnerId: string, at: Date) =>
    insertCourseRun(db, { organizationId, courseId, learnerId, createdAt: at, startedAt: at });
  // Alpha: the first instant of the period, 3 days ago, today, and 1 ms before the period.
  await run(alpha.id, l2.id, from7);
  await run(alpha.id, l1.id, new Date(startOfToday - 3 * DAY + 5 * 3_600_000));
  await run(alpha.id, l1.id, new Date(startOfToday + 60_000));
  await run(alpha.id, l2.id, new Date(from7.getTime() - 1));
  // Beta: 2 days ago, and the first instant of tomorrow (outside every period, inside the totals).
  await run(beta.id, l1.id, new Date(startOfToday - 2 * DAY));
  await run(beta.id, l1.id, startOfTomorrow);
  // A deleted course counts nowhere.
  await run(gone.id, l1.id, new Date(startOfToday + 120_000));

  const q1 = await insertQuestion(db, { organizationId, courseId: alpha.id, questionText: 'Q1?' });
  const q2 = await insertQuestion(db, { organizationId, courseId: alpha.id, questionText: 'Q2?' });
  const q3 = await insertQuestion(db, { organizationId, courseId: alpha.id, active: false });
  const q4 = await insertQuestion(db, { organizationId, courseId: gone.id });
  const q5 = await insertQuestion(db, { organizationId, courseId: beta.id });
  Object.assign(ids, { q1: q1.id, q2: q2.id });
  const answer = (
    questionId: string,
    courseId: string,
    correct: boolean | null,
    at = new Date(now.getTime() - DAY),
  ) =>
    insertResponse(db, {
      organizationId,
      questionId,
      courseId,
      learnerId: l1.id,
      correct,
      createdAt: at,
    });
  // Q1: 1 of 5 right in the period (+1 wrong just before it); Q2: 3 of 6 graded (+2 ungraded).
  for (const correct of [true, false, false, false, false]) await answer(q1.id, alpha.id, correct);
  await answer(q1.id, alpha.id, false, new Date(from7.getTime() - 1));
  for (const correct of [true, true, true, false, false, false, null, null])
    await answer(q2.id, alpha.id, correct);
  // Excluded: an inactive question, a deleted course's question, a question under the minimum (4).
  for (let i = 0; i < 5; i += 1) await answer(q3.id, alpha.id, false);
  for (let i = 0; i < 5; i += 1) await answer(q4.id, gone.id, false);
  for (let i = 0; i < 4; i += 1) await answer(q5.id, beta.id, false);

  await db.insert(activityEvents).values(
    Array.from({ length: 10 }, (_, index) => ({
      organizationId,
      actorUserId: owner.user.id,
      kind: 'course.created',
      summary: `Activity ${index}`,
      createdAt: new Date(now.getTime() - (10 - index) * 60_000),
    })),
  );

  // The other organization: a live course with a run today and its own activity.
  const theirs = await insertCourse(db, { organizationId: other.organization.id, courseTitle: 'Theirs' });
  const theirLearner = await insertLearner(db, {
    organizationId: other.organization.id,
    lastActivityAt: now,
  });
  await insertCourseRun(db, {
    organizationId: other.organization.id,
    courseId: theirs.id,
    learnerId: theirLearner.id,
    createdAt: now,
  });
  await db.insert(activityEvents).values({
    organizationId: other.organization.id,
    kind: 'events.ingested',
    summary: 'Their events',
  });
});

afterAll(async () => {
  await testApp.close();
});

describe('GET /api/dashboard', () => {
  it('counts totals of live courses, active learners over 7 and 30 days and the period figures', async () => {
    const dashboard = await getDashboard(owner, '?days=7');
    expect(dashboard.period).toEqual({ days: 7, from: day(-6), to: day(0) });
    expect(dashboard.totals).toEqual({
      learners: 4,
      courses: 2,
      courseRuns: 6,
      responses: 6 + 8 + 5 + 4,
      activeLearners7d: 2,
      activeLearners30d: 3,
    });
    expect(dashboard.inPeriod).toEqual({ newLearners: 2, courseRuns: 4, responses: 5 + 8 + 5 + 4 });
    expect(dashboard.isEmpty).toBe(false);
  });

  it('lists runs per day, zero-filled, from the first instant of the period to today', async () => {
    const { runsOverTime } = await getDashboard(owner, '?days=7');
    expect(runsOverTime).toEqual([
      { date: day(-6), runs: 1 },
      { date: day(-5), runs: 0 },
      { date: day(-4), runs: 0 },
      { date: day(-3), runs: 1 },
      { date: day(-2), runs: 1 },
      { date: day(-1), runs: 0 },
      { date: day(0), runs: 1 },
    ]);

    const thirty = await getDashboard(owner, '?days=30');
    expect(thirty.runsOverTime).toHaveLength(30);
    expect(thirty.runsOverTime[0]?.date).toBe(day(-29));
    expect(thirty.runsOverTime.at(-1)?.date).toBe(day(0));
    expect(thirty.runsOverTime.find((entry) => entry.date === day(-7))?.runs).toBe(1);
    expect(thirty.runsOverTime.reduce((sum, entry) => sum + entry.runs, 0)).toBe(5);
    expect(thirty.inPeriod.courseRuns).toBe(5);

    const ninety = await getDashboard(owner, '?days=90');
    expect(ninety.runsOverTime).toHaveLength(90);
    expect(ninety.period.from).toBe(day(-89));
  });

  it('ranks top courses by runs in the period with their learners', async () => {
    expect((await getDashboard(owner, '?days=7')).topCourses).toEqual([
      { id: ids.alpha, title: 'Alpha', externalCourseId: expect.any(String), runs: 3, learners: 2 },
      { id: ids.beta, title: 'Beta', externalCourseId: expect.any(String), runs: 1, learners: 1 },
    ]);
    expect((await getDashboard(owner, '?days=30')).topCourses[0]).toMatchObject({ runs: 4, learners: 2 });
  });

  it('ranks active questions of live courses by correct rate, from the minimum number of graded answers', async () => {
    const { hardestQuestions, minResponses } = await getDashboard(owner, '?days=7');
    expect(minResponses).toBe(5);
    expect(hardestQuestions).toEqual([
      expect.objectContaining({
        id: ids.q1,
        courseId: ids.alpha,
        courseTitle: 'Alpha',
        questionText: 'Q1?',
        responses: 5,
        correctResponses: 1,
        correctRate: 0.2,
      }),
      expect.objectContaining({ id: ids.q2, responses: 6, correctResponses: 3, correctRate: 0.5 }),
    ]);
    const thirty = await getDashboard(owner, '?days=30');
    expect(thirty.hardestQuestions[0]).toMatchObject({ id: ids.q1, responses: 6, correctResponses: 1 });
  });

  it('shows the 8 latest activity rows with their actor', async () => {
    const { recentActivity } = await getDashboard(owner);
    expect(recentActivity.map((item) => item.summary)).toEqual(
      [9, 8, 7, 6, 5, 4, 3, 2].map((index) => `Activity ${index}`),
    );
    expect(recentActivity[0]).toMatchObject({
      kind: 'course.created',
      label: 'Course created',
      actor: { id: owner.user.id, name: 'Olive Owner', email: owner.user.email },
    });
  });

  it('defaults to 30 days and keeps organizations apart', async () => {
    const mine = await getDashboard(owner);
    expect(mine.period.days).toBe(30);
    const theirs = await getDashboard(other);
    expect(theirs.totals).toEqual({
      learners: 1,
      courses: 1,
      courseRuns: 1,
      responses: 0,
      activeLearners7d: 1,
      activeLearners30d: 1,
    });
    expect(theirs.topCourses.map((course) => course.title)).toEqual(['Theirs']);
    expect(theirs.hardestQuestions).toEqual([]);
    expect(theirs.recentActivity.map((item) => item.summary)).toEqual(['Their events']);
    expect(theirs.recentActivity[0]?.actor).toBeNull();
  });

  it('flags an organization with no live course and no ingested event as empty', async () => {
    const fresh = await signUpViaApi(testApp.app);
    const empty = await getDashboard(fresh, '?days=7');
    expect(empty.isEmpty).toBe(true);
    expect(empty.totals).toEqual({
      learners: 0,
      courses: 0,
      courseRuns: 0,
      responses: 0,
      activeLearners7d: 0,
      activeLearners30d: 0,
    });
    expect(empty.runsOverTime).toEqual(
      [-6, -5, -4, -3, -2, -1, 0].map((offset) => ({ date: day(offset), runs: 0 })),
    );
    expect(empty.topCourses).toEqual([]);

    const { db } = testApp.database;
    const organizationId = fresh.organization.id;
    await insertCourse(db, { organizationId, isDeleted: true, deletedAt: new Date() });
    expect((await getDashboard(fresh)).isEmpty).toBe(true);
    await db.insert(learningEventKeys).values({ organizationId, eventId: 'probe-1', occurredAt: new Date() });
    expect((await getDashboard(fresh)).isEmpty).toBe(false);
  });

  it('says how many stored records the workers have not counted yet', async () => {
    const user = await signUpViaApi(testApp.app);
    expect((await getDashboard(user)).pendingFacts).toBe(0);
    const { db } = testApp.database;
    await db.execute(sql`insert into rollup_queue (organization_id, kind, row_id)
      values (${user.organization.id}, 'run', gen_random_uuid()), (${user.organization.id}, 'value', gen_random_uuid())`);
    expect((await getDashboard(user)).pendingFacts).toBe(2);
    await foldAllRollups(db);
    expect((await getDashboard(user)).pendingFacts).toBe(0);
  });

  it('answers 400 for a period other than 7, 30 or 90 days', async () => {
    for (const days of ['14', 'abc', '0', '']) {
      const response = await testApp.app.inject({
        method: 'GET',
        url: `/api/dashboard?days=${days}`,
        headers: owner.headers,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'Days must be one of: 7, 30, 90',
        code: 'VALIDATION_ERROR',
      });
    }
  });

  it('answers 401 without a session', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/dashboard' });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/dashboard with analytics settings', () => {
  const putSettings = async (payload: Record<string, unknown>) => {
    const response = await testApp.app.inject({
      method: 'PATCH',
      url: '/api/analytics/settings',
      headers: owner.headers,
      payload,
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const figures = ({ basis: _basis, recentActivity: _recent, ...rest }: DashboardResponse) => rest;

  const defaults = { timeZone: 'UTC', excludedDomains: [], excludedEmails: [] };

  afterAll(async () => {
    await putSettings(defaults);
  });

  it('counts from the facts exactly what the rollups count when the settings leave nobody out', async () => {
    for (const days of [7, 30] as const) {
      await putSettings(defaults);
      const fromRollups = await getDashboard(owner, `?days=${days}`);
      // A domain no learner has: the figures come from the facts, and must not change.
      await putSettings({ excludedDomains: ['nobody.invalid'] });
      const fromFacts = await getDashboard(owner, `?days=${days}`);
      expect(figures(fromFacts)).toEqual(figures(fromRollups));
      expect(fromFacts.basis).toMatchObject({
        timeZone: 'UTC',
        completion: 'completed',
        excludedLearners: 0,
        refreshing: false,
      });
    }
  });

  it('leaves a test account out of every figure and says how many', async () => {
    await putSettings({ ...defaults, excludedEmails: [ids.l1Email] });
    const dashboard = await getDashboard(owner, '?days=7');
    expect(dashboard.basis.excludedLearners).toBe(1);
    // l1 made every answer and every run but two (l2's at the period's first instant and just before it).
    expect(dashboard.totals).toMatchObject({ learners: 3, courseRuns: 2, responses: 0, activeLearners7d: 1 });
    expect(dashboard.inPeriod).toEqual({ newLearners: 1, courseRuns: 1, responses: 0 });
    expect(dashboard.hardestQuestions).toEqual([]);
    expect(dashboard.topCourses).toEqual([expect.objectContaining({ id: ids.alpha, runs: 1, learners: 1 })]);
  });

  it('counts days on the organization’s clock', async () => {
    const timeZone = 'America/Los_Angeles'; // UTC-8 or -7: local days start hours after UTC days.
    await putSettings({ ...defaults, timeZone });
    const dashboard = await getDashboard(owner, '?days=7');
    const period = localPeriod(7, new Date(), timeZone);
    expect(dashboard.period).toEqual({ days: 7, from: period.fromDay, to: period.toDay });
    expect(dashboard.basis.timeZone).toBe(timeZone);
    const runsOn = (date: string) => dashboard.runsOverTime.find((point) => point.date === date)?.runs ?? 0;
    // The run one minute into today (UTC) falls on yesterday in Los Angeles.
    const localDate = localToday(timeZone, new Date(startOfToday + 60_000));
    expect(localDate).toBe(day(-1));
    expect(runsOn(localDate)).toBeGreaterThanOrEqual(1);
    expect(dashboard.runsOverTime.reduce((sum, point) => sum + point.runs, 0)).toBe(
      dashboard.inPeriod.courseRuns,
    );
  });
});

describe('localPeriod', () => {
  it('ends on today’s date in the time zone and covers whole local days', () => {
    const at = new Date('2026-03-10T23:30:00.000Z');
    expect(localToday('UTC', at)).toBe('2026-03-10');
    expect(localToday('Europe/Berlin', at)).toBe('2026-03-11');
    expect(localToday('America/Los_Angeles', at)).toBe('2026-03-10');
    expect(localPeriod(7, at, 'Europe/Berlin')).toEqual({
      fromDay: '2026-03-05',
      toDay: '2026-03-11',
      days: 7,
    });
  });
});

describe('periodBounds', () => {
  it('covers whole UTC days ending today', () => {
    const at = new Date('2026-03-10T23:59:59.999Z');
    expect(periodBounds(7, at)).toEqual({
      days: 7,
      from: new Date('2026-03-04T00:00:00.000Z'),
      end: new Date('2026-03-11T00:00:00.000Z'),
    });
    expect(periodBounds(30, new Date('2026-03-10T00:00:00.000Z')).from).toEqual(
      new Date('2026-02-09T00:00:00.000Z'),
    );
  });
});
