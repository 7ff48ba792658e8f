import type {
  IngestEventsResponse,
  QuestionAnalysisCoursesResponse,
  QuestionAnalysisResponse,
} from '@courselens/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCourse } from '../../db/factories/learning';
import { createTestApp, type TestApp } from '../../test/app';
import { changePlanViaApi, signUpViaApi, type SignedUp } from '../../test/auth';
import { undated } from '../../test/undated';
import { loadAnalyticsScope } from './analytics-settings.service';
import { enableLearnerParts, learnerPartsOf } from '../../db/learner-parts';
import { selectQuizSums, type AnalysisRow } from './questions.queries';
import { getQuestionAnalysis } from './questions.service';

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
let ingestKey: string;
let sequence = 0;
const uid = (prefix: string) => `${prefix}-${process.pid}-${++sequence}`;

const inject = (options: InjectOptions) => testApp.app.inject(options);
const get = (url: string, as: SignedUp = owner) => inject({ method: 'GET', url, headers: as.headers });

async function send(events: unknown[]): Promise<IngestEventsResponse> {
  const response = await inject({
    method: 'POST',
    url: '/api/v1/events',
    headers: { authorization: `Bearer ${ingestKey}` },
    payload: { events },
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<IngestEventsResponse>();
  expect(body.rejected).toEqual([]);
  return body;
}

async function patchSettings(settings: Record<string, unknown>) {
  const response = await inject({
    method: 'PATCH',
    url: '/api/analytics/settings',
    headers: owner.headers,
    payload: settings,
  });
  expect(response.statusCode, response.body).toBe(200);
}

type Answer = { q: number; right: boolean; answer?: string; at?: number };

/** Hides a question on the Questions page, as its owner does. */
async function hideQuestion(questionId: string) {
  const patch = await inject({
    method: 'PATCH',
    url: `/api/questions/${questionId}`,
    headers: owner.headers,
    payload: { active: false },
  });
  expect(patch.statusCode, patch.body).toBe(200);
}

/** One run of a learner through the course's quiz: started, the answers, completed (unless not finished). */
function runEvents(
  course: string,
  email: string,
  run: string,
  day: string,
  answers: readonly Answer[],
  { finished = true }: { finished?: boolean } = {},
) {
  const base = { course: { externalCourseId: course, title: `Course ${course}` }, learner: { email }, run };
  const time = (minute: number) => `${day}T09:${String(minute).padStart(2, '0')}:00.000Z`;
  const events: unknown[] = [{ id: uid('evt'), type: 'course.started', timestamp: time(0), ...base }];
  answers.forEach((answer, index) => {
    events.push({
      id: uid('evt'),
      type: 'question.answered',
      timestamp: time(answer.at ?? index + 1),
      ...base,
      question: {
        interactionId: `q${answer.q}`,
        slideNumber: answer.q + 1,
        questionNumber: 1,
        text: `Question ${answer.q}?`,
        answer: answer.answer ?? (answer.right ? 'B' : 'A'),
        correct: answer.right,
        correctAnswer: 'B',
      },
    });
  });
  if (finished) events.push({ id: uid('evt'), type: 'course.completed', timestamp: time(50), ...base });
  return events;
}

// The 5 × 4 matrix of item-statistics.test.ts, whose figures were computed by hand there.
const FIXTURE = [
  [1, 1, 1, 0],
  [1, 1, 1, 1],
  [1, 1, 0, 0],
  [1, 0, 0, 1],
  [0, 0, 0, 1],
] as const;
const answersOf = (row: readonly number[]): Answer[] =>
  row.map((mark, q) => ({ q: q + 1, right: mark === 1 }));

let quizCourse: string;
let quizCourseId: string;

async function analysis(courseId: string, query = '') {
  const response = await get(`/api/analytics/questions?courseId=${courseId}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<QuestionAnalysisResponse>();
}

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  stranger = await signUpViaApi(testApp.app);
  // More courses than Free allows.
  await changePlanViaApi(testApp.app, owner);
  const key = await inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: owner.headers,
    payload: { name: 'LMS', scope: 'ingest' },
  });
  ingestKey = key.json<{ key: string }>().key;

  quizCourse = uid('quiz');
  const events: unknown[] = [];
  FIXTURE.forEach((row, index) => {
    events.push(
      ...runEvents(quizCourse, `learner${index + 1}@example.com`, 'first', '2026-03-02', answersOf(row)),
    );
  });
  await send(events);
  const courses = (await get('/api/analytics/questions/courses')).json<QuestionAnalysisCoursesResponse>();
  quizCourseId = courses.courses.find((course) => course.title === `Course ${quizCourse}`)?.id ?? '';
});

afterAll(async () => {
  await testApp.close();
});

describe('GET /api/analytics/questions', () => {
  it('answers with Moodle’s quiz statistics as soon as the events are acknowledged', async () => {
    const body = await analysis(quizCourseId);
    expect(body.course.title).toBe(`Course ${quizCourse}`);
    expect(body.quiz).toMatchObject({ attempts: 5, questions: 4, maxTotal: 4, median: 2 });
    expect(body.quiz.mean).toBeCloseTo(2.4, 10);
    expect(body.quiz.standardDeviation).toBeCloseTo(Math.sqrt(1.3), 10);
    expect(body.quiz.skewness).toBeCloseTo(0.6 / 1.3 ** 1.5, 10);
    expect(body.quiz.kurtosis).toBeCloseTo(-30 / 169, 10);
    expect(body.quiz.cronbachAlpha).toBeCloseTo(8 / 39, 10);
    expect(body.quiz.errorRatio).toBeCloseTo(Math.sqrt(31 / 39), 10);
    expect(body.quiz.standardError).toBeCloseTo(Math.sqrt(31 / 39) * Math.sqrt(1.3), 10);

    expect(body.questions.map((question) => question.interactionId)).toEqual(['q1', 'q2', 'q3', 'q4']);
    expect(body.questions.map((question) => question.facility)).toEqual([0.8, 0.6, 0.4, 0.6]);
    const discrimination = body.questions.map((question) => question.discriminationIndex ?? NaN);
    expect(discrimination[0]).toBeCloseTo(0.375, 10);
    expect(discrimination[1]).toBeCloseTo(0.15 / Math.sqrt(0.21), 10);
    expect(discrimination[2]).toBeCloseTo(0.25 / Math.sqrt(0.15), 10);
    expect(discrimination[3]).toBeCloseTo(-0.35 / Math.sqrt(0.51), 10);
    expect(body.questions[1]?.discriminativeEfficiency).toBeCloseTo(3 / 8, 10);
    expect(body.questions[3]?.effectiveWeight).toBeNull();
    expect(body.questions[0]).toMatchObject({
      questionId: expect.any(String),
      slideNumber: 2,
      text: 'Question 1?',
      correctAnswer: 'B',
      attempts: 5,
      answered: 5,
      maxMark: 1,
      intendedWeight: 0.25,
    });
    const q4 = body.questions[3];
    expect(q4?.options.map((option) => [option.answer, option.isCorrect, option.count])).toEqual([
      ['B', true, 3],
      ['A', false, 2],
    ]);
    expect(q4?.options[1]?.pointBiserial).toBeCloseTo(0.490098, 5);
    // Five attempts are too few for flags, and the screen is told so.
    expect(q4?.flags).toEqual([]);
    expect(q4?.notes.join(' ')).toMatch(/Flags need at least 10 attempts/);
    expect(body.basis).toMatchObject({
      timeZone: 'UTC',
      completion: 'completed',
      itemAnalysisAttempts: 'first',
      learners: 5,
      runsWithoutAnswers: 0,
      excludedLearners: 0,
      from: null,
      to: null,
    });
  });

  it('reads each learner’s first finished run by default, and the highest, last or all runs when set', async () => {
    const course = uid('retakes');
    await send([
      // Ann: first finished run 1 of 2, an unfinished run, then a finished 2 of 2.
      ...runEvents(course, 'ann@example.com', 'a1', '2026-03-01', [
        { q: 1, right: true },
        { q: 2, right: false },
      ]),
      ...runEvents(course, 'ann@example.com', 'a2', '2026-03-02', [{ q: 1, right: false }], {
        finished: false,
      }),
      ...runEvents(course, 'ann@example.com', 'a3', '2026-03-03', [
        { q: 1, right: true },
        { q: 2, right: true },
      ]),
      // Bob: first finished 2 of 2, then 0 of 2.
      ...runEvents(course, 'bob@example.com', 'b1', '2026-03-01', [
        { q: 1, right: true },
        { q: 2, right: true },
      ]),
      ...runEvents(course, 'bob@example.com', 'b2', '2026-03-04', [
        { q: 1, right: false },
        { q: 2, right: false },
      ]),
    ]);
    const id = await courseIdOf(course);
    const means = async () => {
      const body = await analysis(id);
      return [body.quiz.attempts, body.quiz.mean, body.basis.itemAnalysisAttempts, body.basis.learners];
    };
    expect(await means()).toEqual([2, 1.5, 'first', 2]);
    await patchSettings({ itemAnalysisAttempts: 'highest' });
    expect(await means()).toEqual([2, 2, 'highest', 2]);
    await patchSettings({ itemAnalysisAttempts: 'last' });
    expect(await means()).toEqual([2, 1, 'last', 2]);
    await patchSettings({ itemAnalysisAttempts: 'all' });
    expect(await means()).toEqual([4, 1.25, 'all', 2]);
    await patchSettings({ itemAnalysisAttempts: 'first' });
  });

  it('counts the last answer of a question answered twice, and 0 for an unanswered one', async () => {
    const course = uid('twice');
    await send([
      ...runEvents(course, 'cy@example.com', 'c1', '2026-03-01', [
        { q: 1, right: false, answer: 'A', at: 1 },
        { q: 1, right: true, answer: 'B', at: 5 },
        { q: 2, right: true, at: 2 },
      ]),
      ...runEvents(course, 'di@example.com', 'd1', '2026-03-01', [{ q: 2, right: true }]),
    ]);
    const body = await analysis(await courseIdOf(course));
    expect(body.quiz.attempts).toBe(2);
    const [q1, q2] = body.questions;
    expect(q1?.facility).toBe(0.5);
    expect(q1?.answered).toBe(1);
    expect(q1?.options.map((option) => [option.answer, option.isAnswered, option.count])).toEqual([
      ['B', true, 1],
      [null, false, 1],
    ]);
    expect(q2?.facility).toBe(1);
    expect(q2?.discriminationIndex).toBeNull();
    expect(q2?.notes.join(' ')).toMatch(/same on this question/);
    expect(body.quiz.mean).toBe(1.5);
  });

  it('leaves out a question hidden on the Questions page, and says so', async () => {
    const course = uid('hidden');
    await send([
      ...runEvents(course, 'ek@example.com', 'e1', '2026-03-01', [
        { q: 1, right: true },
        { q: 2, right: false },
        { q: 3, right: true },
      ]),
      ...runEvents(course, 'fo@example.com', 'f1', '2026-03-01', [
        { q: 1, right: false },
        { q: 2, right: true },
        { q: 3, right: true },
      ]),
    ]);
    const courseId = await courseIdOf(course);
    const before = await analysis(courseId);
    expect(before.questions.map((q) => q.interactionId)).toEqual(['q1', 'q2', 'q3']);
    expect(before.quiz.mean).toBe(2);
    const hidden = before.questions[1]?.questionId ?? '';
    await hideQuestion(hidden);

    const after = await analysis(courseId);
    expect(after.questions.map((q) => q.interactionId)).toEqual(['q1', 'q3']);
    expect(after.basis.hiddenQuestions).toBe(1);
    // Totals without the hidden question: 2 and 1.
    expect(after.quiz.mean).toBe(1.5);
  });

  it('weighs a question by the points sent for it', async () => {
    const course = uid('points');
    const base = { course: { externalCourseId: course }, run: 'p1' };
    const answer = (email: string, interactionId: string, points: number, minute: number) => ({
      id: uid('evt'),
      type: 'question.answered',
      timestamp: `2026-03-05T10:${minute}:00.000Z`,
      ...base,
      learner: { email },
      question: { interactionId, answer: String(points), correct: points > 0, points },
    });
    const events: unknown[] = [];
    for (const [email, marks] of [
      ['p1@example.com', [10, 1]],
      ['p2@example.com', [5, 0]],
      ['p3@example.com', [0, 1]],
    ] as const) {
      events.push({
        id: uid('evt'),
        type: 'course.started',
        timestamp: '2026-03-05T10:00:00.000Z',
        ...base,
        learner: { email },
      });
      events.push(answer(email, 'essay', marks[0], 10), answer(email, 'check', marks[1], 11));
      events.push({
        id: uid('evt'),
        type: 'course.completed',
        timestamp: '2026-03-05T10:30:00.000Z',
        ...base,
        learner: { email },
      });
    }
    await send(events);
    const body = await analysis(await courseIdOf(course));
    expect(body.quiz.maxTotal).toBe(11);
    const essay = body.questions.find((question) => question.interactionId === 'essay');
    expect(essay).toMatchObject({ maxMark: 10, facility: 0.5 });
    expect(essay?.intendedWeight).toBeCloseTo(10 / 11, 10);
    expect(body.quiz.mean).toBeCloseTo(17 / 3, 10);
  });

  it('leaves out unfinished runs, test accounts and runs started outside the period', async () => {
    const course = uid('filters');
    await send([
      ...runEvents(course, 'early@example.com', 'e1', '2026-02-10', [{ q: 1, right: true }]),
      ...runEvents(course, 'late@example.com', 'l1', '2026-03-10', [{ q: 1, right: false }]),
      ...runEvents(course, 'quitter@example.com', 'u1', '2026-03-10', [{ q: 1, right: true }], {
        finished: false,
      }),
      ...runEvents(course, 'qa@test.example.org', 't1', '2026-03-10', [{ q: 1, right: true }]),
    ]);
    const id = await courseIdOf(course);
    expect((await analysis(id)).quiz.attempts).toBe(3);
    await patchSettings({ excludedDomains: ['test.example.org'] });
    const excluded = await analysis(id);
    expect(excluded.quiz.attempts).toBe(2);
    expect(excluded.basis.excludedLearners).toBe(1);
    const period = await analysis(id, '&from=2026-03-01&to=2026-03-31');
    expect(period.quiz).toMatchObject({ attempts: 1, mean: 0 });
    expect(period.basis).toMatchObject({ from: '2026-03-01', to: '2026-03-31' });
    await patchSettings({ excludedDomains: [] });
  });

  it('answers null figures with the reason when there are too few attempts', async () => {
    const course = uid('alone');
    await send(
      runEvents(course, 'solo@example.com', 's1', '2026-03-01', [
        { q: 1, right: true },
        { q: 2, right: false },
      ]),
    );
    const body = await analysis(await courseIdOf(course));
    expect(body.quiz).toMatchObject({
      attempts: 1,
      mean: 1,
      standardDeviation: null,
      cronbachAlpha: null,
      errorRatio: null,
      standardError: null,
    });
    expect(body.quiz.notes.join(' ')).toMatch(/alpha need at least 2/);
    expect(body.questions[0]).toMatchObject({ discriminationIndex: null, standardDeviation: null });
  });

  it('answers an empty analysis for a course without finished runs', async () => {
    const course = await insertCourse(testApp.database.db, {
      organizationId: owner.organization.id,
      courseTitle: 'Empty',
    });
    const body = await analysis(course.id);
    expect(body.quiz).toMatchObject({ attempts: 0, questions: 0, mean: null, cronbachAlpha: null });
    expect(body.questions).toEqual([]);
    expect(body.quiz.notes).toEqual(['No finished attempts with answers to analyse yet.']);
  });

  it('answers 404 for a course of another organization or a deleted one, 400 for bad input', async () => {
    const theirs = await insertCourse(testApp.database.db, {
      organizationId: stranger.organization.id,
      courseTitle: 'Theirs',
    });
    const gone = await insertCourse(testApp.database.db, {
      organizationId: owner.organization.id,
      courseTitle: 'Gone',
      isDeleted: true,
      deletedAt: new Date(),
    });
    for (const id of [theirs.id, gone.id]) {
      const response = await get(`/api/analytics/questions?courseId=${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 'Course not found' });
    }
    expect((await get('/api/analytics/questions?courseId=nope')).statusCode).toBe(400);
    expect((await get('/api/analytics/questions')).statusCode).toBe(400);
    const reversed = await get(
      `/api/analytics/questions?courseId=${quizCourseId}&from=2026-03-05&to=2026-03-01`,
    );
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json<{ error: string }>().error).toMatch(/start date must be on or before/);
    expect((await get(`/api/analytics/questions?courseId=${quizCourseId}`, stranger)).statusCode).toBe(404);
  });

  it('adds up to the same analysis in shares of the learners, answers past the 20 most frequent included', async () => {
    // 33 learners; question 1 has four answers, question 2 (free text) 26 different ones: the 20 most frequent
    // are shown, ties at the 20th broken as the whole statement breaks them.
    const course = uid('shares');
    const events: unknown[] = [];
    for (let index = 0; index < 33; index++) {
      const text = index < 14 ? `answer ${String.fromCharCode(97 + (index % 7))}` : `answer ${index}`;
      events.push(
        ...runEvents(course, `share${index}@example.com`, 'first', '2026-03-03', [
          { q: 1, right: index % 3 === 0, answer: ['A', 'B', 'C', 'D'][index % 4] },
          { q: 2, right: index % 2 === 0, answer: text },
          { q: 3, right: index % 5 !== 0 },
        ]),
      );
    }
    await send(events);
    const courseId = await courseIdOf(course);
    const { db } = testApp.database;
    const scope = await loadAnalyticsScope(db, owner.organization.id);
    // Options of equal counts may come in either order: compared in a fixed one.
    const comparable = (result: QuestionAnalysisResponse) => ({
      ...undated(result),
      questions: result.questions.map((question) => ({
        ...question,
        options: [...question.options].sort(
          (a, b) => b.count - a.count || String(a.answer).localeCompare(String(b.answer)),
        ),
      })),
    });
    const before = learnerPartsOf(db);
    try {
      enableLearnerParts(db, 1);
      const whole = await getQuestionAnalysis(db, scope, { courseId });
      const freeText = whole.questions.find((question) => question.interactionId === 'q2');
      expect(freeText?.options.filter((option) => option.answer !== null)).toHaveLength(20);
      expect(freeText?.otherOptions.distinct).toBe(6);
      enableLearnerParts(db, 3);
      expect(comparable(await getQuestionAnalysis(db, scope, { courseId }))).toEqual(comparable(whole));
      // A share with more answers to a question than a share returns: the statement runs whole.
      const rows = await selectQuizSums(db, owner.organization.id, scope.settings, courseId, {}, 2);
      enableLearnerParts(db, 1);
      const wholeRows = await selectQuizSums(db, owner.organization.id, scope.settings, courseId, {});
      const byKey = (list: readonly AnalysisRow[]) => [...list].map((row) => JSON.stringify(row)).sort();
      expect(byKey(rows)).toEqual(byKey(wholeRows));

      // With question 3 hidden, the runs that answered nothing else have no sheet to analyse, in a share too.
      const only3: unknown[] = [];
      for (let index = 0; index < 6; index++) {
        only3.push(
          ...runEvents(course, `only3-${index}@example.com`, 'first', '2026-03-04', [
            { q: 3, right: index % 2 === 0 },
          ]),
        );
      }
      await send(only3);
      const third = whole.questions.find((question) => question.interactionId === 'q3')?.questionId ?? '';
      await hideQuestion(third);
      const hiddenWhole = await getQuestionAnalysis(db, scope, { courseId });
      expect(hiddenWhole.quiz.attempts).toBe(33);
      enableLearnerParts(db, 3);
      expect(comparable(await getQuestionAnalysis(db, scope, { courseId }))).toEqual(comparable(hiddenWhole));
    } finally {
      enableLearnerParts(db, before);
    }
  });

  it('is the service another module can call for the same figures', async () => {
    const scope = await loadAnalyticsScope(testApp.database.db, owner.organization.id);
    const result = await getQuestionAnalysis(testApp.database.db, scope, { courseId: quizCourseId });
    expect(result.quiz.cronbachAlpha).toBeCloseTo(8 / 39, 10);
  });
});

describe('GET /api/analytics/questions/courses', () => {
  it('lists the live courses with their questions and answers, and opens the first with answers', async () => {
    await insertCourse(testApp.database.db, {
      organizationId: owner.organization.id,
      courseTitle: 'AAA no answers',
    });
    const body = (await get('/api/analytics/questions/courses')).json<QuestionAnalysisCoursesResponse>();
    expect(body.courses[0]).toMatchObject({ title: 'AAA no answers', questions: 0, hasAnswers: false });
    const quiz = body.courses.find((course) => course.id === quizCourseId);
    expect(quiz).toMatchObject({ questions: 4, hasAnswers: true });
    expect(body.defaultCourseId).toBe(body.courses.find((course) => course.hasAnswers)?.id);
    expect(body.courses.some((course) => course.title === 'Gone')).toBe(false);
  });
});

async function courseIdOf(externalId: string): Promise<string> {
  const body = (await get('/api/analytics/questions/courses')).json<QuestionAnalysisCoursesResponse>();
  const id = body.courses.find((course) => course.title === `Course ${externalId}`)?.id;
  if (!id) {
    // Courses created by an answer without a title are named after their external id.
    const fallback = body.courses.find((course) => course.title === externalId)?.id;
    if (!fallback) throw new Error(`No course ${externalId}`);
    return fallback;
  }
  return id;
}
