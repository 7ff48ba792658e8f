import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CourseBody, CreatedAction, PipelineDetail } from '@courselens/contracts';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig } from '../../config';
import { pipelines } from '../../db/schema';
import type { JobRunner } from '../../jobs/job-runner';
import { createAppJobRunner } from '../../jobs/registry';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { verifyWebhook } from '../actions/webhook-signature';

// The contract the product is checked against, through the real app and the
// real job queue (a worker runner in this process, as the server runs it):
// a webhook action, an active pipeline from a course's completions to it, a
// course.completed event, one signed POST at a local receiver within 5 s,
// and none more when the same event is sent again.

type Received = { at: number; headers: IncomingMessage['headers']; body: string };

let receiver: Server;
let receiverPort: number;
const received: Received[] = [];
let testApp: TestApp;
let workers: JobRunner;
let owner: SignedUp;
let ingestKey: string;

const inject = (options: InjectOptions) => testApp.app.inject(options);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(20);
  }
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        at: Date.now(),
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
  // As an administrator sets it: WEBHOOK_ALLOWED_HOSTS names the local receiver.
  const config: AppConfig = {
    ...loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: '/nonexistent-web-dist',
      WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiverPort}`,
      AUTH_SECRET: 'acceptance-test-auth-secret-with-32-characters',
    }),
    signupLimitPerHour: 0,
  };
  testApp = await createTestApp(config);
  workers = createAppJobRunner(testApp.database, { workers: true, config });
  await workers.start();
  owner = await signUpViaApi(testApp.app, { name: 'Alex Acceptance' });
  const key = await inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: owner.headers,
    payload: { name: 'LMS', scope: 'ingest' },
  });
  ingestKey = key.json<{ key: string }>().key;
});

afterAll(async () => {
  await workers.stop();
  await testApp.close();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('a course completion reaches a webhook exactly once', () => {
  it('delivers one signed POST within 5 s, and nothing more for the same event sent again', async () => {
    const course = await inject({
      method: 'POST',
      url: '/api/courses',
      headers: owner.headers,
      payload: { courseTitle: 'Onboarding', externalCourseId: 'onboarding-101' },
    });
    expect(course.statusCode, course.body).toBe(201);
    const courseId = course.json<CourseBody>().id;
    const action = await inject({
      method: 'POST',
      url: '/api/actions',
      headers: owner.headers,
      payload: {
        name: 'Completion hook',
        config: { type: 'webhook', url: `http://127.0.0.1:${receiverPort}/completions` },
      },
    });
    expect(action.statusCode, action.body).toBe(201);
    const { id: actionId, secret } = action.json<CreatedAction>();
    const pipeline = await inject({
      method: 'POST',
      url: '/api/pipelines',
      headers: owner.headers,
      payload: {
        name: 'Completions to the LMS',
        active: true,
        nodes: [
          { id: 'completed', type: 'course', data: { courseId, on: 'completion' } },
          { id: 'hook', type: 'action', data: { actionId } },
        ],
        edges: [{ source: 'completed', target: 'hook' }],
      },
    });
    expect(pipeline.statusCode, pipeline.body).toBe(201);
    expect(pipeline.json<PipelineDetail>()).toMatchObject({ active: true, problems: [] });

    const event = {
      id: 'completion-0001',
      type: 'course.completed',
      course: { externalCourseId: 'onboarding-101', title: 'Onboarding' },
      learner: { email: 'casey@example.com', name: 'Casey Learner' },
    };
    const send = () =>
      inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: { authorization: `Bearer ${ingestKey}` },
        payload: { events: [event] },
      });
    const first = await send();
    const acknowledgedAt = Date.now();
    expect(first.json()).toMatchObject({ accepted: 1, duplicates: 0 });
    await until(() => received.length > 0, 5000);
    const [delivery] = received;
    expect(delivery!.at - acknowledgedAt).toBeLessThan(5000);
    expect(verifyWebhook({ secret: secret!, headers: delivery!.headers, body: delivery!.body })).toBe(true);
    expect(JSON.parse(delivery!.body)).toMatchObject({
      id: 'completion-0001',
      type: 'course.completed',
      learner: { email: 'casey@example.com' },
    });

    const again = await send();
    expect(again.json()).toMatchObject({ accepted: 0, duplicates: 1 });
    await sleep(2000);
    expect(received).toHaveLength(1);
    const runs = await inject({
      method: 'GET',
      url: `/api/pipelines/${pipeline.json<PipelineDetail>().id}/runs`,
      headers: owner.headers,
    });
    expect(runs.json()).toMatchObject({
      total: 1,
      items: [{ status: 'succeeded', eventId: 'completion-0001' }],
    });
  });

  it('removes a deleted course’s nodes through the queue, as a new version', async () => {
    const course = await inject({
      method: 'POST',
      url: '/api/courses',
      headers: owner.headers,
      payload: { courseTitle: 'Retired course', externalCourseId: 'retired-1' },
    });
    const courseId = course.json<CourseBody>().id;
    const created = await inject({
      method: 'POST',
      url: '/api/pipelines',
      headers: owner.headers,
      payload: {
        name: 'Mentions the retired course',
        nodes: [
          { id: 'retired', type: 'course', data: { courseId } },
          { id: 'button', type: 'manual', data: {} },
        ],
        edges: [],
      },
    });
    const pipelineId = created.json<PipelineDetail>().id;
    const deleted = await inject({
      method: 'DELETE',
      url: `/api/courses/${courseId}?removePipelineReferences=true`,
      headers: owner.headers,
    });
    expect(deleted.json()).toMatchObject({ pipelines: [{ id: pipelineId, removedNodes: 1 }] });
    await until(async () => {
      const [row] = await testApp.database.db.select().from(pipelines).where(eq(pipelines.id, pipelineId));
      return row?.version === 2;
    }, 10_000);
    const [row] = await testApp.database.db.select().from(pipelines).where(eq(pipelines.id, pipelineId));
    expect(row?.nodes.map((node) => node.id)).toEqual(['button']);
  });
});
