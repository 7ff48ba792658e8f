import type {
  ListCourseQuestionsResponse,
  ListQuestionsResponse,
  QuestionListItem,
} from '@courselens/contracts';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCourse, insertLearner, insertQuestion, insertResponse } from '../../db/factories/learning';
import { activityEvents, questions, type Course, type Question } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
let alpha: Course;
let beta: Course;
let gone: Course;
let foreignCourse: Course;
let ppe: Question;
let exits: Question;
let hidden: Question;
let unanswered: Question;
let goneQuestion: Question;
let foreignQuestion: Question;

const inject = (options: InjectOptions) => testApp.app.inject(options);
const get = (url: string, as: SignedUp = owner) => inject({ method: 'GET', url, headers: as.headers });
const patch = (id: string, payload: unknown, as: SignedUp = owner) =>
  inject({ method: 'PATCH', url: `/api/questions/${id}`, headers: as.headers, payload: payload as object });

async function readQuestion(id: string) {
  const [row] = await testApp.database.db.select().from(questions).where(eq(questions.id, id));
  return row;
}

const ids = (body: { items: QuestionListItem[] }) => body.items.map((item) => item.id);

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  stranger = await signUpViaApi(testApp.app);
  const db = testApp.database.db;
  const organizationId = owner.organization.id;
  alpha = await insertCourse(db, { organizationId, courseTitle: 'Alpha safety' });
  beta = await insertCourse(db, { organizationId, courseTitle: 'Beta sales' });
  gone = await insertCourse(db, {
    organizationId,
    courseTitle: 'Gone',
    isDeleted: true,
    deletedAt: new Date(),
  });
  ppe = await insertQuestion(db, {
    organizationId,
    courseId: alpha.id,
    interactionId: 'Slide1_MultiChoice_1',
    slideNumber: 1,
    questionNumber: 1,
    questionText: 'Which PPE protects your eyes?',
    correctAnswer: 'Goggles',
  });
  exits = await insertQuestion(db, {
    organizationId,
    courseId: alpha.id,
    interactionId: 'Slide2_MultiChoice_1',
    slideNumber: 2,
    questionNumber: 1,
    questionText: 'Where are the fire exits?',
  });
  hidden = await insertQuestion(db, {
    organizationId,
    courseId: alpha.id,
    interactionId: 'Slide3_TrueFalse_1',
    slideNumber: 3,
    questionNumber: 1,
    questionText: 'Retired question',
    active: false,
  });
  unanswered = await insertQuestion(db, {
    organizationId,
    courseId: beta.id,
    interactionId: 'Q_100%_done',
    slideNumber: 1,
    questionNumber: 2,
    questionText: 'What is a lead?',
  });
  goneQuestion = await insertQuestion(db, {
    organizationId,
    courseId: gone.id,
    questionText: 'Gone question?',
  });
  const [ann, bob, cyd] = await Promise.all([
    insertLearner(db, { organizationId }),
    insertLearner(db, { organizationId }),
    insertLearner(db, { organizationId }),
  ]);
  const answer = (question: Question, learnerId: string, correct: boolean) =>
    insertResponse(db, {
      organizationId,
      questionId: question.id,
      courseId: question.courseId,
      learnerId,
      correct,
    });
  // PPE: 4 answers, 2 right, 3 learners (Ann twice). Exits: 1 right. Hidden: 1 wrong.
  await answer(ppe, ann.id, false);
  await answer(ppe, ann.id, true);
  await answer(ppe, bob.id, true);
  await answer(ppe, cyd.id, false);
  await answer(exits, ann.id, true);
  await answer(hidden, bob.id, false);
  await answer(goneQuestion, bob.id, true);

  foreignCourse = await insertCourse(db, { organizationId: stranger.organization.id });
  foreignQuestion = await insertQuestion(db, {
    organizationId: stranger.organization.id,
    courseId: foreignCourse.id,
    questionText: 'Which PPE protects your eyes?',
  });
});

afterAll(async () => {
  await testApp.close();
});

describe('GET /api/questions', () => {
  it('answers 401 "Not authenticated" without a session', async () => {
    for (const url of [
      '/api/questions',
      '/api/questions/export',
      '/api/questions/courses',
      `/api/courses/${alpha.id}/questions`,
      `/api/courses/${alpha.id}/questions/export`,
    ]) {
      const response = await inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toEqual({ error: 'Not authenticated', code: 'UNAUTHENTICATED' });
    }
    const response = await inject({
      method: 'PATCH',
      url: `/api/questions/${ppe.id}`,
      payload: { active: false },
    });
    expect(response.statusCode).toBe(401);
    expect((await readQuestion(ppe.id))?.active).toBe(true);
  });

  it('lists only active questions of live courses, with totals aggregated from the answers', async () => {
    const response = await get('/api/questions');
    expect(response.statusCode).toBe(200);
    const body = response.json<ListQuestionsResponse>();
    expect(ids(body)).toEqual([ppe.id, exits.id, unanswered.id]);
    expect(body).toMatchObject({ total: 3, page: 1, pageSize: 25 });
    expect(body.items[0]).toEqual({
      id: ppe.id,
      courseId: alpha.id,
      courseTitle: 'Alpha safety',
      interactionId: 'Slide1_MultiChoice_1',
      slideNumber: 1,
      questionNumber: 1,
      questionText: 'Which PPE protects your eyes?',
      correctAnswer: 'Goggles',
      active: true,
      totalResponses: 4,
      correctResponses: 2,
      uniqueLearnersCount: 3,
      correctRate: 0.5,
      createdAt: expect.any(String),
    });
    expect(body.items[1]).toMatchObject({
      totalResponses: 1,
      correctResponses: 1,
      uniqueLearnersCount: 1,
      correctRate: 1,
    });
    expect(body.items[2]).toMatchObject({
      totalResponses: 0,
      correctResponses: 0,
      uniqueLearnersCount: 0,
      correctRate: null,
    });
    expect(body.totals).toEqual({
      questions: 3,
      totalResponses: 5,
      correctResponses: 3,
      // (3 + 1 + 0) learners over 3 questions.
      averageLearnersPerQuestion: 4 / 3,
      correctRate: 0.6,
    });
  });

  it('lists the hidden questions with active=false, so they can be turned on again', async () => {
    const body = (await get('/api/questions?active=false')).json<ListQuestionsResponse>();
    expect(ids(body)).toEqual([hidden.id]);
    expect(body.items[0]).toMatchObject({
      active: false,
      totalResponses: 1,
      correctResponses: 0,
      correctRate: 0,
    });
    expect(body.totals).toMatchObject({ questions: 1, totalResponses: 1, correctRate: 0 });
  });

  it('shows another organization only its own questions', async () => {
    const body = (await get('/api/questions', stranger)).json<ListQuestionsResponse>();
    expect(ids(body)).toEqual([foreignQuestion.id]);
    expect(body.totals).toMatchObject({ questions: 1, totalResponses: 0 });
  });

  it('searches text and interaction id, filters by course', async () => {
    expect(ids((await get('/api/questions?q=ppe')).json())).toEqual([ppe.id]);
    expect(ids((await get('/api/questions?q=slide2_multi')).json())).toEqual([exits.id]);
    expect(ids((await get('/api/questions?q=100%25_')).json())).toEqual([unanswered.id]);
    expect(ids((await get('/api/questions?q=retired')).json())).toEqual([]);
    const byCourse = (await get(`/api/questions?courseId=${beta.id}`)).json<ListQuestionsResponse>();
    expect(ids(byCourse)).toEqual([unanswered.id]);
    expect(byCourse.totals).toMatchObject({ questions: 1, totalResponses: 0, correctRate: null });
    expect((await get(`/api/questions?courseId=${foreignCourse.id}`)).json()).toMatchObject({
      total: 0,
      items: [],
    });
  });

  it('sorts by the totals and the correct rate, unanswered questions last; pages', async () => {
    expect(ids((await get('/api/questions?sort=correctRate&order=desc')).json())).toEqual([
      exits.id,
      ppe.id,
      unanswered.id,
    ]);
    expect(ids((await get('/api/questions?sort=correctRate&order=asc')).json())).toEqual([
      ppe.id,
      exits.id,
      unanswered.id,
    ]);
    expect(ids((await get('/api/questions?sort=totalResponses&order=desc')).json())).toEqual([
      ppe.id,
      exits.id,
      unanswered.id,
    ]);
    expect(ids((await get('/api/questions?sort=uniqueLearners&order=asc')).json())).toEqual([
      unanswered.id,
      exits.id,
      ppe.id,
    ]);
    expect(ids((await get('/api/questions?sort=slide')).json())).toEqual([ppe.id, unanswered.id, exits.id]);
    expect(ids((await get('/api/questions?sort=course&order=desc')).json())).toEqual([
      unanswered.id,
      ppe.id,
      exits.id,
    ]);
    expect(ids((await get('/api/questions?sort=text')).json())).toEqual([unanswered.id, exits.id, ppe.id]);
    const page2 = (
      await get('/api/questions?pageSize=2&page=2&sort=totalResponses&order=desc')
    ).json<ListQuestionsResponse>();
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(ids(page2)).toEqual([unanswered.id]);
    expect(page2.totals.totalResponses).toBe(5);
  });

  it('answers 400 with a message for bad list parameters', async () => {
    const cases: [string, string][] = [
      [
        'sort=hardest',
        'Sort must be one of: course, slide, interactionId, text, totalResponses, correctResponses, uniqueLearners, correctRate, createdAt',
      ],
      ['pageSize=0', 'Page size must be a whole number from 1 to 100'],
      ['courseId=12', 'Course must be a course id'],
      ['active=yes', 'Expected true or false'],
    ];
    for (const [query, message] of cases) {
      const response = await get(`/api/questions?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ error: string }>().error).toBe(message);
    }
  });

  it('lists the courses with active questions (or hidden ones) for the course filter', async () => {
    expect((await get('/api/questions/courses')).json()).toEqual({
      courses: [
        { id: alpha.id, courseTitle: 'Alpha safety', questions: 2 },
        { id: beta.id, courseTitle: 'Beta sales', questions: 1 },
      ],
    });
    expect((await get('/api/questions/courses?active=false')).json()).toEqual({
      courses: [{ id: alpha.id, courseTitle: 'Alpha safety', questions: 1 }],
    });
  });
});

describe('question exports', () => {
  it('exports every matching question as CSV with counts and the correct rate in percent', async () => {
    const response = await get('/api/questions/export?sort=correctRate&order=desc');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="questions.csv"');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Course,Interaction ID,Slide,Question number,Question,Correct answer,Total responses,Correct responses,Unique learners,Correct rate (%),Active,Question ID,Course ID',
    );
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual([
      'Slide2_MultiChoice_1',
      'Slide1_MultiChoice_1',
      'Q_100%_done',
    ]);
    expect(lines[2]).toBe(
      `Alpha safety,Slide1_MultiChoice_1,1,1,Which PPE protects your eyes?,Goggles,4,2,3,50,yes,${ppe.id},${alpha.id}`,
    );
    expect(lines[3]).toContain(',0,0,0,,yes,');
  });

  it("exports one course's questions, named after the course", async () => {
    const response = await get(`/api/courses/${alpha.id}/questions/export`);
    expect(response.headers['content-disposition']).toBe('attachment; filename="Alpha-safety-questions.csv"');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(3);
  });
});

describe('GET /api/courses/:courseId/questions', () => {
  it("lists one course's active questions in slide order with the course and its totals", async () => {
    const response = await get(`/api/courses/${alpha.id}/questions`);
    expect(response.statusCode).toBe(200);
    const body = response.json<ListCourseQuestionsResponse>();
    expect(body.course).toMatchObject({ id: alpha.id, courseTitle: 'Alpha safety' });
    expect(ids(body)).toEqual([ppe.id, exits.id]);
    expect(body.totals).toEqual({
      questions: 2,
      totalResponses: 5,
      correctResponses: 3,
      averageLearnersPerQuestion: 2,
      correctRate: 0.6,
    });
    expect(ids((await get(`/api/courses/${alpha.id}/questions?sort=slide&order=desc`)).json())).toEqual([
      exits.id,
      ppe.id,
    ]);
  });

  it('answers 404 "Course not found" for another organization\'s, a deleted or an unknown course', async () => {
    for (const id of [foreignCourse.id, gone.id, '00000000-0000-4000-8000-000000000000']) {
      for (const url of [`/api/courses/${id}/questions`, `/api/courses/${id}/questions/export`]) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual({ error: 'Course not found', code: 'NOT_FOUND' });
      }
    }
  });
});

describe('PATCH /api/questions/:questionId', () => {
  it('turns a question off (gone from the list) and on again, logged in the activity feed', async () => {
    const off = await patch(exits.id, { active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id: exits.id, active: false });
    expect(ids((await get('/api/questions')).json())).toEqual([ppe.id, unanswered.id]);
    expect(ids((await get('/api/questions?active=false')).json())).toEqual([exits.id, hidden.id]);

    const on = await patch(exits.id, { active: true });
    expect(on.json()).toMatchObject({ active: true });
    expect((await readQuestion(exits.id))?.active).toBe(true);
    const activity = await testApp.database.db
      .select()
      .from(activityEvents)
      .where(
        and(eq(activityEvents.organizationId, owner.organization.id), eq(activityEvents.subjectId, exits.id)),
      );
    expect(activity.map((event) => event.summary).sort()).toEqual([
      'Question “Where are the fire exits?” turned off',
      'Question “Where are the fire exits?” turned on',
    ]);
    expect(activity[0]).toMatchObject({ kind: 'question.updated', actorUserId: owner.user.id });
  });

  it('answers 400 for bad bodies (the text is the course’s, not editable), and changes nothing', async () => {
    const before = await readQuestion(ppe.id);
    const cases: [unknown, string][] = [
      [{}, 'Send active to update the question'],
      [{ active: 'no' }, 'Active must be true or false'],
      [{ active: false, questionText: 'Changed' }, 'Unrecognized key: "questionText"'],
    ];
    for (const [payload, message] of cases) {
      const response = await patch(ppe.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ error: string }>().error).toBe(message);
    }
    expect(await readQuestion(ppe.id)).toEqual(before);
  });

  it('answers 404 "Question not found" outside the organization or for a deleted course, and changes nothing', async () => {
    for (const [id, as] of [
      [foreignQuestion.id, owner],
      [ppe.id, stranger],
      [goneQuestion.id, owner],
      ['not-a-uuid', owner],
    ] as const) {
      const response = await patch(id, { active: false }, as);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Question not found', code: 'NOT_FOUND' });
    }
    expect((await readQuestion(foreignQuestion.id))?.active).toBe(true);
    expect((await readQuestion(ppe.id))?.active).toBe(true);
    expect((await readQuestion(goneQuestion.id))?.active).toBe(true);
  });
});
