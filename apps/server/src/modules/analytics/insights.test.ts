import {
  INSIGHT_MESSAGES,
  INSIGHT_REFRESHES_PER_HOUR,
  addDays,
  type AnalyticsInsight,
  type AnalyticsInsightsResponse,
  type AnalyticsOverviewResponse,
  type IngestionEventInput,
  localToday,
} from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableLearnerParts, learnerPartsOf } from '../../db/learner-parts';
import { analyticsInsights, courses, rateLimitBuckets } from '../../db/schema';
import type { JobRunner } from '../../jobs/job-runner';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { createActionMailer } from '../actions/runtime';
import { computeInsightsJob, runInsightDigest } from './insights.job';
import { computeInsights, isMaterialChange } from './insights.service';

const DAY = 86_400_000;

let testApp: TestApp;
let overviewOwner: SignedUp;
let insightsOwner: SignedUp;
let stranger: SignedUp;
let sequence = 0;
const uid = (prefix: string) => `${prefix}-${process.pid}-${++sequence}`;

const inject = (options: InjectOptions) => testApp.app.inject(options);
const get = <T>(url: string, who: SignedUp) =>
  inject({ method: 'GET', url, headers: who.headers }).then((response) => {
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  });

async function ingestKey(who: SignedUp): Promise<string> {
  const response = await inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: who.headers,
    payload: { name: 'LMS', scope: 'ingest' },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ key: string }>().key;
}

async function send(key: string, events: IngestionEventInput[]): Promise<void> {
  for (let offset = 0; offset < events.length; offset += 1000) {
    const response = await inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${key}` },
      payload: { events: events.slice(offset, offset + 1000) },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ rejected: unknown[] }>().rejected).toEqual([]);
  }
}

type Answer = { question: string; answer: string; correct: boolean };
type RunPlan = {
  course: string;
  email: string;
  at: Date | string;
  slides?: number;
  answers?: Answer[];
  completed?: boolean;
  result?: { passed: boolean; score: number };
};

/** The events of one course run, a minute apart from `at`. */
function runEvents(plan: RunPlan): IngestionEventInput[] {
  const run = uid('run');
  const start = new Date(plan.at).getTime();
  let minute = 0;
  const base = () => ({
    id: uid('evt'),
    timestamp: new Date(start + minute++ * 60_000).toISOString(),
    course: { externalCourseId: plan.course, title: plan.course },
    learner: { email: plan.email },
    run,
  });
  const events: IngestionEventInput[] = [{ ...base(), type: 'course.started' }];
  for (let slide = 1; slide <= (plan.slides ?? 0); slide += 1) {
    events.push({ ...base(), type: 'slide.viewed', slide: { number: slide, title: `Slide ${slide}` } });
  }
  for (const [index, answer] of (plan.answers ?? []).entries()) {
    events.push({
      ...base(),
      type: 'question.answered',
      question: {
        interactionId: answer.question,
        slideNumber: 1,
        questionNumber: index + 1,
        text: `Question ${answer.question}`,
        answer: answer.answer,
        correct: answer.correct,
        points: answer.correct ? 1 : 0,
      },
    });
  }
  if (plan.result) {
    events.push({
      ...base(),
      type: plan.result.passed ? 'course.passed' : 'course.failed',
      result: { score: plan.result.score },
    });
  }
  if (plan.completed) events.push({ ...base(), type: 'course.completed' });
  return events;
}

async function courseIdOf(organizationId: string, externalId: string): Promise<string> {
  const result = await testApp.database.db.execute<{ id: string }>(
    sql`select id from ${courses} where organization_id = ${organizationId} and external_course_id = ${externalId}`,
  );
  const id = result.rows[0]?.id;
  if (!id) throw new Error(`no course ${externalId}`);
  return id;
}

// The overview's organization counts in India Standard Time (UTC+05:30, no
// daylight saving), so a local day starts at 18:30 UTC the day before.
const TIME_ZONE = 'Asia/Kolkata';
let periodFrom: string;
let periodTo: string;

beforeAll(async () => {
  testApp = await createTestApp();
  overviewOwner = await signUpViaApi(testApp.app);
  insightsOwner = await signUpViaApi(testApp.app);
  stranger = await signUpViaApi(testApp.app);

  // ---- the overview's data: a week 20 days ago and the week before it ----
  const settings = await inject({
    method: 'PATCH',
    url: '/api/analytics/settings',
    headers: overviewOwner.headers,
    payload: { timeZone: TIME_ZONE, excludedDomains: ['qa.example.com'], defaultPassMark: 70 },
  });
  expect(settings.statusCode, settings.body).toBe(200);
  const today = localToday(TIME_ZONE);
  periodFrom = addDays(today, -20);
  periodTo = addDays(periodFrom, 6);
  const local = (day: string, time: string) => `${day}T${time}+05:30`;
  const overviewKey = await ingestKey(overviewOwner);
  await send(overviewKey, [
    // The current week: Ann passes and completes, Bob fails, a tester is left out,
    // and Cid starts half an hour into the first local day (still the day before in UTC).
    ...runEvents({
      course: 'safety',
      email: 'ann@example.com',
      at: local(addDays(periodFrom, 1), '10:00:00'),
      answers: [
        { question: 'q1', answer: 'A', correct: true },
        { question: 'q2', answer: 'C', correct: false },
      ],
      result: { passed: true, score: 80 },
      completed: true,
    }),
    ...runEvents({
      course: 'safety',
      email: 'bob@example.com',
      at: local(addDays(periodFrom, 2), '10:00:00'),
      answers: [{ question: 'q1', answer: 'B', correct: false }],
      result: { passed: false, score: 40 },
    }),
    ...runEvents({
      course: 'safety',
      email: 'tester@qa.example.com',
      at: local(addDays(periodFrom, 2), '11:00:00'),
      answers: [{ question: 'q1', answer: 'A', correct: true }],
      result: { passed: true, score: 100 },
      completed: true,
    }),
    ...runEvents({ course: 'safety', email: 'cid@example.com', at: local(periodFrom, '00:30:00') }),
    // The week before: Ann once, completed with 90.
    ...runEvents({
      course: 'safety',
      email: 'ann@example.com',
      at: local(addDays(periodFrom, -3), '09:00:00'),
      result: { passed: true, score: 90 },
      completed: true,
    }),
  ]);

  // ---- the insights' data ----
  await inject({
    method: 'PATCH',
    url: '/api/analytics/settings',
    headers: insightsOwner.headers,
    payload: { inactiveDays: 30 },
  });
  const key = await ingestKey(insightsOwner);
  const now = Date.now();
  const events: IngestionEventInput[] = [];
  // Onboarding: 36 of 40 runs completed 45 days ago, 20 of 40 in the last month;
  // the unfinished runs mostly stop at slide 3 of 5.
  for (let i = 0; i < 40; i += 1) {
    const completed = i < 36;
    events.push(
      ...runEvents({
        course: 'onboarding',
        email: `past-${i}@example.com`,
        at: new Date(now - 45 * DAY + i * 60_000),
        slides: completed ? 5 : 2,
        completed,
      }),
    );
  }
  for (let i = 0; i < 40; i += 1) {
    const completed = i < 20;
    events.push(
      ...runEvents({
        course: 'onboarding',
        email: `recent-${i}@example.com`,
        at: new Date(now - 15 * DAY + i * 60_000),
        slides: completed ? 5 : i < 35 ? 3 : 2,
        completed,
      }),
    );
  }
  // Quiz: the stronger learners pick B on q4, which the course marks wrong: the key may be wrong.
  for (let i = 0; i < 12; i += 1) {
    const strong = i < 6;
    events.push(
      ...runEvents({
        course: 'quiz',
        email: `quiz-${i}@example.com`,
        at: new Date(now - 20 * DAY + i * 60_000),
        answers: [
          { question: 'q1', answer: 'A', correct: strong || i < 9 },
          { question: 'q2', answer: 'A', correct: strong },
          { question: 'q3', answer: 'A', correct: strong },
          { question: 'q4', answer: strong ? 'B' : 'A', correct: !strong },
        ],
        completed: true,
      }),
    );
  }
  // Hard: q4 is answered right by one learner of 12, the others by nearly everyone.
  for (let i = 0; i < 12; i += 1) {
    events.push(
      ...runEvents({
        course: 'hard',
        email: `hard-${i}@example.com`,
        at: new Date(now - 20 * DAY + i * 60_000),
        answers: [
          { question: 'h1', answer: 'A', correct: i !== 5 },
          { question: 'h2', answer: 'A', correct: i !== 7 },
          { question: 'h3', answer: 'A', correct: i < 10 },
          { question: 'h4', answer: i === 0 ? 'A' : 'C', correct: i === 0 },
        ],
        completed: true,
      }),
    );
  }
  await send(key, events);
}, 120_000);

afterAll(async () => {
  await testApp.close();
});

describe('GET /api/analytics/overview', () => {
  const setZone = (timeZone: string) =>
    inject({
      method: 'PATCH',
      url: '/api/analytics/settings',
      headers: overviewOwner.headers,
      payload: { timeZone },
    });

  it('counts the period and the one before it in local days, without test accounts', async () => {
    const body = await get<AnalyticsOverviewResponse>(
      `/api/analytics/overview?from=${periodFrom}&to=${periodTo}`,
      overviewOwner,
    );
    expect(body.period).toEqual({ from: periodFrom, to: periodTo, days: 7 });
    expect(body.previousPeriod).toEqual({
      from: addDays(periodFrom, -7),
      to: addDays(periodFrom, -1),
      days: 7,
    });
    expect(body.basis).toMatchObject({
      timeZone: TIME_ZONE,
      completion: 'completed',
      excludedLearners: 1,
      refreshing: false,
    });
    const { figures } = body;
    expect(figures.activeLearners).toMatchObject({
      value: 3,
      previous: 1,
      change: { absolute: 2, percent: 200 },
    });
    expect(figures.runsStarted).toMatchObject({ value: 3, previous: 1, change: { direction: 'up' } });
    expect(figures.completionRate.value).toBeCloseTo(1 / 3, 10);
    expect(figures.completionRate).toMatchObject({ previous: 1, sample: 3, previousSample: 1 });
    expect(figures.completionRate.change.direction).toBe('down');
    expect(figures.completionRate.change.percent).toBeCloseTo(-66.7, 5);
    expect(figures.passRate).toMatchObject({ value: 0.5, previous: 1, sample: 2 });
    expect(figures.averageScore).toMatchObject({ value: 60, previous: 90, change: { absolute: -30 } });
    // No answers the week before: no rate to compare, and no percentage of nothing.
    expect(figures.answers).toMatchObject({ value: 3, previous: 0, change: { absolute: 3, percent: null } });
    expect(figures.correctRate.value).toBeCloseTo(1 / 3, 10);
    expect(figures.correctRate).toMatchObject({
      previous: null,
      change: { absolute: null, percent: null, direction: 'flat' },
    });

    expect(body.trend.map((day) => day.day)).toEqual(
      Array.from({ length: 7 }, (_, index) => addDays(periodFrom, index)),
    );
    // Cid's run started at 00:30 in Kolkata, 19:00 UTC the day before: the period's first local day.
    expect(body.trend[0]).toMatchObject({ runsStarted: 1, activeLearners: 1, completedRuns: 0 });
    expect(body.trend[1]).toMatchObject({
      runsStarted: 1,
      completedRuns: 1,
      passedRuns: 1,
      averageScore: 80,
      answers: 2,
      gradedAnswers: 2,
      correctAnswers: 1,
    });
    expect(body.trend[2]).toMatchObject({ runsStarted: 1, passedRuns: 0, gradedRuns: 1, answers: 1 });
  });

  it('gives the same figures in a zone a whole number of hours off UTC, read from the hourly answers', async () => {
    // Dhaka is UTC+06:00: every event above falls on the same local day as in Kolkata, so the figures
    // must not move, while the answers now come from their hourly rollup instead of the answers.
    const url = `/api/analytics/overview?from=${periodFrom}&to=${periodTo}`;
    const inKolkata = await get<AnalyticsOverviewResponse>(url, overviewOwner);
    expect((await setZone('Asia/Dhaka')).statusCode).toBe(200);
    try {
      const inDhaka = await get<AnalyticsOverviewResponse>(url, overviewOwner);
      expect(inDhaka.basis.timeZone).toBe('Asia/Dhaka');
      expect(inDhaka.figures).toEqual(inKolkata.figures);
      expect(inDhaka.trend).toEqual(inKolkata.trend);
      expect(inDhaka.figures.answers.value).toBe(3);
    } finally {
      expect((await setZone(TIME_ZONE)).statusCode).toBe(200);
    }
  });

  it('adds up to the same figures when computed in shares of the learners, in either kind of zone', async () => {
    const url = `/api/analytics/overview?from=${periodFrom}&to=${periodTo}`;
    const { db } = testApp.database;
    const before = learnerPartsOf(db);
    try {
      for (const timeZone of [TIME_ZONE, 'Asia/Dhaka']) {
        expect((await setZone(timeZone)).statusCode).toBe(200);
        enableLearnerParts(db, 1);
        const whole = await get<AnalyticsOverviewResponse>(url, overviewOwner);
        expect(whole.figures.activeLearners.value).toBe(3);
        // Three shares of four learners: one share at least has nobody, and none is counted twice.
        enableLearnerParts(db, 3);
        const inShares = await get<AnalyticsOverviewResponse>(url, overviewOwner);
        expect(inShares.figures).toEqual(whole.figures);
        expect(inShares.trend).toEqual(whole.trend);
      }
    } finally {
      enableLearnerParts(db, before);
      expect((await setZone(TIME_ZONE)).statusCode).toBe(200);
    }
  });

  it('defaults to the last 30 local days', async () => {
    const body = await get<AnalyticsOverviewResponse>('/api/analytics/overview', overviewOwner);
    const today = localToday(TIME_ZONE);
    expect(body.today).toBe(today);
    expect(body.period).toEqual({ from: addDays(today, -29), to: today, days: 30 });
    expect(body.trend).toHaveLength(30);
    expect(body.figures.runsStarted.value).toBe(4);
  });

  it.each([
    ['?from=2026-03-10&to=2026-03-01', 'querystring.to', 'The start date must be on or before the end date'],
    ['?from=2024-01-01&to=2026-03-01', 'querystring.from', INSIGHT_MESSAGES.periodTooLong],
    ['?from=2020-01-01', 'querystring.from', INSIGHT_MESSAGES.periodTooLong],
    ['?from=yesterday', 'querystring.from', 'Dates are YYYY-MM-DD'],
  ])('answers %s with a 400 that says what to fix', async (query, path, message) => {
    const response = await inject({
      method: 'GET',
      url: `/api/analytics/overview${query}`,
      headers: overviewOwner.headers,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: message, code: 'VALIDATION_ERROR' });
    expect(response.json<{ issues: { path: string }[] }>().issues).toContainEqual(
      expect.objectContaining({ path }),
    );
  });
});

describe('insights', () => {
  let open: AnalyticsInsight[];
  const byKind = (kind: AnalyticsInsight['kind']) => open.filter((insight) => insight.kind === kind);

  it('has nothing before the job first runs', async () => {
    const body = await get<AnalyticsInsightsResponse>('/api/analytics/insights', insightsOwner);
    expect(body).toMatchObject({
      status: 'open',
      insights: [],
      counts: { open: 0, dismissed: 0 },
      lastComputedAt: null,
      digest: { isEmailConfigured: false },
    });
  });

  it('says when it last looked even when it found nothing', async () => {
    const empty = await signUpViaApi(testApp.app);
    const response = await inject({
      method: 'POST',
      url: '/api/analytics/insights/refresh',
      headers: empty.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<AnalyticsInsightsResponse>();
    expect(body.insights).toEqual([]);
    expect(body.lastComputedAt).not.toBeNull();
  });

  it('finds each kind of finding with its evidence and link, ranked by score', async () => {
    const response = await inject({
      method: 'POST',
      url: '/api/analytics/insights/refresh',
      headers: insightsOwner.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<AnalyticsInsightsResponse>();
    open = body.insights;
    expect(body.lastComputedAt).not.toBeNull();
    const scores = open.map((insight) => insight.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    const organizationId = insightsOwner.organization.id;
    const onboarding = await courseIdOf(organizationId, 'onboarding');
    const quiz = await courseIdOf(organizationId, 'quiz');
    const hard = await courseIdOf(organizationId, 'hard');

    const [drop] = byKind('drop_off_slide');
    expect(drop).toMatchObject({
      courseId: onboarding,
      courseTitle: 'onboarding',
      link: `/analytics/learning-paths?courseId=${onboarding}`,
      title: 'Most learners who leave onboarding stop at slide 3 “Slide 3”',
    });
    expect(drop?.evidence).toContainEqual({ label: 'Stopped here', value: '15' });
    expect(drop?.evidence).toContainEqual({ label: 'Slide', value: '3 of 5' });

    const rate = byKind('rate_change').find((insight) => insight.courseId === onboarding);
    expect(rate).toMatchObject({
      severity: 'critical',
      title: 'Completion rate of onboarding fell from 90 % to 50 %',
      link: `/course/${onboarding}/learners`,
    });
    expect(rate?.evidence).toContainEqual({ label: 'Change', value: '−40 points' });

    const [inactive] = byKind('inactive_rising');
    expect(inactive).toMatchObject({
      severity: 'warning',
      title: '40 learners inactive for 30 days, up from 0 a month ago',
      link: '/learners',
    });

    const [key] = byKind('answer_key');
    expect(key).toMatchObject({ severity: 'critical', courseId: quiz });
    expect(key?.link).toMatch(new RegExp(`^/analytics/questions\\?courseId=${quiz}&questionId=`));
    expect(key?.title).toContain('“Question q4”');

    const hardOnes = byKind('hard_question');
    expect(hardOnes.map((insight) => insight.courseId)).toEqual([hard]);
    expect(hardOnes[0]?.title).toContain('“Question h4”');
    expect(hardOnes[0]?.evidence).toContainEqual({ label: 'Answered right', value: '8 %' });
  });

  it('updates the findings on a rerun instead of adding twins', async () => {
    const before = await get<AnalyticsInsightsResponse>('/api/analytics/insights', insightsOwner);
    await computeInsights(testApp.database.db, insightsOwner.organization.id);
    const after = await get<AnalyticsInsightsResponse>('/api/analytics/insights', insightsOwner);
    expect(after.insights.map((insight) => insight.id).sort()).toEqual(
      before.insights.map((insight) => insight.id).sort(),
    );
    expect(after.lastComputedAt! > before.lastComputedAt!).toBe(true);
  });

  it('keeps a dismissed finding dismissed until its evidence changes materially, and restores it', async () => {
    const drop = byKind('drop_off_slide')[0]!;
    const dismissed = await inject({
      method: 'POST',
      url: `/api/analytics/insights/${drop.id}/dismiss`,
      headers: insightsOwner.headers,
    });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json<AnalyticsInsight>().dismissedAt).not.toBeNull();
    const again = await inject({
      method: 'POST',
      url: `/api/analytics/insights/${drop.id}/dismiss`,
      headers: insightsOwner.headers,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: INSIGHT_MESSAGES.alreadyDismissed });

    await computeInsights(testApp.database.db, insightsOwner.organization.id);
    const openNow = await get<AnalyticsInsightsResponse>('/api/analytics/insights', insightsOwner);
    expect(openNow.insights.map((insight) => insight.id)).not.toContain(drop.id);
    const list = await get<AnalyticsInsightsResponse>(
      '/api/analytics/insights?status=dismissed',
      insightsOwner,
    );
    expect(list.insights.map((insight) => insight.id)).toEqual([drop.id]);
    expect(list.counts.dismissed).toBe(1);

    // As if it had been dismissed when learners stopped at another slide: that is a material change.
    await testApp.database.db.execute(sql`
      update ${analyticsInsights} set evidence = jsonb_set(evidence, '{metrics,slide}', '2')
      where id = ${drop.id}`);
    await computeInsights(testApp.database.db, insightsOwner.organization.id);
    const reopened = await get<AnalyticsInsightsResponse>('/api/analytics/insights', insightsOwner);
    expect(reopened.insights.find((insight) => insight.id === drop.id)?.dismissedAt).toBeNull();

    await inject({
      method: 'POST',
      url: `/api/analytics/insights/${drop.id}/dismiss`,
      headers: insightsOwner.headers,
    });
    const restored = await inject({
      method: 'POST',
      url: `/api/analytics/insights/${drop.id}/restore`,
      headers: insightsOwner.headers,
    });
    expect(restored.statusCode).toBe(200);
    expect(restored.json<AnalyticsInsight>().dismissedAt).toBeNull();
  });

  it('removes open findings that no longer hold and forgets dismissed ones only after a while', async () => {
    const organizationId = insightsOwner.organization.id;
    const db = testApp.database.db;
    const old = new Date(Date.now() - 200 * DAY);
    // Written by an earlier run: the stored time is set, not left to the
    // database clock, which may read later than this process's clock.
    const earlierRun = new Date(Date.now() - 60_000);
    await db.insert(analyticsInsights).values([
      {
        organizationId,
        kind: 'inactive_rising',
        fingerprint: 'gone:open',
        title: 'Gone',
        body: '',
        link: '/',
        computedAt: earlierRun,
      },
      {
        organizationId,
        kind: 'inactive_rising',
        fingerprint: 'gone:dismissed',
        title: 'Dismissed lately',
        body: '',
        link: '/',
        dismissedAt: earlierRun,
        computedAt: earlierRun,
      },
      {
        organizationId,
        kind: 'inactive_rising',
        fingerprint: 'gone:long-ago',
        title: 'Dismissed long ago',
        body: '',
        link: '/',
        dismissedAt: old,
        computedAt: old,
      },
    ]);
    await computeInsights(db, organizationId);
    const result = await db.execute<{ fingerprint: string }>(sql`
      select fingerprint from ${analyticsInsights}
      where organization_id = ${organizationId} and fingerprint like 'gone:%'`);
    expect(result.rows.map((row) => row.fingerprint)).toEqual(['gone:dismissed']);
  });

  it('shows the top three open findings on the overview', async () => {
    const body = await get<AnalyticsOverviewResponse>('/api/analytics/overview', insightsOwner);
    const list = await get<AnalyticsInsightsResponse>('/api/analytics/insights', insightsOwner);
    expect(body.topInsights.map((insight) => insight.id)).toEqual(
      list.insights.slice(0, 3).map((insight) => insight.id),
    );
    expect(body.openInsights).toBe(list.counts.open);
  });

  it('keeps another organization’s findings out of reach', async () => {
    const [insight] = (await get<AnalyticsInsightsResponse>('/api/analytics/insights', insightsOwner))
      .insights;
    for (const action of ['dismiss', 'restore']) {
      const response = await inject({
        method: 'POST',
        url: `/api/analytics/insights/${insight?.id}/${action}`,
        headers: stranger.headers,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 'Insight not found' });
    }
    const theirs = await get<AnalyticsInsightsResponse>('/api/analytics/insights', stranger);
    expect(theirs.insights).toEqual([]);
    const bad = await inject({
      method: 'GET',
      url: '/api/analytics/insights?status=later',
      headers: stranger.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: INSIGHT_MESSAGES.badStatus });
  });

  it('limits "Refresh now" to a few runs an hour', async () => {
    await testApp.database.db
      .insert(rateLimitBuckets)
      .values({
        key: `analytics-insights-refresh:${stranger.organization.id}`,
        windowStartedAt: new Date(),
        hits: INSIGHT_REFRESHES_PER_HOUR,
      })
      .onConflictDoNothing();
    const response = await inject({
      method: 'POST',
      url: '/api/analytics/insights/refresh',
      headers: stranger.headers,
    });
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });
});

describe('insight jobs', () => {
  const queued: unknown[] = [];
  const jobs = {
    sendMany: async (_definition: unknown, payloads: readonly unknown[]) => {
      queued.push(...payloads);
    },
  } as unknown as JobRunner;

  it('fans the schedule out to one job per organization with data', async () => {
    queued.length = 0;
    await computeInsightsJob.handle({}, { db: testApp.database.db, jobId: 'test', retryCount: 0, jobs });
    expect(queued).toContainEqual({ organizationId: insightsOwner.organization.id });
    expect(queued).toContainEqual({ organizationId: overviewOwner.organization.id });
    expect(queued).not.toContainEqual({ organizationId: stranger.organization.id });
  });

  it('e-mails each owner the top findings with their links, only when SMTP is set up', async () => {
    const db = testApp.database.db;
    const organizationId = insightsOwner.organization.id;
    const withoutSmtp = await runInsightDigest(db, {
      organizationId,
      jobs,
      smtp: undefined,
      publicUrl: 'https://app.example.com',
    });
    expect(withoutSmtp).toBe(0);

    const smtp = { url: 'smtp://mail.test:25', from: 'CourseLens <no-reply@test>' };
    const transport = nodemailer.createTransport({ jsonTransport: true });
    const send = createActionMailer(smtp, transport);
    const sent: { to: string[]; subject: string; text: string }[] = [];
    const count = await runInsightDigest(db, {
      organizationId,
      jobs,
      smtp,
      publicUrl: 'https://app.example.com/',
      mailer: async (mail) => {
        sent.push(mail);
        await send(mail);
      },
    });
    expect(count).toBe(1);
    expect(sent).toHaveLength(1);
    const [mail] = sent;
    expect(mail?.to).toEqual([insightsOwner.user.email]);
    expect(mail?.subject).toMatch(/^Org .+: \d+ analytics findings this week$/);
    const top = (await get<AnalyticsInsightsResponse>('/api/analytics/insights', insightsOwner)).insights[0];
    expect(mail?.text).toContain(`1. ${top?.title}`);
    expect(mail?.text).toContain(`https://app.example.com${top?.link}`);
    expect(mail?.text).toContain('https://app.example.com/analytics/insights');

    // An organization without findings gets no empty e-mail.
    const none = await runInsightDigest(db, {
      organizationId: stranger.organization.id,
      jobs,
      smtp,
      publicUrl: 'https://app.example.com',
      mailer: async (mail) => {
        sent.push(mail);
      },
    });
    expect(none).toBe(0);
    expect(sent).toHaveLength(1);
  });
});

describe('isMaterialChange', () => {
  it.each([
    ['drop_off_slide', { slide: 3, share: 0.6 }, { slide: 3, share: 0.65 }, false],
    ['drop_off_slide', { slide: 3, share: 0.6 }, { slide: 4, share: 0.6 }, true],
    ['drop_off_slide', { slide: 3, share: 0.6 }, { slide: 3, share: 0.75 }, true],
    ['rate_change', { change: -0.2 }, { change: -0.25 }, false],
    ['rate_change', { change: -0.2 }, { change: -0.35 }, true],
    ['rate_change', { change: -0.2 }, { change: 0.1 }, true],
    [
      'answer_key',
      { attempts: 20, facility: 0.5, discrimination: -0.3 },
      { attempts: 30, facility: 0.55, discrimination: -0.35 },
      false,
    ],
    [
      'answer_key',
      { attempts: 20, facility: 0.5, discrimination: -0.3 },
      { attempts: 40, facility: 0.5, discrimination: -0.3 },
      true,
    ],
    ['hard_question', { attempts: 20, facility: 0.1 }, { attempts: 25, facility: 0.25 }, true],
    ['inactive_rising', { inactive: 100 }, { inactive: 120 }, false],
    ['inactive_rising', { inactive: 100 }, { inactive: 130 }, true],
  ] as const)('%s %j → %j: %s', (kind, before, after, expected) => {
    expect(isMaterialChange(kind, before, after)).toBe(expected);
  });
});
