import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertCourse,
  insertCourseRun,
  insertLearner,
  insertQuestion,
  insertResponse,
  insertVariable,
  insertVariableValue,
} from '../../db/factories/learning';
import type { Course, Learner, Question, Variable } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;

const day = (n: number) => new Date(Date.UTC(2026, 0, n, 12));

// Acme's learners (the owner's organization) and one of another organization.
let anna: Learner;
let bob: Learner;
let carla: Learner;
let dormant: Learner;
let outsider: Learner;
let algebra: Course;
let biology: Course;
let removed: Course;
let outsiderCourse: Course;
let score: Variable;
let nickname: Variable;
let passed: Variable;
let q1: Question;
let q2: Question;

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  stranger = await signUpViaApi(testApp.app);
  const db = testApp.database.db;
  const organizationId = owner.organization.id;

  anna = await insertLearner(db, {
    organizationId,
    name: 'Anna Zimmer',
    email: 'anna@acme.test',
    createdAt: day(1),
    lastActivityAt: day(20),
  });
  bob = await insertLearner(db, {
    organizationId,
    name: 'Bob Young',
    email: 'zed.bob@acme.test',
    createdAt: day(2),
    lastActivityAt: day(25),
  });
  carla = await insertLearner(db, {
    organizationId,
    name: 'Carla Annex',
    email: 'carla@acme.test',
    createdAt: day(3),
    lastActivityAt: day(10),
  });
  dormant = await insertLearner(db, {
    organizationId,
    name: null,
    email: 'dormant_100%@acme.test',
    createdAt: day(4),
  });
  outsider = await insertLearner(db, {
    organizationId: stranger.organization.id,
    name: 'Anna Outsider',
    email: 'anna@outside.test',
  });

  algebra = await insertCourse(db, { organizationId, courseTitle: 'Algebra', externalCourseId: 'alg-1' });
  biology = await insertCourse(db, { organizationId, courseTitle: 'Biology', externalCourseId: 'bio-1' });
  removed = await insertCourse(db, {
    organizationId,
    courseTitle: 'Removed course',
    isDeleted: true,
    deletedAt: day(15),
  });
  outsiderCourse = await insertCourse(db, { organizationId: stranger.organization.id, courseTitle: 'Other' });

  // Anna: two runs of Algebra (one completed), one of Biology, one of a deleted course.
  const annaRun1 = await insertCourseRun(db, {
    organizationId,
    courseId: algebra.id,
    learnerId: anna.id,
    clientRunId: 'a1',
    startedAt: day(5),
    completedAt: day(6),
    updatedAt: day(6),
  });
  await insertCourseRun(db, {
    organizationId,
    courseId: algebra.id,
    learnerId: anna.id,
    clientRunId: 'a2',
    startedAt: day(8),
    updatedAt: day(9),
  });
  await insertCourseRun(db, {
    organizationId,
    courseId: biology.id,
    learnerId: anna.id,
    startedAt: day(11),
    updatedAt: day(12),
  });
  await insertCourseRun(db, { organizationId, courseId: removed.id, learnerId: anna.id });
  // Bob: Algebra once; Carla: Algebra and Biology; the deleted course is not counted.
  await insertCourseRun(db, { organizationId, courseId: algebra.id, learnerId: bob.id });
  await insertCourseRun(db, { organizationId, courseId: algebra.id, learnerId: carla.id });
  await insertCourseRun(db, { organizationId, courseId: biology.id, learnerId: carla.id });
  await insertCourseRun(db, { organizationId, courseId: removed.id, learnerId: carla.id });
  await insertCourseRun(db, { organizationId, courseId: removed.id, learnerId: bob.id });

  score = await insertVariable(db, {
    organizationId,
    courseId: algebra.id,
    name: 'score',
    dataType: 'number',
  });
  nickname = await insertVariable(db, { organizationId, courseId: biology.id, name: 'nickname' });
  passed = await insertVariable(db, {
    organizationId,
    courseId: algebra.id,
    name: 'passed',
    dataType: 'boolean',
  });
  const removedVariable = await insertVariable(db, { organizationId, courseId: removed.id, name: 'ghost' });
  const valueRefs = { organizationId, learnerId: anna.id };
  await insertVariableValue(db, {
    ...valueRefs,
    variableId: score.id,
    courseId: algebra.id,
    courseRunId: annaRun1.id,
    raw: 40,
    dataType: 'number',
    recordedAt: day(5),
  });
  await insertVariableValue(db, {
    ...valueRefs,
    variableId: score.id,
    courseId: algebra.id,
    raw: 85,
    dataType: 'number',
    recordedAt: day(8),
  });
  await insertVariableValue(db, {
    ...valueRefs,
    variableId: passed.id,
    courseId: algebra.id,
    raw: true,
    dataType: 'boolean',
    recordedAt: day(9),
  });
  await insertVariableValue(db, {
    ...valueRefs,
    variableId: nickname.id,
    courseId: biology.id,
    raw: '=HYPERLINK("x")',
    recordedAt: day(12),
  });
  await insertVariableValue(db, {
    ...valueRefs,
    variableId: removedVariable.id,
    courseId: removed.id,
    raw: 'boo',
  });

  q1 = await insertQuestion(db, {
    organizationId,
    courseId: algebra.id,
    questionText: 'What is 2 + 2?',
    slideNumber: 3,
    questionNumber: 1,
  });
  q2 = await insertQuestion(db, {
    organizationId,
    courseId: biology.id,
    questionText: 'Name a cell part',
    slideNumber: 1,
    questionNumber: 2,
  });
  const answerRefs = { organizationId, learnerId: anna.id };
  await insertResponse(db, {
    ...answerRefs,
    questionId: q1.id,
    courseId: algebra.id,
    questionText: 'What is 2 + 2?',
    answerChoice: '5',
    correct: false,
    pointsAssigned: 0,
    createdAt: day(5),
  });
  await insertResponse(db, {
    ...answerRefs,
    questionId: q1.id,
    courseId: algebra.id,
    questionText: 'What is 2 + 2?',
    answerChoice: '4',
    correct: true,
    pointsAssigned: 10,
    createdAt: day(8),
  });
  await insertResponse(db, {
    ...answerRefs,
    questionId: q2.id,
    courseId: biology.id,
    questionText: 'Name a cell part',
    answerChoice: 'Nucleus',
    correct: true,
    pointsAssigned: 5,
    createdAt: day(12),
  });
});

afterAll(async () => {
  await testApp.close();
});

const get = (url: string, headers: Record<string, string> = owner.headers) =>
  testApp.app.inject({ method: 'GET', url, headers } satisfies InjectOptions);

type ListBody<Item> = { items: Item[]; total: number; page: number; pageSize: number };
type LearnerItem = { id: string; name: string | null; email: string; courses: number };

async function listLearners(query: string): Promise<ListBody<LearnerItem>> {
  const response = await get(`/api/learners${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ListBody<LearnerItem>>();
}

const emails = (body: ListBody<{ email: string }>) => body.items.map((item) => item.email);

describe('GET /api/learners', () => {
  it('answers 401 without a session', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/learners' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Not authenticated', code: 'UNAUTHENTICATED' });
  });

  it('lists the organization’s learners, most recently active first, with their live course counts', async () => {
    const body = await listLearners('');
    expect(body).toEqual({
      items: [
        {
          id: bob.id,
          name: 'Bob Young',
          email: 'zed.bob@acme.test',
          courses: 1,
          lastActivityAt: day(25).toISOString(),
          createdAt: day(2).toISOString(),
        },
        {
          id: anna.id,
          name: 'Anna Zimmer',
          email: 'anna@acme.test',
          courses: 2,
          lastActivityAt: day(20).toISOString(),
          createdAt: day(1).toISOString(),
        },
        expect.objectContaining({ id: carla.id, courses: 2 }),
        expect.objectContaining({ id: dormant.id, name: null, courses: 0, lastActivityAt: null }),
      ],
      total: 4,
      page: 1,
      pageSize: 25,
    });
    expect(emails(body)).not.toContain(outsider.email);
  });

  it('searches by the start of the name or the e-mail, ignoring case', async () => {
    expect(emails(await listLearners('?q=ANN'))).toEqual(['anna@acme.test']);
    expect(emails(await listLearners('?q=%20bob%20'))).toEqual(['zed.bob@acme.test']);
    expect(emails(await listLearners('?q=Zed.B'))).toEqual(['zed.bob@acme.test']);
    expect(emails(await listLearners('?q=carla%40acme'))).toEqual(['carla@acme.test']);
    // Prefixes only: "Annex" is Carla's last name, not the start of her name.
    expect(emails(await listLearners('?q=annex'))).toEqual([]);
    // Wildcards are matched literally.
    expect(emails(await listLearners('?q=%25'))).toEqual([]);
    expect(emails(await listLearners('?q=dormant_100%25'))).toEqual(['dormant_100%@acme.test']);
    expect(emails(await listLearners('?q=dormant_1000'))).toEqual([]);
    // The total counts the matches, not the whole organization.
    const search = await listLearners('?q=a&pageSize=1');
    expect(search).toMatchObject({ total: 1, items: [{ email: 'anna@acme.test' }] });
  });

  it.each([
    ['name', 'asc', ['anna@acme.test', 'zed.bob@acme.test', 'carla@acme.test', 'dormant_100%@acme.test']],
    ['name', 'desc', ['dormant_100%@acme.test', 'carla@acme.test', 'zed.bob@acme.test', 'anna@acme.test']],
    ['email', 'asc', ['anna@acme.test', 'carla@acme.test', 'dormant_100%@acme.test', 'zed.bob@acme.test']],
    ['email', 'desc', ['zed.bob@acme.test', 'dormant_100%@acme.test', 'carla@acme.test', 'anna@acme.test']],
    [
      'createdAt',
      'asc',
      ['anna@acme.test', 'zed.bob@acme.test', 'carla@acme.test', 'dormant_100%@acme.test'],
    ],
    [
      'createdAt',
      'desc',
      ['dormant_100%@acme.test', 'carla@acme.test', 'zed.bob@acme.test', 'anna@acme.test'],
    ],
    [
      'lastActivity',
      'asc',
      ['dormant_100%@acme.test', 'carla@acme.test', 'anna@acme.test', 'zed.bob@acme.test'],
    ],
    [
      'lastActivity',
      'desc',
      ['zed.bob@acme.test', 'anna@acme.test', 'carla@acme.test', 'dormant_100%@acme.test'],
    ],
  ] as const)('sorts by %s %s', async (sort, order, expected) => {
    const body = await listLearners(`?sort=${sort}&order=${order}`);
    expect(emails(body)).toEqual(expected);
  });

  it('sorts by course count both ways, ties by id', async () => {
    const desc = await listLearners('?sort=courses&order=desc');
    expect(desc.items.map((item) => item.courses)).toEqual([2, 2, 1, 0]);
    expect(desc.items.slice(0, 2).map((item) => item.id)).toEqual([anna.id, carla.id].sort().reverse());
    const asc = await listLearners('?sort=courses&order=asc');
    expect(asc.items.map((item) => item.courses)).toEqual([0, 1, 2, 2]);
    const searched = await listLearners('?sort=courses&order=desc&q=c');
    expect(searched).toMatchObject({ total: 1, items: [{ id: carla.id, courses: 2 }] });
  });

  it('pages with an exact total; a page past the end is empty', async () => {
    const first = await listLearners('?sort=email&order=asc&pageSize=3');
    expect(first).toMatchObject({ total: 4, page: 1, pageSize: 3 });
    expect(first.items).toHaveLength(3);
    const second = await listLearners('?sort=email&order=asc&pageSize=3&page=2');
    expect(second).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(emails(second)).toEqual(['zed.bob@acme.test']);
    const beyond = await listLearners('?pageSize=3&page=9');
    expect(beyond).toMatchObject({ items: [], total: 4, page: 9 });
  });

  it.each([
    ['?pageSize=1000', 'Page size must be a whole number from 1 to 100'],
    ['?pageSize=0', 'Page size must be a whole number from 1 to 100'],
    ['?page=0', 'Page must be a whole number of 1 or more'],
    ['?page=abc', 'Page must be a whole number of 1 or more'],
    ['?sort=age', 'Sort must be one of: name, email, courses, lastActivity, createdAt'],
    [`?q=${'a'.repeat(201)}`, 'Search must be at most 200 characters long'],
  ])('answers 400 to %s', async (query, message) => {
    const response = await get(`/api/learners${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: message, code: 'VALIDATION_ERROR' });
  });

  it('exports the searched and sorted list as CSV', async () => {
    const response = await get('/api/learners/export?sort=email&order=asc&q=a');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="learners.csv"');
    expect(response.body).toBe(
      '\uFEFFName,Email,Courses,Last activity,Created at,Learner ID\r\n' +
        `Anna Zimmer,anna@acme.test,2,${day(20).toISOString()},${day(1).toISOString()},${anna.id}\r\n`,
    );
    const all = await get('/api/learners/export');
    expect(all.body.trim().split('\r\n')).toHaveLength(5);
    expect(all.body).not.toContain('outside.test');
    const bad = await get('/api/learners/export?sort=nope');
    expect(bad.statusCode).toBe(400);
  });
});

describe('one learner', () => {
  it('answers 404 "Learner not found" for another organization’s learner, an unknown id or a bad id', async () => {
    const paths = (id: string) => [
      `/api/learners/${id}`,
      `/api/learners/${id}/courses`,
      `/api/learners/${id}/courses/export`,
      `/api/learners/${id}/variables`,
      `/api/learners/${id}/variables/export`,
      `/api/learners/${id}/responses`,
      `/api/learners/${id}/responses/export`,
      `/api/learners/${id}/courses/${algebra.id}/variables`,
      `/api/learners/${id}/courses/${algebra.id}/variables/export`,
    ];
    for (const id of [outsider.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      for (const url of paths(id)) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual({ error: 'Learner not found', code: 'NOT_FOUND' });
      }
    }
    // The stranger sees their own learner, never Anna.
    expect((await get(`/api/learners/${outsider.id}`, stranger.headers)).statusCode).toBe(200);
    expect((await get(`/api/learners/${anna.id}`, stranger.headers)).statusCode).toBe(404);
  });

  it('shows the profile with totals of live courses only', async () => {
    const response = await get(`/api/learners/${anna.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: anna.id,
      name: 'Anna Zimmer',
      email: 'anna@acme.test',
      createdAt: day(1).toISOString(),
      lastActivityAt: day(20).toISOString(),
      totals: {
        courses: 2,
        completedCourses: 1,
        runs: 3,
        variables: 3,
        responses: 3,
        correctResponses: 2,
        points: 15,
      },
    });
    const empty = await get(`/api/learners/${dormant.id}`);
    expect(empty.json()).toMatchObject({
      name: null,
      lastActivityAt: null,
      totals: { courses: 0, runs: 0, variables: 0, responses: 0, points: 0 },
    });
  });

  it('lists the learner’s courses with runs, first and last access and completion', async () => {
    const response = await get(`/api/learners/${anna.id}/courses`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      items: [
        {
          courseId: biology.id,
          courseTitle: 'Biology',
          externalCourseId: 'bio-1',
          runs: 1,
          firstAccessAt: day(11).toISOString(),
          lastAccessAt: day(12).toISOString(),
          completed: false,
          completedAt: null,
        },
        {
          courseId: algebra.id,
          courseTitle: 'Algebra',
          externalCourseId: 'alg-1',
          runs: 2,
          firstAccessAt: day(5).toISOString(),
          lastAccessAt: day(9).toISOString(),
          completed: true,
          completedAt: day(6).toISOString(),
        },
      ],
      total: 2,
      page: 1,
      pageSize: 25,
    });
    const sorted = await get(`/api/learners/${anna.id}/courses?sort=runs&order=desc&pageSize=1&page=2`);
    expect(sorted.json()).toMatchObject({ total: 2, items: [{ courseTitle: 'Biology' }] });
    const beyond = await get(`/api/learners/${anna.id}/courses?page=5`);
    expect(beyond.json()).toMatchObject({ total: 2, items: [] });
    const searched = await get(`/api/learners/${anna.id}/courses?q=ALG`);
    expect(searched.json()).toMatchObject({ total: 1, items: [{ courseTitle: 'Algebra' }] });
    const bad = await get(`/api/learners/${anna.id}/courses?sort=title`);
    expect(bad.json()).toMatchObject({
      error: 'Sort must be one of: course, runs, firstAccess, lastAccess, completed',
    });

    const csv = await get(`/api/learners/${anna.id}/courses/export?sort=course&order=asc`);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.split('\r\n').slice(0, 3)).toEqual([
      '\uFEFFCourse,External course ID,Runs,First access,Last access,Completed,Completed at,Course ID',
      `Algebra,alg-1,2,${day(5).toISOString()},${day(9).toISOString()},yes,${day(6).toISOString()},${algebra.id}`,
      `Biology,bio-1,1,${day(11).toISOString()},${day(12).toISOString()},no,,${biology.id}`,
    ]);
  });

  it('lists the latest value of each variable with its course and data type', async () => {
    const response = await get(`/api/learners/${anna.id}/variables`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      items: [
        {
          variableId: nickname.id,
          name: 'nickname',
          title: nickname.title,
          courseId: biology.id,
          courseTitle: 'Biology',
          dataType: 'text',
          value: '=HYPERLINK("x")',
          recordedAt: day(12).toISOString(),
        },
        expect.objectContaining({ name: 'passed', dataType: 'boolean', value: 'true' }),
        expect.objectContaining({
          name: 'score',
          dataType: 'number',
          value: '85',
          recordedAt: day(8).toISOString(),
        }),
      ],
      total: 3,
      page: 1,
      pageSize: 25,
    });
    const byTime = await get(`/api/learners/${anna.id}/variables?sort=recordedAt&order=desc`);
    expect(byTime.json<ListBody<{ name: string }>>().items.map((item) => item.name)).toEqual([
      'nickname',
      'passed',
      'score',
    ]);
    const searched = await get(`/api/learners/${anna.id}/variables?q=SCO`);
    expect(searched.json()).toMatchObject({ total: 1, items: [{ name: 'score' }] });

    const csv = await get(`/api/learners/${anna.id}/variables/export`);
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe('\uFEFFVariable,Title,Course,Data type,Value,Recorded at,Variable ID');
    // A value a spreadsheet would run as a formula is defused.
    expect(lines[1]).toContain(`,text,"'=HYPERLINK(""x"")",${day(12).toISOString()},`);
  });

  it('lists one course’s variables; another organization’s or a deleted course is not found', async () => {
    const response = await get(`/api/learners/${anna.id}/courses/${algebra.id}/variables`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      course: { id: algebra.id, courseTitle: 'Algebra', externalCourseId: 'alg-1' },
      total: 2,
      items: [{ name: 'passed' }, { name: 'score', value: '85' }],
    });
    const none = await get(`/api/learners/${bob.id}/courses/${biology.id}/variables`);
    expect(none.json()).toMatchObject({ total: 0, items: [], course: { courseTitle: 'Biology' } });
    for (const courseId of [outsiderCourse.id, removed.id]) {
      const missing = await get(`/api/learners/${anna.id}/courses/${courseId}/variables`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: 'Course not found', code: 'NOT_FOUND' });
    }
    const csv = await get(`/api/learners/${anna.id}/courses/${algebra.id}/variables/export`);
    expect(csv.body.trim().split('\r\n')).toHaveLength(3);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="learner-course-variables.csv"');
  });

  it('pages the learner’s answers, newest first, with totals', async () => {
    const response = await get(`/api/learners/${anna.id}/responses?pageSize=2`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      items: [
        {
          id: expect.any(String),
          questionId: q2.id,
          questionText: 'Name a cell part',
          slideNumber: 1,
          questionNumber: 2,
          courseId: biology.id,
          courseTitle: 'Biology',
          answer: 'Nucleus',
          correct: true,
          correctAnswer: 'A',
          points: 5,
          answeredAt: day(12).toISOString(),
        },
        expect.objectContaining({ questionId: q1.id, answer: '4', correct: true, points: 10 }),
      ],
      total: 3,
      page: 1,
      pageSize: 2,
    });
    const page2 = await get(`/api/learners/${anna.id}/responses?pageSize=2&page=2`);
    expect(page2.json()).toMatchObject({ total: 3, items: [{ answer: '5', correct: false, points: 0 }] });
    const byPoints = await get(`/api/learners/${anna.id}/responses?sort=points&order=asc`);
    expect(byPoints.json<ListBody<{ points: number }>>().items.map((item) => item.points)).toEqual([
      0, 5, 10,
    ]);
    const searched = await get(`/api/learners/${anna.id}/responses?q=nucl`);
    expect(searched.json()).toMatchObject({ total: 1, items: [{ answer: 'Nucleus' }] });
    const bad = await get(`/api/learners/${anna.id}/responses?pageSize=101`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Page size must be a whole number from 1 to 100');

    const csv = await get(`/api/learners/${anna.id}/responses/export?sort=answeredAt&order=asc`);
    expect(csv.body.split('\r\n').slice(0, 2)).toEqual([
      '\uFEFFQuestion,Slide,Question number,Course,Answer,Correct,Correct answer,Points,Answered at',
      `What is 2 + 2?,3,1,Algebra,5,no,A,0,${day(5).toISOString()}`,
    ]);
  });
});
