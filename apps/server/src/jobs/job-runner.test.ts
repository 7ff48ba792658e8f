import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { organizations } from '../db/schema';
import { maintainEventLogJob } from '../modules/ingestion/event-log.jobs';
import { createTestApp, type TestApp } from '../test/app';
import { signUpViaApi, type SignedUp } from '../test/auth';
import { createJobRunner, defineJob, type JobRunner } from './job-runner';

// The job queue on the product's own database (pg-boss), on both engines:
// domain events published in a transaction exist only if it commits and
// run once; failures are retried, then listed for owners, who retry them.

let testApp: TestApp;
let owner: SignedUp;
let runner: JobRunner;
const seen: string[] = [];
let failuresLeft = 0;

const recordJob = defineJob({
  name: 'test.record',
  payload: z.object({
    organizationId: z.string(),
    eventIds: z.array(z.string()),
    type: z.literal('learning-events.accepted'),
    source: z.string(),
  }),
  // Declines what it has no use for: no job is queued for it.
  isWanted: async (_tx, payload) => payload.source !== 'unwanted',
  handle: async (payload) => {
    seen.push(...payload.eventIds);
  },
});

const flakyJob = defineJob({
  name: 'test.flaky',
  payload: z.object({ organizationId: z.string(), label: z.string() }),
  queue: { retryLimit: 1, retryDelay: 1, retryBackoff: false },
  handle: async (payload) => {
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      throw new Error(`could not deliver ${payload.label}`);
    }
    seen.push(payload.label);
  },
});

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  runner = createJobRunner(testApp.database, {
    definitions: [flakyJob].map((definition) => definition as never),
    subscriptions: { 'learning-events.accepted': [recordJob] },
    workers: true,
    pollingIntervalSeconds: 0.5,
  });
  await runner.start();
});

afterAll(async () => {
  await runner.stop();
  await testApp.close();
});

describe('the outbox', () => {
  it('runs a subscriber once for an event published in a committed transaction, never for a rolled-back one', async () => {
    const organizationId = owner.organization.id;
    const db = testApp.database.db;
    await db.transaction(async (tx) => {
      await runner.publish(tx, {
        type: 'learning-events.accepted',
        organizationId,
        eventIds: ['committed-1'],
        source: 'api',
      });
    });
    await expect(
      db.transaction(async (tx) => {
        await runner.publish(tx, {
          type: 'learning-events.accepted',
          organizationId,
          eventIds: ['rolled-back-1'],
          source: 'api',
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await db.transaction(async (tx) => {
      await runner.publish(tx, {
        type: 'learning-events.accepted',
        organizationId,
        eventIds: ['declined-1'],
        source: 'unwanted',
      });
    });
    await until(() => seen.includes('committed-1'));
    // Give a wrongly queued job time to show up.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(seen.filter((id) => id === 'committed-1')).toHaveLength(1);
    expect(seen).not.toContain('rolled-back-1');
    expect(seen).not.toContain('declined-1');
  });
});

describe('failed jobs', () => {
  it('retries a failing job, lists it for owners once its retries are used up, and queues it again', async () => {
    const organizationId = owner.organization.id;
    failuresLeft = 2; // the first try and the one retry
    await runner.send(flakyJob, { organizationId, label: 'webhook-42' });
    const failedList = async () => runner.listFailed(organizationId);
    await until(async () => (await failedList()).length > 0);
    const [failed] = await failedList();
    expect(failed).toMatchObject({ queue: 'test.flaky', error: 'could not deliver webhook-42', attempts: 2 });

    // Another organization's failed job is not this one's to see or retry.
    expect(await runner.listFailed('00000000-0000-4000-8000-000000000000')).toEqual([]);
    expect(await runner.retry('00000000-0000-4000-8000-000000000000', 'test.flaky', failed!.id)).toBe(false);

    expect(await runner.retry(organizationId, 'test.flaky', failed!.id)).toBe(true);
    await until(() => seen.includes('webhook-42'));
    expect(await failedList()).toEqual([]);
  });

  it('answers the failed-jobs API for owners: list, retry, and 404 for a job that is not failed', async () => {
    const list = await testApp.app.inject({ method: 'GET', url: '/api/jobs/failed', headers: owner.headers });
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toContain('no-store');
    expect(list.json()).toEqual({ jobs: [] });
    const missing = await testApp.app.inject({
      method: 'POST',
      url: '/api/jobs/retry',
      headers: owner.headers,
      payload: { queue: 'learning-events.maintain', id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'Failed job not found' });
    const bad = await testApp.app.inject({
      method: 'POST',
      url: '/api/jobs/retry',
      headers: owner.headers,
      payload: { queue: 'learning-events.maintain', id: 'not-a-job' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'id must be a job id' });
  });
});

describe('learning-event log upkeep', () => {
  it('keeps partitions ahead, deletes events past an organization’s retention and drops emptied months', async () => {
    const db = testApp.database.db;
    const key = await testApp.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: owner.headers,
      payload: { name: 'Upkeep' },
    });
    const apiKey = key.json<{ key: string }>().key;
    const event = (id: string, timestamp: string) => ({
      id,
      type: 'course.started',
      timestamp,
      course: { externalCourseId: 'retention-course' },
      learner: { email: 'kept@example.com' },
    });
    const sent = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${apiKey}` },
      payload: {
        events: [event('old-1', '2005-03-02T10:00:00Z'), event('new-1', new Date().toISOString())],
      },
    });
    expect(sent.json()).toMatchObject({ accepted: 2 });
    await db
      .update(organizations)
      .set({ eventRetentionMonths: 24 })
      .where(sql`id = ${owner.organization.id}`);

    await maintainEventLogJob.handle({}, { db, jobId: 'manual', retryCount: 0, jobs: runner });

    const left = await db.execute<{ event_id: string }>(
      sql`select event_id from learning_events where organization_id = ${owner.organization.id} order by 1`,
    );
    expect(left.rows.map((row) => row.event_id)).toEqual(['new-1']);
    const partitions = await db.execute<{ name: string }>(sql`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      join pg_class p on p.oid = i.inhparent where p.relname = 'learning_events'`);
    const names = partitions.rows.map((row) => row.name);
    expect(names).not.toContain('learning_events_2005_03');
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1));
    expect(names).toContain(
      `learning_events_${nextMonth.getUTCFullYear()}_${String(nextMonth.getUTCMonth() + 1).padStart(2, '0')}`,
    );

    // An event of the dropped month arriving later finds its partition again.
    const late = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${apiKey}` },
      payload: { events: [event('old-2', '2005-03-05T10:00:00Z')] },
    });
    expect(late.json()).toMatchObject({ accepted: 1 });
  });
});
