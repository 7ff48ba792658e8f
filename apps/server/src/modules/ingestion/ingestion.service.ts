import {
  EARLIEST_EVENT_TIME,
  findInvalidInput,
  INGESTION_MESSAGES,
  ingestionEventSchema,
  MAX_EVENT_CLOCK_SKEW_MS,
  type CourseBroadcastResponse,
  type IngestEventsResponse,
  type RejectedEvent,
} from '@courselens/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import {
  ensureEventPartitions,
  findCourseBroadcast,
  forgetEventPartitions,
  isMissingPartition,
} from './ingestion.queries';
import { writeLearningEvents, type AdmissionCheck, type Candidate, type Publish } from './write-path';

export { inferDataType } from './write-path';

/** Attempts of one batch's transaction when PostgreSQL reports a deadlock or serialization failure. */
const MAX_ATTEMPTS = 5;
const RETRYABLE_CODES = new Set(['40P01', '40001']);

/** Fields of an event the contract knows; anything else the sender adds is kept as the log's extras. */
const KNOWN_FIELDS = new Set([
  'id',
  'type',
  'timestamp',
  'course',
  'learner',
  'run',
  'slide',
  'variable',
  'question',
  'progress',
  'result',
]);
/** Extras above this size (JSON characters) are not kept: the log is no blob store. */
const MAX_EXTRAS_LENGTH = 4000;

/**
 * Stores a batch of ingestion events for the API key's organization in one
 * transaction, committed before this resolves. Each event is checked on its
 * own: a bad one (invalid, text the database cannot store, a time outside
 * 2000-01-01 to a day from now) is reported in `rejected` and the others go
 * on. An event id already stored (earlier, concurrently, or earlier in the
 * same batch) is a duplicate and changes nothing.
 */
export async function ingestEvents(
  db: Database,
  input: {
    organizationId: string;
    apiKeyId: string;
    events: readonly unknown[];
    admit?: AdmissionCheck;
    publish?: Publish;
  },
  now = new Date(),
): Promise<IngestEventsResponse> {
  const rejected: RejectedEvent[] = [];
  const candidates: Candidate[] = [];
  const seenIds = new Set<string>();
  let duplicatesInBatch = 0;

  input.events.forEach((raw, index) => {
    const checked = checkEvent(raw, now);
    if ('error' in checked) {
      rejected.push({ index, id: rawEventId(raw), error: checked.error });
      return;
    }
    if (seenIds.has(checked.event.id)) {
      duplicatesInBatch += 1;
      return;
    }
    seenIds.add(checked.event.id);
    candidates.push({ index, ...checked });
  });

  if (candidates.length === 0) {
    return { accepted: 0, duplicates: duplicatesInBatch, rejected: sortByIndex(rejected) };
  }

  const outcome = await writeInTransaction(
    db,
    candidates.map((c) => c.at),
    (tx) =>
      writeLearningEvents(
        tx,
        {
          organizationId: input.organizationId,
          source: 'api',
          apiKeyId: input.apiKeyId,
          publish: input.publish,
        },
        candidates,
        input.admit,
      ),
  );
  return {
    accepted: outcome.accepted,
    duplicates: duplicatesInBatch + outcome.duplicates,
    rejected: sortByIndex([...rejected, ...outcome.rejected]),
  };
}

/**
 * Runs a write of learning events in its own transaction: the log's months
 * for `times` exist first, a deadlock or serialization failure retries the
 * whole transaction, and a month dropped by retention since this process
 * last looked is created again, once.
 */
export async function writeInTransaction<T>(
  db: Database,
  times: readonly Date[],
  work: (tx: Database) => Promise<T>,
): Promise<T> {
  const write = async () => {
    await ensureEventPartitions(db, times);
    return withRetry(() => db.transaction(async (tx) => work(tx as unknown as Database)));
  };
  try {
    return await write();
  } catch (error) {
    if (!isMissingPartition(error)) throw error;
    forgetEventPartitions(db);
    return write();
  }
}

/** One event checked on its own: the parsed event with its time and extras, or why it was refused. */
export function checkEvent(raw: unknown, now: Date): Omit<Candidate, 'index'> | { error: string } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { error: INGESTION_MESSAGES.eventNotObject };
  // Before the schema: a NUL or a lone surrogate anywhere (also in fields the
  // schema ignores, which the log keeps) would fail the database write.
  const unsafe = findInvalidInput(raw, { root: 'event' });
  if (unsafe) return { error: unsafe.message };
  const parsed = ingestionEventSchema.safeParse(raw);
  if (!parsed.success) return { error: describeIssue(raw, parsed.error) };
  const event = parsed.data;
  const at = event.timestamp ? new Date(event.timestamp) : now;
  if (at.getTime() > now.getTime() + MAX_EVENT_CLOCK_SKEW_MS)
    return { error: INGESTION_MESSAGES.timestampInFuture };
  if (at.getTime() < EARLIEST_EVENT_TIME) return { error: INGESTION_MESSAGES.timestampTooOld };
  return { event, at, extras: extrasOf(raw as Record<string, unknown>) };
}

function extrasOf(raw: Record<string, unknown>): Record<string, unknown> | null {
  const extras = Object.fromEntries(Object.entries(raw).filter(([key]) => !KNOWN_FIELDS.has(key)));
  if (Object.keys(extras).length === 0) return null;
  return JSON.stringify(extras).length <= MAX_EXTRAS_LENGTH ? extras : null;
}

/** The broadcast message of the organization's live course with that external id. */
export async function getCourseBroadcast(
  db: Database,
  organizationId: string,
  externalCourseId: string,
): Promise<CourseBroadcastResponse> {
  const found = await findCourseBroadcast(db, organizationId, externalCourseId);
  if (!found) throw new AppError('NOT_FOUND', INGESTION_MESSAGES.courseNotFound(externalCourseId));
  return { message: found.message, updatedAt: found.updatedAt.toISOString() };
}

async function withRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
      // Jittered back-off so the transactions that collided do not collide again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/** A deadlock or serialization failure from either driver (Drizzle wraps it in `cause`). */
export function isRetryable(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && RETRYABLE_CODES.has(code)) return true;
  }
  return false;
}

function rawEventId(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const id = (raw as { id?: unknown }).id;
  return typeof id === 'string' && id.length >= 1 && id.length <= 128 && !findInvalidInput(id) ? id : null;
}

/** The first problem of an event, worded for the person who wrote the integration. */
function describeIssue(raw: unknown, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid event';
  const path = issue.path.map(String).join('.');
  if (!path || issue.message.startsWith(path)) return issue.message;
  return `${path}: ${issue.message}`;
}

function sortByIndex(rejected: RejectedEvent[]): RejectedEvent[] {
  return rejected.sort((a, b) => a.index - b.index);
}
