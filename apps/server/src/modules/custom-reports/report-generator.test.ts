import { randomUUID } from 'node:crypto';
import {
  customReportDraftSchema,
  generateReportResponse,
  reportItemInput,
  type GenerateReportResponse,
} from '@courselens/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCourse, insertLearner, insertQuestion, insertVariable } from '../../db/factories/learning';
import type { Variable } from '../../db/schema';
import { createLlmEngine } from '../../lib/llm';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { startLlmStub, type LlmStub } from '../../test/llm-stub';
import { draftFromLlm, generateReport, type LlmDraft, type LlmItem } from './report-generator';
import { CASES_NOW, buildCasesCatalog } from './report-generator.cases';
import { generateBuiltin } from './report-generator/builtin';

const demo = buildCasesCatalog('demo');
const extended = buildCasesCatalog('extended');
const withValues = buildCasesCatalog('withValues');
const read = (prompt: string, catalog = demo, choices: { phrase: string; id: string }[] = []) =>
  generateBuiltin(prompt, catalog, { now: CASES_NOW, choices });

describe('the built-in engine', () => {
  it('says in plain words what it understood', () => {
    const result = read('pass rate of the safety check by department this month');
    expect(result.engine).toBe('builtin');
    expect(result.understood).toEqual(
      expect.arrayContaining([
        'Period: this month',
        'Variable: Passed safety check (Workplace Safety Essentials)',
        'Measure: pass rate',
        'Broken down by department',
      ]),
    );
    expect(result.notFound).toEqual([]);
    expect(result.ambiguities).toEqual([]);
  });

  it('reads a name as a name, not a word inside another name', () => {
    const completed = read('how many completed');
    expect(completed.draft.items.map((item) => item.query.subject)).toEqual([
      { kind: 'courses', courseIds: [] },
    ]);
    const setup = read('IT setup complete by department');
    expect(setup.draft.items.map((item) => item.query.subject)).toEqual([
      { kind: 'variable', variableIds: [demo.variableId('onboarding', 'it_setup_complete')] },
    ]);
  });

  it('asks back when a name fits two courses, and drafts nothing until it is answered', () => {
    const result = read('pass rate of the safety course', extended);
    expect(result.draft.items).toEqual([]);
    expect(result.ambiguities).toEqual([
      {
        phrase: 'safety',
        message: '“safety” matches 2 courses: which one do you mean?',
        options: [
          { kind: 'course', id: extended.courseId('safety'), label: 'Workplace Safety Essentials' },
          { kind: 'course', id: extended.courseId('fire'), label: 'Fire Safety Refresher' },
        ],
      },
    ]);
  });

  it('takes the answer to a question back, and ignores an answer that is not one of the options', () => {
    const answered = read('pass rate of the safety course', extended, [
      { phrase: 'safety', id: extended.courseId('fire') },
    ]);
    expect(answered.ambiguities).toEqual([]);
    expect(answered.draft.items.map((item) => item.query.subject)).toEqual([
      { kind: 'courses', courseIds: [extended.courseId('fire')] },
    ]);
    const stranger = read('pass rate of the safety course', extended, [
      { phrase: 'safety', id: extended.courseId('gdpr') },
    ]);
    expect(stranger.ambiguities).toHaveLength(1);
    expect(stranger.draft.items).toEqual([]);
  });

  it('asks which question when a number fits several, and reads the choice by its slide', () => {
    const result = read('question 1 of onboarding');
    expect(result.ambiguities[0]?.options).toHaveLength(6);
    const chosen = read('question 1 of onboarding', demo, [
      { phrase: 'question 1', id: demo.questionId('onboarding', 7) },
    ]);
    expect(chosen.draft.items.map((item) => item.query.subject)).toEqual([
      {
        kind: 'identifier',
        courseId: demo.courseId('onboarding'),
        slideNumber: 7,
        questionNumber: 1,
        questionText: null,
      },
    ]);
  });

  it('says what it could not place, and drafts no stand-in for it', () => {
    const result = read('revenue by region');
    expect(result.draft.items).toEqual([]);
    expect(result.notFound).toEqual(['“revenue”: no course, variable or question of yours has that name']);
    expect(read('average time in the safety course').notFound).toEqual([
      '“time”: no name of yours is exactly that; did you mean Time spent (minutes)?',
    ]);
  });

  it('says when a named question does not exist', () => {
    const result = read('answers to question 9 of the safety course');
    expect(result.draft.items).toEqual([]);
    expect(result.notFound).toEqual(['Question 9 of Workplace Safety Essentials: no such question']);
  });

  it('keeps the default measure when the one asked for does not fit the data, and says so', () => {
    const result = read('average department');
    expect(result.draft.items).toHaveLength(1);
    expect(result.draft.items[0]?.query.measure).toBeNull();
    expect(result.notFound).toEqual(['Average needs a number; this is a text variable']);
  });

  it('reads a pass mark for a number variable, and a course pass rate without one', () => {
    const result = read('pass rate of the gdpr final score at least 70');
    expect(result.draft.items[0]?.query.measure).toEqual({ fn: 'pass_rate', mark: 70 });
    // Without a mark, the pass rate is the course's own (its runs passed or not).
    const course = read('average final score and pass rate for gdpr');
    expect(course.draft.items.map((item) => [item.query.subject, item.query.measure?.fn])).toEqual([
      [{ kind: 'variable', variableIds: [demo.variableId('gdpr', 'final_score')] }, 'average'],
      [{ kind: 'courses', courseIds: [demo.courseId('gdpr')] }, 'pass_rate'],
    ]);
    expect(course.understood).toContain('Pass rate of the course runs of Data Privacy & GDPR Fundamentals');
    expect(course.notFound).toEqual([]);
  });

  it('finds a question by its quoted text', () => {
    const result = read('correct rate of "take a short break from screen work"');
    expect(result.draft.items.map((item) => item.query.subject)).toEqual([
      { kind: 'question', questionId: demo.questionId('safety', 6) },
    ]);
    expect(read('"what is the capital of France"').notFound).toEqual([
      '“what is the capital of France”: no question of yours has that text',
    ]);
  });

  it('turns a known value into a condition when the catalog carries values, and says so', () => {
    const result = read('avg satisfaction for sales', withValues);
    expect(result.draft.items[0]?.query.filters.values).toEqual([
      { variableName: 'department', op: 'eq', value: 'Sales' },
    ]);
    expect(result.understood).toContain('Only learners whose department is Sales');
    expect(read('avg satisfaction for sales').notFound).toEqual([
      '“sales”: no course, variable or question of yours has that name',
    ]);
  });

  it('asks for something to report on when nothing at all matches', () => {
    const result = read('please');
    expect(result.draft.items).toEqual([]);
    expect(result.notFound).toHaveLength(1);
    expect(result.notFound[0]).toContain('Name what to report on');
  });

  it('names the draft after the request and picks a report type from the first item', () => {
    const result = read('line chart of daily completions last week.');
    expect(result.draft).toMatchObject({
      name: 'Line chart of daily completions last week',
      reportType: 'line',
      config: { periodDays: null, limit: null },
    });
    expect(result.understood).toContain('Chart: line chart');
  });

  it('answers a schema-valid response for any sentence', () => {
    const catalogs = [demo, extended, withValues];
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.constantFrom(...catalogs),
        fc.array(
          fc.constantFrom(
            'by',
            'department',
            'safety',
            'top',
            '5',
            'last',
            'who',
            'not',
            'question',
            '3',
            'agent',
            'coach',
            'feedback',
            'motivation',
            'most common',
          ),
        ),
        (text, catalog, extra) => {
          const result = generateBuiltin(`${text} ${extra.join(' ')}`, catalog, { now: CASES_NOW });
          generateReportResponse.parse(result);
          customReportDraftSchema.parse(result.draft);
          for (const item of result.draft.items) reportItemInput.parse({ kind: 'query', ...item });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the built-in engine with agent variables', () => {
  it('reads an agent variable, scoped to the agent named, and says so', () => {
    const result = read('how many learners told the career coach their favourite topic');
    expect(result.draft.items.map((item) => [item.query.subject, item.query.measure?.fn])).toEqual([
      [
        {
          kind: 'chatbot_variable',
          chatbotVariableIds: [demo.chatbotVariableId('careerCoach', 'favourite_topic')],
        },
        'learners',
      ],
    ]);
    expect(result.understood).toEqual(
      expect.arrayContaining(['Agent: Career Coach', 'Agent variable: Favourite topic (Career Coach)']),
    );
    expect(result.notFound).toEqual([]);
  });

  it('asks back when a name is a course variable and an agent variable, naming the agent in the option', () => {
    const result = read('show me all feedback');
    expect(result.draft.items).toEqual([]);
    expect(result.ambiguities).toEqual([
      {
        phrase: 'feedback',
        message: '“feedback” matches 2 variables: which one?',
        options: [
          {
            kind: 'variable',
            id: demo.variableId('safety', 'feedback'),
            label: 'Feedback (Workplace Safety Essentials)',
          },
          {
            kind: 'variable',
            id: demo.chatbotVariableId('careerCoach', 'feedback'),
            label: 'feedback (agent Career Coach)',
          },
        ],
      },
    ]);
    // A course named, or "by course", tells it is the course variable.
    const byCourse = read('feedback by course');
    expect(byCourse.ambiguities).toEqual([]);
    expect(byCourse.draft.items[0]?.query.subject.kind).toBe('variable');
  });

  it('never narrows an agent variable to a course, and says why', () => {
    const result = read('motivation in the onboarding course');
    expect(result.draft.items.map((item) => item.query.subject)).toEqual([
      { kind: 'chatbot_variable', chatbotVariableIds: [demo.chatbotVariableId('careerCoach', 'motivation')] },
    ]);
    expect(result.draft.items[0]?.query.filters.courseIds).toEqual([]);
    expect(result.notFound).toEqual([
      'Motivation (1-5) in New Hire Onboarding: its values belong to agents, not courses, so the report reads it in Career Coach',
    ]);
  });

  it('says when an agent is named without anything it captured, and drafts no stand-in', () => {
    const result = read('how many learners chatted with the career coach');
    expect(result.draft.items).toEqual([]);
    expect(result.notFound).toEqual([
      'Career Coach: an agent is reported through the variables it captures; name one, such as Favourite topic',
    ]);
  });

  it('breaks down by agent only what agents captured', () => {
    expect(read('final score by agent').notFound).toEqual([
      'Broken down by agent: not possible for a variable',
    ]);
    expect(read('role by course').notFound).toEqual([
      'Broken down by course: not possible for an agent variable',
    ]);
    const perAgent = read('average motivation per bot');
    expect(perAgent.draft.items[0]?.query.breakdown).toEqual({ kind: 'agent', variableName: null });
  });

  it('groups a course variable by its own values for "most common", and says an agent variable cannot be', () => {
    const course = read('most common departments');
    expect(course.draft.items[0]?.query).toMatchObject({
      measure: { fn: 'learners', mark: null },
      breakdown: { kind: 'variable', variableName: 'department' },
      sort: { by: 'measure', order: 'desc' },
    });
    expect(course.notFound).toEqual([]);
    const agent = read('most common job roles');
    expect(agent.draft.items[0]?.query.breakdown.kind).toBe('none');
    expect(agent.notFound).toEqual([
      'Most common values: an agent variable cannot be grouped by its own values; “by learner” lists each learner’s value',
    ]);
  });
});

const emptyItem: LlmItem = {
  displayName: null,
  chart: 'auto',
  subject: {
    kind: 'courses',
    variableIds: [],
    questionId: null,
    courseIds: [],
    courseId: null,
    slideNumber: null,
    questionNumber: null,
    questionText: null,
  },
  measure: null,
  mark: null,
  breakdown: 'none',
  breakdownVariableName: null,
  period: { kind: 'all_time', days: null, unit: null, from: null, to: null },
  conditions: [],
  activity: [],
  sort: null,
  limit: null,
};
const answer = (items: LlmItem[], extra: Partial<LlmDraft> = {}): LlmDraft => ({
  name: 'Generated',
  description: null,
  items,
  understood: [],
  notFound: [],
  questions: [],
  ...extra,
});

describe('the LLM engine’s answer', () => {
  it('becomes report-model queries with the ids checked; what fails is left out and said', () => {
    const safetyScore = demo.variableId('safety', 'final_score');
    const result = draftFromLlm(
      answer([
        {
          ...emptyItem,
          displayName: 'Scores by department',
          subject: { ...emptyItem.subject, kind: 'variable', variableIds: [safetyScore] },
          measure: 'average',
          breakdown: 'variable',
          breakdownVariableName: 'department',
          period: { kind: 'this', days: null, unit: 'quarter', from: null, to: null },
        },
        { ...emptyItem, subject: { ...emptyItem.subject, kind: 'variable', variableIds: [randomUUID()] } },
        { ...emptyItem, subject: { ...emptyItem.subject, courseIds: [randomUUID()] } },
        { ...emptyItem, breakdown: 'variable', breakdownVariableName: 'shoe_size' },
        { ...emptyItem, measure: 'correct_rate' },
        {
          ...emptyItem,
          subject: {
            ...emptyItem.subject,
            kind: 'variable',
            variableIds: [safetyScore, demo.variableId('safety', 'department')],
          },
        },
      ]),
      demo,
    );
    expect(result.draft.items).toEqual([
      {
        displayName: 'Scores by department',
        chart: 'auto',
        query: {
          subject: { kind: 'variable', variableIds: [safetyScore] },
          measure: { fn: 'average', mark: null },
          breakdown: { kind: 'variable', variableName: 'department' },
          filters: { courseIds: [], period: { kind: 'this', unit: 'quarter' }, values: [], activity: [] },
          sort: null,
          limit: null,
        },
      },
    ]);
    expect(result.notFound).toEqual([
      'Item 2 the model proposed was left out: it names a variable that is not in your organization',
      'Item 3 the model proposed was left out: it names a course that is not in your organization',
      'Item 4 the model proposed was left out: it groups by a variable that is not in your organization',
      'Item 5 the model proposed was left out: A course report can measure: Learners, Completions, Completion rate, Pass rate, Average, Median, Minimum, Maximum',
      'Item 6 the model proposed was left out: it mixes variables of different names in one item',
    ]);
    expect(() => customReportDraftSchema.parse(result.draft)).not.toThrow();
  });

  it('keeps a question back only with options from the catalog', () => {
    const result = draftFromLlm(
      answer([], {
        questions: [
          {
            phrase: 'safety',
            message: 'Which safety course?',
            options: [
              { kind: 'course', id: extended.courseId('safety') },
              { kind: 'course', id: extended.courseId('fire') },
              { kind: 'course', id: randomUUID() },
            ],
          },
          { phrase: 'ghost', message: 'Which?', options: [{ kind: 'variable', id: randomUUID() }] },
        ],
      }),
      extended,
    );
    expect(result.ambiguities).toEqual([
      {
        phrase: 'safety',
        message: 'Which safety course?',
        options: [
          { kind: 'course', id: extended.courseId('safety'), label: 'Workplace Safety Essentials' },
          { kind: 'course', id: extended.courseId('fire'), label: 'Fire Safety Refresher' },
        ],
      },
    ]);
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
    await insertVariable(app.database.db, {
      organizationId,
      courseId: course.id,
      name: 'department',
      title: 'Department',
      dataType: 'text',
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
      'final score by department with question 3 of the safety course',
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<GenerateReportResponse>();
    expect(body.engine).toBe('builtin');
    expect(body.model).toBeUndefined();
    expect(body.draft.items.map((item) => item.query.subject.kind)).toEqual(['identifier', 'variable']);
    expect(body.draft.items[1]?.query.breakdown).toEqual({ kind: 'variable', variableName: 'department' });
    const created = await builtin.app.inject({
      method: 'POST',
      url: '/api/custom-reports',
      headers: owner.headers,
      payload: { ...body.draft, items: body.draft.items.map((item) => ({ kind: 'query', ...item })) },
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
      JSON.stringify(
        answer(
          [
            {
              ...emptyItem,
              displayName: 'Score',
              chart: 'bar',
              subject: { ...emptyItem.subject, kind: 'variable', variableIds: [llmScore.id] },
              measure: 'average',
              breakdown: 'variable',
              breakdownVariableName: 'department',
              period: { kind: 'last_days', days: 30, unit: null, from: null, to: null },
            },
            {
              ...emptyItem,
              subject: { ...emptyItem.subject, kind: 'variable', variableIds: [randomUUID()] },
            },
          ],
          { name: 'Scores by department', understood: ['Final score by department'] },
        ),
      ),
    );
    const response = await generate(withLlm, llmOwner, 'average final score by department, last 30 days');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<GenerateReportResponse>();
    expect(body).toMatchObject({
      engine: 'llm',
      model: 'stub-model',
      understood: ['Final score by department'],
    });
    expect(body.draft).toMatchObject({ name: 'Scores by department', reportType: 'bar' });
    expect(body.draft.items).toEqual([
      {
        displayName: 'Score',
        chart: 'bar',
        query: {
          subject: { kind: 'variable', variableIds: [llmScore.id] },
          measure: { fn: 'average', mark: null },
          breakdown: { kind: 'variable', variableName: 'department' },
          filters: { courseIds: [], period: { kind: 'last_days', days: 30 }, values: [], activity: [] },
          sort: null,
          limit: null,
        },
      },
    ]);
    expect(body.notFound).toEqual([
      'Item 2 the model proposed was left out: it names a variable that is not in your organization',
    ]);
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
    expect(body.understood[0]).toBe(
      'The language model did not answer; the built-in engine read your request',
    );
    expect(body.draft.items.map((item) => item.query)).toEqual([
      expect.objectContaining({
        subject: { kind: 'variable', variableIds: [llmScore.id] },
        breakdown: { kind: 'learner', variableName: null },
      }),
    ]);
  });

  it('tells the model the answers to its questions back', async () => {
    const catalog = extended;
    stub.reply(() =>
      JSON.stringify(
        answer([
          {
            ...emptyItem,
            subject: { ...emptyItem.subject, courseIds: [catalog.courseId('fire')] },
            measure: 'pass_rate',
          },
        ]),
      ),
    );
    const engine = createLlmEngine(stub.config);
    const result = await generateReport('pass rate of the safety course', catalog, engine, [
      { phrase: 'safety', id: catalog.courseId('fire') },
    ]);
    expect(stub.requests.at(-1)?.text).toContain(
      `“safety” means id ${catalog.courseId('fire')} (Fire Safety Refresher)`,
    );
    expect(result.engine).toBe('llm');
    expect(result.draft.items.map((item) => item.query.subject)).toEqual([
      { kind: 'courses', courseIds: [catalog.courseId('fire')] },
    ]);
    expect(() => generateReportResponse.parse(result)).not.toThrow();
  });
});
