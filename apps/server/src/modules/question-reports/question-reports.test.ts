import {
  QUESTION_COUNT_DEFINITIONS,
  QUESTION_LEADERS_DEFINITION,
  type QuestionChartResponse,
  type QuestionLeadersResponse,
  type QuestionReportResponse,
} from '@courselens/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCourse, insertLearner, insertQuestion, insertResponse } from '../../db/factories/learning';
import type { Learner, Question } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { getQuestionChart, getQuestionReport, resolveQuestion } from './question-reports.service';

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
let question: Question;
let retried: Question;
let goneQuestion: Question;
let foreignQuestion: Question;
const people: Record<string, Learner> = {};

const get = (url: string, as: SignedUp = owner) =>
  testApp.app.inject({ method: 'GET', url, headers: as.headers } satisfies InjectOptions);

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  stranger = await signUpViaApi(testApp.app);
  const db = testApp.database.db;
  const organizationId = owner.organization.id;
  const course = await insertCourse(db, { organizationId, courseTitle: 'Safety' });
  const gone = await insertCourse(db, {
    organizationId,
    courseTitle: 'Gone',
    isDeleted: true,
    deletedAt: new Date(),
  });
  const foreign = await insertCourse(db, { organizationId: stranger.organization.id, courseTitle: 'Theirs' });
  question = await insertQuestion(db, {
    organizationId,
    courseId: course.id,
    interactionId: 'q-helmet',
    questionText: 'Which helmet?',
    correctAnswer: 'B',
  });
  goneQuestion = await insertQuestion(db, { organizationId, courseId: gone.id });
  foreignQuestion = await insertQuestion(db, {
    organizationId: stranger.organization.id,
    courseId: foreign.id,
  });
  for (const [name, email] of [
    ['Ann Archer', 'ann@example.com'],
    ['Bob Baker', 'bob@example.com'],
    ['Cid Cole', 'cid@example.com'],
  ] as const) {
    people[name.slice(0, 3)] = await insertLearner(db, { organizationId, name, email });
  }
  const answer = (
    learner: string,
    choice: string | null,
    correct: boolean | null,
    points: number | null,
    at: string,
  ) =>
    insertResponse(db, {
      organizationId,
      courseId: course.id,
      questionId: question.id,
      learnerId: people[learner]?.id ?? '',
      answerChoice: choice,
      correct,
      correctAnswer: 'B',
      pointsAssigned: points,
      createdAt: new Date(at),
    });
  await answer('Ann', 'A', false, 0, '2026-03-01T09:00:00Z');
  await answer('Ann', 'B', true, 10, '2026-03-02T09:00:00Z');
  await answer('Bob', 'B', true, 10, '2026-03-02T10:00:00Z');
  await answer('Cid', 'C', false, 0, '2026-03-03T09:00:00Z');
  await answer('Cid', 'B', null, 5, '2026-03-03T10:00:00Z');

  // A 10-point question answered again: a retry replaces the score, it never adds to it.
  retried = await insertQuestion(db, { organizationId, courseId: course.id, interactionId: 'q-retry' });
  people.Fay = await insertLearner(db, { organizationId, name: 'fay@example.com', email: 'fay@example.com' });
  const retry = (learner: string, choice: string, correct: boolean, points: number, at: string) =>
    insertResponse(db, {
      organizationId,
      courseId: course.id,
      questionId: retried.id,
      learnerId: people[learner]?.id ?? '',
      answerChoice: choice,
      correct,
      pointsAssigned: points,
      createdAt: new Date(at),
    });
  await retry('Ann', 'yes', true, 10, '2026-03-01T09:00:00Z');
  await retry('Ann', 'yes', true, 10, '2026-03-01T10:00:00Z');
  await retry('Bob', 'no', false, 4, '2026-03-01T09:00:00Z');
  await retry('Bob', 'yes', true, 8, '2026-03-01T10:00:00Z');
  await retry('Fay', 'mail me at fay@example.com', false, 0, '2026-03-01T11:00:00Z');
});

afterAll(async () => {
  await testApp.close();
});

describe('GET /api/questions/:questionId/report', () => {
  it('lists the answers with learner, correctness and points, and the totals', async () => {
    const response = await get(`/api/questions/${question.id}/report`);
    expect(response.statusCode).toBe(200);
    const body = response.json<QuestionReportResponse>();
    expect(body.question).toMatchObject({
      interactionId: 'q-helmet',
      correctAnswer: 'B',
      courseTitle: 'Safety',
    });
    expect(body.total).toBe(5);
    expect(
      body.items.map((row) => [row.learnerName, row.learnerEmail, row.answer, row.correct, row.points]),
    ).toEqual([
      ['Cid Cole', 'cid@example.com', 'B', null, 5],
      ['Cid Cole', 'cid@example.com', 'C', false, 0],
      ['Bob Baker', 'bob@example.com', 'B', true, 10],
      ['Ann Archer', 'ann@example.com', 'B', true, 10],
      ['Ann Archer', 'ann@example.com', 'A', false, 0],
    ]);
    // Best points: Ann 10, Bob 10, Cid 5.
    expect(body.totals).toEqual({
      responses: 5,
      graded: 4,
      correct: 2,
      correctRate: 0.5,
      points: 25 / 3,
      learners: 3,
      definitions: QUESTION_COUNT_DEFINITIONS,
    });
  });

  it('counts a retry as a response, never as more points or another learner', async () => {
    const body = (await get(`/api/questions/${retried.id}/report`)).json<QuestionReportResponse>();
    expect(body.totals).toMatchObject({ responses: 5, learners: 3, correct: 3, points: 6 });
  });

  it('gives a shared view display names and answers without e-mail addresses', async () => {
    const db = testApp.database.db;
    const scope = await resolveQuestion(db, owner.organization.id, retried.id);
    const input = { filters: {}, sort: 'learner' as const, order: 'desc' as const, page: 1, pageSize: 50 };
    const shared = await getQuestionReport(db, scope, input, { includeEmail: false });
    expect(shared.items[0]).toMatchObject({ learnerName: 'Unnamed learner', answer: 'mail me at (hidden)' });
    expect(JSON.stringify(shared)).not.toContain('@');
    const chart = await getQuestionChart(db, scope, { range: {} });
    expect(chart.choices.map((choice) => choice.label)).toContain('mail me at (hidden)');
    expect(JSON.stringify(chart)).not.toContain('@');
  });

  it('filters by correctness, date range and learner, and sorts', async () => {
    const right = (
      await get(`/api/questions/${question.id}/report?correct=true`)
    ).json<QuestionReportResponse>();
    expect(right.total).toBe(2);
    const ungraded = (
      await get(`/api/questions/${question.id}/report?correct=ungraded`)
    ).json<QuestionReportResponse>();
    expect(ungraded.items.map((row) => row.learnerName)).toEqual(['Cid Cole']);
    const day = (
      await get(`/api/questions/${question.id}/report?from=2026-03-02&to=2026-03-02`)
    ).json<QuestionReportResponse>();
    expect(day.total).toBe(2);
    expect(day.totals).toEqual({
      responses: 2,
      graded: 2,
      correct: 2,
      correctRate: 1,
      points: 10,
      learners: 2,
      definitions: QUESTION_COUNT_DEFINITIONS,
    });
    const search = (await get(`/api/questions/${question.id}/report?q=bob`)).json<QuestionReportResponse>();
    expect(search.total).toBe(1);
    const byPoints = (
      await get(`/api/questions/${question.id}/report?sort=points&order=asc&pageSize=2`)
    ).json<QuestionReportResponse>();
    expect(byPoints.items.map((row) => row.points)).toEqual([0, 0]);
  });

  it('exports the answers as CSV', async () => {
    const response = await get(`/api/questions/${question.id}/report/export?correct=false`);
    const lines = response.body.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe('Learner,Email,Answer,Correct,Points,Answered at,Learner ID');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 4).join(','))).toEqual([
      'Cid Cole,cid@example.com,C,no',
      'Ann Archer,ann@example.com,A,no',
    ]);
  });

  it("answers 404 for another organization's question or one of a deleted course", async () => {
    for (const [id, as] of [
      [foreignQuestion.id, owner],
      [question.id, stranger],
      [goneQuestion.id, owner],
    ] as const) {
      for (const view of ['report', 'chart', 'leaders']) {
        const response = await get(`/api/questions/${id}/${view}`, as);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: 'Question not found', code: 'NOT_FOUND' });
      }
    }
  });
});

describe('GET /api/questions/:questionId/chart', () => {
  it('counts the choices with the correct one marked, and the correct rate per day', async () => {
    const body = (await get(`/api/questions/${question.id}/chart`)).json<QuestionChartResponse>();
    expect(body.choices).toEqual([
      { label: 'B', count: 3, isCorrect: true },
      { label: 'A', count: 1, isCorrect: false },
      { label: 'C', count: 1, isCorrect: false },
    ]);
    expect(body.trend).toEqual({
      interval: 'day',
      points: [
        { date: '2026-03-01', responses: 1, correct: 0, correctRate: 0, isPartial: false },
        { date: '2026-03-02', responses: 2, correct: 2, correctRate: 1, isPartial: false },
        { date: '2026-03-03', responses: 2, correct: 0, correctRate: 0, isPartial: false },
      ],
    });
  });

  it('flags the day that is not over yet as partial', async () => {
    const db = testApp.database.db;
    const scope = await resolveQuestion(db, owner.organization.id, question.id);
    const chart = await getQuestionChart(db, scope, {
      range: {},
      interval: 'day',
      now: new Date('2026-03-03T18:00:00Z'),
    });
    expect(chart.trend.points.map((point) => point.isPartial)).toEqual([false, false, true]);
  });
});

describe('GET /api/questions/:questionId/leaders', () => {
  it('ranks learners by their points, ties sharing a rank, names only', async () => {
    const body = (await get(`/api/questions/${question.id}/leaders`)).json<QuestionLeadersResponse>();
    expect(
      body.items.map((row) => [row.rank, row.learnerName, row.points, row.responses, row.correct]),
    ).toEqual([
      [1, 'Ann Archer', 10, 2, 1],
      [1, 'Bob Baker', 10, 1, 1],
      [3, 'Cid Cole', 5, 2, 0],
    ]);
    expect(body.definition).toBe(QUESTION_LEADERS_DEFINITION);
    expect(JSON.stringify(body)).not.toContain('@');
    // More tied than shown: who needed fewer answers comes first.
    const one = (await get(`/api/questions/${question.id}/leaders?limit=1`)).json<QuestionLeadersResponse>();
    expect(one.items.map((row) => [row.rank, row.learnerName])).toEqual([[1, 'Bob Baker']]);
    const top = (
      await get(`/api/questions/${question.id}/leaders?limit=1&from=2026-03-03`)
    ).json<QuestionLeadersResponse>();
    expect(top.items.map((row) => row.learnerName)).toEqual(['Cid Cole']);
  });

  it('ranks by each learner’s best points, so retries never add up past the question’s points', async () => {
    const body = (await get(`/api/questions/${retried.id}/leaders`)).json<QuestionLeadersResponse>();
    expect(
      body.items.map((row) => [row.rank, row.learnerName, row.points, row.responses, row.correct]),
    ).toEqual([
      [1, 'Ann Archer', 10, 2, 2],
      [2, 'Bob Baker', 8, 2, 1],
      [3, 'Unnamed learner', 0, 1, 0],
    ]);
  });
});
