import type {
  ListCourseVariablesResponse,
  ListVariablesResponse,
  VariableListItem,
} from '@courselens/contracts';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertCourse,
  insertLearner,
  insertVariable,
  insertVariableValue,
} from '../../db/factories/learning';
import { activityEvents, courses, variables, type Course, type Variable } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
let alpha: Course;
let beta: Course;
let gone: Course;
let foreignCourse: Course;
let score: Variable;
let passed: Variable;
let region: Variable;
let goneVariable: Variable;
let foreignVariable: Variable;

const inject = (options: InjectOptions) => testApp.app.inject(options);
const get = (url: string, as: SignedUp = owner) => inject({ method: 'GET', url, headers: as.headers });
const patch = (id: string, payload: unknown, as: SignedUp = owner) =>
  inject({ method: 'PATCH', url: `/api/variables/${id}`, headers: as.headers, payload: payload as object });

async function readVariable(id: string) {
  const [row] = await testApp.database.db.select().from(variables).where(eq(variables.id, id));
  return row;
}

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  stranger = await signUpViaApi(testApp.app);
  const db = testApp.database.db;
  const organizationId = owner.organization.id;
  alpha = await insertCourse(db, { organizationId, courseTitle: 'Alpha safety' });
  beta = await insertCourse(db, { organizationId, courseTitle: 'beta Sales' });
  gone = await insertCourse(db, {
    organizationId,
    courseTitle: 'Gone course',
    isDeleted: true,
    deletedAt: new Date(),
  });
  score = await insertVariable(db, {
    organizationId,
    courseId: alpha.id,
    name: 'final_score',
    title: 'Final score',
    dataType: 'number',
    description: 'Score at the end',
  });
  passed = await insertVariable(db, {
    organizationId,
    courseId: alpha.id,
    name: 'passed',
    title: 'Passed 100%_done',
    dataType: 'boolean',
    active: false,
  });
  region = await insertVariable(db, {
    organizationId,
    courseId: beta.id,
    name: 'Region',
    title: null,
    dataType: 'text',
  });
  goneVariable = await insertVariable(db, { organizationId, courseId: gone.id, name: 'gone_var' });
  const [ann, bob, cyd] = await Promise.all([
    insertLearner(db, { organizationId, name: 'Ann' }),
    insertLearner(db, { organizationId, name: 'Bob' }),
    insertLearner(db, { organizationId, name: 'Cyd' }),
  ]);
  const value = (variable: Variable, learnerId: string, raw: string | number, recordedAt: string) =>
    insertVariableValue(db, {
      organizationId,
      variableId: variable.id,
      courseId: variable.courseId,
      learnerId,
      raw,
      dataType: variable.dataType,
      recordedAt: new Date(recordedAt),
    });
  // final_score: 3 values from 2 learners; Region: 1 value; passed: none.
  await value(score, ann.id, 80, '2026-01-01T10:00:00Z');
  await value(score, ann.id, 90, '2026-01-02T10:00:00Z');
  await value(score, bob.id, 70, '2026-01-03T10:00:00Z');
  await value(region, cyd.id, 'North', '2026-01-05T10:00:00Z');
  await value(goneVariable, cyd.id, 'x', '2026-01-06T10:00:00Z');

  foreignCourse = await insertCourse(db, {
    organizationId: stranger.organization.id,
    courseTitle: 'Alpha safety',
  });
  foreignVariable = await insertVariable(db, {
    organizationId: stranger.organization.id,
    courseId: foreignCourse.id,
    name: 'final_score',
  });
  const foreignLearner = await insertLearner(db, { organizationId: stranger.organization.id });
  await insertVariableValue(db, {
    organizationId: stranger.organization.id,
    variableId: foreignVariable.id,
    courseId: foreignCourse.id,
    learnerId: foreignLearner.id,
    raw: 'x',
  });
});

afterAll(async () => {
  await testApp.close();
});

const names = (body: { items: VariableListItem[] }) => body.items.map((item) => item.name);

describe('GET /api/variables', () => {
  it('answers 401 "Not authenticated" without a session', async () => {
    for (const url of [
      '/api/variables',
      '/api/variables/export',
      '/api/variables/courses',
      `/api/courses/${alpha.id}/variables`,
      `/api/courses/${alpha.id}/variables/export`,
    ]) {
      const response = await inject({ method: 'GET', url });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Not authenticated', code: 'UNAUTHENTICATED' });
    }
    const response = await inject({
      method: 'PATCH',
      url: `/api/variables/${score.id}`,
      payload: { active: false },
    });
    expect(response.statusCode).toBe(401);
    expect((await readVariable(score.id))?.active).toBe(true);
  });

  it("lists the organization's variables of live courses with course, type, usage and learners", async () => {
    const response = await get('/api/variables');
    expect(response.statusCode).toBe(200);
    const body = response.json<ListVariablesResponse>();
    expect(body).toMatchObject({ total: 3, page: 1, pageSize: 25 });
    expect(names(body)).toEqual(['final_score', 'passed', 'Region']);
    expect(body.items[0]).toEqual({
      id: score.id,
      name: 'final_score',
      title: 'Final score',
      description: 'Score at the end',
      dataType: 'number',
      active: true,
      courseId: alpha.id,
      courseTitle: 'Alpha safety',
      usageCount: 3,
      learnerCount: 2,
      lastRecordedAt: '2026-01-03T10:00:00.000Z',
      createdAt: expect.any(String),
    });
    expect(body.items[1]).toMatchObject({
      name: 'passed',
      active: false,
      usageCount: 0,
      learnerCount: 0,
      lastRecordedAt: null,
    });
    expect(body.items[2]).toMatchObject({
      name: 'Region',
      title: null,
      courseTitle: 'beta Sales',
      usageCount: 1,
    });
  });

  it('shows another organization only its own variables', async () => {
    const body = (await get('/api/variables', stranger)).json<ListVariablesResponse>();
    expect(body.total).toBe(1);
    expect(body.items[0]).toMatchObject({ id: foreignVariable.id, usageCount: 1 });
  });

  it('searches name and title anywhere, ignoring case, with % and _ matching themselves', async () => {
    expect(names((await get('/api/variables?q=SCORE')).json())).toEqual(['final_score']);
    expect(names((await get('/api/variables?q=final%20sc')).json())).toEqual(['final_score']);
    expect(names((await get('/api/variables?q=100%25_')).json())).toEqual(['passed']);
    expect(names((await get('/api/variables?q=_')).json())).toEqual(['final_score', 'passed']);
    expect((await get('/api/variables?q=nothing-like-this')).json()).toMatchObject({ items: [], total: 0 });
  });

  it('filters by course and by active', async () => {
    expect(names((await get(`/api/variables?courseId=${alpha.id}`)).json())).toEqual([
      'final_score',
      'passed',
    ]);
    expect(names((await get('/api/variables?active=false')).json())).toEqual(['passed']);
    expect(names((await get(`/api/variables?active=true&courseId=${alpha.id}`)).json())).toEqual([
      'final_score',
    ]);
    // Another organization's course filters to nothing, never to its rows.
    expect((await get(`/api/variables?courseId=${foreignCourse.id}`)).json()).toMatchObject({ total: 0 });
    expect((await get(`/api/variables?courseId=${gone.id}`)).json()).toMatchObject({ total: 0 });
  });

  it('sorts by every key and pages', async () => {
    expect(names((await get('/api/variables?sort=usageCount&order=desc')).json())).toEqual([
      'final_score',
      'Region',
      'passed',
    ]);
    expect(names((await get('/api/variables?sort=usageCount&order=asc')).json())).toEqual([
      'passed',
      'Region',
      'final_score',
    ]);
    expect(names((await get('/api/variables?sort=course&order=desc')).json())).toEqual([
      'Region',
      'final_score',
      'passed',
    ]);
    expect(names((await get('/api/variables?sort=name&order=desc')).json())).toEqual([
      'Region',
      'passed',
      'final_score',
    ]);
    expect(names((await get('/api/variables?sort=lastRecordedAt&order=desc')).json())).toEqual([
      'Region',
      'final_score',
      'passed',
    ]);
    expect(names((await get('/api/variables?sort=dataType')).json())).toEqual([
      'passed',
      'final_score',
      'Region',
    ]);
    expect(names((await get('/api/variables?sort=active&order=desc')).json())).toEqual([
      'final_score',
      'Region',
      'passed',
    ]);
    const second = (await get('/api/variables?pageSize=2&page=2')).json<ListVariablesResponse>();
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(names(second)).toEqual(['Region']);
    const secondByUsage = (
      await get('/api/variables?pageSize=2&page=2&sort=usageCount')
    ).json<ListVariablesResponse>();
    expect(names(secondByUsage)).toEqual(['final_score']);
    expect(secondByUsage.items[0]?.usageCount).toBe(3);
  });

  it('answers 400 with a message for bad list parameters', async () => {
    const cases: [string, string][] = [
      [
        'sort=bogus',
        'Sort must be one of: name, course, dataType, usageCount, learnerCount, lastRecordedAt, active, createdAt',
      ],
      ['pageSize=101', 'Page size must be a whole number from 1 to 100'],
      ['page=0', 'Page must be a whole number of 1 or more'],
      ['courseId=abc', 'Course must be a course id'],
      ['active=maybe', 'Expected true or false'],
    ];
    for (const [query, message] of cases) {
      const response = await get(`/api/variables?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ error: string }>().error, query).toBe(message);
    }
  });

  it('lists the courses that have variables for the course filter', async () => {
    const response = await get('/api/variables/courses');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      courses: [
        { id: alpha.id, courseTitle: 'Alpha safety', variables: 2 },
        { id: beta.id, courseTitle: 'beta Sales', variables: 1 },
      ],
    });
  });
});

describe('GET /api/variables/export', () => {
  it('exports every matching variable as CSV with the list filters and sort', async () => {
    const response = await get('/api/variables/export?sort=usageCount&order=desc');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="variables.csv"');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Name,Title,Course,Data type,Usage count,Learners,Last recorded at,Active,Description,Variable ID,Course ID',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe(
      `final_score,Final score,Alpha safety,number,3,2,2026-01-03T10:00:00.000Z,yes,Score at the end,${score.id},${alpha.id}`,
    );
    expect(lines[3]).toContain('passed,Passed 100%_done,Alpha safety,boolean,0,0,,no,');

    const filtered = await get(`/api/variables/export?courseId=${beta.id}`);
    expect(
      filtered.body
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n'),
    ).toHaveLength(2);
    expect((await get('/api/variables/export?sort=nope')).statusCode).toBe(400);
    expect((await get('/api/variables/export', stranger)).body).not.toContain('Alpha safety,number');
  });
});

describe('GET /api/courses/:courseId/variables', () => {
  it("lists one course's variables with the course for the header", async () => {
    const response = await get(`/api/courses/${alpha.id}/variables?sort=usageCount&order=desc`);
    expect(response.statusCode).toBe(200);
    const body = response.json<ListCourseVariablesResponse>();
    expect(body.course).toEqual({
      id: alpha.id,
      courseTitle: 'Alpha safety',
      externalCourseId: alpha.externalCourseId,
      description: null,
    });
    expect(body.total).toBe(2);
    expect(names(body)).toEqual(['final_score', 'passed']);
    expect(names((await get(`/api/courses/${alpha.id}/variables?q=pass`)).json())).toEqual(['passed']);
    expect(names((await get(`/api/courses/${alpha.id}/variables?active=true`)).json())).toEqual([
      'final_score',
    ]);
  });

  it('answers 404 "Course not found" for another organization\'s, a deleted or an unknown course', async () => {
    for (const id of [foreignCourse.id, gone.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      for (const url of [`/api/courses/${id}/variables`, `/api/courses/${id}/variables/export`]) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual({ error: 'Course not found', code: 'NOT_FOUND' });
      }
    }
  });

  it("exports one course's variables named after the course", async () => {
    const response = await get(`/api/courses/${beta.id}/variables/export`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="beta-Sales-variables.csv"');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^Region,,beta Sales,text,1,1,/);
  });
});

describe('PATCH /api/variables/:variableId', () => {
  it('turns a variable off and on by id, and logs it in the activity feed', async () => {
    const off = await patch(score.id, { active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id: score.id, name: 'final_score', active: false });
    expect((await readVariable(score.id))?.active).toBe(false);
    expect(names((await get('/api/variables?active=false')).json())).toEqual(['final_score', 'passed']);

    const on = await patch(score.id, { active: true, name: 'final_score' });
    expect(on.json()).toMatchObject({ active: true });
    const activity = await testApp.database.db
      .select()
      .from(activityEvents)
      .where(
        and(eq(activityEvents.organizationId, owner.organization.id), eq(activityEvents.subjectId, score.id)),
      );
    expect(activity.map((event) => event.summary).sort()).toEqual([
      'Variable “final_score” turned off',
      'Variable “final_score” turned on',
    ]);
    expect(activity[0]).toMatchObject({ kind: 'variable.updated', actorUserId: owner.user.id });
  });

  it('changes the description by id and name; an empty description clears it', async () => {
    const response = await patch(region.id, { name: 'Region', description: '  Where the learner works  ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ description: 'Where the learner works', active: true });
    expect((await readVariable(region.id))?.description).toBe('Where the learner works');

    const cleared = await patch(region.id, { name: 'Region', description: '' });
    expect(cleared.json()).toMatchObject({ description: null });
    expect((await readVariable(region.id))?.description).toBeNull();
  });

  it('answers 409 when the name no longer matches, and changes nothing', async () => {
    const before = await readVariable(passed.id);
    const response = await patch(passed.id, { name: 'passed_old', description: 'New', active: true });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'The variable was changed elsewhere. Reload and try again.',
      code: 'CONFLICT',
    });
    expect(await readVariable(passed.id)).toEqual(before);
  });

  it('answers 400 for bad bodies, and changes nothing', async () => {
    const before = await readVariable(passed.id);
    const cases: [unknown, string][] = [
      [{}, 'Send active or description to update the variable'],
      [{ description: 'No name' }, "Send the variable's current name with its new description"],
      [{ name: 'passed', description: 'x'.repeat(2001) }, 'Description must be at most 2000 characters long'],
      [{ active: 'yes' }, 'Active must be true or false'],
      [{ active: true, name: 'passed', dataType: 'number' }, 'Unrecognized key: "dataType"'],
    ];
    for (const [payload, message] of cases) {
      const response = await patch(passed.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ error: string }>().error).toBe(message);
    }
    expect(await readVariable(passed.id)).toEqual(before);
  });

  it('answers 404 "Variable not found" for another organization\'s or a deleted course\'s variable', async () => {
    for (const [id, as] of [
      [foreignVariable.id, owner],
      [score.id, stranger],
      [goneVariable.id, owner],
      ['00000000-0000-4000-8000-000000000000', owner],
    ] as const) {
      const response = await patch(id, { active: false }, as);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Variable not found', code: 'NOT_FOUND' });
    }
    expect((await readVariable(foreignVariable.id))?.active).toBe(true);
    expect((await readVariable(score.id))?.active).toBe(true);
    expect((await readVariable(goneVariable.id))?.active).toBe(true);
  });

  it('keeps a deleted course deleted and its variables hidden', async () => {
    const [row] = await testApp.database.db.select().from(courses).where(eq(courses.id, gone.id));
    expect(row?.isDeleted).toBe(true);
    expect(names((await get('/api/variables?q=gone')).json())).toEqual([]);
  });
});
