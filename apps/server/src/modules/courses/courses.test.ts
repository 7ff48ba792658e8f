import { randomUUID } from 'node:crypto';
import {
  COURSE_MESSAGES,
  type BroadcastListResponse,
  type CourseBody,
  type CourseLearnerBody,
  type CourseListResponse,
  type DeleteCourseResponse,
  type Paginated,
  type ReportSubject,
} from '@courselens/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import type { Publish } from '../../jobs/job-runner';
import { pipelineQueue } from '../pipelines/pipelines.jobs';
import { removeCourseFromPipelines } from '../pipelines/pipelines.service';
import { deleteCourse } from './courses.service';
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
import { insertCustomReport } from '../../db/factories/reports';
import {
  activityEvents,
  broadcasts,
  courseRunQuestions,
  courseRuns,
  courses,
  customReportItems,
  customReports,
  learnerVariableValues,
  pipelines,
  type PipelineEdge,
  type PipelineNode,
} from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;

const db = () => testApp.database.db;
const inject = (options: InjectOptions) => testApp.app.inject(options);
const orgId = () => owner.organization.id;

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app, { name: 'Grace Hopper' });
  stranger = await signUpViaApi(testApp.app);
});

afterAll(async () => {
  await testApp.close();
});

async function countRows(
  table: typeof courseRuns | typeof learnerVariableValues | typeof courseRunQuestions,
  courseId: string,
) {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(eq(table.courseId, courseId));
  return Number(row?.n ?? 0);
}

/** A course with two learners: Ada (2 runs, a value, an answer) and Bob (1 run, a value without a run). */
async function seedCourseWithData(title = `Course ${randomUUID().slice(0, 8)}`) {
  const organizationId = orgId();
  const course = await insertCourse(db(), { organizationId, courseTitle: title });
  const ada = await insertLearner(db(), {
    organizationId,
    name: 'Ada Byron',
    email: `ada.${randomUUID()}@example.com`,
  });
  const bob = await insertLearner(db(), {
    organizationId,
    name: 'Bob Stone',
    email: `bob.${randomUUID()}@example.com`,
  });
  const adaFirst = await insertCourseRun(db(), {
    organizationId,
    courseId: course.id,
    learnerId: ada.id,
    createdAt: new Date('2026-01-01T10:00:00Z'),
  });
  await insertCourseRun(db(), {
    organizationId,
    courseId: course.id,
    learnerId: ada.id,
    createdAt: new Date('2026-01-05T10:00:00Z'),
  });
  await insertCourseRun(db(), {
    organizationId,
    courseId: course.id,
    learnerId: bob.id,
    createdAt: new Date('2026-01-03T10:00:00Z'),
  });
  const variable = await insertVariable(db(), { organizationId, courseId: course.id, dataType: 'number' });
  await insertVariableValue(db(), {
    organizationId,
    courseId: course.id,
    variableId: variable.id,
    learnerId: ada.id,
    courseRunId: adaFirst.id,
    raw: 80,
    dataType: 'number',
    recordedAt: new Date('2026-01-02T10:00:00Z'),
  });
  await insertVariableValue(db(), {
    organizationId,
    courseId: course.id,
    variableId: variable.id,
    learnerId: bob.id,
    raw: 60,
    dataType: 'number',
    recordedAt: new Date('2026-01-03T11:00:00Z'),
  });
  const question = await insertQuestion(db(), { organizationId, courseId: course.id });
  await insertResponse(db(), {
    organizationId,
    courseId: course.id,
    questionId: question.id,
    learnerId: ada.id,
    createdAt: new Date('2026-01-06T09:00:00Z'),
  });
  return { course, ada, bob, variable, question };
}

describe('sessions', () => {
  it('answers 401 "Not authenticated" without a session, and the spec message on deletion', async () => {
    const id = randomUUID();
    for (const [method, url] of [
      ['GET', '/api/courses'],
      ['GET', '/api/courses/export'],
      ['POST', '/api/courses'],
      ['GET', `/api/courses/${id}`],
      ['PATCH', `/api/courses/${id}`],
      ['GET', `/api/courses/${id}/learners`],
      ['GET', `/api/courses/${id}/learners/export`],
      ['GET', `/api/courses/${id}/broadcasts`],
      ['PUT', `/api/courses/${id}/broadcast`],
    ] as const) {
      const response = await inject({ method, url, payload: {} });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual({ error: 'Not authenticated', code: 'UNAUTHENTICATED' });
    }
    const deletion = await inject({ method: 'DELETE', url: `/api/courses/${id}` });
    expect(deletion.statusCode).toBe(401);
    expect(deletion.json()).toEqual({
      error: 'No active session. Please login and try again.',
      code: 'UNAUTHENTICATED',
    });
    const expired = await inject({
      method: 'DELETE',
      url: `/api/courses/${id}`,
      headers: { authorization: 'Bearer not-a-session' },
    });
    expect(expired.json<{ error: string }>().error).toBe(COURSE_MESSAGES.noSession);
  });
});

describe('creating and editing courses', () => {
  it('creates a course, logs course.created and returns it with zero counts', async () => {
    const response = await inject({
      method: 'POST',
      url: '/api/courses',
      headers: owner.headers,
      payload: { courseTitle: '  Fire Safety  ', externalCourseId: ' fire-safety ', description: 'Basics' },
    });
    expect(response.statusCode).toBe(201);
    const course = response.json<CourseBody>();
    expect(course).toEqual({
      id: expect.any(String),
      courseTitle: 'Fire Safety',
      externalCourseId: 'fire-safety',
      description: 'Basics',
      broadcastMessage: null,
      learners: 0,
      views: 0,
      lastActivityAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const [activity] = await db()
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.kind, 'course.created'), eq(activityEvents.subjectId, course.id)));
    expect(activity?.actorUserId).toBe(owner.user.id);
    expect(activity?.organizationId).toBe(orgId());
  });

  it('refuses a missing title with the message and creates nothing', async () => {
    const before = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(courses);
    for (const payload of [{}, { courseTitle: '   ' }, { courseTitle: 'x'.repeat(201) }]) {
      const response = await inject({ method: 'POST', url: '/api/courses', headers: owner.headers, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: string }>().error).toMatch(
        /^(Course title is required|Course title must be at most 200 characters long)$/,
      );
    }
    const after = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(courses);
    expect(after).toEqual(before);
  });

  it('refuses an external id a live course already uses (409), but allows a deleted course’s id', async () => {
    const organizationId = orgId();
    await insertCourse(db(), { organizationId, externalCourseId: 'taken-id' });
    const duplicate = await inject({
      method: 'POST',
      url: '/api/courses',
      headers: owner.headers,
      payload: { courseTitle: 'Again', externalCourseId: 'taken-id' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({
      error: 'A course with external ID "taken-id" already exists',
      code: 'CONFLICT',
    });
    const rows = await db().select().from(courses).where(eq(courses.externalCourseId, 'taken-id'));
    expect(rows).toHaveLength(1);

    await insertCourse(db(), {
      organizationId,
      externalCourseId: 'retired-id',
      isDeleted: true,
      deletedAt: new Date(),
    });
    const reused = await inject({
      method: 'POST',
      url: '/api/courses',
      headers: owner.headers,
      payload: { courseTitle: 'Reborn', externalCourseId: 'retired-id' },
    });
    expect(reused.statusCode).toBe(201);

    // Another organization's ids are its own business.
    const elsewhere = await inject({
      method: 'POST',
      url: '/api/courses',
      headers: stranger.headers,
      payload: { courseTitle: 'Theirs', externalCourseId: 'taken-id' },
    });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('edits title, external id and description, logs course.updated, and refuses a taken id unchanged', async () => {
    const organizationId = orgId();
    const course = await insertCourse(db(), {
      organizationId,
      courseTitle: 'Old',
      externalCourseId: 'edit-me',
    });
    await insertCourse(db(), { organizationId, externalCourseId: 'other-live' });

    const edited = await inject({
      method: 'PATCH',
      url: `/api/courses/${course.id}`,
      headers: owner.headers,
      payload: { courseTitle: 'New title', externalCourseId: 'edit-me-2', description: 'Now described' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json<CourseBody>()).toMatchObject({
      id: course.id,
      courseTitle: 'New title',
      externalCourseId: 'edit-me-2',
      description: 'Now described',
    });
    const [activity] = await db()
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.kind, 'course.updated'), eq(activityEvents.subjectId, course.id)));
    expect(activity?.actorUserId).toBe(owner.user.id);

    // Keeping its own id is no conflict; clearing the description with '' works.
    const same = await inject({
      method: 'PATCH',
      url: `/api/courses/${course.id}`,
      headers: owner.headers,
      payload: { externalCourseId: 'edit-me-2', description: '' },
    });
    expect(same.statusCode).toBe(200);
    expect(same.json<CourseBody>().description).toBeNull();

    const taken = await inject({
      method: 'PATCH',
      url: `/api/courses/${course.id}`,
      headers: owner.headers,
      payload: { courseTitle: 'Should not stick', externalCourseId: 'other-live' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<{ error: string }>().error).toBe(
      'A course with external ID "other-live" already exists',
    );

    for (const payload of [{}, { courseTitle: '' }]) {
      const bad = await inject({
        method: 'PATCH',
        url: `/api/courses/${course.id}`,
        headers: owner.headers,
        payload,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ error: string }>().error).toBe(
        'courseTitle' in payload ? COURSE_MESSAGES.titleRequired : COURSE_MESSAGES.nothingToUpdate,
      );
    }
    const [row] = await db().select().from(courses).where(eq(courses.id, course.id));
    expect(row).toMatchObject({ courseTitle: 'New title', externalCourseId: 'edit-me-2' });
  });

  it("answers 404 for another organization's course, a deleted course and a malformed id", async () => {
    const course = await insertCourse(db(), { organizationId: orgId() });
    const gone = await insertCourse(db(), {
      organizationId: orgId(),
      isDeleted: true,
      deletedAt: new Date(),
    });
    for (const [headers, id] of [
      [stranger.headers, course.id],
      [owner.headers, gone.id],
      [owner.headers, 'not-a-uuid'],
    ] as const) {
      for (const [method, url, payload] of [
        ['GET', `/api/courses/${id}`, undefined],
        ['PATCH', `/api/courses/${id}`, { courseTitle: 'Hijacked' }],
        ['DELETE', `/api/courses/${id}`, undefined],
        ['GET', `/api/courses/${id}/learners`, undefined],
        ['GET', `/api/courses/${id}/broadcasts`, undefined],
        ['PUT', `/api/courses/${id}/broadcast`, { message: 'Hijacked' }],
      ] as const) {
        const response = await inject({ method, url, headers, payload });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json()).toEqual({ error: 'Course not found', code: 'NOT_FOUND' });
      }
    }
    const [row] = await db().select().from(courses).where(eq(courses.id, course.id));
    expect(row?.courseTitle).not.toBe('Hijacked');
    expect(row?.isDeleted).toBe(false);
    expect(row?.broadcastMessage).toBeNull();
  });
});

describe('listing courses', () => {
  let app: TestApp;
  let person: SignedUp;
  const list = async (query: string) => {
    const response = await app.app.inject({
      method: 'GET',
      url: `/api/courses${query}`,
      headers: person.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<CourseListResponse>();
  };

  beforeAll(async () => {
    // An organization of its own, so the counts and orders are exact.
    app = testApp;
    person = await signUpViaApi(app.app);
    const organizationId = person.organization.id;
    const d = app.database.db;
    const alpha = await insertCourse(d, {
      organizationId,
      courseTitle: 'Alpha safety',
      externalCourseId: 'zz-alpha',
      createdAt: new Date('2025-01-03T00:00:00Z'),
    });
    const beta = await insertCourse(d, {
      organizationId,
      courseTitle: 'beta onboarding',
      externalCourseId: 'aa-beta',
      createdAt: new Date('2025-01-01T00:00:00Z'),
    });
    await insertCourse(d, {
      organizationId,
      courseTitle: 'Gamma 100%_done',
      externalCourseId: 'mm-gamma',
      createdAt: new Date('2025-01-02T00:00:00Z'),
    });
    await insertCourse(d, {
      organizationId,
      courseTitle: 'Deleted one',
      externalCourseId: 'deleted',
      isDeleted: true,
      deletedAt: new Date(),
    });
    const [l1, l2, l3] = await Promise.all(
      [1, 2, 3].map((n) =>
        insertLearner(d, { organizationId, email: `list-${n}-${randomUUID()}@example.com` }),
      ),
    );
    // Alpha: 3 runs by 2 learners; beta: 1 run by 1 learner but a later answer.
    for (const [courseId, learnerId, at] of [
      [alpha.id, l1!.id, '2026-02-01T00:00:00Z'],
      [alpha.id, l1!.id, '2026-02-02T00:00:00Z'],
      [alpha.id, l2!.id, '2026-02-03T00:00:00Z'],
      [beta.id, l3!.id, '2026-01-01T00:00:00Z'],
    ] as const) {
      await insertCourseRun(d, { organizationId, courseId, learnerId, createdAt: new Date(at) });
    }
    const question = await insertQuestion(d, { organizationId, courseId: beta.id });
    await insertResponse(d, {
      organizationId,
      courseId: beta.id,
      questionId: question.id,
      learnerId: l3!.id,
      createdAt: new Date('2026-03-01T00:00:00Z'),
    });
  });

  it('lists live courses with learners, views and last activity computed from runs, values and answers', async () => {
    const page = await list('');
    expect(page.total).toBe(3);
    expect(page.page).toBe(1);
    expect(page.pageSize).toBe(25);
    expect(
      page.items.map((course) => [course.courseTitle, course.learners, course.views, course.lastActivityAt]),
    ).toEqual([
      ['Alpha safety', 2, 3, '2026-02-03T00:00:00.000Z'],
      ['beta onboarding', 1, 1, '2026-03-01T00:00:00.000Z'],
      ['Gamma 100%_done', 0, 0, null],
    ]);
  });

  it('sorts by every key, both ways (nulls last), and pages', async () => {
    const titles = async (query: string) => (await list(query)).items.map((course) => course.courseTitle);
    expect(await titles('?sort=title&order=desc')).toEqual([
      'Gamma 100%_done',
      'beta onboarding',
      'Alpha safety',
    ]);
    expect(await titles('?sort=externalCourseId')).toEqual([
      'beta onboarding',
      'Gamma 100%_done',
      'Alpha safety',
    ]);
    expect(await titles('?sort=learners&order=desc')).toEqual([
      'Alpha safety',
      'beta onboarding',
      'Gamma 100%_done',
    ]);
    expect(await titles('?sort=views&order=asc')).toEqual([
      'Gamma 100%_done',
      'beta onboarding',
      'Alpha safety',
    ]);
    expect(await titles('?sort=lastActivity&order=desc')).toEqual([
      'beta onboarding',
      'Alpha safety',
      'Gamma 100%_done',
    ]);
    expect(await titles('?sort=lastActivity&order=asc')).toEqual([
      'Alpha safety',
      'beta onboarding',
      'Gamma 100%_done',
    ]);
    expect(await titles('?sort=createdAt&order=asc')).toEqual([
      'beta onboarding',
      'Gamma 100%_done',
      'Alpha safety',
    ]);
    const second = await list('?pageSize=2&page=2');
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(second.items.map((course) => course.courseTitle)).toEqual(['Gamma 100%_done']);
  });

  it('searches title and external id case-insensitively, with % and _ taken literally', async () => {
    expect((await list('?q=SAFETY')).items.map((c) => c.courseTitle)).toEqual(['Alpha safety']);
    expect((await list('?q=aa-bet')).items.map((c) => c.courseTitle)).toEqual(['beta onboarding']);
    expect((await list('?q=100%25_')).items.map((c) => c.courseTitle)).toEqual(['Gamma 100%_done']);
    expect((await list('?q=%25')).total).toBe(1);
    expect((await list('?q=deleted')).total).toBe(0);
  });

  it('refuses a bad sort, page or page size with a message', async () => {
    for (const [query, message] of [
      [
        '?sort=bogus',
        'Sort must be one of: title, externalCourseId, learners, views, lastActivity, createdAt',
      ],
      ['?page=0', 'Page must be a whole number of 1 or more'],
      ['?pageSize=101', 'Page size must be a whole number from 1 to 100'],
      ['?order=up', undefined],
    ] as const) {
      const response = await app.app.inject({
        method: 'GET',
        url: `/api/courses${query}`,
        headers: person.headers,
      });
      expect(response.statusCode).toBe(400);
      if (message) expect(response.json<{ error: string }>().error).toBe(message);
    }
  });

  it('returns one course with its counts', async () => {
    const [alpha] = (await list('?q=alpha')).items;
    const response = await app.app.inject({
      method: 'GET',
      url: `/api/courses/${alpha!.id}`,
      headers: person.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(alpha);
  });

  it('exports the filtered, sorted list as CSV', async () => {
    const response = await app.app.inject({
      method: 'GET',
      url: '/api/courses/export?sort=views&order=desc&q=a',
      headers: person.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="courses.csv"');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Title,External ID,Description,Learners,Views,Last activity,Created,Broadcast message',
    );
    expect(
      lines.slice(1).map((line) => line.split(',').slice(0, 2).concat(line.split(',').slice(3, 5))),
    ).toEqual([
      ['Alpha safety', 'zz-alpha', '2', '3'],
      ['beta onboarding', 'aa-beta', '1', '1'],
      ['Gamma 100%_done', 'mm-gamma', '0', '0'],
    ]);
    const other = await app.app.inject({ method: 'GET', url: '/api/courses/export', headers: owner.headers });
    expect(other.body).not.toContain('Alpha safety');
  });
});

describe("a course's learners", () => {
  it('lists first_access, last_access and access_count from course runs, with search, sort and pages', async () => {
    const { course, ada, bob } = await seedCourseWithData();
    const url = `/api/courses/${course.id}/learners`;
    const response = await inject({ method: 'GET', url, headers: owner.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json<Paginated<CourseLearnerBody>>()).toEqual({
      items: [
        {
          id: ada.id,
          name: 'Ada Byron',
          email: ada.email,
          first_access: '2026-01-01T10:00:00.000Z',
          last_access: '2026-01-05T10:00:00.000Z',
          access_count: 2,
        },
        {
          id: bob.id,
          name: 'Bob Stone',
          email: bob.email,
          first_access: '2026-01-03T10:00:00.000Z',
          last_access: '2026-01-03T10:00:00.000Z',
          access_count: 1,
        },
      ],
      total: 2,
      page: 1,
      pageSize: 25,
    });
    const names = async (query: string) =>
      (await inject({ method: 'GET', url: `${url}${query}`, headers: owner.headers }))
        .json<Paginated<CourseLearnerBody>>()
        .items.map((learner) => learner.name);
    expect(await names('?sort=name&order=desc')).toEqual(['Bob Stone', 'Ada Byron']);
    expect(await names('?sort=firstAccess&order=desc')).toEqual(['Bob Stone', 'Ada Byron']);
    expect(await names('?sort=accessCount&order=asc')).toEqual(['Bob Stone', 'Ada Byron']);
    expect(await names('?sort=email&order=asc')).toEqual(['Ada Byron', 'Bob Stone']);
    expect(await names('?q=BOB')).toEqual(['Bob Stone']);
    expect(await names(`?q=${encodeURIComponent(ada.email.toUpperCase())}`)).toEqual(['Ada Byron']);
    expect(await names('?pageSize=1&page=2')).toEqual(['Bob Stone']);
    const bad = await inject({ method: 'GET', url: `${url}?sort=views`, headers: owner.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toBe(
      'Sort must be one of: name, email, firstAccess, lastAccess, accessCount',
    );

    const csv = await inject({
      method: 'GET',
      url: `${url}/export?sort=name&order=asc`,
      headers: owner.headers,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(
      csv.body
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n'),
    ).toEqual([
      'Name,Email,First access,Last access,Access count',
      `Ada Byron,${ada.email},2026-01-01T10:00:00.000Z,2026-01-05T10:00:00.000Z,2`,
      `Bob Stone,${bob.email},2026-01-03T10:00:00.000Z,2026-01-03T10:00:00.000Z,1`,
    ]);
  });
});

describe('deleting a course', () => {
  const remove = (courseId: string, query = '', payload?: object, headers = owner.headers) =>
    inject({
      method: 'DELETE',
      url: `/api/courses/${courseId}${query}`,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });

  async function seedReferences(courseId: string, variableId: string, questionId: string) {
    const organizationId = orgId();
    const report = await insertCustomReport(db(), { organizationId });
    const otherCourse = randomUUID();
    const item = (subject: ReportSubject) => ({
      organizationId,
      reportId: report.id,
      query: {
        subject,
        measure: null,
        breakdown: { kind: 'none' as const, variableName: null },
        filters: { courseIds: [], period: null, values: [], activity: [] },
        sort: null,
        limit: null,
      },
    });
    await db()
      .insert(customReportItems)
      .values([
        item({ kind: 'variable', variableIds: [variableId] }),
        item({ kind: 'question', questionId }),
        item({ kind: 'identifier', courseId, slideNumber: 1, questionNumber: 1, questionText: null }),
        item({ kind: 'courses', courseIds: [courseId] }),
        // Another course's item stays whatever happens to this one.
        item({ kind: 'courses', courseIds: [otherCourse] }),
      ]);
    const nodes: PipelineNode[] = [
      { id: 'n1', type: 'course', data: { courseId } },
      { id: 'n2', type: 'action', data: { actionId: 'x' } },
      { id: 'n3', type: 'course', data: { courseId: otherCourse } },
    ];
    const edges: PipelineEdge[] = [
      { id: 'e1', source: 'n1', target: 'n2' },
      { id: 'e2', source: 'n3', target: 'n2' },
    ];
    const [pipeline] = await db()
      .insert(pipelines)
      .values({ organizationId, name: 'Follow-up', nodes, edges })
      .returning();
    return { report, pipeline: pipeline!, otherCourse };
  }

  /** The report's items by what they read. */
  async function referenceCounts(reportId: string) {
    const rows = await db().select().from(customReportItems).where(eq(customReportItems.reportId, reportId));
    const count = (kind: ReportSubject['kind']) =>
      rows.filter((row) => row.query.subject.kind === kind).length;
    return {
      variables: count('variable'),
      questions: count('question'),
      identifiers: count('identifier'),
      courses: count('courses'),
    };
  }

  it('by default marks the course deleted and removes its runs, values and responses, nothing else', async () => {
    const { course, variable, question } = await seedCourseWithData();
    const bystander = await seedCourseWithData();
    const { report, pipeline } = await seedReferences(course.id, variable.id, question.id);

    const response = await remove(course.id);
    expect(response.statusCode).toBe(200);
    expect(response.json<DeleteCourseResponse>()).toEqual({
      id: course.id,
      deleted: true,
      keepLearnerData: false,
      deleteRelatedReports: false,
      removePipelineReferences: false,
      removed: { courseRuns: 3, variableValues: 2, responses: 1, reportEntries: 0, pipelineNodes: 0 },
      pipelines: [],
    });
    const [row] = await db().select().from(courses).where(eq(courses.id, course.id));
    expect(row?.isDeleted).toBe(true);
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect(await countRows(courseRuns, course.id)).toBe(0);
    expect(await countRows(learnerVariableValues, course.id)).toBe(0);
    expect(await countRows(courseRunQuestions, course.id)).toBe(0);
    // The other course's data, the reports and the pipeline are untouched.
    expect(await countRows(courseRuns, bystander.course.id)).toBe(3);
    expect(await countRows(learnerVariableValues, bystander.course.id)).toBe(2);
    expect(await countRows(courseRunQuestions, bystander.course.id)).toBe(1);
    expect(await referenceCounts(report.id)).toEqual({
      variables: 1,
      questions: 1,
      identifiers: 1,
      courses: 2,
    });
    const [samePipeline] = await db().select().from(pipelines).where(eq(pipelines.id, pipeline.id));
    expect(samePipeline?.nodes).toHaveLength(3);

    const [activity] = await db()
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.kind, 'course.deleted'), eq(activityEvents.subjectId, course.id)));
    expect(activity).toMatchObject({
      organizationId: orgId(),
      actorUserId: owner.user.id,
      subjectType: 'course',
      summary: `Course “${course.courseTitle}” deleted`,
    });
    expect(activity?.details).toMatchObject({
      keepLearnerData: false,
      deleteRelatedReports: false,
      removePipelineReferences: false,
    });

    // Gone from the list and the detail; a second deletion is a 404.
    const listed = await inject({
      method: 'GET',
      url: `/api/courses?q=${encodeURIComponent(course.courseTitle)}`,
      headers: owner.headers,
    });
    expect(listed.json<CourseListResponse>().total).toBe(0);
    expect((await remove(course.id)).statusCode).toBe(404);
  });

  it('keepLearnerData keeps runs, values and responses', async () => {
    const { course } = await seedCourseWithData();
    const response = await remove(course.id, '?keepLearnerData=true');
    expect(response.statusCode).toBe(200);
    expect(response.json<DeleteCourseResponse>()).toMatchObject({
      keepLearnerData: true,
      removed: { courseRuns: 0, variableValues: 0, responses: 0 },
    });
    expect(await countRows(courseRuns, course.id)).toBe(3);
    expect(await countRows(learnerVariableValues, course.id)).toBe(2);
    expect(await countRows(courseRunQuestions, course.id)).toBe(1);
    const [row] = await db().select().from(courses).where(eq(courses.id, course.id));
    expect(row?.isDeleted).toBe(true);
  });

  it("deleteRelatedReports removes the custom-report entries pointing at the course, not the report or others'", async () => {
    const { course, variable, question } = await seedCourseWithData();
    const other = await seedCourseWithData();
    const { report } = await seedReferences(course.id, variable.id, question.id);
    const { report: otherReport } = await seedReferences(
      other.course.id,
      other.variable.id,
      other.question.id,
    );

    // Flags in the JSON body work as well as in the query string.
    const response = await remove(course.id, '', { deleteRelatedReports: true, keepLearnerData: true });
    expect(response.statusCode).toBe(200);
    expect(response.json<DeleteCourseResponse>()).toMatchObject({
      keepLearnerData: true,
      deleteRelatedReports: true,
      removePipelineReferences: false,
      removed: { reportEntries: 4, pipelineNodes: 0, courseRuns: 0 },
    });
    expect(await referenceCounts(report.id)).toEqual({
      variables: 0,
      questions: 0,
      identifiers: 0,
      courses: 1,
    });
    expect(await referenceCounts(otherReport.id)).toEqual({
      variables: 1,
      questions: 1,
      identifiers: 1,
      courses: 2,
    });
    expect(await db().select().from(customReports).where(eq(customReports.id, report.id))).toHaveLength(1);
  });

  it('tells the other domains through the outbox in the same transaction, or not at all', async () => {
    const { course } = await seedCourseWithData();
    const published: { event: unknown; inTransaction: boolean }[] = [];
    const publish: Publish = async (tx, event) => {
      // The deletion is visible inside the transaction that publishes it.
      const [row] = await tx.select().from(courses).where(eq(courses.id, course.id));
      published.push({ event, inTransaction: row?.isDeleted === true });
    };
    const input = {
      organizationId: orgId(),
      userId: owner.user.id,
      courseId: course.id,
      keepLearnerData: false,
      deleteRelatedReports: false,
      removePipelineReferences: false,
    };
    await deleteCourse(db(), { ...input, publish });
    expect(published).toEqual([
      {
        event: {
          type: 'course.deleted',
          organizationId: orgId(),
          courseId: course.id,
          removePipelineReferences: false,
        },
        inTransaction: true,
      },
    ]);

    // A publish that fails takes the deletion back with it.
    const other = await seedCourseWithData();
    const failing: Publish = () => Promise.reject(new Error('outbox unavailable'));
    await expect(
      deleteCourse(db(), { ...input, courseId: other.course.id, publish: failing }),
    ).rejects.toThrow('outbox unavailable');
    const [row] = await db().select().from(courses).where(eq(courses.id, other.course.id));
    expect(row?.isDeleted).toBe(false);
    expect(await countRows(courseRuns, other.course.id)).toBeGreaterThan(0);
  });

  it('removePipelineReferences names the pipelines that lose the course nodes, which the pipelines then remove with their edges', async () => {
    const { course, variable, question } = await seedCourseWithData();
    const { pipeline, otherCourse } = await seedReferences(course.id, variable.id, question.id);
    const response = await remove(course.id, '?removePipelineReferences=1&keepLearnerData=0');
    expect(response.statusCode).toBe(200);
    expect(response.json<DeleteCourseResponse>()).toMatchObject({
      keepLearnerData: false,
      removePipelineReferences: true,
      removed: { pipelineNodes: 1, reportEntries: 0, courseRuns: 3 },
      pipelines: [{ id: pipeline.id, name: 'Follow-up', removedNodes: 1 }],
    });
    // The pipelines module removes the nodes when it handles `course.deleted` (here, by hand).
    const [unchanged] = await db().select().from(pipelines).where(eq(pipelines.id, pipeline.id));
    expect(unchanged?.nodes).toHaveLength(3);
    await removeCourseFromPipelines(db(), pipelineQueue(testApp.jobs), {
      organizationId: orgId(),
      courseId: course.id,
      removePipelineReferences: true,
    });
    const [row] = await db().select().from(pipelines).where(eq(pipelines.id, pipeline.id));
    expect(row?.version).toBe(2);
    expect(row?.nodes).toEqual([
      { id: 'n2', type: 'action', data: { actionId: 'x' } },
      { id: 'n3', type: 'course', data: { courseId: otherCourse } },
    ]);
    expect(row?.edges).toEqual([{ id: 'e2', source: 'n3', target: 'n2' }]);
  });

  it('refuses a flag that is not a boolean with 400 and deletes nothing', async () => {
    const { course } = await seedCourseWithData();
    for (const [query, payload] of [
      ['?keepLearnerData=yes', undefined],
      ['', { removePipelineReferences: 'true' }],
    ] as const) {
      const response = await remove(course.id, query, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ code: string }>().code).toBe('VALIDATION_ERROR');
    }
    const [row] = await db().select().from(courses).where(eq(courses.id, course.id));
    expect(row?.isDeleted).toBe(false);
    expect(await countRows(courseRuns, course.id)).toBe(3);
  });

  it("another organization's member gets 404 and the course stays", async () => {
    const { course } = await seedCourseWithData();
    const response = await remove(course.id, '', undefined, stranger.headers);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Course not found', code: 'NOT_FOUND' });
    expect(await countRows(courseRuns, course.id)).toBe(3);
  });
});

describe('deletion failures', () => {
  let app: TestApp;
  let person: SignedUp;

  beforeAll(async () => {
    app = await createTestApp();
    person = await signUpViaApi(app.app);
  });
  afterAll(async () => {
    await app.close();
  });

  it("answers 500 'Failed to delete course' and rolls everything back", async () => {
    const d = app.database.db;
    const organizationId = person.organization.id;
    const course = await insertCourse(d, { organizationId });
    const learner = await insertLearner(d, { organizationId });
    await insertCourseRun(d, { organizationId, courseId: course.id, learnerId: learner.id });
    // The last step (marking the course deleted) fails after the runs were deleted.
    await d.execute(sql`
      create function refuse_course_delete() returns trigger language plpgsql as $$
      begin raise exception 'simulated failure'; end $$`);
    await d.execute(sql`
      create trigger refuse_course_delete before update on courses
      for each row when (new.is_deleted) execute function refuse_course_delete()`);
    const response = await app.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}`,
      headers: person.headers,
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Failed to delete course', code: 'INTERNAL_ERROR' });
    expect(await d.select().from(courseRuns).where(eq(courseRuns.courseId, course.id))).toHaveLength(1);
    const [row] = await d.select().from(courses).where(eq(courses.id, course.id));
    expect(row?.isDeleted).toBe(false);
    await d.execute(sql`drop trigger refuse_course_delete on courses`);
  });

  it('turns a missing deleted column into the schema-update message', async () => {
    const d = app.database.db;
    const course = await insertCourse(d, { organizationId: person.organization.id });
    await d.execute(sql`alter table courses rename column deleted_at to deleted_at_old`);
    const response = await app.app.inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}`,
      headers: person.headers,
    });
    expect(response.statusCode).toBe(500);
    expect(response.json<{ error: string }>().error).toBe(
      'Database schema needs update. Please contact your administrator to run the course-deletion.sql script.',
    );
  });
});

describe('broadcasts', () => {
  it('sets and clears the message in one step with the history, and logs broadcast.set', async () => {
    const course = await insertCourse(db(), { organizationId: orgId(), courseTitle: 'Broadcast course' });
    const url = `/api/courses/${course.id}/broadcast`;

    const set = await inject({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { message: '  Exam on Friday  ' },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({
      currentMessage: 'Exam on Friday',
      broadcast: {
        id: expect.any(String),
        message: 'Exam on Friday',
        authorName: 'Grace Hopper',
        createdAt: expect.any(String),
      },
    });
    const [row] = await db().select().from(courses).where(eq(courses.id, course.id));
    expect(row?.broadcastMessage).toBe('Exam on Friday');

    const cleared = await inject({ method: 'PUT', url, headers: owner.headers, payload: { message: null } });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json<{ currentMessage: string | null }>().currentMessage).toBeNull();

    const history = await inject({
      method: 'GET',
      url: `/api/courses/${course.id}/broadcasts`,
      headers: owner.headers,
    });
    expect(history.statusCode).toBe(200);
    const body = history.json<BroadcastListResponse>();
    expect(body.currentMessage).toBeNull();
    expect(body.total).toBe(2);
    expect(body.items.map((item) => [item.message, item.authorName])).toEqual([
      [null, 'Grace Hopper'],
      ['Exam on Friday', 'Grace Hopper'],
    ]);
    const paged = await inject({
      method: 'GET',
      url: `/api/courses/${course.id}/broadcasts?pageSize=1&page=2`,
      headers: owner.headers,
    });
    expect(paged.json<BroadcastListResponse>().items.map((item) => item.message)).toEqual(['Exam on Friday']);

    const activities = await db()
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.kind, 'broadcast.set'), eq(activityEvents.subjectId, course.id)));
    expect(activities.map((activity) => activity.summary).sort()).toEqual([
      'Broadcast of “Broadcast course” cleared',
      'Broadcast of “Broadcast course” set',
    ]);
    expect(activities.every((activity) => activity.actorUserId === owner.user.id)).toBe(true);

    // The course's detail carries the current message too.
    const detail = await inject({ method: 'GET', url: `/api/courses/${course.id}`, headers: owner.headers });
    expect(detail.json<CourseBody>().broadcastMessage).toBeNull();
  });

  it('refuses an empty, too long or missing message with 400 and changes nothing', async () => {
    const course = await insertCourse(db(), { organizationId: orgId(), broadcastMessage: 'Keep me' });
    const url = `/api/courses/${course.id}/broadcast`;
    for (const [payload, message] of [
      [{ message: '   ' }, 'Write a message, or clear the broadcast instead'],
      [{ message: 'x'.repeat(1001) }, 'Broadcast message must be at most 1000 characters long'],
      [{}, undefined],
      [{ message: 42 }, undefined],
    ] as const) {
      const response = await inject({ method: 'PUT', url, headers: owner.headers, payload });
      expect(response.statusCode).toBe(400);
      if (message) expect(response.json<{ error: string }>().error).toBe(message);
    }
    const [row] = await db().select().from(courses).where(eq(courses.id, course.id));
    expect(row?.broadcastMessage).toBe('Keep me');
    expect(await db().select().from(broadcasts).where(eq(broadcasts.courseId, course.id))).toHaveLength(0);
  });
});
