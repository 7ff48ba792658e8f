import {
  INGESTION_MESSAGES,
  ingestionEventSchema,
  type CourseBroadcastResponse,
  type IngestEventsResponse,
  type IngestionEvent,
  type RejectedEvent,
} from '@courselens/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client';
import { toTypedValue, type VariableDataType } from '../../db/schema';
import { AppError } from '../../errors';
import { insertActivity } from '../organizations/organizations.queries';
import {
  completeRuns,
  ensureNamedRuns,
  findCourseBroadcast,
  findCurrentRuns,
  findLiveCourses,
  findQuestions,
  findStoredEventIds,
  getIngestionSettings,
  insertAnonymousRuns,
  insertAnswers,
  insertCourses,
  insertIngestedEvents,
  insertQuestions,
  insertVariables,
  insertVariableValues,
  questionKey,
  resolveVariables,
  runKey,
  upsertLearners,
  type AnswerRow,
  type ResolvedVariable,
  type ValueRow,
} from './ingestion.queries';

/** A valid event with where it came from and its time resolved. */
type Candidate = { index: number; event: IngestionEvent; at: Date };

/** Attempts of one batch's transaction when PostgreSQL reports a deadlock or serialization failure. */
const MAX_ATTEMPTS = 5;
const RETRYABLE_CODES = new Set(['40P01', '40001']);

/**
 * Stores a batch of ingestion events for the API key's organization in one
 * transaction, committed before this resolves. Each event is checked on its
 * own: a bad one is reported in `rejected` and the others go on. An event id
 * already stored (earlier, concurrently, or earlier in the same batch) is a
 * duplicate and changes nothing.
 */
export async function ingestEvents(
  db: Database,
  input: { organizationId: string; apiKeyId: string; events: readonly unknown[] },
  now = new Date(),
): Promise<IngestEventsResponse> {
  const rejected: RejectedEvent[] = [];
  const candidates: Candidate[] = [];
  const seenIds = new Set<string>();
  let duplicatesInBatch = 0;

  input.events.forEach((raw, index) => {
    const parsed = ingestionEventSchema.safeParse(raw);
    if (!parsed.success) {
      rejected.push({ index, id: rawEventId(raw), error: describeIssue(raw, parsed.error) });
      return;
    }
    const event = parsed.data;
    if (seenIds.has(event.id)) {
      duplicatesInBatch += 1;
      return;
    }
    seenIds.add(event.id);
    candidates.push({ index, event, at: event.timestamp ? new Date(event.timestamp) : now });
  });

  if (candidates.length === 0) {
    return { accepted: 0, duplicates: duplicatesInBatch, rejected: sortByIndex(rejected) };
  }

  const outcome = await withRetry(() =>
    db.transaction(async (tx) => storeCandidates(tx as unknown as Database, input, candidates)),
  );
  return {
    accepted: outcome.accepted,
    duplicates: duplicatesInBatch + outcome.duplicates,
    rejected: sortByIndex([...rejected, ...outcome.rejected]),
  };
}

type StoreOutcome = { accepted: number; duplicates: number; rejected: RejectedEvent[] };

async function storeCandidates(
  tx: Database,
  input: { organizationId: string; apiKeyId: string },
  all: readonly Candidate[],
): Promise<StoreOutcome> {
  const { organizationId } = input;
  const rejected: RejectedEvent[] = [];
  const reject = (candidate: Candidate, error: string) =>
    rejected.push({ index: candidate.index, id: candidate.event.id, error });

  const stored = await findStoredEventIds(
    tx,
    organizationId,
    all.map((c) => c.event.id),
  );
  let candidates = all.filter((c) => !stored.has(c.event.id));
  let duplicates = all.length - candidates.length;
  if (candidates.length === 0) return { accepted: 0, duplicates, rejected };

  const settings = await getIngestionSettings(tx, organizationId, input.apiKeyId);

  // Courses: by external id among live courses; registered on first sight.
  const externalIds = unique(candidates.map((c) => c.event.course.externalCourseId));
  const courseIds = await findLiveCourses(tx, organizationId, externalIds);
  const missingCourses = externalIds.filter((id) => !courseIds.has(id));
  if (missingCourses.length > 0 && settings.autoRegister) {
    const titles = new Map<string, string>();
    for (const { event } of candidates) {
      const id = event.course.externalCourseId;
      if (!courseIds.has(id) && !titles.has(id)) titles.set(id, event.course.title?.trim() || id);
    }
    await insertCourses(
      tx,
      organizationId,
      [...titles].map(([externalId, title]) => ({ externalId, title })),
    );
    for (const [id, courseId] of await findLiveCourses(tx, organizationId, missingCourses)) {
      courseIds.set(id, courseId);
    }
  }
  candidates = candidates.filter((c) => {
    if (courseIds.has(c.event.course.externalCourseId)) return true;
    reject(c, INGESTION_MESSAGES.courseNotFound(c.event.course.externalCourseId));
    return false;
  });
  const courseOf = (c: Candidate) => courseIds.get(c.event.course.externalCourseId) as string;

  // Variables: a course's mapping for the name, else the course's variable of that name.
  const variableKey = (courseId: string, name: string) => `${courseId} ${name}`;
  const variableEvents = candidates.filter((c) => c.event.type === 'variable.set');
  const variables = new Map<string, ResolvedVariable>();
  if (variableEvents.length > 0) {
    const pairs = uniqueBy(
      variableEvents.map((c) => ({ courseId: courseOf(c), name: variableName(c) })),
      (p) => variableKey(p.courseId, p.name),
    );
    const addResolved = (rows: ResolvedVariable[]) => {
      for (const row of rows) variables.set(variableKey(row.courseId, row.name), row);
    };
    addResolved(await resolveVariables(tx, organizationId, pairs));
    const missing = pairs.filter((p) => !variables.has(variableKey(p.courseId, p.name)));
    if (missing.length > 0 && settings.autoRegister) {
      const firstValue = new Map<string, unknown>();
      for (const c of variableEvents) {
        const key = variableKey(courseOf(c), variableName(c));
        if (!firstValue.has(key)) firstValue.set(key, variableValue(c));
      }
      await insertVariables(
        tx,
        organizationId,
        missing.map((p) => ({
          ...p,
          dataType: inferDataType(firstValue.get(variableKey(p.courseId, p.name))),
        })),
      );
      addResolved(await resolveVariables(tx, organizationId, missing));
    }
    candidates = candidates.filter((c) => {
      if (c.event.type !== 'variable.set') return true;
      if (variables.has(variableKey(courseOf(c), c.event.variable.name))) return true;
      reject(c, INGESTION_MESSAGES.variableNotFound(c.event.variable.name));
      return false;
    });
  }
  if (candidates.length === 0) return { accepted: 0, duplicates, rejected };

  // Learners: created on first sight; last activity moves forward.
  const learnerActivity = new Map<string, { name: string | null; lastActivityAt: Date }>();
  for (const { event, at } of candidates) {
    const current = learnerActivity.get(event.learner.email);
    const name = event.learner.name?.trim() || null;
    if (!current) learnerActivity.set(event.learner.email, { name, lastActivityAt: at });
    else {
      if (at > current.lastActivityAt) current.lastActivityAt = at;
      current.name ??= name;
    }
  }
  const learnerIds = await upsertLearners(
    tx,
    organizationId,
    [...learnerActivity].map(([email, value]) => ({ email, ...value })),
  );
  const learnerOf = (c: Candidate) => learnerIds.get(c.event.learner.email) as string;

  // Questions: registered by course and interaction id.
  const answerEvents = candidates.filter((c) => c.event.type === 'question.answered');
  const questionIds = new Map<string, string>();
  if (answerEvents.length > 0) {
    const keys = uniqueBy(
      answerEvents.map((c) => ({ courseId: courseOf(c), interactionId: question(c).interactionId })),
      (k) => questionKey(k.courseId, k.interactionId),
    );
    for (const [key, id] of await findQuestions(tx, organizationId, keys)) questionIds.set(key, id);
    const missing = keys.filter((k) => !questionIds.has(questionKey(k.courseId, k.interactionId)));
    if (missing.length > 0) {
      const firstSeen = new Map<string, Candidate>();
      for (const c of answerEvents) {
        const key = questionKey(courseOf(c), question(c).interactionId);
        if (!firstSeen.has(key)) firstSeen.set(key, c);
      }
      await insertQuestions(
        tx,
        organizationId,
        missing.map((k) => {
          const q = question(firstSeen.get(questionKey(k.courseId, k.interactionId)) as Candidate);
          return {
            ...k,
            slideNumber: q.slideNumber ?? null,
            questionNumber: q.questionNumber ?? null,
            text: q.text ?? null,
            correctAnswer: q.correctAnswer ?? null,
          };
        }),
      );
      for (const [key, id] of await findQuestions(tx, organizationId, missing)) questionIds.set(key, id);
    }
  }

  // The idempotency keys: only events new to the organization have effects.
  const fresh = await insertIngestedEvents(
    tx,
    organizationId,
    input.apiKeyId,
    candidates.map((c) => ({
      eventId: c.event.id,
      type: c.event.type,
      courseId: courseOf(c),
      learnerId: learnerOf(c),
      occurredAt: c.at,
    })),
  );
  duplicates += candidates.length - fresh.size;
  const accepted = candidates.filter((c) => fresh.has(c.event.id));
  if (accepted.length === 0) return { accepted: 0, duplicates, rejected };

  // Course runs: named ones exist once; a course.started without a name starts one.
  const named = new Map<
    string,
    { courseId: string; learnerId: string; clientRunId: string; startedAt: Date }
  >();
  for (const c of accepted) {
    if (c.event.run === undefined) continue;
    const key = runKey(courseOf(c), learnerOf(c), c.event.run);
    const current = named.get(key);
    if (!current) {
      named.set(key, {
        courseId: courseOf(c),
        learnerId: learnerOf(c),
        clientRunId: c.event.run,
        startedAt: c.at,
      });
    } else if (c.at < current.startedAt) current.startedAt = c.at;
  }
  const namedRunIds = await ensureNamedRuns(tx, organizationId, [...named.values()]);
  await insertAnonymousRuns(
    tx,
    organizationId,
    accepted
      .filter((c) => c.event.type === 'course.started' && c.event.run === undefined)
      .map((c) => ({ courseId: courseOf(c), learnerId: learnerOf(c), startedAt: c.at })),
  );
  const runOf = new Map<Candidate, string | null>();
  const unnamed = accepted.filter((c) => c.event.run === undefined && c.event.type !== 'course.started');
  const current = await findCurrentRuns(
    tx,
    organizationId,
    unnamed.map((c) => ({ courseId: courseOf(c), learnerId: learnerOf(c), at: c.at })),
  );
  unnamed.forEach((c, i) => runOf.set(c, current[i] ?? null));
  for (const c of accepted) {
    if (c.event.run !== undefined) {
      runOf.set(c, namedRunIds.get(runKey(courseOf(c), learnerOf(c), c.event.run)) ?? null);
    }
  }

  // A completion with no run to complete records the attempt it ends.
  const orphanCompletions = accepted.filter((c) => c.event.type === 'course.completed' && !runOf.get(c));
  if (orphanCompletions.length > 0) {
    const ids = await ensureNamedRuns(
      tx,
      organizationId,
      orphanCompletions.map((c) => ({
        courseId: courseOf(c),
        learnerId: learnerOf(c),
        clientRunId: `completion:${c.event.id}`,
        startedAt: c.at,
      })),
    );
    for (const c of orphanCompletions) {
      runOf.set(c, ids.get(runKey(courseOf(c), learnerOf(c), `completion:${c.event.id}`)) ?? null);
    }
  }

  const values: ValueRow[] = [];
  const answers: AnswerRow[] = [];
  const completions = new Map<string, Date>();
  for (const c of accepted) {
    const runId = runOf.get(c) ?? null;
    switch (c.event.type) {
      case 'variable.set': {
        const variable = variables.get(variableKey(courseOf(c), c.event.variable.name)) as ResolvedVariable;
        values.push({
          variableId: variable.variableId,
          learnerId: learnerOf(c),
          courseId: variable.variableCourseId,
          courseRunId: runId,
          ...toTypedValue(variable.dataType, c.event.variable.value),
          recordedAt: c.at,
        });
        break;
      }
      case 'question.answered': {
        const q = c.event.question;
        answers.push({
          questionId: questionIds.get(questionKey(courseOf(c), q.interactionId)) as string,
          learnerId: learnerOf(c),
          courseId: courseOf(c),
          courseRunId: runId,
          slideNumber: q.slideNumber ?? null,
          questionNumber: q.questionNumber ?? null,
          questionText: q.text ?? null,
          answerChoice: q.answer === undefined || q.answer === null ? null : String(q.answer),
          correct: q.correct ?? null,
          correctAnswer: q.correctAnswer ?? null,
          pointsAssigned: q.points ?? null,
          answeredAt: c.at,
        });
        break;
      }
      case 'course.completed': {
        if (!runId) break;
        const previous = completions.get(runId);
        if (!previous || c.at < previous) completions.set(runId, c.at);
        break;
      }
      case 'course.started':
        break;
    }
  }
  await insertVariableValues(tx, organizationId, values);
  await insertAnswers(tx, organizationId, answers);
  await completeRuns(
    tx,
    organizationId,
    [...completions].map(([runId, completedAt]) => ({ runId, completedAt })),
  );

  const keyName = settings.apiKeyName ?? 'deleted key';
  await insertActivity(tx, {
    organizationId,
    actorUserId: null,
    kind: 'events.ingested',
    subjectType: 'api_key',
    subjectId: input.apiKeyId,
    summary: `${accepted.length} ${accepted.length === 1 ? 'event' : 'events'} from API key "${keyName}"`,
    details: { accepted: accepted.length, duplicates, rejected: rejected.length, apiKeyId: input.apiKeyId },
  });
  return { accepted: accepted.length, duplicates, rejected };
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

/**
 * The data type of a variable registered on first sight, from its first
 * value: numbers, booleans and ISO 8601 dates keep their type, anything else
 * is text (a later change of type is the team's decision, in the UI).
 */
export function inferDataType(value: unknown): VariableDataType {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))) return 'date';
  return 'text';
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

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

function variableName(c: Candidate): string {
  return c.event.type === 'variable.set' ? c.event.variable.name : '';
}

function variableValue(c: Candidate): unknown {
  return c.event.type === 'variable.set' ? c.event.variable.value : null;
}

function question(c: Candidate) {
  if (c.event.type !== 'question.answered') throw new Error('not a question.answered event');
  return c.event.question;
}

function rawEventId(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const id = (raw as { id?: unknown }).id;
  return typeof id === 'string' && id.length >= 1 && id.length <= 128 ? id : null;
}

/** The first problem of an event, worded for the person who wrote the integration. */
function describeIssue(raw: unknown, error: z.ZodError): string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return INGESTION_MESSAGES.eventNotObject;
  const issue = error.issues[0];
  if (!issue) return 'Invalid event';
  const path = issue.path.map(String).join('.');
  if (!path || issue.message.startsWith(path)) return issue.message;
  return `${path}: ${issue.message}`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

function sortByIndex(rejected: RejectedEvent[]): RejectedEvent[] {
  return rejected.sort((a, b) => a.index - b.index);
}
