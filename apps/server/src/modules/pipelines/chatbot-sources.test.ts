import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  Chatbot,
  CreatedAction,
  DryRunResponse,
  PipelineDetail,
  PipelineRunDetail,
  SendChatMessageResponse,
  TestRunResponse,
} from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { changePlanViaApi, signUpViaApi, type SignedUp } from '../../test/auth';
import { createActionsRuntime } from '../actions/runtime';
import type { PipelineQueue } from './pipeline-queue';
import { executeRun, type PipelineWorker } from './run-executor';
import { startRunsForEvents } from './run-starts';

// Chatbot sources through the real app: a learner states a value to an
// agent, the chat's write path logs `chatbot.variable.captured` and queues
// the matcher (`learning-events.accepted`, source chatbot); the matcher
// starts one run per capture for the pipelines on that agent, none for
// another agent's, none again when its job comes twice; the run's webhook
// carries the learner, the variable and its value. Test and dry runs read
// the same captures back.

type Received = { headers: IncomingMessage['headers']; body: string };
type MatchJob = { organizationId: string; eventIds: string[]; source: string };

const AUTH_SECRET = 'chatbot-sources-test-auth-secret-of-32-characters';

let receiver: Server;
let receiverPort: number;
const received: Received[] = [];
let testApp: TestApp;
let owner: SignedUp;
let ada: Chatbot;
let bea: Chatbot;
let webhook: CreatedAction;
let templated: CreatedAction;
let worker: PipelineWorker;
const queued: string[] = [];

const db = () => testApp.database.db;
const inject = (options: InjectOptions) => testApp.app.inject(options);
const orgId = () => owner.organization.id;

const queue: PipelineQueue = {
  queueRuns: async (runs) => {
    for (const run of runs) queued.push(run.runId);
  },
  syncSchedules: async () => undefined,
};

async function createAgent(name: string): Promise<Chatbot> {
  const response = await inject({
    method: 'POST',
    url: '/api/chatbots',
    headers: owner.headers,
    payload: { name, variables: [{ name: 'team_size', type: 'number' }] },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Chatbot>();
}

async function createWebhook(name: string, bodyTemplate?: string): Promise<CreatedAction> {
  const response = await inject({
    method: 'POST',
    url: '/api/actions',
    headers: owner.headers,
    payload: {
      name,
      config: {
        type: 'webhook',
        url: `http://127.0.0.1:${receiverPort}/${name}`,
        ...(bodyTemplate ? { bodyTemplate } : {}),
      },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedAction>();
}

async function createPipeline(
  name: string,
  source: { chatbotId: string; events: string[] },
  action: CreatedAction = webhook,
): Promise<PipelineDetail> {
  const response = await inject({
    method: 'POST',
    url: '/api/pipelines',
    headers: owner.headers,
    payload: {
      name,
      active: true,
      nodes: [
        { id: 'agent', type: 'chatbot', data: source },
        { id: 'hook', type: 'action', data: { actionId: action.id } },
      ],
      edges: [{ source: 'agent', target: 'hook' }],
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const created = response.json<PipelineDetail>();
  expect(created).toMatchObject({ active: true, problems: [] });
  return created;
}

async function setActive(pipelineId: string, active: boolean) {
  const response = await inject({
    method: 'PATCH',
    url: `/api/pipelines/${pipelineId}`,
    headers: owner.headers,
    payload: { active },
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** A learner's first message to an agent: its opening asked the team size, so "12" answers it. */
async function stateTeamSize(agent: Chatbot, email: string, message: string, name?: string) {
  const response = await inject({
    method: 'POST',
    url: `/api/chat/${agent.id}/messages`,
    payload: { message, learner: { email, ...(name ? { name } : {}) } },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SendChatMessageResponse>();
}

/**
 * The matcher jobs the chat's write path queued (workers are off in the test
 * app, so they wait in pg-boss's table), oldest first.
 */
async function matchJobs(): Promise<MatchJob[]> {
  const result = await db().execute<{ data: MatchJob }>(sql`
    select data from pgboss.job
    where name = 'pipelines.match-events' and data ->> 'organizationId' = ${orgId()}
    order by created_on, id`);
  return result.rows.map((row) => row.data);
}

/** What the matcher's handler does with one job: answers the runs it queued. */
async function deliver(job: MatchJob): Promise<string[]> {
  queued.length = 0;
  await startRunsForEvents(db(), queue, { ...job, now: new Date() });
  return [...queued];
}

async function runsOf(
  pipelineId: string,
): Promise<{ id: string; event_id: string; learner_email: string }[]> {
  const result = await db().execute<{ id: string; event_id: string; learner_email: string }>(sql`
    select id, event_id, learner_email from pipeline_runs
    where organization_id = ${orgId()} and pipeline_id = ${pipelineId}
    order by started_at, id`);
  return result.rows;
}

async function capturedEventIds(email: string): Promise<string[]> {
  const result = await db().execute<{ event_id: string }>(sql`
    select e.event_id from learning_events e
    join learners l on l.organization_id = e.organization_id and l.id = e.learner_id
    where e.organization_id = ${orgId()} and l.email = ${email} and e.type = 'chatbot.variable.captured'
    order by e.occurred_at, e.event_id`);
  return result.rows.map((row) => row.event_id);
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
  const webhookAllowedHosts = [{ host: '127.0.0.1', port: receiverPort }];
  testApp = await createTestApp(
    { authSecret: AUTH_SECRET, webhookAllowedHosts },
    { chat: { limits: { perMinute: 10_000, perHour: 10_000 } } },
  );
  owner = await signUpViaApi(testApp.app, { name: 'Cora Chat' });
  // More agents than Free allows.
  await changePlanViaApi(testApp.app, owner);
  ada = await createAgent('Ada');
  bea = await createAgent('Bea');
  webhook = await createWebhook('captures');
  templated = await createWebhook(
    'templated',
    '{"email": "{{learner.email}}", "variable": "{{variable.name}}", "value": {{value}}, "course": "{{course.title}}"}',
  );
  worker = {
    db: db(),
    actions: createActionsRuntime({
      authSecret: AUTH_SECRET,
      config: { smtp: undefined, webhookAllowedHosts },
      publish: testApp.jobs.publish,
    }),
    queueRun: async () => undefined,
    now: () => new Date(),
  };
});

afterAll(async () => {
  await testApp.close();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

beforeEach(() => {
  received.length = 0;
  queued.length = 0;
});

// Each test's pipelines go off after it, so a failure leaves no pipeline on to start runs in the next.
afterEach(async () => {
  const active = await db().execute<{ id: string }>(
    sql`select id from pipelines where organization_id = ${orgId()} and active`,
  );
  for (const { id } of active.rows) await setActive(id, false);
});

describe('a chatbot source', () => {
  it('starts one run per captured value for the pipelines on that agent, and none twice', async () => {
    const onAda = await createPipeline('Team sizes from Ada', {
      chatbotId: ada.id,
      events: ['variable.captured'],
    });
    const onBea = await createPipeline('Team sizes from Bea', {
      chatbotId: bea.id,
      events: ['variable.captured'],
    });
    const adaOnlyStarts = await createPipeline('Ada conversations started', {
      chatbotId: ada.id,
      events: ['chat.started'],
    });
    const jobsBefore = (await matchJobs()).length;

    const lea = await stateTeamSize(ada, 'lea@example.com', '12', 'Lea Learner');
    expect(lea.captured).toEqual({ team_size: 12 });
    const max = await stateTeamSize(ada, 'max@example.com', '7');
    expect(max.captured).toEqual({ team_size: 7 });

    // The chat queued the matcher once per message, with what it logged: the
    // conversation's start, the capture and (every value in) its end.
    const jobs = (await matchJobs()).slice(jobsBefore);
    expect(jobs).toEqual([
      {
        type: 'learning-events.accepted',
        organizationId: orgId(),
        source: 'chatbot',
        eventIds: expect.any(Array),
      },
      {
        type: 'learning-events.accepted',
        organizationId: orgId(),
        source: 'chatbot',
        eventIds: expect.any(Array),
      },
    ]);
    const [leaEvent] = await capturedEventIds('lea@example.com');
    const [maxEvent] = await capturedEventIds('max@example.com');
    expect(jobs.map((job) => job.eventIds.filter((id) => !/:(started|ended)$/.test(id)))).toEqual([
      [leaEvent],
      [maxEvent],
    ]);
    expect(jobs.map((job) => job.eventIds.filter((id) => id.endsWith(':started')).length)).toEqual([1, 1]);

    // Each message: one run of the capture pipeline, one of the "conversation started" one.
    const first = await deliver(jobs[0]!);
    const second = await deliver(jobs[1]!);
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(2);
    expect((await runsOf(onAda.id)).map((run) => [run.event_id, run.learner_email])).toEqual([
      [leaEvent, 'lea@example.com'],
      [maxEvent, 'max@example.com'],
    ]);
    expect(await runsOf(onBea.id)).toEqual([]);
    expect(
      (await runsOf(adaOnlyStarts.id)).map((run) => [run.event_id.endsWith(':started'), run.learner_email]),
    ).toEqual([
      [true, 'lea@example.com'],
      [true, 'max@example.com'],
    ]);

    // pg-boss delivers a job again after a lost worker: nothing more starts.
    expect(await deliver(jobs[0]!)).toEqual([]);
    expect(await deliver(jobs[1]!)).toEqual([]);
    expect(await runsOf(onAda.id)).toHaveLength(2);

    // Bea's pipeline does start on Bea's captures (so its silence above meant something).
    const before = (await matchJobs()).length;
    await stateTeamSize(bea, 'lea@example.com', '30');
    const [beaJob] = (await matchJobs()).slice(before);
    expect(await deliver(beaJob!)).toHaveLength(1);
    expect(await runsOf(onBea.id)).toHaveLength(1);
    expect(await runsOf(onAda.id)).toHaveLength(2);
  });

  it('gives the run the learner, the variable, its value and the agent', async () => {
    const pipeline = await createPipeline('Team size to the CRM', {
      chatbotId: ada.id,
      events: ['variable.captured'],
    });
    const before = (await matchJobs()).length;
    await stateTeamSize(ada, 'noa@example.com', '12', 'Noa Learner');
    const [job] = (await matchJobs()).slice(before);
    expect(await deliver(job!)).toHaveLength(1);
    const [run] = await runsOf(pipeline.id);
    const runId = run?.id;
    const [eventId] = await capturedEventIds('noa@example.com');

    expect(await executeRun(worker, { organizationId: orgId(), runId: runId! })).toBe(true);
    expect(received).toHaveLength(1);
    const body = JSON.parse(received[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      id: eventId,
      type: 'chatbot.variable.captured',
      course: null,
      learner: { email: 'noa@example.com', name: 'Noa Learner' },
      variable: { name: 'team_size', value: 12 },
      value: 12,
      chatbot: { id: ada.id, name: 'Ada' },
      chat: { sessionId: expect.any(String) },
    });

    const detail = await inject({
      method: 'GET',
      url: `/api/pipelines/${pipeline.id}/runs/${runId}`,
      headers: owner.headers,
    });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json<PipelineRunDetail>()).toMatchObject({
      status: 'succeeded',
      trigger: 'event',
      eventId,
      eventType: 'chatbot.variable.captured',
      learnerEmail: 'noa@example.com',
    });
  });

  it('fills a body template with the variable and its value, and no course', async () => {
    const pipeline = await createPipeline(
      'Templated team size',
      { chatbotId: ada.id, events: ['variable.captured'] },
      templated,
    );
    const before = (await matchJobs()).length;
    await stateTeamSize(ada, 'ines@example.com', '5');
    const [job] = (await matchJobs()).slice(before);
    expect(await deliver(job!)).toHaveLength(1);
    const [run] = await runsOf(pipeline.id);
    expect(await executeRun(worker, { organizationId: orgId(), runId: run!.id })).toBe(true);
    expect(received.map((delivery) => JSON.parse(delivery.body) as unknown)).toEqual([
      { email: 'ines@example.com', variable: 'team_size', value: 5, course: '' },
    ]);
  });

  it('offers the agent’s captures to test runs and dry runs', async () => {
    const cleo = await createAgent('Cleo');
    const pipeline = await createPipeline('Tried on captures', {
      chatbotId: cleo.id,
      events: ['variable.captured'],
    });
    await setActive(pipeline.id, false);
    await stateTeamSize(cleo, 'tess@example.com', '9');
    await stateTeamSize(cleo, 'ugo@example.com', '4');
    // Another agent's capture is not this pipeline's.
    await stateTeamSize(ada, 'tess@example.com', '3');
    const [eventId] = await capturedEventIds('tess@example.com');

    const events = await inject({
      method: 'GET',
      url: `/api/pipelines/${pipeline.id}/test-events`,
      headers: owner.headers,
    });
    expect(events.statusCode, events.body).toBe(200);
    expect(events.json<{ items: Record<string, unknown>[] }>().items).toEqual([
      expect.objectContaining({ learnerEmail: 'ugo@example.com', summary: 'team_size = 4' }),
      {
        eventId,
        type: 'chatbot.variable.captured',
        occurredAt: expect.any(String),
        courseTitle: 'Cleo',
        learnerEmail: 'tess@example.com',
        summary: 'team_size = 9',
      },
    ]);

    const test = await inject({
      method: 'POST',
      url: `/api/pipelines/${pipeline.id}/test`,
      headers: owner.headers,
      payload: { eventId },
    });
    expect(test.statusCode, test.body).toBe(200);
    const run = test.json<TestRunResponse>();
    expect(run.steps.map((step) => [step.nodeId, step.status])).toEqual([
      ['agent', 'succeeded'],
      ['hook', 'skipped'],
    ]);
    const wouldSend = (run.steps[1]?.output as { wouldSend: { body: string } }).wouldSend;
    expect(JSON.parse(wouldSend.body)).toMatchObject({
      id: eventId,
      learner: { email: 'tess@example.com' },
      variable: { name: 'team_size', value: 9 },
    });
    expect(received).toHaveLength(0);

    const today = new Date().toISOString().slice(0, 10);
    const dry = await inject({
      method: 'POST',
      url: `/api/pipelines/${pipeline.id}/dry-run`,
      headers: owner.headers,
      payload: { from: today, to: today },
    });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json<DryRunResponse>()).toMatchObject({
      events: 2,
      runs: 2,
      stopped: 0,
      actions: [expect.objectContaining({ nodeId: 'hook', runs: 2, learners: 2 })],
      learners: { total: 2 },
    });
  });
});
