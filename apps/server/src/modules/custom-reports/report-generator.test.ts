import { randomUUID } from 'node:crypto';
import type { GenerateReportResponse, ReportCatalog } from '@courselens/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCourse, insertLearner, insertQuestion, insertVariable } from '../../db/factories/learning';
import type { Variable } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { startLlmStub, type LlmStub } from '../../test/llm-stub';
import { generateBuiltin } from './report-generator';

const ids = {
  safety: randomUUID(),
  service: randomUUID(),
  onboarding: randomUUID(),
  safetyScore: randomUUID(),
  serviceScore: randomUUID(),
  satisfaction: randomUUID(),
  safetyQ3: randomUUID(),
  serviceQ3: randomUUID(),
};

const catalog: ReportCatalog = {
  courses: [
    { id: ids.safety, courseTitle: 'Workplace Safety Essentials' },
    { id: ids.service, courseTitle: 'Customer Service Excellence' },
    { id: ids.onboarding, courseTitle: 'New Hire Onboarding' },
  ],
  variables: [
    {
      id: ids.safetyScore,
      name: 'final_score',
      title: 'Final score',
      dataType: 'number',
      courseId: ids.safety,
      courseTitle: 'Workplace Safety Essentials',
    },
    {
      id: ids.serviceScore,
      name: 'final_score',
      title: 'Final score',
      dataType: 'number',
      courseId: ids.service,
      courseTitle: 'Customer Service Excellence',
    },
    {
      id: ids.satisfaction,
      name: 'satisfaction',
      title: 'Satisfaction (1-5)',
      dataType: 'number',
      courseId: ids.onboarding,
      courseTitle: 'New Hire Onboarding',
    },
  ],
  questions: [
    {
      id: ids.safetyQ3,
      courseId: ids.safety,
      courseTitle: 'Workplace Safety Essentials',
      slideNumber: 6,
      questionNumber: 3,
      questionText: 'How often should you take a short break from screen work?',
    },
    {
      id: ids.serviceQ3,
      courseId: ids.service,
      courseTitle: 'Customer Service Excellence',
      slideNumber: 4,
      questionNumber: 3,
      questionText: 'What should you say first?',
    },
  ],
};

describe('the built-in engine', () => {
  it('reads variables, a question of a named course, the breakdown and the period', () => {
    const result = generateBuiltin(
      'Average final score by course for the last 30 days, with question 3 of the safety course',
      catalog,
    );
    expect(result.engine).toBe('builtin');
    expect(result.notFound).toEqual([]);
    expect(result.draft.config).toEqual({ periodDays: 30, limit: null });
    expect(result.draft.items).toEqual([
      { kind: 'variable', variableId: ids.safetyScore, comparisonType: 'by_course', displayName: null },
      { kind: 'variable', variableId: ids.serviceScore, comparisonType: 'by_course', displayName: null },
      {
        kind: 'identifier',
        courseId: ids.safety,
        slideNumber: null,
        questionNumber: 3,
        questionText: null,
        comparisonType: 'by_course',
        displayName: null,
      },
    ]);
    expect(result.understood).toEqual(
      expect.arrayContaining([
        'Average (mean) of each item',
        'Period: the last 30 days',
        'Breakdown: By course',
        'Question 3 of Workplace Safety Essentials',
      ]),
    );
    expect(result.draft.name).toBe(
      'Average final score by course for the last 30 days, with question 3 of the safety course',
    );
  });

  it('understands a top N leaderboard and fuzzy names', () => {
    const result = generateBuiltin('Top 5 learners by satisfacton', catalog);
    expect(result.draft).toMatchObject({ reportType: 'leaderboard', config: { limit: 5, periodDays: null } });
    expect(result.draft.items).toEqual([
      { kind: 'variable', variableId: ids.satisfaction, comparisonType: 'by_learner', displayName: null },
    ]);
  });

  it('narrows a variable to the course the sentence names, and reads a trend', () => {
    const result = generateBuiltin(
      'final score trend in the customer service course over the past 2 weeks',
      catalog,
    );
    expect(result.draft).toMatchObject({ reportType: 'line', config: { periodDays: 14 } });
    expect(result.draft.items).toEqual([
      { kind: 'variable', variableId: ids.serviceScore, comparisonType: 'over_time', displayName: null },
    ]);
  });

  it('picks a slide, and a question by its quoted text', () => {
    const result = generateBuiltin(
      'bar chart of slide 6 of workplace safety, and "What should you say first"',
      catalog,
    );
    expect(result.draft.reportType).toBe('bar');
    expect(result.draft.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'question', questionId: ids.serviceQ3 }),
        expect.objectContaining({
          kind: 'identifier',
          courseId: ids.safety,
          slideNumber: 6,
          questionNumber: null,
        }),
      ]),
    );
  });

  it('says what it understood and what it could not find', () => {
    const result = generateBuiltin(
      'Pie chart of revenue by region, with question 9 of the safety course',
      catalog,
    );
    expect(result.draft.items).toEqual([]);
    expect(result.draft.reportType).toBe('pie');
    expect(result.understood).toContain('Report type: Pie chart');
    expect(result.notFound).toEqual([
      '“revenue region”: no variable, question or course of yours has that name',
      'question 9 of Workplace Safety Essentials',
    ]);
  });

  it('asks for something to report on when nothing at all matches', () => {
    const result = generateBuiltin('please', catalog);
    expect(result.draft.items).toEqual([]);
    expect(result.notFound).toHaveLength(1);
    expect(result.notFound[0]).toContain('Name a variable');
  });
});

describe('POST /api/custom-reports/generate', () => {
  let builtin: TestApp;
  let withLlm: TestApp;
  let stub: LlmStub;
  let owner: SignedUp;
  let llmOwner: SignedUp;
  let llmScore: Variable;

  async function seed(app: TestApp, who: SignedUp) {
    const organizationId = who.organization.id;
    const course = await insertCourse(app.database.db, {
      organizationId,
      courseTitle: 'Workplace Safety Essentials',
    });
    const score = await insertVariable(app.database.db, {
      organizationId,
      courseId: course.id,
      name: 'final_score',
      title: 'Final score',
      dataType: 'number',
    });
    await insertQuestion(app.database.db, {
      organizationId,
      courseId: course.id,
      slideNumber: 6,
      questionNumber: 3,
    });
    await insertLearner(app.database.db, { organizationId, name: 'Ann', email: 'ann@learners.example' });
    return { course, score };
  }

  beforeAll(async () => {
    stub = await startLlmStub();
    builtin = await createTestApp();
    withLlm = await createTestApp({ llm: stub.config });
    owner = await signUpViaApi(builtin.app);
    llmOwner = await signUpViaApi(withLlm.app);
    await seed(builtin, owner);
    llmScore = (await seed(withLlm, llmOwner)).score;
  });

  afterAll(async () => {
    await builtin.close();
    await withLlm.close();
    await stub.close();
  });

  const generate = (app: TestApp, who: SignedUp, prompt: unknown) =>
    app.app.inject({
      method: 'POST',
      url: '/api/custom-reports/generate',
      headers: who.headers,
      payload: { prompt },
    });

  it('answers a draft the create endpoint accepts, from the built-in engine without an LLM', async () => {
    const response = await generate(
      builtin,
      owner,
      'final score by learner with question 3 of the safety course',
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<GenerateReportResponse>();
    expect(body.engine).toBe('builtin');
    expect(body.model).toBeUndefined();
    expect(body.draft.items.map((item) => item.kind)).toEqual(['variable', 'identifier']);
    const created = await builtin.app.inject({
      method: 'POST',
      url: '/api/custom-reports',
      headers: owner.headers,
      payload: body.draft,
    });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('refuses an empty or overlong prompt', async () => {
    expect((await generate(builtin, owner, '  ')).statusCode).toBe(400);
    expect((await generate(builtin, owner, 'x'.repeat(1001))).statusCode).toBe(400);
    const anonymous = await builtin.app.inject({
      method: 'POST',
      url: '/api/custom-reports/generate',
      payload: { prompt: 'x' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('uses the LLM when configured: names and ids only, ids checked against the organization', async () => {
    stub.reply(() =>
      JSON.stringify({
        name: 'Scores by course',
        description: null,
        reportType: 'bar',
        periodDays: 30,
        limit: null,
        items: [
          {
            kind: 'variable',
            variableId: llmScore.id,
            questionId: null,
            courseId: null,
            slideNumber: null,
            questionNumber: null,
            questionText: null,
            displayName: 'Score',
            comparisonType: 'by_course',
          },
          {
            kind: 'variable',
            variableId: randomUUID(),
            questionId: null,
            courseId: null,
            slideNumber: null,
            questionNumber: null,
            questionText: null,
            displayName: null,
            comparisonType: 'by_course',
          },
        ],
        understood: ['Final score by course'],
        notFound: [],
      }),
    );
    const response = await generate(withLlm, llmOwner, 'average final score by course, last 30 days');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<GenerateReportResponse>();
    expect(body).toMatchObject({ engine: 'llm', model: 'stub-model', understood: ['Final score by course'] });
    expect(body.draft).toMatchObject({
      name: 'Scores by course',
      reportType: 'bar',
      config: { periodDays: 30 },
    });
    expect(body.draft.items).toEqual([
      { kind: 'variable', variableId: llmScore.id, comparisonType: 'by_course', displayName: 'Score' },
    ]);
    expect(body.notFound).toEqual(['1 item the model proposed that is not in your organization']);
    const request = stub.requests.at(-1);
    expect(request?.text).toContain('Workplace Safety Essentials');
    expect(request?.text).toContain(llmScore.id);
    expect(request?.text).not.toContain('@');
    expect(request?.responseFormat).not.toBeNull();
  });

  it('falls back to the built-in engine when the model fails', async () => {
    stub.reply(() => ({ status: 500 }));
    const response = await generate(withLlm, llmOwner, 'final score by learner');
    expect(response.statusCode).toBe(200);
    const body = response.json<GenerateReportResponse>();
    expect(body.engine).toBe('builtin');
    expect(body.draft.items).toEqual([
      { kind: 'variable', variableId: llmScore.id, comparisonType: 'by_learner', displayName: null },
    ]);
  });
});
