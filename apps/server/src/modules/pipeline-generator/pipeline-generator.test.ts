import {
  generatePipelineResponse,
  isCronExpression,
  validatePipelineGraph,
  type Condition,
  type GeneratePipelineResponse,
  type PipelineEdge,
  type PipelineNode,
} from '@courselens/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCourse, insertVariable } from '../../db/factories/learning';
import { createLlmEngine } from '../../lib/llm';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { startLlmStub, type LlmStub } from '../../test/llm-stub';
import { generateBuiltin } from './generator/builtin';
import { LlmDraftRefused, draftFromLlm, type LlmPipeline } from './generator/llm';
import { generatePipelineDraft } from './pipeline-generator';
import { buildCasesCatalog } from './pipeline-generator.cases';

const demo = buildCasesCatalog('demo');
const extended = buildCasesCatalog('extended');

type Node = { id: string; type: string; data: Record<string, unknown> };
const nodesOf = (result: GeneratePipelineResponse) => result.draft.nodes as Node[];
const ofType = (result: GeneratePipelineResponse, type: string) =>
  nodesOf(result).filter((node) => node.type === type);
const conditionsOf = (result: GeneratePipelineResponse) =>
  ofType(result, 'filter').flatMap((node) => node.data.conditions as Condition[]);
const cronOf = (prompt: string) => ofType(generateBuiltin(prompt, demo), 'schedule')[0]?.data.cron;
const delayOf = (prompt: string) => {
  const [delay] = ofType(generateBuiltin(prompt, demo), 'delay');
  return delay ? { amount: delay.data.amount, unit: delay.data.unit } : null;
};

describe('schedules in words', () => {
  it.each([
    ['every Monday at 8am notify the team', '0 8 * * 1'],
    ['every weekday at 9:00 notify the team', '0 9 * * 1-5'],
    ['every day at 6pm notify the team', '0 18 * * *'],
    ['daily at 7:30 notify the team', '30 7 * * *'],
    ['on the first of every month at 7am notify the team', '0 7 1 * *'],
    ['on the 15th of every month at noon notify the team', '0 12 15 * *'],
    ['every Friday at 4:30pm notify the team', '30 16 * * 5'],
    ['every Monday and Thursday at 10 am notify the team', '0 10 * * 1,4'],
    ['at 8 every Sunday notify the team', '0 8 * * 0'],
    ['every weekend at midnight notify the team', '0 0 * * 0,6'],
    ['hourly notify the team', '0 * * * *'],
    ['every 15 minutes notify the team', '*/15 * * * *'],
  ])('“%s” runs at %s', (prompt, cron) => {
    expect(cronOf(prompt)).toBe(cron);
    expect(isCronExpression(cron)).toBe(true);
  });

  it('says what it assumed when no time was given, and reads "every time" as no schedule', () => {
    const result = generateBuiltin('every Monday e-mail the team', demo);
    expect(ofType(result, 'schedule')[0]?.data.cron).toBe('0 9 * * 1');
    expect(result.draft.description).toMatch(/09:00, as no time was given/);
    expect(cronOf('notify the team every time a learner fails the safety course')).toBeUndefined();
  });
});

describe('counts, negations and waits', () => {
  const countOf = (prompt: string) =>
    conditionsOf(generateBuiltin(prompt, demo)).filter((condition) => condition.field === 'learner.count');

  it.each([
    ['when a learner fails the safety course twice, notify the team', 'course.failed', 'gte', 2],
    ['when a learner fails the safety course three times, notify the team', 'course.failed', 'gte', 3],
    ['when a learner fails the GDPR course 4 times, notify the team', 'course.failed', 'gte', 4],
    ['when a learner fails the GDPR course for the second time, notify the team', 'course.failed', 'gte', 2],
    ['when a learner passes onboarding at least 2 times, notify the team', 'course.passed', 'gte', 2],
  ])('“%s” counts %s %s %s', (prompt, eventType, op, value) => {
    expect(countOf(prompt)).toEqual([{ field: 'learner.count', eventType, op, value }]);
  });

  it('reads "has not finished" as a count of zero, checked after the wait', () => {
    const result = generateBuiltin(
      'If a learner hasn’t completed New Hire Onboarding 2 weeks after starting it, email them a reminder',
      demo,
    );
    const [course] = ofType(result, 'course');
    expect(course?.data.events).toEqual(['course.started']);
    // Source → wait → filter: the count is read when the wait is over.
    const edges = result.draft.edges as PipelineEdge[];
    const [delay] = ofType(result, 'delay');
    const [filter] = ofType(result, 'filter');
    expect(edges.map((edge) => `${edge.source}>${edge.target}`)).toContain(`${delay?.id}>${filter?.id}`);
    expect(filter?.data.conditions).toEqual([
      { field: 'learner.count', eventType: 'course.completed', op: 'eq', value: 0 },
    ]);
    expect(delay?.data).toMatchObject({ amount: 14, unit: 'days' });
  });

  it('reads "leaves without finishing" as the exit alone', () => {
    const result = generateBuiltin(
      'when a learner leaves the safety course without finishing, notify the team',
      demo,
    );
    expect(ofType(result, 'course')[0]?.data.events).toEqual(['course.exited']);
    expect(conditionsOf(result)).toEqual([]);
  });

  it.each([
    ['when a learner fails the safety course, wait 2 hours and notify the team', 2, 'hours'],
    ['when a learner fails the safety course, notify the team the next day', 1, 'days'],
    ['when a learner fails the safety course, notify the team 3 days later', 3, 'days'],
    ['notify the team a week after a learner fails the safety course', 7, 'days'],
    ['when a learner fails the safety course, after 45 minutes notify the team', 45, 'minutes'],
    ['when a learner fails the safety course, wait two days, then notify the team', 2, 'days'],
  ])('“%s” waits %s %s', (prompt, amount, unit) => {
    expect(delayOf(prompt)).toEqual({ amount, unit });
  });

  it('waits at most 30 days and says so', () => {
    const result = generateBuiltin(
      'when a learner fails the safety course, wait 3 months and notify the team',
      demo,
    );
    expect(ofType(result, 'delay')[0]?.data).toMatchObject({ amount: 30, unit: 'days' });
    expect(result.unmapped.join(' ')).toMatch(/at most 30 days/);
  });
});

describe('names as names', () => {
  it('does not read "their manager" as the course for new managers', () => {
    const result = generateBuiltin('when a learner fails the safety course, e-mail their manager', demo);
    expect(ofType(result, 'course').map((node) => node.data.label)).toEqual(['Workplace Safety Essentials']);
    expect(result.unmapped).toEqual([
      'their manager: CourseLens does not know learners’ managers; the e-mail goes to your team',
    ]);
    expect(result.missingActions[0]?.config).toMatchObject({ to: { kind: 'team' } });
  });

  it('keeps identifiers whole: onboarding_done is a variable, not the onboarding course', () => {
    const result = generateBuiltin(
      'when a learner completes the GDPR course, set onboarding_done to true',
      demo,
    );
    expect(ofType(result, 'course').map((node) => node.data.label)).toEqual([
      'Data Privacy & GDPR Fundamentals',
    ]);
  });

  it('does not read the words of an address as names', () => {
    const result = generateBuiltin(
      'when a learner completes the GDPR course, post to https://welcome.example.com/training/slack',
      demo,
    );
    expect(ofType(result, 'action').map((node) => node.data.actionId)).toEqual([undefined]);
    expect(result.missingActions[0]?.config).toEqual({
      type: 'webhook',
      url: 'https://welcome.example.com/training/slack',
      method: 'POST',
    });
  });

  it('prefers the name that covers more words, and asks back when two fit as well', () => {
    const fire = generateBuiltin('when a learner passes Fire Safety Refresher, notify the team', extended);
    expect(ofType(fire, 'course').map((node) => node.data.label)).toEqual(['Fire Safety Refresher']);
    const asked = generateBuiltin('when a learner passes the safety course, notify the team', extended);
    expect(asked.ambiguities).toEqual([
      {
        phrase: 'safety',
        kind: 'course',
        options: [
          { id: extended.courseId('safety'), label: 'Workplace Safety Essentials' },
          { id: extended.courseId('fire'), label: 'Fire Safety Refresher' },
        ],
      },
    ]);
    expect(ofType(asked, 'course')).toEqual([]);
    const answered = generateBuiltin('when a learner passes the safety course, notify the team', extended, {
      safety: extended.courseId('fire'),
    });
    expect(answered.ambiguities).toEqual([]);
    expect(ofType(answered, 'course').map((node) => node.data.courseId)).toEqual([extended.courseId('fire')]);
  });

  it('says which words name nothing it knows', () => {
    const result = generateBuiltin('when a learner starts the Excel course, send it to Zapier', demo);
    expect(result.unmapped).toEqual(
      expect.arrayContaining(['“excel course”: no course of yours has this name']),
    );
    expect(result.unmapped.join(' ')).toMatch(/Zapier/);
  });
});

describe('actions', () => {
  it('reuses an action the sentence names, and proposes one of the right type otherwise', () => {
    const reused = generateBuiltin(
      'when a learner completes the safety course, post to Slack #training',
      demo,
    );
    expect(ofType(reused, 'action').map((node) => node.data.actionId)).toEqual([
      demo.actionId('Slack #training'),
    ]);
    expect(reused.missingActions).toEqual([]);
    const proposed = generateBuiltin(
      'when a learner completes the safety course, set certified to true',
      demo,
    );
    expect(proposed.missingActions).toEqual([
      expect.objectContaining({
        type: 'set_variable',
        name: 'Set certified to true',
        config: { type: 'set_variable', variableName: 'certified', value: { kind: 'literal', value: true } },
        missing: [],
      }),
    ]);
  });

  it('asks for the address of a webhook the sentence does not give', () => {
    const result = generateBuiltin('when a learner completes the safety course, call a webhook', demo);
    expect(result.missingActions).toEqual([expect.objectContaining({ type: 'webhook', missing: ['url'] })]);
  });

  it('reads values as written: true, false, numbers and text', () => {
    const valueOf = (prompt: string) =>
      (result(prompt).missingActions[0]?.config.value as { value: unknown } | undefined)?.value;
    const result = (prompt: string) =>
      generateBuiltin(`when a learner completes the safety course, ${prompt}`, demo);
    expect(valueOf('set at_risk to false')).toBe(false);
    expect(valueOf('set level to 3')).toBe(3);
    expect(valueOf('set status to Done')).toBe('Done');
    expect(valueOf("set status to 'needs a call'")).toBe('needs a call');
  });

  it('splits a branch by "otherwise" and starts on both outcomes', () => {
    const result = generateBuiltin(
      'When a learner finishes the safety course, email them a certificate if they passed, otherwise tell the team',
      demo,
    );
    expect(ofType(result, 'course')[0]?.data.events).toEqual(['course.passed', 'course.failed']);
    const [branch] = ofType(result, 'branch');
    const edges = result.draft.edges as PipelineEdge[];
    const side = (handle: string) =>
      edges
        .filter((edge) => edge.source === branch?.id && edge.sourceHandle === handle)
        .map((edge) => nodesOf(result).find((node) => node.id === edge.target)?.data.label);
    expect(side('yes')).toEqual(['Email the learner: certificate']);
    expect(side('no')).toEqual(['Notify the team']);
  });

  it('drafts a mapping with the destination left to choose', () => {
    const result = generateBuiltin('Combine the final score of all courses into one variable', demo);
    const [map] = ofType(result, 'map_variables');
    expect((map?.data.sources as unknown[]).length).toBe(5);
    expect(result.openSettings).toEqual([
      expect.objectContaining({ nodeId: map?.id, field: 'destinationVariableId' }),
    ]);
    expect(result.openSettings[0]?.options[0]?.label).toMatch(/^Final score/);
  });
});

describe('every draft', () => {
  it('fits the response schema and lays out valid structures, whatever is typed', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            'when',
            'a learner',
            'fails',
            'completes',
            'the safety course',
            'twice',
            'every Monday at 8am',
            'wait 2 hours',
            'notify the team',
            'e-mail them',
            'set at_risk to true',
            'otherwise',
            'if they passed',
            'post to Slack #training',
            'clear the broadcast',
            'https://x.example.com/h',
            'jane@example.com',
            'not',
            ',',
            '50%',
            'below 40',
          ),
          { maxLength: 14 },
        ),
        fc.constantFrom(demo, extended),
        (parts, catalog) => {
          const result = generateBuiltin(parts.join(' '), catalog);
          generatePipelineResponse.parse(result);
          const nodes = result.draft.nodes as PipelineNode[];
          const edges = result.draft.edges as PipelineEdge[];
          const problems = validatePipelineGraph({ nodes, edges });
          // Only the problems of a draft that lacks a part: never a loop, a duplicate or a dangling edge.
          expect(
            problems.filter((problem) =>
              /loop|Two nodes|points to|connected to itself/.test(problem.message),
            ),
          ).toEqual([]);
          for (const node of nodes) expect(node.position).toBeDefined();
        },
      ),
      { numRuns: 200 },
    );
  });
});

// ---- the LLM engine -------------------------------------------------------------------------

const emptyNode: Omit<LlmPipeline['nodes'][number], 'id' | 'type'> = {
  label: null,
  courseId: null,
  events: [],
  chatbotId: null,
  cron: null,
  match: 'all',
  conditions: [],
  delayAmount: null,
  delayUnit: null,
  mapSources: [],
  destinationVariableId: null,
  actionId: null,
  newAction: null,
};

function llmAnswer(overrides: Partial<LlmPipeline> = {}): LlmPipeline {
  return {
    name: 'Safety failures',
    description: null,
    nodes: [
      {
        ...emptyNode,
        id: 'src',
        type: 'course',
        courseId: demo.courseId('safety'),
        events: ['course.failed'],
        conditions: [],
      },
      {
        ...emptyNode,
        id: 'twice',
        type: 'filter',
        conditions: [
          { field: 'learner.count', op: 'gte', value: 2, variableName: null, eventType: 'course.failed' },
        ],
      },
      { ...emptyNode, id: 'lms', type: 'action', actionId: demo.actionId('Notify LMS') },
      {
        ...emptyNode,
        id: 'flag',
        type: 'action',
        newAction: {
          type: 'set_variable',
          name: 'Set at_risk',
          emailTo: null,
          addresses: [],
          subject: null,
          body: null,
          message: null,
          url: null,
          variableName: 'at_risk',
          value: true,
          broadcastMode: null,
          courseId: null,
        },
      },
    ],
    edges: [
      { source: 'src', target: 'twice', sourceHandle: null },
      { source: 'twice', target: 'lms', sourceHandle: null },
      { source: 'twice', target: 'flag', sourceHandle: null },
    ],
    unmapped: [],
    questions: [],
    ...overrides,
  };
}

describe('the LLM engine’s answer', () => {
  it('becomes a laid-out draft with the new actions it proposes', () => {
    const result = draftFromLlm(llmAnswer(), demo, 'stub-model');
    expect(generatePipelineResponse.parse(result)).toMatchObject({ engine: 'llm', model: 'stub-model' });
    expect(nodesOf(result).map((node) => node.id)).toEqual(['src', 'twice', 'lms', 'flag']);
    expect(result.missingActions).toEqual([
      expect.objectContaining({ nodeId: 'flag', type: 'set_variable', name: 'Set at_risk' }),
    ]);
    expect(
      validatePipelineGraph({
        nodes: result.draft.nodes as PipelineNode[],
        edges: result.draft.edges as PipelineEdge[],
      }),
    ).toEqual([]);
  });

  it('leaves out what names another organization’s ids and cuts loops, saying so', () => {
    const answer = llmAnswer();
    answer.nodes.push({
      ...emptyNode,
      id: 'ghost',
      type: 'action',
      actionId: '6f1c3c9e-7a43-4a55-9d4f-2b1c0e0b1a11',
    });
    answer.edges.push(
      { source: 'twice', target: 'ghost', sourceHandle: null },
      { source: 'lms', target: 'twice', sourceHandle: null },
      { source: 'flag', target: 'src', sourceHandle: null },
    );
    const result = draftFromLlm(answer, demo, 'stub-model');
    expect(nodesOf(result).map((node) => node.id)).not.toContain('ghost');
    expect(result.unmapped.join(' ')).toMatch(/action that is not in your organization/);
    expect(
      validatePipelineGraph({
        nodes: result.draft.nodes as PipelineNode[],
        edges: result.draft.edges as PipelineEdge[],
      }),
    ).toEqual([]);
  });

  it('refuses a draft that cannot run', () => {
    const answer = llmAnswer({ edges: [] });
    expect(() => draftFromLlm(answer, demo, 'stub-model')).toThrow(LlmDraftRefused);
  });
});

describe('the generator with a local OpenAI-compatible stub', () => {
  let stub: LlmStub;
  beforeAll(async () => {
    stub = await startLlmStub();
  });
  afterAll(async () => {
    await stub.close();
  });

  it('sends the catalog with the request and answers the model’s checked draft', async () => {
    stub.reply(() => JSON.stringify(llmAnswer()));
    const result = await generatePipelineDraft(
      'when a learner fails the safety quiz twice, tell the LMS and flag them',
      demo,
      createLlmEngine(stub.config),
    );
    expect(generatePipelineResponse.parse(result).engine).toBe('llm');
    const request = stub.requests.at(-1);
    expect(request?.text).toContain('Workplace Safety Essentials');
    expect(request?.text).toContain('Notify LMS');
    expect(request?.responseFormat).not.toBeNull();
  });

  it('falls back to the built-in engine, and says why, when the model fails or its draft cannot run', async () => {
    stub.reply(() => ({ status: 500 }));
    const failed = await generatePipelineDraft(
      'every day at 6pm notify the team',
      demo,
      createLlmEngine(stub.config),
    );
    expect(failed.engine).toBe('builtin');
    expect(failed.unmapped[0]).toMatch(/^The language model’s draft was refused: it did not answer/);
    stub.reply(() => JSON.stringify(llmAnswer({ edges: [] })));
    const refused = await generatePipelineDraft(
      'every day at 6pm notify the team',
      demo,
      createLlmEngine(stub.config),
    );
    expect(refused.engine).toBe('builtin');
    expect(refused.unmapped[0]).toMatch(/its draft could not run/);
    expect(ofType(refused, 'schedule')[0]?.data.cron).toBe('0 18 * * *');
  });
});

// ---- the route ------------------------------------------------------------------------------

describe('POST /api/pipelines/generate', () => {
  let testApp: TestApp;
  let owner: SignedUp;
  let other: SignedUp;

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await signUpViaApi(testApp.app);
    other = await signUpViaApi(testApp.app);
    const course = await insertCourse(testApp.database.db, {
      organizationId: owner.organization.id,
      courseTitle: 'Workplace Safety Essentials',
    });
    await insertVariable(testApp.database.db, {
      organizationId: owner.organization.id,
      courseId: course.id,
      name: 'final_score',
      title: 'Final score',
      dataType: 'number',
    });
    await insertCourse(testApp.database.db, {
      organizationId: other.organization.id,
      courseTitle: 'Forklift Driving Basics',
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const generate = (who: SignedUp | null, payload: unknown) =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/pipelines/generate',
      headers: who?.headers ?? {},
      payload: payload as Record<string, unknown>,
    });

  it('drafts from the organization’s own names', async () => {
    const response = await generate(owner, {
      prompt: 'When a learner scores below 50 in the safety course, notify the team',
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<GeneratePipelineResponse>();
    expect(body.engine).toBe('builtin');
    expect(ofType(body, 'course')[0]?.data.label).toBe('Workplace Safety Essentials');
    expect(conditionsOf(body)).toEqual([
      { field: 'event.variable', op: 'eq', value: 'final_score' },
      { field: 'event.value', op: 'lt', value: 50 },
    ]);
  });

  it('never reads another organization’s names', async () => {
    const response = await generate(owner, {
      prompt: 'When a learner completes Forklift Driving Basics, notify the team',
    });
    const body = response.json<GeneratePipelineResponse>();
    expect(ofType(body, 'course').map((node) => node.data.label)).toEqual(['Workplace Safety Essentials']);
    expect(body.unmapped.join(' ')).toMatch(/forklift driving basic/);
  });

  it('refuses an empty or overlong sentence, and callers who are not signed in', async () => {
    const empty = await generate(owner, { prompt: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: 'Describe what the pipeline should do' });
    expect((await generate(owner, { prompt: 'x'.repeat(1001) })).statusCode).toBe(400);
    expect((await generate(null, { prompt: 'notify the team' })).statusCode).toBe(401);
  });
});
