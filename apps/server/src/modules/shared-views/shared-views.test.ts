import type {
  QuestionLeadersResponse,
  QuestionReportResponse,
  SharedViewContext,
  ShareSettings,
  VariableChartResponse,
  VariableLeadersResponse,
  VariableReportResponse,
} from '@courselens/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertCourse,
  insertLearner,
  insertQuestion,
  insertResponse,
  insertVariable,
  insertVariableValue,
} from '../../db/factories/learning';
import { activityEvents, sharedViews, type Course, type Question, type Variable } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
let course: Course;
let score: Variable;
let question: Question;

const NOT_SHARED = { error: 'This view is not shared', code: 'NOT_FOUND' };

const call = (method: 'GET' | 'PUT' | 'POST', url: string, as: SignedUp | null, payload?: object) =>
  testApp.app.inject({
    method,
    url,
    ...(as ? { headers: as.headers } : {}),
    ...(payload ? { payload } : {}),
  });
const shareOf = (path: string, as: SignedUp = owner) => call('GET', `${path}/share`, as);
const setShare = (path: string, enabled: boolean, as: SignedUp = owner) =>
  call('PUT', `${path}/share`, as, { enabled });
const rotate = (path: string, as: SignedUp = owner) => call('POST', `${path}/share/rotate`, as);
const variableView = (view: string, token: string, extra = '') =>
  call(
    'GET',
    `/api/shared/course-variables/${view}?courseId=${course.id}&name=final_score&token=${encodeURIComponent(token)}${extra}`,
    null,
  );
const questionView = (view: string, token: string, id = question.id) =>
  call('GET', `/api/shared/questions/${id}/${view}?token=${encodeURIComponent(token)}`, null);

async function activityKinds(subjectId: string) {
  const rows = await testApp.database.db
    .select({ kind: activityEvents.kind, summary: activityEvents.summary })
    .from(activityEvents)
    .where(
      and(eq(activityEvents.organizationId, owner.organization.id), eq(activityEvents.subjectId, subjectId)),
    )
    .orderBy(activityEvents.createdAt);
  return rows;
}

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  stranger = await signUpViaApi(testApp.app);
  const db = testApp.database.db;
  const organizationId = owner.organization.id;
  course = await insertCourse(db, { organizationId, courseTitle: 'Safety' });
  score = await insertVariable(db, {
    organizationId,
    courseId: course.id,
    name: 'final_score',
    dataType: 'number',
  });
  question = await insertQuestion(db, { organizationId, courseId: course.id, questionText: 'Which helmet?' });
  for (const [name, email, points] of [
    ['Ann Archer', 'ann@example.com', 90],
    ['Bob Baker', 'bob@example.com', 75],
  ] as const) {
    const learner = await insertLearner(db, { organizationId, name, email });
    await insertVariableValue(db, {
      organizationId,
      variableId: score.id,
      courseId: course.id,
      learnerId: learner.id,
      raw: points,
      dataType: 'number',
    });
    await insertResponse(db, {
      organizationId,
      courseId: course.id,
      questionId: question.id,
      learnerId: learner.id,
      pointsAssigned: points / 10,
    });
  }
});

afterAll(async () => {
  await testApp.close();
});

describe('sharing a course variable', () => {
  const path = () => `/api/variables/${score.id}`;

  it('is off until switched on, then has an unguessable token and logs the change', async () => {
    const before = (await shareOf(path())).json<ShareSettings>();
    expect(before).toMatchObject({ kind: 'variable', enabled: false, token: null, viewCount: 0 });
    expect(before).toMatchObject({ courseId: course.id, variableName: 'final_score' });
    expect((await variableView('report', 'x'.repeat(43))).json()).toEqual(NOT_SHARED);

    const on = await setShare(path(), true);
    expect(on.statusCode).toBe(200);
    const settings = on.json<ShareSettings>();
    expect(settings.enabled).toBe(true);
    expect(settings.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Switching to the state it has changes nothing and logs nothing.
    expect((await setShare(path(), true)).json<ShareSettings>().token).toBe(settings.token);
    expect(await activityKinds(score.id)).toEqual([
      { kind: 'report.shared', summary: 'Sharing of variable “final_score” switched on' },
    ]);
  });

  it('serves report, chart and leaders without sign-in, without e-mails, and counts views', async () => {
    const { token } = (await shareOf(path())).json<ShareSettings>();
    const report = await variableView('report', token ?? '');
    expect(report.statusCode).toBe(200);
    const body = report.json<VariableReportResponse>();
    expect(body.items.map((row) => row.learnerName).sort()).toEqual(['Ann Archer', 'Bob Baker']);
    expect(body.summary.mean).toBe(82.5);
    expect(report.body).not.toContain('@');
    const chart = await variableView('chart', token ?? '');
    expect(chart.json<VariableChartResponse>().distribution.kind).toBe('histogram');
    expect(chart.body).not.toContain('@');
    const leaders = await variableView('leaders', token ?? '', '&limit=1');
    expect(leaders.json<VariableLeadersResponse>().items.map((row) => row.learnerName)).toEqual([
      'Ann Archer',
    ]);
    expect(leaders.body).not.toContain('@');
    // Each view names the organization sharing it, and nothing more about it.
    for (const response of [report, chart, leaders]) {
      expect(response.json<SharedViewContext>().organization).toEqual({ name: owner.organization.name });
    }
    expect((await shareOf(path())).json<ShareSettings>().viewCount).toBe(3);
  });

  it('offers no learner search: a search in the link is ignored, so it cannot probe e-mails', async () => {
    const { token } = (await shareOf(path())).json<ShareSettings>();
    for (const q of ['ann@example.com', 'bob@', 'Ann']) {
      const report = await variableView('report', token ?? '', `&q=${encodeURIComponent(q)}`);
      expect(report.statusCode).toBe(200);
      expect(report.json<VariableReportResponse>().total).toBe(2);
    }
  });

  it('answers the same 404 for a wrong token, another name or course, and after rotation or switching off', async () => {
    const { token: first } = (await shareOf(path())).json<ShareSettings>();
    const token = first ?? '';
    const failures = [
      await variableView('report', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`),
      await variableView('report', ''),
      await variableView('report', 'short'),
      await call(
        'GET',
        `/api/shared/course-variables/report?courseId=${course.id}&name=other&token=${token}`,
        null,
      ),
      await call(
        'GET',
        `/api/shared/course-variables/leaders?courseId=not-a-uuid&name=final_score&token=${token}`,
        null,
      ),
      await call('GET', `/api/shared/course-variables/chart?name=final_score&token=${token}`, null),
    ];
    for (const response of failures) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_SHARED);
    }

    const rotated = (await rotate(path())).json<ShareSettings>();
    expect(rotated.token).not.toBe(token);
    expect(rotated.enabled).toBe(true);
    expect((await variableView('report', token)).json()).toEqual(NOT_SHARED);
    expect((await variableView('report', rotated.token ?? '')).statusCode).toBe(200);

    const off = (await setShare(path(), false)).json<ShareSettings>();
    expect(off).toMatchObject({ enabled: false, token: rotated.token });
    expect((await variableView('leaders', rotated.token ?? '')).json()).toEqual(NOT_SHARED);
    expect((await activityKinds(score.id)).map((row) => row.kind)).toEqual([
      'report.shared',
      'report.shared',
      'report.unshared',
    ]);
  });

  it("is another organization's 404 and needs a signed-in member", async () => {
    for (const response of [
      await shareOf(path(), stranger),
      await setShare(path(), true, stranger),
      await rotate(path(), stranger),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Variable not found', code: 'NOT_FOUND' });
    }
    expect((await call('PUT', `${path()}/share`, null, { enabled: true })).statusCode).toBe(401);
    const bad = await call('PUT', `${path()}/share`, owner, { enabled: 'yes' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('sharing a question', () => {
  const path = () => `/api/questions/${question.id}`;

  it('serves the shared question views only while on, names only', async () => {
    const settings = (await setShare(path(), true)).json<ShareSettings>();
    expect(settings).toMatchObject({
      kind: 'question',
      enabled: true,
      questionId: question.id,
      courseId: course.id,
    });
    const token = settings.token ?? '';
    const report = await questionView('report', token);
    expect(report.statusCode).toBe(200);
    expect(report.json<QuestionReportResponse>().total).toBe(2);
    expect(report.body).not.toContain('@');
    expect(report.json<SharedViewContext>().organization).toEqual({ name: owner.organization.name });
    const searched = await call(
      'GET',
      `/api/shared/questions/${question.id}/report?token=${encodeURIComponent(token)}&q=ann%40example.com`,
      null,
    );
    expect(searched.json<QuestionReportResponse>().total).toBe(2);
    const chart = await questionView('chart', token);
    expect(chart.statusCode).toBe(200);
    expect(chart.json<SharedViewContext>().organization).toEqual({ name: owner.organization.name });
    const leaders = await questionView('leaders', token);
    expect(leaders.json<SharedViewContext>().organization).toEqual({ name: owner.organization.name });
    expect(leaders.json<QuestionLeadersResponse>().items.map((row) => [row.rank, row.learnerName])).toEqual([
      [1, 'Ann Archer'],
      [2, 'Bob Baker'],
    ]);
    expect(leaders.body).not.toContain('@');
    for (const response of [
      await questionView('report', token, '00000000-0000-4000-8000-000000000000'),
      await questionView('report', token, 'nope'),
      await questionView('chart', 'wrong-token-wrong-token'),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_SHARED);
    }
    await setShare(path(), false);
    expect((await questionView('leaders', token)).json()).toEqual(NOT_SHARED);
    const [row] = await testApp.database.db
      .select()
      .from(sharedViews)
      .where(eq(sharedViews.questionId, question.id));
    expect(row?.viewCount).toBe(4);
    expect(await activityKinds(question.id)).toEqual([
      { kind: 'report.shared', summary: 'Sharing of question “Which helmet?” switched on' },
      { kind: 'report.unshared', summary: 'Sharing of question “Which helmet?” switched off' },
    ]);
  });
});
