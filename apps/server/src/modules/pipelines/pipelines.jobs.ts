import { createHash } from 'node:crypto';
import type { PipelineGraph } from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { loadConfig, type AppConfig } from '../../config';
import type { Database, DatabaseConnection } from '../../db/client';
import { defineJob, type JobDefinition, type JobRunner, type Subscriptions } from '../../jobs/job-runner';
import type { HostLookup } from '../actions/address-guard';
import { createActionsRuntime, type ActionsRuntime } from '../actions/runtime';
import { resolveAuthSecret } from '../auth/auth-secret';
import { readGraph, sourcesOf } from './pipeline-graph';
import { hasActivePipeline } from './pipelines.queries';
import type { PipelineQueue } from './pipeline-queue';
import { removeCourseFromPipelines } from './pipelines.service';
import { executeRuns, type PipelineWorker } from './run-executor';
import { startRunsForEvents, startScheduledRun } from './run-starts';
import { deleteExpiredRuns, selectStrandedRuns } from './runs.queries';

/**
 * The pipelines' jobs (decision 014):
 * - `pipelines.match-events` subscribes to `learning-events.accepted`: one
 *   run per active pipeline version and event, queued in the same
 *   transaction as the runs;
 * - `pipelines.run` works on one run until it ends or waits;
 * - `pipelines.schedule` starts runs of schedule sources (a cron schedule
 *   per active schedule node, kept by `syncSchedules`);
 * - `pipelines.recover` (every minute) queues the runs nobody works on
 *   (a worker died, a wake-up job was lost) and puts the schedules in step;
 * - `pipelines.prune-runs` (daily) deletes finished runs older than their
 *   pipeline's retention, in slices;
 * - `pipelines.course-deleted` subscribes to `course.deleted`.
 *
 * Latency: the first two queues are created with `notify`, so a committed
 * job wakes their workers at once (LISTEN/NOTIFY on both engines), and they
 * poll every `PIPELINE_POLLING_SECONDS` when a notification is missed.
 */

/** The fallback poll of the run and match queues, in seconds (pg-boss' floor is 0.5). */
export const PIPELINE_POLLING_SECONDS = 0.5;

/** Runs of one organization a job works on (a batch matched together, or one run going on). */
const runPayload = z.object({ organizationId: z.string(), runIds: z.array(z.string()).min(1).max(100) });
type RunPayload = z.infer<typeof runPayload>;
const schedulePayload = z.object({ organizationId: z.string(), pipelineId: z.string(), nodeId: z.string() });
type SchedulePayload = z.infer<typeof schedulePayload>;

/** What the queue of each job is, without its handler (the queue's side: names, payloads, retries). */
const RUN_JOB = {
  name: 'pipelines.run',
  payload: runPayload,
  // The run's own lease and retries decide; the job only wakes a worker. A job
  // whose worker died is given up after 2 minutes (the run's lease is shorter).
  queue: {
    notify: true,
    retryLimit: 10,
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 60,
    expireInSeconds: 120,
  },
  concurrency: 4,
  pollingIntervalSeconds: PIPELINE_POLLING_SECONDS,
} as const;

const SCHEDULE_JOB = {
  name: 'pipelines.schedule',
  payload: schedulePayload,
  queue: { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 300 },
} as const;

const NOT_HERE = async () => {
  throw new Error('pipeline jobs run in the workers (createPipelineJobs)');
};

/** The queue of runs and schedules, for the routes (which never run a job themselves). */
export function pipelineQueue(jobs: JobRunner): PipelineQueue {
  const runJob = defineJob<RunPayload>({ ...RUN_JOB, handle: NOT_HERE });
  const scheduleJob = defineJob<SchedulePayload>({ ...SCHEDULE_JOB, handle: NOT_HERE });
  return createQueue(jobs, runJob, scheduleJob);
}

function scheduleKey(pipelineId: string, nodeId: string): string {
  // Keys are letters, digits and - _ . / only; a node id may hold anything.
  return `${pipelineId}.${createHash('sha256').update(nodeId).digest('hex').slice(0, 16)}`;
}

/** The cron schedules a pipeline's schedule nodes want while it is on. */
function wantedSchedules(organizationId: string, pipelineId: string, graph: PipelineGraph) {
  return sourcesOf(graph, 'schedule').flatMap((node) =>
    node.type === 'schedule'
      ? [
          {
            key: scheduleKey(pipelineId, node.id),
            cron: node.data.cron,
            // Organizations have no time zone setting yet: UTC unless the node names one.
            timeZone: node.data.timeZone ?? 'UTC',
            payload: { organizationId, pipelineId, nodeId: node.id },
          },
        ]
      : [],
  );
}

/** Runs per job: a batch is walked together and recorded in one transaction. */
const RUNS_PER_JOB = 25;

/** One job's payload per organization and `RUNS_PER_JOB` runs. */
function batchesOf(runs: readonly { organizationId: string; runId: string }[]): RunPayload[] {
  const byOrganization = new Map<string, string[]>();
  for (const run of runs) {
    byOrganization.set(run.organizationId, [...(byOrganization.get(run.organizationId) ?? []), run.runId]);
  }
  const payloads: RunPayload[] = [];
  for (const [organizationId, runIds] of byOrganization) {
    for (let offset = 0; offset < runIds.length; offset += RUNS_PER_JOB) {
      payloads.push({ organizationId, runIds: runIds.slice(offset, offset + RUNS_PER_JOB) });
    }
  }
  return payloads;
}

function createQueue(
  jobs: JobRunner,
  runJob: JobDefinition<RunPayload>,
  scheduleJob: JobDefinition<SchedulePayload>,
): PipelineQueue {
  return {
    queueRuns: async (runs, options = {}) => {
      const payloads = batchesOf(runs);
      if (payloads.length === 0) return;
      if (options.startAfter) {
        for (const payload of payloads) await jobs.send(runJob, payload, options);
        return;
      }
      await jobs.sendMany(runJob, payloads, options.tx ? { tx: options.tx } : {});
    },
    syncSchedules: async ({ organizationId, pipelineId, active, graph }) => {
      const wanted = active ? wantedSchedules(organizationId, pipelineId, graph) : [];
      const existing = (await jobs.scheduleKeys(scheduleJob as unknown as JobDefinition<never>)).filter(
        (key) => key.startsWith(`${pipelineId}.`),
      );
      for (const key of existing) {
        if (!wanted.some((schedule) => schedule.key === key))
          await jobs.unschedule(scheduleJob as unknown as JobDefinition<never>, key);
      }
      for (const schedule of wanted) await jobs.schedule(scheduleJob, schedule);
    },
  };
}

/** Every active pipeline's schedules, and no other (the recovery pass's second half). */
async function reconcileSchedules(db: Database, jobs: JobRunner, queue: PipelineQueue): Promise<void> {
  const result = await db.execute<{
    organization_id: string;
    id: string;
    nodes: unknown;
    edges: unknown;
  }>(sql`
    select organization_id, id, nodes, edges from pipelines
    where active and nodes @> '[{"type": "schedule"}]'::jsonb`);
  const live = new Set<string>();
  for (const row of result.rows) {
    live.add(row.id);
    await queue.syncSchedules({
      organizationId: row.organization_id,
      pipelineId: row.id,
      active: true,
      graph: readGraph(row).graph,
    });
  }
  const scheduleJob = defineJob<SchedulePayload>({ ...SCHEDULE_JOB, handle: NOT_HERE });
  for (const key of await jobs.scheduleKeys(scheduleJob as unknown as JobDefinition<never>)) {
    const pipelineId = key.split('.')[0] ?? '';
    if (!live.has(pipelineId)) await jobs.unschedule(scheduleJob as unknown as JobDefinition<never>, key);
  }
}

/** Runs a recovery pass queues at most, per kind of stranded run. */
const RECOVERY_BATCH = 500;
/** How late a waiting or queued run may be before the recovery pass queues it again. */
const RECOVERY_GRACE_MS = 60_000;

/** Runs deleted per statement while pruning: short transactions, no long lock on the runs. */
const PRUNE_SLICE = 1000;

/** Deletes every finished run past its pipeline's retention, a slice at a time; answers how many went. */
export async function pruneExpiredRuns(db: Database, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteExpiredRuns(db, { now, limit: PRUNE_SLICE });
    total += deleted;
    if (deleted < PRUNE_SLICE) return total;
  }
}

export type PipelineJobDeps = {
  connection: DatabaseConnection;
  /** The process's configuration; read from the environment when absent (main.ts and worker.ts load the same). */
  config?: AppConfig | undefined;
  /** Host resolution for webhooks (tests). */
  lookup?: HostLookup;
};

/**
 * The pipelines' job definitions with their handlers, for one job runner:
 * the handlers build the actions' runtime (secrets, allowed hosts, SMTP)
 * the first time they need it.
 */
export function createPipelineJobs(deps: PipelineJobDeps): {
  definitions: JobDefinition<never>[];
  subscriptions: Subscriptions;
} {
  let runtime: Promise<ActionsRuntime> | null = null;
  const actionsRuntime = (jobs: JobRunner) => {
    runtime ??= (async () => {
      const config = deps.config ?? loadConfig();
      return createActionsRuntime({
        authSecret: await resolveAuthSecret(deps.connection, config.authSecret),
        config,
        publish: jobs.publish,
        ...(deps.lookup ? { lookup: deps.lookup } : {}),
      });
    })();
    return runtime;
  };

  const runJob: JobDefinition<RunPayload> = defineJob<RunPayload>({
    ...RUN_JOB,
    handle: async (payload, { db, jobs }) => {
      const worker: PipelineWorker = {
        db,
        actions: await actionsRuntime(jobs),
        queueRun: (run, startAfter) => queueFor(jobs).queueRuns([run], startAfter ? { startAfter } : {}),
      };
      await executeRuns(worker, payload);
    },
  });

  const scheduleJob: JobDefinition<SchedulePayload> = defineJob<SchedulePayload>({
    ...SCHEDULE_JOB,
    handle: async (payload, { db, jobs, jobId }) => {
      await startScheduledRun(db, queueFor(jobs), { ...payload, jobId, now: new Date() });
    },
  });

  const queueFor = (jobs: JobRunner) => createQueue(jobs, runJob, scheduleJob);

  const matchJob = defineJob({
    name: 'pipelines.match-events',
    payload: z.object({
      type: z.literal('learning-events.accepted'),
      organizationId: z.string(),
      eventIds: z.array(z.string()),
      source: z.string(),
    }),
    // Matching a batch takes well under a second: a job still active after 30 s
    // lost its worker, and is retried (inserting runs twice inserts nothing).
    queue: {
      notify: true,
      retryLimit: 10,
      retryDelay: 1,
      retryBackoff: true,
      retryDelayMax: 60,
      expireInSeconds: 30,
    },
    concurrency: 2,
    pollingIntervalSeconds: PIPELINE_POLLING_SECONDS,
    // A pipeline turned on after this check missed the batch only if the batch committed before it was on.
    isWanted: (tx, payload) => hasActivePipeline(tx, payload.organizationId),
    handle: async (payload, { db, jobs }) => {
      await startRunsForEvents(db, queueFor(jobs), { ...payload, now: new Date() });
    },
  });

  const recoverJob = defineJob({
    name: 'pipelines.recover',
    payload: z.object({ organizationId: z.undefined().optional() }),
    schedule: { cron: '* * * * *', payload: {} },
    queue: { retryLimit: 1, expireInSeconds: 300 },
    handle: async (_payload, { db, jobs }) => {
      const stranded = await selectStrandedRuns(db, {
        now: new Date(),
        grace: RECOVERY_GRACE_MS,
        limit: RECOVERY_BATCH,
      });
      await queueFor(jobs).queueRuns(
        stranded.map((run) => ({ organizationId: run.organization_id, runId: run.id })),
      );
      await reconcileSchedules(db, jobs, queueFor(jobs));
    },
  });

  const pruneJob = defineJob({
    name: 'pipelines.prune-runs',
    payload: z.object({ organizationId: z.undefined().optional() }),
    schedule: { cron: '23 3 * * *', payload: {} },
    queue: { retryLimit: 3, retryDelay: 60, expireInSeconds: 1800 },
    handle: async (_payload, { db }) => {
      await pruneExpiredRuns(db, new Date());
    },
  });

  const courseDeletedJob = defineJob({
    name: 'pipelines.course-deleted',
    payload: z.object({
      type: z.literal('course.deleted'),
      organizationId: z.string(),
      courseId: z.string(),
      removePipelineReferences: z.boolean().optional(),
    }),
    queue: { retryLimit: 10, retryDelay: 2, retryBackoff: true, expireInSeconds: 300 },
    handle: async (payload, { db, jobs }) => {
      await removeCourseFromPipelines(db, queueFor(jobs), {
        organizationId: payload.organizationId,
        courseId: payload.courseId,
        removePipelineReferences: payload.removePipelineReferences === true,
      });
    },
  });

  return {
    definitions: [runJob, scheduleJob, recoverJob, pruneJob].map(
      (definition) => definition as unknown as JobDefinition<never>,
    ),
    subscriptions: {
      'learning-events.accepted': [matchJob],
      'course.deleted': [courseDeletedJob],
    },
  };
}
