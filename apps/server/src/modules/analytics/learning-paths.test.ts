import type { CoursePathsResponse, IngestionEventInput, LearningPathsResponse } from '@courselens/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { enableLearnerParts, learnerPartsOf } from '../../db/learner-parts';
import { buildSankey } from './learning-paths.service';

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
let ingestKey: string;
const courseIds: Record<string, string> = {};
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

const base = (course: string, handle: string, minute: number, run?: string) => ({
  id: `evt-${++sequence}`,
  timestamp: new Date(Date.UTC(2026, 2, 2, 9, 0) + minute * 60_000).toISOString(),
  course: { externalCourseId: course, title: course === 'tour' ? 'Product tour' : `Course ${course}` },
  learner: { email: `${handle}@example.com`, name: handle },
  ...(run ? { run } : {}),
});

/** A run of `course`: started, the slides viewed in order (a minute apart), maybe completed. */
function run(
  course: string,
  handle: string,
  slides: number[],
  options: { start?: number; isComplete?: boolean } = {},
) {
  const start = options.start ?? 0;
  const runId = `${handle}-${course}-${start}`;
  const events: IngestionEventInput[] = [{ ...base(course, handle, start, runId), type: 'course.started' }];
  slides.forEach((slide, index) => {
    events.push({
      ...base(course, handle, start + index + 1, runId),
      type: 'slide.viewed',
      slide: { number: slide, title: `Title ${slide}` },
    });
  });
  if (options.isComplete) {
    events.push({ ...base(course, handle, start + slides.length + 1, runId), type: 'course.completed' });
  }
  return events;
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
  await send([
    // Completed, with a repeat collapsed: 1 → 2 → 3.
    ...run('tour', 'ann', [1, 2, 2, 3], { isComplete: true }),
    ...run('tour', 'bob', [1, 2, 3], { isComplete: true }),
    // Left at 3 without completing.
    ...run('tour', 'cid', [1, 2, 3]),
    // Goes back: 1 → 3 → 2 → 1 (step 4 is slide 1 again, a node of its own).
    ...run('tour', 'dee', [1, 3, 2, 1]),
    // Longer than the depth: cut at 8 with the rest as "…"; left at 10.
    ...run('tour', 'eve', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
    // Left at 2.
    ...run('tour', 'fay', [1, 2]),
    // A course with starts and completions but no slide views.
    ...run('quiz', 'ann', [], { start: 30, isComplete: true }),
    ...run('quiz', 'bob', [], { start: -30 }),
    ...run('intro', 'bob', [], { start: -60 }),
    ...run('intro', 'ann', [], { start: 60 }),
  ]);
  const courses = await get('/api/courses?pageSize=100');
  for (const course of courses.json<{ items: { id: string; externalCourseId: string }[] }>().items) {
    courseIds[course.externalCourseId] = course.id;
  }
});

afterAll(async () => {
  await testApp.close();
});

const tour = (query = '') => get(`/api/analytics/learning-paths?courseId=${courseIds.tour}${query}`);

describe('GET /api/analytics/learning-paths', () => {
  it('counts the runs’ slide paths with repeats collapsed, cut at the depth', async () => {
    const response = await tour();
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<LearningPathsResponse>();
    expect(body).toMatchObject({ hasSlideViews: true, runs: 6, incompleteRuns: 4, depth: 8 });
    expect(body.basis.completion).toBe('completed');
    expect(body.topPaths[0]).toEqual({ slides: [1, 2, 3], isTruncated: false, runs: 3, share: 0.5 });
    expect(body.topPaths).toContainEqual({
      slides: [1, 2, 3, 4, 5, 6, 7, 8],
      isTruncated: true,
      runs: 1,
      share: 1 / 6,
    });
    expect(body.topPaths).toContainEqual({ slides: [1, 3, 2, 1], isTruncated: false, runs: 1, share: 1 / 6 });
    expect(body.slides[0]).toEqual({ slideNumber: 1, title: 'Title 1' });
  });

  it('draws an acyclic Sankey of "step k: slide s" with the rest beyond the depth as "…"', async () => {
    const body = (await tour()).json<LearningPathsResponse>();
    const link = (source: string, target: string) =>
      body.sankey.links.find((l) => l.source === source && l.target === target)?.value;
    expect(link('1:1', '2:2')).toBe(5);
    expect(link('1:1', '2:3')).toBe(1);
    expect(link('3:2', '4:1')).toBe(1);
    expect(link('8:8', '9:…')).toBe(1);
    expect(body.sankey.nodes.find((node) => node.id === '1:1')?.label).toBe('Slide 1: Title 1');
    expect(body.sankey.nodes.find((node) => node.id === '9:…')?.label).toBe('…');
    // Every link goes one step forward: no cycles.
    const stepOf = new Map(body.sankey.nodes.map((node) => [node.id, node.step]));
    for (const l of body.sankey.links) expect(stepOf.get(l.target)).toBe((stepOf.get(l.source) ?? 0) + 1);
    expect(body.sankey.hiddenLinks).toBe(0);
  });

  it('ranks where incomplete runs left, and follows those who dropped off after a slide', async () => {
    const body = (await tour('&afterSlide=2')).json<LearningPathsResponse>();
    expect(body.exits).toEqual([
      { slideNumber: 1, runs: 1, share: 0.25 },
      { slideNumber: 2, runs: 1, share: 0.25 },
      { slideNumber: 3, runs: 1, share: 0.25 },
      { slideNumber: 10, runs: 1, share: 0.25 },
    ]);
    // Incomplete runs that viewed slide 2: Cid, Dee, Eve, Fay; their paths from slide 2 on.
    expect(body.dropOff?.slideNumber).toBe(2);
    expect(body.dropOff?.runs).toBe(4);
    expect(body.dropOff?.paths).toContainEqual({ slides: [2, 3], isTruncated: false, runs: 1, share: 0.25 });
    expect(body.dropOff?.paths).toContainEqual({ slides: [2, 1], isTruncated: false, runs: 1, share: 0.25 });
    expect(body.dropOff?.paths).toContainEqual({ slides: [2], isTruncated: false, runs: 1, share: 0.25 });
    expect(body.dropOff?.paths).toContainEqual({
      slides: [2, 3, 4, 5, 6, 7, 8, 9],
      isTruncated: true,
      runs: 1,
      share: 0.25,
    });
    expect(body.dropOff?.exits.map((exit) => exit.slideNumber).sort((a, b) => a - b)).toEqual([1, 2, 3, 10]);
  });

  it('follows the completion rule of the settings', async () => {
    const put = (completion: string) =>
      inject({
        method: 'PATCH',
        url: '/api/analytics/settings',
        headers: owner.headers,
        payload: { completion },
      });
    expect((await put('last_slide')).statusCode).toBe(200);
    try {
      const body = (await tour()).json<LearningPathsResponse>();
      // Only Eve reached slide 10, the course's last.
      expect(body.incompleteRuns).toBe(5);
      expect(body.basis.completion).toBe('last_slide');
      expect(body.exits.map((exit) => exit.slideNumber)).not.toContain(10);
    } finally {
      await put('completed');
    }
  });

  it('takes a shorter depth and the period', async () => {
    const short = (await tour('&depth=2')).json<LearningPathsResponse>();
    expect(short.topPaths[0]).toEqual({ slides: [1, 2], isTruncated: true, runs: 4, share: 4 / 6 });
    const empty = (await tour('&from=2026-04-01')).json<LearningPathsResponse>();
    expect(empty).toMatchObject({ hasSlideViews: true, runs: 0, topPaths: [], exits: [] });
    expect(empty.sankey.links).toEqual([]);
  });

  it('counts views without a run as one run per learner, and names a slide after its latest step', async () => {
    const view = (handle: string, minute: number, slide: { number: number; title?: string }) => ({
      ...base('intro', handle, minute),
      type: 'slide.viewed' as const,
      slide,
    });
    await send([
      view('gus', 1, { number: 1, title: 'Intro' }),
      view('gus', 2, { number: 2, title: 'Old two' }),
      // A repeat of the slide before it: not a step, so its title does not name the slide.
      view('gus', 3, { number: 2, title: 'Renamed two' }),
      view('gus', 4, { number: 3 }),
      view('hal', 10, { number: 1, title: 'Intro' }),
      view('hal', 11, { number: 3, title: '  ' }),
    ]);
    // The course's runs (Ann's and Bob's) have no slide views: Gus and Hal view slides without one.
    const body = (
      await get(`/api/analytics/learning-paths?courseId=${courseIds.intro}`)
    ).json<LearningPathsResponse>();
    expect(body).toMatchObject({ hasSlideViews: true, runs: 2, incompleteRuns: 2 });
    expect(body.topPaths).toContainEqual({ slides: [1, 2, 3], isTruncated: false, runs: 1, share: 0.5 });
    expect(body.topPaths).toContainEqual({ slides: [1, 3], isTruncated: false, runs: 1, share: 0.5 });
    expect(body.slides).toEqual([
      { slideNumber: 1, title: 'Intro' },
      { slideNumber: 2, title: 'Old two' },
      { slideNumber: 3, title: null },
    ]);
  });

  it('builds the same paths with the runs built in branches per range of run ids', async () => {
    const { db } = testApp.database;
    const before = learnerPartsOf(db);
    const paths = async (query: string) => {
      const response = await tour(query);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<LearningPathsResponse>();
    };
    try {
      for (const query of ['', '&afterSlide=2', '&depth=3']) {
        enableLearnerParts(db, 1);
        const whole = await paths(query);
        enableLearnerParts(db, 3);
        expect(await paths(query)).toEqual(whole);
      }
      enableLearnerParts(db, 4);
      expect((await paths('')).runs).toBe(6);
    } finally {
      enableLearnerParts(db, before);
    }
  });

  it('says when a course sends no slide views', async () => {
    const body = (
      await get(`/api/analytics/learning-paths?courseId=${courseIds.quiz}`)
    ).json<LearningPathsResponse>();
    expect(body).toMatchObject({ hasSlideViews: false, runs: 0, topPaths: [] });
  });

  it('refuses a bad depth or slide, and another organization’s course', async () => {
    const deep = await tour('&depth=40');
    expect(deep.statusCode).toBe(400);
    expect(deep.body).toContain('Depth is a whole number of steps from 2 to 15');
    expect((await tour('&afterSlide=-1')).statusCode).toBe(400);
    expect((await get(`/api/analytics/learning-paths?courseId=${courseIds.tour}`, stranger)).statusCode).toBe(
      404,
    );
  });
});

describe('GET /api/analytics/learning-paths/courses', () => {
  it('orders each learner’s courses by first start', async () => {
    const response = await get('/api/analytics/learning-paths/courses');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<CoursePathsResponse>();
    // Ann: tour (0), quiz (30), intro (60); Bob: intro (−60), quiz (−30), tour (0); the others: tour.
    expect(body.learners).toBe(6);
    const named = (ids: string[]) => ids.map((id) => body.courses.find((course) => course.id === id)?.title);
    const ranked = body.topPaths.map((path) => [named(path.courses), path.learners]);
    // Paths with as many learners rank by their course ids (random here): the two singles in either order.
    expect(ranked[0]).toEqual([['Product tour'], 4]);
    expect(ranked.slice(1)).toHaveLength(2);
    expect(ranked.slice(1)).toEqual(
      expect.arrayContaining([
        [['Course intro', 'Course quiz', 'Product tour'], 1],
        [['Product tour', 'Course quiz', 'Course intro'], 1],
      ]),
    );
    expect(body.sankey.links).toContainEqual({
      source: `1:${courseIds.intro}`,
      target: `2:${courseIds.quiz}`,
      value: 1,
    });
    const short = (await get('/api/analytics/learning-paths/courses?depth=2')).json<CoursePathsResponse>();
    expect(short.topPaths.find((path) => path.courses.length === 2)?.isTruncated).toBe(true);
  });

  it('adds up to the same paths when the learners are grouped in shares', async () => {
    const { db } = testApp.database;
    const before = learnerPartsOf(db);
    const sequences = async (query: string) => {
      const response = await get(`/api/analytics/learning-paths/courses${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<CoursePathsResponse>();
    };
    try {
      for (const query of ['', '?depth=2', '?from=2026-03-01&to=2026-03-03']) {
        enableLearnerParts(db, 1);
        const whole = await sequences(query);
        expect(whole.learners).toBeGreaterThan(0);
        enableLearnerParts(db, 3);
        expect(await sequences(query)).toEqual(whole);
      }
    } finally {
      enableLearnerParts(db, before);
    }
  });

  it('gives over all time (the learner-course rollup) what a period holding every run gives (the runs)', async () => {
    const sequences = async (query: string) => {
      const response = await get(`/api/analytics/learning-paths/courses${query}`);
      expect(response.statusCode, response.body).toBe(200);
      const { learners, topPaths, sankey, courses } = response.json<CoursePathsResponse>();
      return { learners, topPaths, sankey, courses };
    };
    // Gus takes Bob's path: one path of two learners, whose links count both.
    await send([
      ...run('intro', 'gus', [], { start: -50 }),
      ...run('quiz', 'gus', [], { start: -20 }),
      ...run('tour', 'gus', [], { start: 10 }),
    ]);
    const introToQuiz = { source: `1:${courseIds.intro}`, target: `2:${courseIds.quiz}`, value: 2 };
    const wholePeriod = '?from=2026-03-01&to=2026-03-03';
    const allTime = await sequences('');
    expect(allTime.learners).toBe(7);
    expect(allTime.sankey.links).toContainEqual(introToQuiz);
    expect(allTime.topPaths).toContainEqual(
      expect.objectContaining({ courses: [courseIds.intro, courseIds.quiz, courseIds.tour], learners: 2 }),
    );
    expect(allTime).toEqual(await sequences(wholePeriod));
    expect((await sequences('?from=2026-03-03')).learners).toBe(0);

    // Learners left out by the settings are left out of both.
    const exclude = await inject({
      method: 'PATCH',
      url: '/api/analytics/settings',
      headers: owner.headers,
      payload: { excludedEmails: ['bob@example.com'] },
    });
    expect(exclude.statusCode, exclude.body).toBe(200);
    try {
      const withoutBob = await sequences('');
      expect(withoutBob.learners).toBe(6);
      expect(withoutBob.sankey.links).toContainEqual({ ...introToQuiz, value: 1 });
      expect(withoutBob).toEqual(await sequences(wholePeriod));
    } finally {
      await inject({
        method: 'PATCH',
        url: '/api/analytics/settings',
        headers: owner.headers,
        payload: { excludedEmails: [] },
      });
    }
  });
});

describe('buildSankey', () => {
  it('draws the same graph whatever order the links come in', () => {
    const links = [
      { step: 1, from: 'a', to: 'b', value: 2 },
      { step: 2, from: 'b', to: 'c', value: 1 },
      { step: 2, from: 'b', to: 'd', value: 1 },
      { step: 2, from: 'b', to: null, value: 1 },
      { step: 3, from: 'c', to: 'e', value: 1 },
      { step: 3, from: 'd', to: 'e', value: 1 },
    ];
    const graph = buildSankey(links, (key) => key, 4);
    expect(buildSankey([...links].reverse(), (key) => key, 4)).toEqual(graph);
    // Equal links rank by step, source, then target: the cap keeps the three from "2:b", not those at step 3.
    expect(graph.links.map((link) => link.target)).toEqual(['2:b', '3:…', '3:c', '3:d']);
  });

  it('keeps the largest links and drops those cut off from step 1', () => {
    const graph = buildSankey(
      [
        { step: 1, from: 'a', to: 'b', value: 10 },
        { step: 1, from: 'a', to: 'c', value: 1 },
        { step: 2, from: 'b', to: 'c', value: 8 },
        { step: 2, from: 'c', to: 'b', value: 1 },
        { step: 3, from: 'c', to: null, value: 5 },
        // Large, but from a node no kept link reaches.
        { step: 3, from: 'b', to: 'a', value: 6 },
      ],
      (key) => key.toUpperCase(),
      5,
    );
    // The cap keeps 10, 8, 6, 5 and the first 1 (step order); "3:b" is never reached.
    expect(graph.links).toEqual([
      { source: '1:a', target: '2:b', value: 10 },
      { source: '1:a', target: '2:c', value: 1 },
      { source: '2:b', target: '3:c', value: 8 },
      { source: '3:c', target: '4:…', value: 5 },
    ]);
    expect(graph.hiddenLinks).toBe(2);
    expect(graph.hiddenValue).toBe(7);
    expect(graph.nodes.map((node) => [node.id, node.label])).toEqual([
      ['1:a', 'A'],
      ['2:b', 'B'],
      ['2:c', 'C'],
      ['3:c', 'C'],
      ['4:…', '…'],
    ]);
  });
});
