import type {
  AnalyticsOverviewResponse,
  CustomReport,
  VariableChartResponse,
  VariableLeadersResponse,
  VariableReportResponse,
  IngestEventsResponse,
  PublicReportResponse,
  QuestionAnalysisResponse,
  ReportData,
  ReportSharing,
} from '@courselens/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { enableResultCache, resultCacheOf } from './result-cache';

// Report results are kept until the organization's data changes: what a
// user reads must be what a fresh computation gives, the moment anything it
// reads has changed, through every way data changes.

let testApp: TestApp;
let owner: SignedUp;
let ingestKey: string;
let sequence = 0;
const uid = (prefix: string) => `${prefix}-${process.pid}-${++sequence}`;

const inject = (options: InjectOptions) => testApp.app.inject(options);
const as = (method: InjectOptions['method'], url: string, payload?: unknown) =>
  inject({
    method,
    url,
    headers: owner.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function send(events: unknown[]): Promise<void> {
  const response = await inject({
    method: 'POST',
    url: '/api/v1/events',
    headers: { authorization: `Bearer ${ingestKey}` },
    payload: { events },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json<IngestEventsResponse>().rejected).toEqual([]);
}

const completedRun = (course: string, email: string, name: string) => {
  const base = {
    course: { externalCourseId: course, title: course },
    learner: { email, name },
    run: uid('run'),
  };
  return [
    { id: uid('evt'), type: 'course.started', timestamp: '2026-03-02T09:00:00Z', ...base },
    { id: uid('evt'), type: 'course.completed', timestamp: '2026-03-02T09:30:00Z', ...base },
  ];
};

/** A finished run of `course` today, with one answer to its question q1, right or wrong. */
const quizRun = (course: string, email: string, right: boolean) => {
  const today = new Date().toISOString().slice(0, 10);
  const base = { course: { externalCourseId: course, title: course }, learner: { email }, run: uid('run') };
  return [
    { id: uid('evt'), type: 'course.started', timestamp: `${today}T00:01:00Z`, ...base },
    {
      id: uid('evt'),
      type: 'question.answered',
      timestamp: `${today}T00:02:00Z`,
      ...base,
      question: {
        interactionId: 'q1',
        slideNumber: 2,
        questionNumber: 1,
        answer: right ? 'B' : 'A',
        correct: right,
      },
    },
    { id: uid('evt'), type: 'course.completed', timestamp: `${today}T00:03:00Z`, ...base },
  ];
};

async function dataOf(reportId: string): Promise<ReportData> {
  const response = await as('GET', `/api/custom-reports/${reportId}/data`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: ReportData }>().data;
}

/** A saved report of one item: a measure of every course, by course. */
async function courseReport(name: string, fn: 'completions' | 'learners'): Promise<CustomReport> {
  const created = await as('POST', '/api/custom-reports', {
    name,
    items: [
      {
        kind: 'query',
        query: {
          subject: { kind: 'courses', courseIds: [] },
          measure: { fn },
          breakdown: { kind: 'course' },
        },
      },
    ],
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<CustomReport>();
}

const cacheStats = () => {
  const cache = resultCacheOf(testApp.database.db);
  if (!cache) throw new Error('the application keeps report results');
  return cache.stats();
};

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  const key = await as('POST', '/api/api-keys', { name: 'LMS', scope: 'ingest' });
  ingestKey = key.json<{ key: string }>().key;
  await send(completedRun('Safety', 'ann@learners.example', 'Ann'));
});

afterAll(async () => {
  await testApp.close();
});

describe('kept report results', () => {
  it('serve a report again unchanged, and new numbers the moment an event, a rename or a deletion changes them', async () => {
    const report = await courseReport('Completions', 'completions');
    // Ties (one completion each) come in no set order.
    const rows = (data: ReportData) =>
      data.items[0]?.result?.rows
        .map((row) => [row.label, row.value])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));

    const first = await dataOf(report.id);
    expect(rows(first)).toEqual([['Safety', 1]]);
    const before = cacheStats();
    expect(await dataOf(report.id)).toEqual({ ...first, generatedAt: expect.any(String) });
    expect(cacheStats().hits).toBe(before.hits + 1);

    // A new learner's run of another course, through the event API.
    await send(completedRun('Onboarding', 'bob@learners.example', 'Bob'));
    expect(rows(await dataOf(report.id))).toEqual([
      ['Onboarding', 1],
      ['Safety', 1],
    ]);
    const courses = await as('GET', '/api/courses');
    const onboarding = courses
      .json<{ items: { id: string; courseTitle: string }[] }>()
      .items.find((course) => course.courseTitle === 'Onboarding');
    expect(onboarding).toBeDefined();

    // A course renamed on its page.
    const renamed = await as('PATCH', `/api/courses/${onboarding?.id}`, { courseTitle: 'Induction' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(rows(await dataOf(report.id))).toEqual([
      ['Induction', 1],
      ['Safety', 1],
    ]);

    // The public link reads the same kept result, and follows a deletion.
    const shared = await as('PUT', `/api/custom-reports/${report.id}/public`, { isPublic: true });
    const token = shared.json<ReportSharing>().publicShareToken;
    const publicRows = async () => {
      const response = await inject({ method: 'GET', url: `/api/public-reports/${token}` });
      expect(response.statusCode, response.body).toBe(200);
      return rows(response.json<PublicReportResponse>().data);
    };
    expect(await publicRows()).toHaveLength(2);
    const deleted = await as('DELETE', `/api/courses/${onboarding?.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await publicRows()).toEqual([['Safety', 1]]);
    expect(rows(await dataOf(report.id))).toEqual([['Safety', 1]]);
  });

  it('keep a variable report, its chart and leaders until a value changes them', async () => {
    const score = (email: string, value: number, timestamp = '2026-03-03T10:00:00Z') => ({
      id: uid('evt'),
      type: 'variable.set',
      timestamp,
      course: { externalCourseId: 'Safety', title: 'Safety' },
      learner: { email },
      variable: { name: 'quiz_score', value },
    });
    await send([score('ann@learners.example', 60), score('cat@learners.example', 80)]);
    const read = async () => {
      const [report, chart, leaders] = await Promise.all([
        as('GET', '/api/variable-reports/report?name=quiz_score'),
        as('GET', '/api/variable-reports/chart?name=quiz_score'),
        as('GET', '/api/variable-reports/leaders?name=quiz_score'),
      ]);
      for (const response of [report, chart, leaders]) expect(response.statusCode, response.body).toBe(200);
      const body = report.json<VariableReportResponse>();
      return {
        mean: body.summary.mean,
        page: body.items.map((item) => item.value).sort(),
        values: chart.json<VariableChartResponse>().trend.points.reduce((sum, point) => sum + point.count, 0),
        leader: leaders.json<VariableLeadersResponse>().items[0]?.value,
      };
    };
    const first = { mean: 70, page: ['60', '80'], values: 2, leader: '80' };
    expect(await read()).toEqual(first);
    const before = cacheStats();
    expect(await read()).toEqual(first);
    expect(cacheStats().hits).toBeGreaterThan(before.hits);

    await send([score('ann@learners.example', 100, '2026-03-04T10:00:00Z')]);
    expect(await read()).toEqual({ mean: 90, page: ['100', '80'], values: 3, leader: '100' });
  });

  it('keep question analysis until a run or a settings change moves it', async () => {
    await send(quizRun('Quiz', 'ann@learners.example', true));
    const courses = await as('GET', '/api/analytics/questions/courses');
    const quiz = courses
      .json<{ courses: { id: string; title: string }[] }>()
      .courses.find((course) => course.title === 'Quiz');
    expect(quiz).toBeDefined();
    const analysis = async () => {
      const response = await as('GET', `/api/analytics/questions?courseId=${quiz?.id}`);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<QuestionAnalysisResponse>();
      return { attempts: body.quiz.attempts, facility: body.questions[0]?.facility };
    };
    expect(await analysis()).toEqual({ attempts: 1, facility: 1 });
    const before = cacheStats();
    expect(await analysis()).toEqual({ attempts: 1, facility: 1 });
    expect(cacheStats().hits).toBeGreaterThan(before.hits);

    await send(quizRun('Quiz', 'test@staff.example', false));
    expect(await analysis()).toEqual({ attempts: 2, facility: 0.5 });
    const excluded = await as('PATCH', '/api/analytics/settings', { excludedDomains: ['staff.example'] });
    expect(excluded.statusCode, excluded.body).toBe(200);
    expect(await analysis()).toEqual({ attempts: 1, facility: 1 });
  });
});

/** Within the calling block, every kept result counts as slow; the policy's own thresholds have unit tests. */
function everyResultSlow() {
  beforeAll(() => {
    enableResultCache(testApp.database.db, {
      maxMb: 64,
      recent: { maxAgeMs: 60_000, minCostMs: 0, minLearners: 0 },
    });
  });

  afterAll(() => {
    enableResultCache(testApp.database.db, { maxMb: 64 });
  });
}

/** Reads until the figures are current again (their refresh runs in the background). */
async function settledAs<T>(read: () => Promise<T>, refreshing: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await read();
    if (!refreshing(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the figures were still refreshing after 100 reads');
}

describe('a custom report slow to compute (served as computed a while ago, decision 021)', () => {
  everyResultSlow();
  const settled = (read: () => Promise<ReportData>) => settledAs(read, (data) => data.refreshing);

  it('shows its last figures with their time while new ones are computed, and current ones on Refresh, in the CSV and next', async () => {
    const report = await courseReport('Learners per course', 'learners');
    // Learners of the course the test adds to (its plan holds no more courses).
    const safety = (data: ReportData) =>
      data.items[0]?.result?.rows.find((row) => row.label === 'Safety')?.value;
    const first = await dataOf(report.id);
    expect(first.refreshing).toBe(false);
    const before = safety(first) ?? 0;
    expect(before).toBeGreaterThan(0);

    await send(completedRun('Safety', 'dan@learners.example', 'Dan'));
    const meanwhile = await dataOf(report.id);
    expect(meanwhile).toMatchObject({ refreshing: true, generatedAt: first.generatedAt });
    expect(safety(meanwhile)).toBe(before);
    const next = await settled(() => dataOf(report.id));
    expect(safety(next)).toBe(before + 1);
    expect(Date.parse(next.generatedAt)).toBeGreaterThanOrEqual(Date.parse(first.generatedAt));

    // Refresh waits for the current figures; so does the CSV.
    await send(completedRun('Safety', 'eve@learners.example', 'Eve'));
    const csv = await as('GET', `/api/custom-reports/${report.id}/export`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toMatch(new RegExp(`Safety,${before + 2}\\b`));
    await send(completedRun('Safety', 'fay@learners.example', 'Fay'));
    const fresh = await as('GET', `/api/custom-reports/${report.id}/data?fresh=true`);
    expect(fresh.statusCode, fresh.body).toBe(200);
    const freshData = fresh.json<{ data: ReportData }>().data;
    expect(freshData.refreshing).toBe(false);
    expect(safety(freshData)).toBe(before + 3);

    const bad = await as('GET', `/api/custom-reports/${report.id}/data?fresh=maybe`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toContain('Expected true or false');

    // A visitor of the public link gets the same rule, and cannot ask for fresh figures.
    const shared = await as('PUT', `/api/custom-reports/${report.id}/public`, { isPublic: true });
    const token = shared.json<ReportSharing>().publicShareToken;
    const visit = async (query = 'fresh=true') => {
      const response = await inject({ method: 'GET', url: `/api/public-reports/${token}?${query}` });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<PublicReportResponse>().data;
    };
    const views = async () =>
      (await as('GET', `/api/custom-reports/${report.id}`)).json<CustomReport>().viewCount;
    const seen = await visit();
    await send(completedRun('Safety', 'gus@learners.example', 'Gus'));
    const visitMeanwhile = await visit();
    expect(visitMeanwhile).toMatchObject({ refreshing: true, generatedAt: seen.generatedAt });
    expect(safety(visitMeanwhile)).toBe(before + 3);
    // The page reading again what it shows is not another visit.
    const counted = await views();
    expect(safety(await settled(() => visit('followUp=true')))).toBe(before + 4);
    expect(await views()).toBe(counted);
    expect(counted).toBe(2);
  });
});

describe('an analytics answer slow to compute (served as computed a moment ago, decision 022)', () => {
  everyResultSlow();
  const settled = <T extends { basis: { refreshing: boolean } }>(read: () => Promise<T>) =>
    settledAs(read, (body) => body.basis.refreshing);

  it('shows the figures before with their time while new ones are computed, never those of other settings, and not for a deleted course', async () => {
    await send(quizRun('Exam', 'amy@exam.example', true));
    const courses = await as('GET', '/api/analytics/questions/courses');
    const exam = courses
      .json<{ courses: { id: string; title: string }[] }>()
      .courses.find((course) => course.title === 'Exam');
    expect(exam).toBeDefined();
    const read = async () => {
      const response = await as('GET', `/api/analytics/questions?courseId=${exam?.id}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<QuestionAnalysisResponse>();
    };
    const first = await read();
    expect(first.quiz.attempts).toBe(1);
    expect(first.basis.refreshing).toBe(false);

    await send(quizRun('Exam', 'ben@other.example', false));
    const meanwhile = await read();
    expect(meanwhile.basis).toMatchObject({ refreshing: true, computedAt: first.basis.computedAt });
    expect(meanwhile.quiz.attempts).toBe(1);
    const next = await settled(read);
    expect(next.quiz.attempts).toBe(2);
    expect(next.questions[0]?.facility).toBe(0.5);
    expect(Date.parse(next.basis.computedAt)).toBeGreaterThanOrEqual(Date.parse(first.basis.computedAt));

    // Figures counted under other settings are never served for the new ones.
    const excluded = await as('PATCH', '/api/analytics/settings', { excludedDomains: ['other.example'] });
    expect(excluded.statusCode, excluded.body).toBe(200);
    const without = await read();
    expect(without.basis.refreshing).toBe(false);
    expect(without.quiz.attempts).toBe(1);
    const restored = await as('PATCH', '/api/analytics/settings', { excludedDomains: [] });
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await settled(read)).quiz.attempts).toBe(2);

    // Once the course is gone, the figures before it went are not served for long: one read at most.
    const deleted = await as('DELETE', `/api/courses/${exam?.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 100 && statuses.at(-1) !== 404; attempt++) {
      statuses.push((await as('GET', `/api/analytics/questions?courseId=${exam?.id}`)).statusCode);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(statuses.at(-1)).toBe(404);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(1);
  });

  it('keeps the overview figures as a whole while they are computed again', async () => {
    const read = async () => {
      const response = await as('GET', '/api/analytics/overview');
      expect(response.statusCode, response.body).toBe(200);
      return response.json<AnalyticsOverviewResponse>();
    };
    const first = await settled(read);
    await send(quizRun('Final', 'kim@exam.example', true));
    const meanwhile = await read();
    expect(meanwhile.basis).toMatchObject({ refreshing: true, computedAt: first.basis.computedAt });
    expect(meanwhile.figures).toEqual(first.figures);
    const next = await settled(read);
    expect(next.figures.runsStarted.value).toBe((first.figures.runsStarted.value ?? 0) + 1);
  });
});
