import { sql } from 'drizzle-orm';
import {
  fromDrizzle,
  fromPglite,
  PgBoss,
  type Job,
  type JobResult,
  type Queue,
  type QueueOptions,
} from 'pg-boss';
import type { z } from 'zod';
import type { Database, DatabaseConnection } from '../db/client';

/** What a job's handler gets besides its payload. */
export type JobContext = {
  db: Database;
  /** The job's id and how many times it was tried before this attempt. */
  jobId: string;
  retryCount: number;
  /** The runner the job came from, to queue follow-up jobs (a continuation, a retry later). */
  jobs: JobRunner;
};

/**
 * A kind of job: its queue name, the zod schema of its payload, the handler
 * and how it is retried. Handlers must be idempotent: a job whose worker
 * died after the handler's effects but before its completion was recorded
 * runs again (at least once, never lost).
 */
export type JobDefinition<TPayload extends { organizationId?: string } = { organizationId?: string }> = {
  name: string;
  payload: z.ZodType<TPayload>;
  handle: (payload: TPayload, context: JobContext) => Promise<void>;
  /** Retries (with exponential backoff and jitter) and expiry; see pg-boss queue options. */
  queue?: Pick<
    Queue,
    'retryLimit' | 'retryDelay' | 'retryBackoff' | 'retryDelayMax' | 'expireInSeconds' | 'notify'
  >;
  /** Jobs of this kind running at once in one process. */
  concurrency?: number;
  /**
   * How often an idle worker of this kind looks for jobs (seconds, at least
   * 0.5; the runner's interval when absent). With `queue.notify` a new job
   * wakes the workers at once and this is only the fallback.
   */
  pollingIntervalSeconds?: number;
  /** A cron expression (UTC) for jobs that run on a schedule, with the payload they get. */
  schedule?: { cron: string; payload: TPayload };
  /**
   * For a subscriber: whether this domain event concerns it at all, asked in
   * the publishing transaction (so it sees what that transaction sees). No
   * job is queued when it answers false: an organization without an active
   * pipeline does not pay a matcher job for each batch it ingests.
   */
  isWanted?: (tx: Database, payload: TPayload) => Promise<boolean>;
};

/** Typed helper so each definition keeps its payload type. */
export function defineJob<TPayload extends { organizationId?: string }>(
  definition: JobDefinition<TPayload>,
): JobDefinition<TPayload> {
  return definition;
}

/** Events one domain publishes for others, written in the same transaction as the change. */
export type DomainEvent =
  | {
      type: 'learning-events.accepted';
      organizationId: string;
      /** The accepted events' ids (idempotency keys) of one write. */
      eventIds: string[];
      source: string;
    }
  | {
      type: 'course.deleted';
      organizationId: string;
      courseId: string;
      /** The deletion asked to remove the course's nodes from the pipelines. */
      removePipelineReferences?: boolean;
    };

export type DomainEventType = DomainEvent['type'];

/** Puts a domain event in the outbox, in the writing transaction `tx`. */
export type Publish = (tx: Database, event: DomainEvent) => Promise<void>;

/** Which jobs run for which domain event: one job per subscriber and event. */
export type Subscriptions = {
  [T in DomainEventType]?: readonly JobDefinition<Extract<DomainEvent, { type: T }>>[];
};

export type FailedJob = {
  id: string;
  queue: string;
  error: string;
  attempts: number;
  createdAt: string;
  failedAt: string | null;
  payload: Record<string, unknown>;
};

export type JobRunner = {
  /** Installs the queue tables, creates the queues and, with workers, starts working them. */
  start: () => Promise<void>;
  stop: () => Promise<void>;
  /** Writes the event's jobs in the caller's transaction: they exist if and only if it commits. */
  publish: Publish;
  /** Queues one job: now, or at `startAfter`; in `tx` when given (it then exists if and only if `tx` commits). */
  send: <T extends { organizationId?: string }>(
    definition: JobDefinition<T>,
    payload: T,
    options?: SendJobOptions,
  ) => Promise<string | null>;
  /** Queues many jobs of one kind in one statement (a fan-out), in `tx` when given. */
  sendMany: <T extends { organizationId?: string }>(
    definition: JobDefinition<T>,
    payloads: readonly T[],
    options?: Pick<SendJobOptions, 'tx'>,
  ) => Promise<void>;
  /**
   * Keeps a cron schedule under `key`: the queue gets a job with `payload`
   * at each occurrence in `timeZone` (processes with workers send them).
   */
  schedule: <T extends { organizationId?: string }>(
    definition: JobDefinition<T>,
    schedule: { key: string; cron: string; timeZone: string; payload: T },
  ) => Promise<void>;
  unschedule: (definition: JobDefinition<never>, key: string) => Promise<void>;
  /** The keys of the queue's schedules. */
  scheduleKeys: (definition: JobDefinition<never>) => Promise<string[]>;
  /** Failed jobs (retries used up) of the organization, newest first. */
  listFailed: (organizationId: string) => Promise<FailedJob[]>;
  /** Queues a failed job of the organization again; false when there is no such failed job. */
  retry: (organizationId: string, queue: string, jobId: string) => Promise<boolean>;
};

export type SendJobOptions = { startAfter?: Date; tx?: Database };

const DEFAULT_QUEUE: QueueOptions = {
  retryLimit: 5,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 600,
  expireInSeconds: 300,
};

/**
 * The job queue on the product's own database (pg-boss: PGlite's adapter
 * when embedded, its own small pool on PostgreSQL), see decision 009.
 * `workers: false` only queues (tests that check what was queued, the
 * process that must not run jobs); workers poll and run handlers.
 */
export function createJobRunner(
  connection: DatabaseConnection,
  options: {
    definitions: readonly JobDefinition<never>[];
    subscriptions?: Subscriptions;
    workers: boolean;
    onError?: (error: unknown) => void;
    pollingIntervalSeconds?: number;
  },
): JobRunner {
  const definitions = options.definitions as unknown as readonly JobDefinition[];
  const subscriptions = (options.subscriptions ?? {}) as Record<string, readonly JobDefinition[] | undefined>;
  const boss =
    connection.kind === 'pglite'
      ? new PgBoss({
          db: fromPglite(requirePglite(connection)),
          backend: 'pglite',
          schedule: options.workers,
          supervise: options.workers,
          // Queues created with `notify` wake their workers when a job is committed (see pollingIntervalSeconds).
          useListenNotify: options.workers,
        })
      : new PgBoss({
          connectionString: requireUrl(connection),
          max: 3,
          schedule: options.workers,
          supervise: options.workers,
          useListenNotify: options.workers,
        });
  boss.on('error', (error) => options.onError?.(error));
  const allDefinitions = uniqueByName([
    ...definitions,
    ...Object.values(subscriptions).flatMap((list) => list ?? []),
  ]);
  let started = false;

  // Jobs are fetched in small batches (one claim for several) but settled
  // one by one: one failing job is retried alone, the others complete.
  const handler =
    (definition: JobDefinition) =>
    async (jobs: Job<unknown>[]): Promise<JobResult[]> => {
      const results: JobResult[] = [];
      for (const job of jobs) {
        try {
          const payload = definition.payload.parse(job.data);
          await definition.handle(payload, {
            db: connection.db,
            jobId: job.id,
            retryCount: (job as { retryCount?: number }).retryCount ?? 0,
            jobs: runner,
          });
          results.push({ id: job.id, status: 'completed' });
        } catch (error) {
          results.push({ id: job.id, status: 'failed', output: { message: errorMessage(error) } });
        }
      }
      return results;
    };

  // The handlers hand it to the jobs they run (they run only after `start`).
  const runner: JobRunner = {
    start: async () => {
      if (started) return;
      await boss.start();
      for (const definition of allDefinitions) {
        await boss.createQueue(`${definition.name}.dead`, {});
        const queue = { ...DEFAULT_QUEUE, ...definition.queue };
        // pg-boss takes a ceiling for the delay only with backoff.
        if (!queue.retryBackoff) delete queue.retryDelayMax;
        await boss.createQueue(definition.name, { ...queue, deadLetter: `${definition.name}.dead` });
        if (options.workers) {
          await boss.work(
            definition.name,
            {
              localConcurrency: definition.concurrency ?? 1,
              batchSize: FETCH_BATCH,
              perJobResults: true,
              // While fetches come back full there is a backlog: fetch again at once.
              burstWhenBatchFull: true,
              pollingIntervalSeconds:
                definition.pollingIntervalSeconds ?? options.pollingIntervalSeconds ?? 1,
              // A notified queue still polls as often: a notification can be missed (a listener
              // reconnecting, a worker busy when it came), and a job must not wait 30 s for it.
              notifyPollingIntervalSeconds:
                definition.pollingIntervalSeconds ?? options.pollingIntervalSeconds ?? 1,
            },
            handler(definition),
          );
          if (definition.schedule) {
            await boss.schedule(definition.name, definition.schedule.cron, definition.schedule.payload, {
              tz: 'UTC',
            });
          }
        }
      }
      started = true;
    },
    stop: async () => {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: 10_000, close: true });
    },
    publish: async (tx, event) => {
      for (const definition of subscriptions[event.type] ?? []) {
        const isWanted = definition.isWanted as
          ((tx: Database, payload: DomainEvent) => Promise<boolean>) | undefined;
        if (isWanted && !(await isWanted(tx, event))) continue;
        await boss.send(definition.name, event, { db: fromDrizzle(tx, sql) });
      }
    },
    send: (definition, payload, sendOptions = {}) =>
      boss.send(definition.name, payload, {
        ...(sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {}),
        ...(sendOptions.tx ? { db: fromDrizzle(sendOptions.tx, sql) } : {}),
      }),
    sendMany: async (definition, payloads, sendOptions = {}) => {
      if (payloads.length === 0) return;
      await boss.insert(
        definition.name,
        payloads.map((data) => ({ data })),
        sendOptions.tx ? { db: fromDrizzle(sendOptions.tx, sql) } : {},
      );
    },
    schedule: async (definition, schedule) => {
      await boss.schedule(definition.name, schedule.cron, schedule.payload, {
        tz: schedule.timeZone,
        key: schedule.key,
      });
    },
    unschedule: async (definition, key) => {
      await boss.unschedule(definition.name, key);
    },
    scheduleKeys: async (definition) =>
      (await boss.getSchedules(definition.name)).map((schedule) => schedule.key),
    listFailed: async (organizationId) => {
      const failed: FailedJob[] = [];
      for (const definition of allDefinitions) {
        const jobs = await boss.findJobs<Record<string, unknown>>(definition.name, {
          data: { organizationId },
        });
        for (const job of jobs) {
          if (job.state !== 'failed') continue;
          failed.push({
            id: job.id,
            queue: definition.name,
            error: describeOutput(job.output),
            attempts: job.retryCount + 1,
            createdAt: job.createdOn.toISOString(),
            failedAt: job.completedOn ? job.completedOn.toISOString() : null,
            payload: job.data,
          });
        }
      }
      return failed.sort((a, b) => (b.failedAt ?? b.createdAt).localeCompare(a.failedAt ?? a.createdAt));
    },
    retry: async (organizationId, queue, jobId) => {
      if (!allDefinitions.some((definition) => definition.name === queue)) return false;
      const [job] = await boss.findJobs<Record<string, unknown>>(queue, { id: jobId });
      if (!job || job.state !== 'failed' || job.data.organizationId !== organizationId) return false;
      await boss.retry(queue, jobId);
      return true;
    },
  };
  return runner;
}

/** Jobs one worker claims at once. */
const FETCH_BATCH = 10;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The message a failed job left (pg-boss stores the serialized error as its output). */
function describeOutput(output: unknown): string {
  if (output && typeof output === 'object') {
    const message = (output as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
  }
  return output === null || output === undefined ? 'Unknown error' : JSON.stringify(output).slice(0, 500);
}

function uniqueByName(definitions: readonly JobDefinition[]): JobDefinition[] {
  return [...new Map(definitions.map((definition) => [definition.name, definition])).values()];
}

function requirePglite(connection: DatabaseConnection) {
  if (!connection.pglite) throw new Error('an embedded database connection carries its PGlite engine');
  return connection.pglite;
}

function requireUrl(connection: DatabaseConnection): string {
  if (!connection.url) throw new Error('a PostgreSQL connection carries its URL');
  return connection.url;
}
