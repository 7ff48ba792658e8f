import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PIPELINE_MESSAGES,
  RUN_RETENTION_MESSAGE,
  type CreatedAction,
  type DryRunResponse,
  type PipelineDetail,
  type PipelineListResponse,
  type PipelineRunDetail,
  type PipelineRunSummary,
  type TestRunResponse,
} from '@courselens/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertCourse } from '../../db/factories/learning';
import { actions, activityEvents, pipelineRunSteps, pipelineRuns } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { createActionsRuntime } from '../actions/runtime';
import { verifyWebhook } from '../actions/webhook-signature';
import type { PipelineQueue } from './pipeline-queue';
import { pruneExpiredRuns } from './pipelines.jobs';
import { removeCourseFromPipelines } from './pipelines.service';
import { executeRun, RUN_LEASE_MS, type PipelineWorker } from './run-executor';
import { startRunsForEvents } from './run-starts';
import { claimRun, selectStrandedRuns } from './runs.queries';
import { dryRun } from './trial-runs.service';

// What runs do, step by step, on the real database with a real webhook
// receiver, on a clock the test moves: filters and branches, counts of a
// learner's events, delays, the Standard Webhooks retry schedule,
// Retry-After, 410 Gone, retries by hand, leases of dead workers, and the
// test and dry runs that send nothing.

type Received = { headers: IncomingMessage['headers']; body: string };
const AUTH_SECRET = 'pipeline-runs-test-auth-secret-of-32-characters-at-least';

let receiver: Server;
let receiverPort: number;
const received: Received[] = [];
/** Answers, one per request, then 200. */
let answers: ((response: ServerResponse) => void)[] = [];

let testApp: TestApp;
let owner: SignedUp;
let ingestKey: string;
let courseId: string;
let externalCourseId: string;
let webhook: CreatedAction;
let clock: Date;
const queued: { runId: string; startAfter?: Date | undefined }[] = [];

const db = () => testApp.database.db;
const inject = (options: InjectOptions) => testApp.app.inject(options);
const orgId = () => owner.organization.id;

const queue: PipelineQueue = {
  queueRuns: async (runs, options = {}) => {
    for (const run of runs) queued.push({ runId: run.runId, startAfter: options.startAfter });
  },
  syncSchedules: async () => undefined,
};

let worker: PipelineWorker;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift();
      if (answer) answer(response);
      else response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
  const webhookAllowedHosts = [{ host: '127.0.0.1', port: receiverPort }];
  testApp = await createTestApp({ authSecret: AUTH_SECRET, webhookAllowedHosts });
  owner = await signUpViaApi(testApp.app, { name: 'Rita Runs' });
  const key = await inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: owner.headers,
    payload: { name: 'LMS', scope: 'ingest' },
  });
  ingestKey = key.json<{ key: string }>().key;
  const course = await insertCourse(db(), { organizationId: orgId(), courseTitle: 'Safety quiz' });
  courseId = course.id;
  externalCourseId = course.externalCourseId!;
  const created = await inject({
    method: 'POST',
    url: '/api/actions',
    headers: owner.headers,
    payload: { name: 'LMS hook', config: { type: 'webhook', url: `http://127.0.0.1:${receiverPort}/hook` } },
  });
  webhook = created.json<CreatedAction>();
  worker = {
    db: db(),
    actions: createActionsRuntime({
      authSecret: AUTH_SECRET,
      config: { smtp: undefined, webhookAllowedHosts },
      publish: testApp.jobs.publish,
    }),
    queueRun: async (run, startAfter) => {
      queued.push({ runId: run.runId, startAfter });
    },
    now: () => clock,
  };
});

afterAll(async () => {
  await testApp.close();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

beforeEach(() => {
  received.length = 0;
  answers = [];
  queued.length = 0;
  clock = new Date();
});

const later = (seconds: number) => new Date(clock.getTime() + seconds * 1000);

let eventCounter = 0;
/** Sends events through the ingestion API; answers their ids. */
async function ingest(events: Record<string, unknown>[]): Promise<string[]> {
  const withIds = events.map((event) => ({
    id: `evt-${Date.now()}-${(eventCounter += 1)}`,
    course: { externalCourseId, title: 'Safety quiz' },
    learner: { email: 'sam@example.com', name: 'Sam Learner' },
    ...event,
  }));
  const response = await inject({
    method: 'POST',
    url: '/api/v1/events',
    headers: { authorization: `Bearer ${ingestKey}` },
    payload: { events: withIds },
  });
  expect(response.json()).toMatchObject({ accepted: events.length, rejected: [] });
  return withIds.map((event) => event.id);
}

async function createPipeline(payload: Record<string, unknown>): Promise<PipelineDetail> {
  const response = await inject({
    method: 'POST',
    url: '/api/pipelines',
    headers: owner.headers,
    payload: { active: true, ...payload },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<PipelineDetail>();
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

/** Starts the runs of the events (what the matcher job does) and answers their ids. */
async function startRuns(eventIds: string[]): Promise<string[]> {
  queued.length = 0;
  await startRunsForEvents(db(), queue, { organizationId: orgId(), eventIds, source: 'api', now: clock });
  return queued.map((entry) => entry.runId);
}

async function run(runId: string) {
  return executeRun(worker, { organizationId: orgId(), runId });
}

async function runDetail(pipelineId: string, runId: string): Promise<PipelineRunDetail> {
  const response = await inject({
    method: 'GET',
    url: `/api/pipelines/${pipelineId}/runs/${runId}`,
    headers: owner.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PipelineRunDetail>();
}

const source = (events: string[]) => ({ id: 'source', type: 'course', data: { courseId, events } });
const hook = (id = 'hook') => ({ id, type: 'action', data: { actionId: webhook.id } });

describe('a course source and a webhook action', () => {
  it('delivers the event once, signed, and records each step', async () => {
    const pipeline = await createPipeline({
      name: 'Completions to the LMS',
      nodes: [source(['course.completed']), hook()],
      edges: [{ source: 'source', target: 'hook' }],
    });
    const ids = await ingest([{ type: 'course.completed' }, { type: 'course.started' }]);
    const eventId = ids[0];
    const runs = await startRuns(ids);
    expect(runs).toHaveLength(1);
    expect(await run(runs[0]!)).toBe(true);
    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(verifyWebhook({ secret: webhook.secret!, headers: delivery!.headers, body: delivery!.body })).toBe(
      true,
    );
    expect(JSON.parse(delivery!.body)).toMatchObject({
      id: eventId,
      type: 'course.completed',
      course: { id: courseId, externalCourseId, title: 'Safety quiz' },
      learner: { email: 'sam@example.com', name: 'Sam Learner' },
    });

    // The same event again starts nothing, and running the run again does nothing.
    expect(await startRuns([eventId!])).toEqual([]);
    expect(await run(runs[0]!)).toBe(false);
    expect(received).toHaveLength(1);

    const detail = await runDetail(pipeline.id, runs[0]!);
    expect(detail).toMatchObject({ status: 'succeeded', trigger: 'event', eventId, version: 1, error: null });
    expect(detail.steps.map((step) => [step.nodeId, step.status, step.attempts])).toEqual([
      ['source', 'succeeded', 1],
      ['hook', 'succeeded', 1],
    ]);
    expect(detail.steps[1]).toMatchObject({
      input: { actionId: webhook.id, actionName: 'LMS hook', actionType: 'webhook', eventId },
      output: { outcome: 'Delivered: 200 OK', trace: { channel: 'http', response: { status: 200 } } },
    });

    const list = await inject({ method: 'GET', url: '/api/pipelines?q=LMS', headers: owner.headers });
    expect(list.json<PipelineListResponse>().items[0]).toMatchObject({
      lastRunStatus: 'succeeded',
      runs: { total: 1, succeeded: 1, failed: 0, running: 0 },
    });
    const runList = await inject({
      method: 'GET',
      url: `/api/pipelines/${pipeline.id}/runs?status=succeeded&trigger=event`,
      headers: owner.headers,
    });
    expect(runList.json()).toMatchObject({
      total: 1,
      items: [{ id: runs[0], learnerEmail: 'sam@example.com' }],
    });
    await setActive(pipeline.id, false);
  });

  it('starts no run for an event a pipeline wrote, nor for an inactive pipeline', async () => {
    const pipeline = await createPipeline({
      name: 'Quiet',
      nodes: [source(['variable.set']), hook()],
      edges: [{ source: 'source', target: 'hook' }],
    });
    const [eventId] = await ingest([{ type: 'variable.set', variable: { name: 'at_risk', value: true } }]);
    await db().execute(sql`update learning_events set source = 'pipeline' where event_id = ${eventId}`);
    expect(await startRuns([eventId!])).toEqual([]);
    await setActive(pipeline.id, false);
    const [other] = await ingest([{ type: 'variable.set', variable: { name: 'at_risk', value: false } }]);
    expect(await startRuns([other!])).toEqual([]);
  });
});

describe('filters and branches', () => {
  it('go on only when the score is below the mark, and count a learner’s failures', async () => {
    const alert = await createPipeline({
      name: 'Failed twice',
      nodes: [
        source(['course.failed']),
        {
          id: 'twice',
          type: 'filter',
          data: {
            conditions: [
              { field: 'learner.count', op: 'gte', value: 2, eventType: 'course.failed' },
              { field: 'event.score', op: 'lt', value: 50 },
            ],
          },
        },
        hook(),
      ],
      edges: [
        { source: 'source', target: 'twice' },
        { source: 'twice', target: 'hook' },
      ],
    });
    const learner = { email: 'fran@example.com', name: 'Fran Fails' };
    const [first] = await ingest([{ type: 'course.failed', learner, result: { score: 30 } }]);
    const [firstRun] = await startRuns([first!]);
    await run(firstRun!);
    const skipped = await runDetail(alert.id, firstRun!);
    expect(skipped.status).toBe('skipped');
    expect(skipped.steps[1]).toMatchObject({
      nodeId: 'twice',
      output: {
        holds: false,
        checks: [
          { field: 'learner.count course.failed', op: 'gte', value: 2, actual: 1, holds: false },
          { field: 'event.score', op: 'lt', value: 50, actual: 30, holds: true },
        ],
      },
    });
    const [second] = await ingest([{ type: 'course.failed', learner, result: { score: 40 } }]);
    const [secondRun] = await startRuns([second!]);
    await run(secondRun!);
    expect((await runDetail(alert.id, secondRun!)).status).toBe('succeeded');
    expect(received).toHaveLength(1);
    await setActive(alert.id, false);
  });

  it('send each learner one way or the other by a condition on their e-mail', async () => {
    const split = await createPipeline({
      name: 'Staff or not',
      nodes: [
        source(['course.completed']),
        {
          id: 'staff',
          type: 'branch',
          data: { conditions: [{ field: 'learner.email', op: 'ends_with', value: '@staff.example.com' }] },
        },
        hook('yes-hook'),
        { id: 'no-note', type: 'action', data: { actionId: await noteActionId() } },
      ],
      edges: [
        { source: 'source', target: 'staff' },
        { source: 'staff', target: 'yes-hook', sourceHandle: 'yes' },
        { source: 'staff', target: 'no-note', sourceHandle: 'no' },
      ],
    });
    const ids = await ingest([
      { type: 'course.completed', learner: { email: 'ann@staff.example.com' } },
      { type: 'course.completed', learner: { email: 'bob@example.com' } },
    ]);
    const runs = await startRuns(ids);
    for (const runId of runs) await run(runId);
    const details = await Promise.all(runs.map((runId) => runDetail(split.id, runId)));
    expect(details.map((detail) => detail.steps.map((step) => step.nodeId))).toEqual([
      ['source', 'staff', 'yes-hook'],
      ['source', 'staff', 'no-note'],
    ]);
    expect(received).toHaveLength(1);
    await setActive(split.id, false);
  });
});

let noteAction: string | null = null;
async function noteActionId(): Promise<string> {
  if (noteAction) return noteAction;
  const [row] = await db()
    .insert(actions)
    .values({
      organizationId: orgId(),
      name: 'Note for owners',
      actionType: 'notify_team',
      config: { message: '{{learner.email}} finished', roles: ['owner'] },
      createdBy: owner.user.id,
    })
    .returning();
  noteAction = row!.id;
  return noteAction;
}

describe('waiting', () => {
  it('waits out a delay: the run waits, its job is queued for the time, and it goes on then', async () => {
    const delayed = await createPipeline({
      name: 'Two hours later',
      nodes: [
        source(['course.completed']),
        { id: 'wait', type: 'delay', data: { amount: 2, unit: 'hours' } },
        hook(),
      ],
      edges: [
        { source: 'source', target: 'wait' },
        { source: 'wait', target: 'hook' },
      ],
    });
    const [runId] = await startRuns(await ingest([{ type: 'course.completed' }]));
    const start = clock;
    queued.length = 0;
    await run(runId!);
    const waiting = await runDetail(delayed.id, runId!);
    expect(waiting.status).toBe('waiting');
    expect(waiting.steps[1]).toMatchObject({ nodeId: 'wait', status: 'waiting' });
    expect(queued).toEqual([{ runId, startAfter: new Date(start.getTime() + 2 * 3600_000) }]);
    expect(received).toHaveLength(0);

    clock = new Date(start.getTime() + 3600_000);
    expect(await run(runId!)).toBe(false);
    clock = new Date(start.getTime() + 2 * 3600_000);
    expect(await run(runId!)).toBe(true);
    const done = await runDetail(delayed.id, runId!);
    expect(done.status).toBe('succeeded');
    expect(done.steps.map((step) => step.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(received).toHaveLength(1);
    await setActive(delayed.id, false);
  });
});

describe('webhook failures', () => {
  let pipelineId: string;

  beforeAll(async () => {
    pipelineId = (
      await createPipeline({
        name: 'Retries',
        nodes: [source(['course.passed']), hook()],
        edges: [{ source: 'source', target: 'hook' }],
      })
    ).id;
  });

  afterAll(async () => {
    await setActive(pipelineId, false);
  });

  const status =
    (code: number, headers: Record<string, string> = {}) =>
    (response: ServerResponse) => {
      response.writeHead(code, headers).end('nope');
    };

  it('retry on the Standard Webhooks schedule with the same message id, until one goes through', async () => {
    const [runId] = await startRuns(await ingest([{ type: 'course.passed' }]));
    answers = [status(503), status(500)];
    const start = clock;
    await run(runId!);
    let detail = await runDetail(pipelineId, runId!);
    expect(detail.status).toBe('waiting');
    expect(detail.steps[1]).toMatchObject({
      status: 'waiting',
      attempts: 1,
      error: 'The receiver answered 503 Service Unavailable',
      resumeAt: new Date(start.getTime() + 5000).toISOString(),
    });
    clock = later(5);
    await run(runId!);
    detail = await runDetail(pipelineId, runId!);
    expect(detail.steps[1]).toMatchObject({
      status: 'waiting',
      attempts: 2,
      resumeAt: new Date(clock.getTime() + 300_000).toISOString(),
    });
    clock = later(300);
    await run(runId!);
    detail = await runDetail(pipelineId, runId!);
    expect(detail.status).toBe('succeeded');
    expect(detail.steps[1]).toMatchObject({ status: 'succeeded', attempts: 3 });
    expect(received.map((entry) => entry.headers['webhook-id'])).toEqual([
      received[0]!.headers['webhook-id'],
      received[0]!.headers['webhook-id'],
      received[0]!.headers['webhook-id'],
    ]);
  });

  it('wait as long as Retry-After asks when it is longer than the schedule', async () => {
    const [runId] = await startRuns(await ingest([{ type: 'course.passed' }]));
    answers = [status(429, { 'retry-after': '120' })];
    await run(runId!);
    const detail = await runDetail(pipelineId, runId!);
    expect(detail.steps[1]).toMatchObject({ status: 'waiting', resumeAt: later(120).toISOString() });
  });

  it('fail for good after the last attempt of the schedule, and tell the owners', async () => {
    const [runId] = await startRuns(await ingest([{ type: 'course.passed' }]));
    answers = Array.from({ length: 8 }, () => status(500));
    for (let attempt = 0; attempt < 8; attempt += 1) {
      await run(runId!);
      clock = later(11 * 3600);
    }
    const detail = await runDetail(pipelineId, runId!);
    expect(detail.status).toBe('failed');
    expect(detail.steps[1]).toMatchObject({
      status: 'failed',
      attempts: 8,
      error: PIPELINE_MESSAGES.retriesUsedUp(8, 'The receiver answered 500 Internal Server Error'),
    });
    expect(detail.error).toBe(
      `Action hook: ${PIPELINE_MESSAGES.retriesUsedUp(8, 'The receiver answered 500 Internal Server Error')}`,
    );
    const [notice] = await db()
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.kind, 'pipeline.run_failed'), eq(activityEvents.subjectId, pipelineId)));
    expect(notice).toMatchObject({
      organizationId: orgId(),
      summary: PIPELINE_MESSAGES.runFailed('Retries', detail.error!),
      details: { runId, notify: ['owner'] },
    });
  });

  it('is retried by hand from the failed step: the steps that went well are kept', async () => {
    const [failed] = await db()
      .select()
      .from(pipelineRuns)
      .where(and(eq(pipelineRuns.pipelineId, pipelineId), eq(pipelineRuns.status, 'failed')));
    const response = await inject({
      method: 'POST',
      url: `/api/pipelines/${pipelineId}/runs/${failed!.id}/retry`,
      headers: owner.headers,
      payload: { from: 'failed' },
    });
    expect(response.statusCode, response.body).toBe(202);
    const retry = response.json<PipelineRunSummary>();
    expect(retry).toMatchObject({ status: 'queued', trigger: 'retry', eventId: failed!.eventId });
    const copied = await db().select().from(pipelineRunSteps).where(eq(pipelineRunSteps.runId, retry.id));
    expect(copied.map((step) => step.nodeId)).toEqual(['source']);
    await run(retry.id);
    const detail = await runDetail(pipelineId, retry.id);
    expect(detail.status).toBe('succeeded');
    expect(received).toHaveLength(1);

    const again = await inject({
      method: 'POST',
      url: `/api/pipelines/${pipelineId}/runs/${retry.id}/retry`,
      headers: owner.headers,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: PIPELINE_MESSAGES.retryNotFailed });
  });

  it('turn the action off on 410 Gone and fail the step saying so', async () => {
    const [runId] = await startRuns(await ingest([{ type: 'course.passed' }]));
    answers = [status(410)];
    await run(runId!);
    const detail = await runDetail(pipelineId, runId!);
    expect(detail.status).toBe('failed');
    expect(detail.steps[1]).toMatchObject({
      status: 'failed',
      error: PIPELINE_MESSAGES.actionGone('LMS hook'),
    });
    const [row] = await db().select().from(actions).where(eq(actions.id, webhook.id));
    expect(row?.active).toBe(false);

    // While it is off, runs fail at once without calling anybody.
    const [next] = await startRuns(await ingest([{ type: 'course.passed' }]));
    await run(next!);
    expect((await runDetail(pipelineId, next!)).steps[1]).toMatchObject({
      status: 'failed',
      error: PIPELINE_MESSAGES.actionOff('LMS hook'),
    });
    expect(received).toHaveLength(1);
    await db().update(actions).set({ active: true }).where(eq(actions.id, webhook.id));
  });
});

describe('a worker that died', () => {
  it('leaves a run that the next worker takes once its lease is over, and only then', async () => {
    const pipeline = await createPipeline({
      name: 'Crash-proof',
      nodes: [source(['course.exited']), hook()],
      edges: [{ source: 'source', target: 'hook' }],
    });
    const [runId] = await startRuns(await ingest([{ type: 'course.exited' }]));
    // A worker takes the run, then dies before doing anything.
    const taken = await claimRun(db(), {
      organizationId: orgId(),
      runId: runId!,
      now: clock,
      leaseUntil: later(RUN_LEASE_MS / 1000),
    });
    expect(taken?.status).toBe('running');
    expect(await run(runId!)).toBe(false);
    expect(await selectStrandedRuns(db(), { now: clock, grace: 60_000, limit: 10 })).not.toContainEqual(
      expect.objectContaining({ id: runId }),
    );

    clock = later(RUN_LEASE_MS / 1000 + 1);
    expect(await selectStrandedRuns(db(), { now: clock, grace: 60_000, limit: 10 })).toContainEqual({
      organization_id: orgId(),
      id: runId,
    });
    expect(await run(runId!)).toBe(true);
    expect(await run(runId!)).toBe(false);
    expect(received).toHaveLength(1);
    const [row] = await db().select().from(pipelineRuns).where(eq(pipelineRuns.id, runId!));
    expect(row).toMatchObject({ status: 'succeeded', attempts: 2 });
    await setActive(pipeline.id, false);
  });
});

describe('runs by hand', () => {
  it('start from a "Run by hand" source of an active pipeline, for a learner', async () => {
    const pipeline = await createPipeline({
      name: 'By hand',
      nodes: [{ id: 'button', type: 'manual', data: {} }, hook()],
      edges: [{ source: 'button', target: 'hook' }],
    });
    const response = await inject({
      method: 'POST',
      url: `/api/pipelines/${pipeline.id}/run`,
      headers: owner.headers,
      payload: { learnerEmail: 'SAM@example.com' },
    });
    expect(response.statusCode, response.body).toBe(202);
    const started = response.json<PipelineRunSummary>();
    expect(started).toMatchObject({ trigger: 'manual', status: 'queued', learnerEmail: 'sam@example.com' });
    await run(started.id);
    expect(JSON.parse(received[0]!.body)).toMatchObject({
      type: 'manual',
      learner: { email: 'sam@example.com' },
    });

    const unknown = await inject({
      method: 'POST',
      url: `/api/pipelines/${pipeline.id}/run`,
      headers: owner.headers,
      payload: { learnerEmail: 'nobody@example.com' },
    });
    expect(unknown.statusCode).toBe(400);
    await setActive(pipeline.id, false);
    const off = await inject({
      method: 'POST',
      url: `/api/pipelines/${pipeline.id}/run`,
      headers: owner.headers,
    });
    expect(off.json()).toMatchObject({ error: PIPELINE_MESSAGES.inactiveSource });
  });
});

describe('test runs', () => {
  it('run on a real event without sending anything, showing what would have been sent', async () => {
    const pipeline = await createPipeline({
      name: 'Try me',
      active: false,
      nodes: [
        source(['course.completed']),
        { id: 'wait', type: 'delay', data: { amount: 1, unit: 'days' } },
        hook(),
      ],
      edges: [
        { source: 'source', target: 'wait' },
        { source: 'wait', target: 'hook' },
      ],
    });
    const [eventId] = await ingest([{ type: 'course.completed', learner: { email: 'tess@example.com' } }]);
    const events = await inject({
      method: 'GET',
      url: `/api/pipelines/${pipeline.id}/test-events`,
      headers: owner.headers,
    });
    expect(events.json<{ items: { eventId: string; summary: string }[] }>().items[0]).toMatchObject({
      eventId,
      type: 'course.completed',
      learnerEmail: 'tess@example.com',
      courseTitle: 'Safety quiz',
      summary: 'Completed the course',
    });

    const dry = await inject({
      method: 'POST',
      url: `/api/pipelines/${pipeline.id}/test`,
      headers: owner.headers,
      payload: { eventId },
    });
    expect(dry.statusCode, dry.body).toBe(200);
    const body = dry.json<TestRunResponse>();
    expect(body).toMatchObject({ dry: true, status: 'succeeded', trigger: 'test', eventId });
    expect(body.steps.map((step) => [step.nodeId, step.status])).toEqual([
      ['source', 'succeeded'],
      ['wait', 'succeeded'],
      ['hook', 'skipped'],
    ]);
    expect(body.steps[2]?.output).toMatchObject({
      dryRun: true,
      wouldSend: { method: 'POST', url: `http://127.0.0.1:${receiverPort}/hook` },
    });
    expect(
      JSON.parse((body.steps[2]?.output as { wouldSend: { body: string } }).wouldSend.body),
    ).toMatchObject({
      id: eventId,
    });
    expect(received).toHaveLength(0);

    const real = await inject({
      method: 'POST',
      url: `/api/pipelines/${pipeline.id}/test`,
      headers: owner.headers,
      payload: { eventId, execute: true },
    });
    expect(real.json<TestRunResponse>()).toMatchObject({ dry: false, status: 'succeeded' });
    expect(received).toHaveLength(1);
    // A test run is not a run of the pipeline.
    const runs = await inject({
      method: 'GET',
      url: `/api/pipelines/${pipeline.id}/runs`,
      headers: owner.headers,
    });
    expect(runs.json()).toMatchObject({ total: 0 });

    const missing = await inject({
      method: 'POST',
      url: `/api/pipelines/${pipeline.id}/test`,
      headers: owner.headers,
      payload: { eventId: 'no-such-event' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: PIPELINE_MESSAGES.eventNotFound });
  });
});

describe('dry runs over history', () => {
  it('say what the pipeline would have done, per action and per learner, without doing it', async () => {
    const course = await insertCourse(db(), { organizationId: orgId(), courseTitle: 'History course' });
    const setRisk = await db()
      .insert(actions)
      .values({
        organizationId: orgId(),
        name: 'Flag at risk',
        actionType: 'set_variable',
        config: { variableName: 'at_risk', value: { kind: 'literal', value: true } },
        createdBy: owner.user.id,
      })
      .returning();
    const pipeline = await createPipeline({
      name: 'Backtest',
      active: false,
      nodes: [
        { id: 'fails', type: 'course', data: { courseId: course.id, events: ['course.failed'] } },
        {
          id: 'twice',
          type: 'filter',
          data: { conditions: [{ field: 'learner.count', op: 'gte', value: 2, eventType: 'course.failed' }] },
        },
        { id: 'flag', type: 'action', data: { actionId: setRisk[0]!.id } },
        hook(),
      ],
      edges: [
        { source: 'fails', target: 'twice' },
        { source: 'twice', target: 'flag' },
        { source: 'fails', target: 'hook' },
      ],
    });
    const day = (n: number) => `2026-03-0${n}T10:00:00Z`;
    const fail = (email: string, n: number) => ({
      type: 'course.failed',
      timestamp: day(n),
      course: { externalCourseId: course.externalCourseId, title: 'History course' },
      learner: { email },
    });
    await ingest([
      fail('a@example.com', 1),
      fail('a@example.com', 2),
      fail('a@example.com', 3),
      fail('b@example.com', 2),
      fail('c@example.com', 4),
      fail('c@example.com', 5),
    ]);
    const before = await db().select().from(pipelineRuns);
    const response = await inject({
      method: 'POST',
      url: `/api/pipelines/${pipeline.id}/dry-run`,
      headers: owner.headers,
      payload: { from: '2026-03-01', to: '2026-03-04', pageSize: 2 },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<DryRunResponse>()).toEqual({
      from: '2026-03-01',
      to: '2026-03-04',
      events: 5,
      runs: 5,
      stopped: 0,
      actions: [
        expect.objectContaining({
          nodeId: 'flag',
          runs: 2,
          learners: 1,
          summary: 'would set at_risk on 1 learner',
        }),
        expect.objectContaining({
          nodeId: 'hook',
          runs: 5,
          learners: 3,
          summary: 'would call the webhook 5 times (for 3 learners)',
        }),
      ],
      learners: {
        items: [
          { email: 'a@example.com', name: null, runs: 3, actions: ['LMS hook', 'Flag at risk'] },
          { email: 'b@example.com', name: null, runs: 1, actions: ['LMS hook'] },
        ],
        total: 3,
        page: 1,
        pageSize: 2,
      },
      truncated: false,
    });
    expect(received).toHaveLength(0);
    expect(await db().select().from(pipelineRuns)).toHaveLength(before.length);

    const bounded = await dryRun(db(), {
      organizationId: orgId(),
      pipelineId: pipeline.id,
      from: '2026-03-01',
      to: '2026-03-31',
      page: 1,
      pageSize: 10,
      maxEvents: 4,
    });
    expect(bounded).toMatchObject({ events: 4, truncated: true });

    const tooLong = await inject({
      method: 'POST',
      url: `/api/pipelines/${pipeline.id}/dry-run`,
      headers: owner.headers,
      payload: { from: '2025-01-01', to: '2025-12-31' },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ error: PIPELINE_MESSAGES.dryRunPeriod });
  });
});

describe('deleting a course with removePipelineReferences', () => {
  it('names the pipelines that change, which then lose the course’s nodes as a new version', async () => {
    const course = await insertCourse(db(), { organizationId: orgId(), courseTitle: 'Retired' });
    const pipeline = await createPipeline({
      name: 'Two courses',
      active: false,
      nodes: [
        { id: 'retired', type: 'course', data: { courseId: course.id } },
        source(['course.completed']),
        hook(),
      ],
      edges: [
        { source: 'retired', target: 'hook' },
        { source: 'source', target: 'hook' },
      ],
    });
    const response = await inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}?removePipelineReferences=true`,
      headers: owner.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      removed: { pipelineNodes: 1 },
      pipelines: [{ id: pipeline.id, name: 'Two courses', removedNodes: 1 }],
    });
    await removeCourseFromPipelines(db(), queue, {
      organizationId: orgId(),
      courseId: course.id,
      removePipelineReferences: true,
    });
    // Handled twice (a job delivered again): nothing more changes.
    await removeCourseFromPipelines(db(), queue, {
      organizationId: orgId(),
      courseId: course.id,
      removePipelineReferences: true,
    });
    const detail = (
      await inject({ method: 'GET', url: `/api/pipelines/${pipeline.id}`, headers: owner.headers })
    ).json<PipelineDetail>();
    expect(detail.version).toBe(2);
    expect(detail.nodes.map((node) => node.id)).toEqual(['source', 'hook']);
    expect(detail.edges.map((edge) => edge.id)).toEqual(['source->hook']);
  });
});

describe('run history retention', () => {
  it('keeps 30 days by default, takes 7, 30, 90 or 365, and prunes only finished runs past it', async () => {
    const pipeline = await createPipeline({
      name: 'Kept a week',
      nodes: [source(['course.completed']), hook()],
      edges: [{ source: 'source', target: 'hook' }],
    });
    expect(pipeline.runRetentionDays).toBe(30);
    const refused = await inject({
      method: 'PATCH',
      url: `/api/pipelines/${pipeline.id}`,
      headers: owner.headers,
      payload: { runRetentionDays: 45 },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: string }>().error).toContain(RUN_RETENTION_MESSAGE);
    const changed = await inject({
      method: 'PATCH',
      url: `/api/pipelines/${pipeline.id}`,
      headers: owner.headers,
      payload: { runRetentionDays: 7 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<PipelineDetail>()).toMatchObject({ runRetentionDays: 7, version: 1, active: true });
    const [logged] = await db()
      .select({ summary: activityEvents.summary })
      .from(activityEvents)
      .where(and(eq(activityEvents.organizationId, orgId()), eq(activityEvents.subjectId, pipeline.id)))
      .orderBy(sql`${activityEvents.createdAt} desc`)
      .limit(1);
    expect(logged?.summary).toBe('Pipeline “Kept a week” keeps runs 7 days');

    const ids = await ingest([
      { type: 'course.completed' },
      { type: 'course.completed' },
      { type: 'course.completed' },
    ]);
    const [oldDone, oldWaiting, recent] = await startRuns(ids);
    const daysAgo = (days: number) => new Date(clock.getTime() - days * 86_400_000);
    await db()
      .update(pipelineRuns)
      .set({ startedAt: daysAgo(8), status: 'succeeded', finishedAt: daysAgo(8) })
      .where(eq(pipelineRuns.id, oldDone!));
    await db()
      .update(pipelineRuns)
      .set({ startedAt: daysAgo(8), status: 'waiting', resumeAt: later(60) })
      .where(eq(pipelineRuns.id, oldWaiting!));
    await db()
      .update(pipelineRuns)
      .set({ startedAt: daysAgo(6), status: 'failed', finishedAt: daysAgo(6) })
      .where(eq(pipelineRuns.id, recent!));
    await db().insert(pipelineRunSteps).values({
      organizationId: orgId(),
      runId: oldDone!,
      nodeId: 'source',
      nodeType: 'course',
      nodeName: 'Course',
      position: 0,
      status: 'succeeded',
    });

    expect(await pruneExpiredRuns(db(), clock)).toBe(1);
    const left = await db()
      .select({ id: pipelineRuns.id })
      .from(pipelineRuns)
      .where(eq(pipelineRuns.pipelineId, pipeline.id));
    expect(left.map((row) => row.id).sort()).toEqual([oldWaiting, recent].sort());
    const steps = await db().select().from(pipelineRunSteps).where(eq(pipelineRunSteps.runId, oldDone!));
    expect(steps).toEqual([]);
    // Pruning again finds nothing more.
    expect(await pruneExpiredRuns(db(), clock)).toBe(0);
    await setActive(pipeline.id, false);
  });
});
