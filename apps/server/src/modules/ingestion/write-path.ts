import { INGESTION_MESSAGES, type IngestionEvent, type RejectedEvent } from '@courselens/contracts';
import type { Database } from '../../db/client';
import { toTypedValue, type LearningEventSource, type VariableDataType } from '../../db/schema';
import type { Publish } from '../../jobs/job-runner';
import { AppError } from '../../errors';
import { admitNewCourses, admitNewLearners } from '../billing/entitlements';
import { activityInsert } from '../organizations/organizations.queries';
import { handlerFor, type Facts, type ResolvedEvent } from './event-handlers';
import {
  claimBatch,
  deleteEventKeys,
  ensureNamedRuns,
  findChatbotVariableTargets,
  findCurrentRuns,
  findLiveCourses,
  findQuestions,
  insertAnonymousRuns,
  insertCourses,
  insertQuestions,
  insertVariables,
  questionKey,
  resolveVariables,
  runKey,
  storeFacts,
  upsertLearnersFindQuestions,
  type ChatbotValueRow,
  type LogRow,
  type QuestionKey,
  type ResolvedVariable,
  type ValueRow,
} from './ingestion.queries';

/** A valid event with where it came from (its index in the request) and its time resolved. */
export type Candidate = {
  index: number;
  event: IngestionEvent;
  at: Date;
  /** What else the sender put in the event, kept whole in the log. */
  extras: Record<string, unknown> | null;
};

export type { Publish } from '../../jobs/job-runner';

/** Who writes: the organization, and the source the log records (an API key, a chatbot, a pipeline). */
export type WriteScope = {
  organizationId: string;
  source: LearningEventSource;
  apiKeyId: string | null;
  /** Where `learning-events.accepted` goes (absent: nobody listens, e.g. a seed). */
  publish?: Publish | undefined;
};

export type WriteOutcome = { accepted: number; duplicates: number; rejected: RejectedEvent[] };

/**
 * The seam where plan caps are checked: given the courses the batch would
 * register and its events, it returns a reason for each event it refuses
 * (an event of a course past the course cap, of a new learner past the
 * learner cap and its grace period). The default is the plan's.
 */
export type AdmissionCheck = (
  tx: Database,
  request: { organizationId: string; newCourses: readonly string[]; candidates: readonly Candidate[] },
) => Promise<Map<Candidate, string>>;

/** The plan caps: courses first (an event refused for its course does not count as a new learner), then learners. */
export const admitWithinPlan: AdmissionCheck = async (tx, { organizationId, newCourses, candidates }) => {
  const refusals = new Map<Candidate, string>();
  const courses = await admitNewCourses(tx, organizationId, newCourses);
  for (const c of candidates) {
    if (courses.refused.has(c.event.course.externalCourseId)) refusals.set(c, courses.reason);
  }
  const remaining = candidates.filter((c) => !refusals.has(c));
  const learners = await admitNewLearners(
    tx,
    organizationId,
    remaining.map((c) => c.event.learner.email),
  );
  for (const c of remaining) {
    if (learners.refused.has(c.event.learner.email)) refusals.set(c, learners.reason);
  }
  return refusals;
};

/**
 * The one write path of learning facts. In the caller's transaction:
 * 1. resolve: claim the idempotency keys (ids already stored are
 *    duplicates), find or register courses (asking the admission check),
 *    variables, learners and questions, find or start runs;
 * 2. store facts: each event's handler (one per type, `EVENT_HANDLERS`)
 *    turns it into values, answers and run changes, written set-based;
 * 3. publish: every accepted event is appended whole to the log, the
 *    batch goes to the outbox as `learning-events.accepted` (jobs of the
 *    domains that react to it, in this transaction) and to the activity feed.
 * The rollups follow from the facts' triggers (queued for the folder, or
 * counted inline on single-connection PGlite).
 */
export async function writeLearningEvents(
  tx: Database,
  scope: WriteScope,
  all: readonly Candidate[],
  admit: AdmissionCheck = admitWithinPlan,
): Promise<WriteOutcome> {
  const { organizationId } = scope;
  const rejected: RejectedEvent[] = [];
  const reject = (candidate: Candidate, error: string) =>
    rejected.push({ index: candidate.index, id: candidate.event.id, error });

  // The idempotency keys first: only events new to the organization go on
  // (an id stored earlier, or by a concurrent request that committed first,
  // is a duplicate). An event rejected further down gives its key back.
  if (all.length === 0) return { accepted: 0, duplicates: 0, rejected };
  // One round trip claims the keys and reads the settings, the courses and
  // the variables of courses that exist.
  const externalIds = unique(all.map((c) => c.event.course.externalCourseId));
  const claimed = await claimBatch(
    tx,
    organizationId,
    scope.apiKeyId,
    all.map((c) => ({ eventId: c.event.id, occurredAt: c.at })),
    externalIds,
    uniqueBy(
      all.flatMap((c) =>
        c.event.type === 'variable.set'
          ? [{ externalCourseId: c.event.course.externalCourseId, name: c.event.variable.name }]
          : [],
      ),
      (p) => `${p.externalCourseId} ${p.name}`,
    ),
  );
  const { fresh, settings, courses: courseIds } = claimed;
  let candidates = all.filter((c) => fresh.has(c.event.id));
  const duplicates = all.length - candidates.length;
  if (candidates.length === 0) return { accepted: 0, duplicates, rejected };
  const release = async () => {
    if (rejected.length > 0) {
      await deleteEventKeys(
        tx,
        organizationId,
        rejected.flatMap((r) => (r.id === null ? [] : [r.id])),
      );
    }
  };

  // Courses: by external id among live courses; registered on first sight.
  const missingCourses = unique(candidates.map((c) => c.event.course.externalCourseId)).filter(
    (id) => !courseIds.has(id),
  );
  // Without auto-registration an unknown course is refused as not found below, not for the cap.
  const refusals = await admit(tx, {
    organizationId,
    newCourses: settings.autoRegister ? missingCourses : [],
    candidates,
  });
  candidates = candidates.filter((c) => {
    const reason = refusals.get(c);
    if (reason) reject(c, reason);
    return !reason;
  });
  const registrable = missingCourses.filter((id) =>
    candidates.some((c) => c.event.course.externalCourseId === id),
  );
  if (registrable.length > 0 && settings.autoRegister) {
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
    for (const [id, courseId] of await findLiveCourses(tx, organizationId, registrable)) {
      courseIds.set(id, courseId);
    }
  }
  candidates = candidates.filter((c) => {
    if (courseIds.has(c.event.course.externalCourseId)) return true;
    reject(c, INGESTION_MESSAGES.courseNotFound(c.event.course.externalCourseId));
    return false;
  });
  const courseOf = (c: Candidate) => courseIds.get(c.event.course.externalCourseId) as string;

  const variables = await resolveBatchVariables(
    tx,
    organizationId,
    candidates,
    courseOf,
    claimed.variables,
    settings.autoRegister,
  );
  const variableOf = (c: Candidate) =>
    c.event.type === 'variable.set'
      ? (variables.get(variableKey(courseOf(c), c.event.variable.name)) ?? null)
      : null;
  candidates = candidates.filter((c) => {
    if (c.event.type !== 'variable.set' || variableOf(c)) return true;
    reject(c, INGESTION_MESSAGES.variableNotFound(c.event.variable.name));
    return false;
  });
  await release();
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
  // Questions: found in the same round trip, registered on first sight.
  const questionKeys = uniqueBy(
    candidates.flatMap((c) =>
      c.event.type === 'question.answered'
        ? [
            {
              courseId: courseOf(c),
              interactionId: c.event.question.interactionId,
              question: c.event.question,
            },
          ]
        : [],
    ),
    (k) => questionKey(k.courseId, k.interactionId),
  );
  const { learners: learnerIds, questions: questionIds } = await upsertLearnersFindQuestions(
    tx,
    organizationId,
    [...learnerActivity].map(([email, value]) => ({ email, ...value })),
    questionKeys,
  );
  const learnerOf = (c: Candidate) => learnerIds.get(c.event.learner.email) as string;
  await registerQuestions(tx, organizationId, questionKeys, questionIds);
  const questionOf = (c: Candidate) =>
    c.event.type === 'question.answered'
      ? (questionIds.get(questionKey(courseOf(c), c.event.question.interactionId)) ?? null)
      : null;

  const accepted = candidates;

  const runOf = await resolveRuns(tx, organizationId, accepted, courseOf, learnerOf);

  const resolved: ResolvedEvent[] = accepted.map((c) => ({
    event: c.event,
    at: c.at,
    courseId: courseOf(c),
    learnerId: learnerOf(c),
    runId: runOf.get(c) ?? null,
    questionId: questionOf(c),
    variable: variableOf(c),
  }));
  const facts: Facts = { values: [], answers: [], runs: new Map() };
  for (const event of resolved) handlerFor(event.event).collect(facts, event);
  // The feed says which key sent events (rejections all happened above).
  const activity =
    (scope.source === 'api' || scope.source === 'xapi') && scope.apiKeyId
      ? [
          activityInsert(tx, {
            organizationId,
            actorUserId: null,
            kind: 'events.ingested',
            subjectType: 'api_key',
            subjectId: scope.apiKeyId,
            summary: `${accepted.length} ${accepted.length === 1 ? 'event' : 'events'} from ${scope.source === 'xapi' ? 'xAPI statements of ' : ''}API key "${settings.apiKeyName ?? 'deleted key'}"`,
            details: {
              accepted: accepted.length,
              duplicates,
              rejected: rejected.length,
              apiKeyId: scope.apiKeyId,
            },
          }),
        ]
      : [];
  await storeFacts(
    tx,
    organizationId,
    { source: scope.source, apiKeyId: scope.apiKeyId },
    {
      values: facts.values,
      answers: facts.answers,
      runOutcomes: [...facts.runs].map(([runId, outcome]) => ({
        runId,
        completedAt: outcome.completedAt ?? null,
        passed: outcome.passed?.passed ?? null,
        score: outcome.passed?.score ?? null,
        passMark: outcome.passed?.passMark ?? null,
        progressPercent: outcome.progressPercent ?? null,
        exitedAt: outcome.exitedAt ?? null,
      })),
      log: resolved.map((event, i) => toLogRow(event, accepted[i]?.extras ?? null)),
    },
    activity,
  );

  await scope.publish?.(tx, {
    type: 'learning-events.accepted',
    organizationId,
    eventIds: accepted.map((c) => c.event.id),
    source: scope.source,
  });

  return { accepted: accepted.length, duplicates, rejected };
}

/** One value a chatbot captured from a learner, as the chat service hands it over. */
export type ChatbotCapture = {
  /** The idempotency key: the same capture written twice is stored once. */
  eventId: string;
  chatbotId: string;
  chatbotVariableId: string;
  /** The variable's name, kept in the log so the event reads on its own. */
  variableName: string;
  value: string | number | boolean;
  at: Date;
  learner: { email: string; name: string | null };
  chatSessionId: string | null;
};

/** A conversation's start or end (every required value captured), for the log and the pipelines. */
export type ChatbotChatEvent = {
  eventId: string;
  type: 'chatbot.chat.started' | 'chatbot.chat.ended';
  chatbotId: string;
  chatSessionId: string;
  at: Date;
  learner: { email: string; name: string | null };
};

/**
 * The write path of chatbot captures, beside the course events' one and
 * sharing its parts: in the caller's transaction, claims the idempotency
 * keys, finds or creates the learner, logs the conversation's start and end
 * (`chatEvents`), stores each value in
 * `learner_chatbot_variable_values` (and in the course variables the chatbot
 * variable is mapped to), appends `chatbot.variable.captured` to the log and
 * publishes `learning-events.accepted`. A capture of a variable deleted
 * meanwhile is dropped. Learners are known by e-mail, so a value lands on the
 * same learner as their course data.
 */
export async function writeChatbotCaptures(
  tx: Database,
  scope: WriteScope,
  all: readonly ChatbotCapture[],
  allChatEvents: readonly ChatbotChatEvent[] = [],
): Promise<{ accepted: number; duplicates: number; learners: Map<string, string> }> {
  const { organizationId } = scope;
  const learners = new Map<string, string>();
  if (all.length === 0 && allChatEvents.length === 0) return { accepted: 0, duplicates: 0, learners };
  const claimed = await claimBatch(
    tx,
    organizationId,
    null,
    [...all, ...allChatEvents].map((c) => ({ eventId: c.eventId, occurredAt: c.at })),
    [],
    [],
  );
  const fresh = all.filter((c) => claimed.fresh.has(c.eventId));
  const chatEvents = allChatEvents.filter((e) => claimed.fresh.has(e.eventId));
  const duplicates = all.length + allChatEvents.length - fresh.length - chatEvents.length;
  const targets = new Map(
    (await findChatbotVariableTargets(tx, organizationId, unique(fresh.map((c) => c.chatbotVariableId)))).map(
      (t) => [t.id, t],
    ),
  );
  const gone = fresh.filter((c) => !targets.has(c.chatbotVariableId));
  await deleteEventKeys(
    tx,
    organizationId,
    gone.map((c) => c.eventId),
  );
  const captures = fresh.filter((c) => targets.has(c.chatbotVariableId));
  if (captures.length === 0 && chatEvents.length === 0) return { accepted: 0, duplicates, learners };

  // A conversation cannot leave part of itself behind: a new learner past
  // the learner cap (after its grace period) fails the whole turn, with the reason.
  const admission = await admitNewLearners(
    tx,
    organizationId,
    [...captures, ...chatEvents].map((c) => c.learner.email),
  );
  if (admission.refused.size > 0) throw new AppError('PLAN_LIMIT_REACHED', admission.reason);

  const activity = new Map<string, { name: string | null; lastActivityAt: Date }>();
  for (const { learner, at } of [...captures, ...chatEvents]) {
    const current = activity.get(learner.email);
    if (!current) activity.set(learner.email, { name: learner.name, lastActivityAt: at });
    else if (at > current.lastActivityAt) current.lastActivityAt = at;
  }
  const upserted = await upsertLearnersFindQuestions(
    tx,
    organizationId,
    [...activity].map(([email, value]) => ({ email, ...value })),
    [],
  );
  for (const [email, id] of upserted.learners) learners.set(email, id);
  const learnerOf = (c: { learner: { email: string } }) => upserted.learners.get(c.learner.email) as string;

  const chatbotValues: ChatbotValueRow[] = [];
  const values: ValueRow[] = [];
  const log: LogRow[] = [];
  for (const capture of captures) {
    const target = targets.get(capture.chatbotVariableId);
    if (!target) continue;
    const storedType: VariableDataType =
      target.dataType === 'choice' ? 'text' : (target.dataType as VariableDataType);
    chatbotValues.push({
      chatbotVariableId: capture.chatbotVariableId,
      learnerId: learnerOf(capture),
      chatSessionId: capture.chatSessionId,
      ...toTypedValue(storedType, capture.value),
      recordedAt: capture.at,
    });
    for (const destination of target.destinations) {
      values.push({
        variableId: destination.variableId,
        learnerId: learnerOf(capture),
        courseId: destination.courseId,
        courseRunId: null,
        ...toTypedValue(destination.dataType, capture.value),
        recordedAt: capture.at,
      });
    }
    log.push({
      eventId: capture.eventId,
      type: 'chatbot.variable.captured',
      occurredAt: capture.at,
      courseId: null,
      learnerId: learnerOf(capture),
      runId: null,
      slideNumber: null,
      slideTitle: null,
      scene: null,
      questionId: null,
      variableId: null,
      chatbotVariableId: capture.chatbotVariableId,
      value: JSON.stringify(capture.value),
      correct: null,
      points: null,
      score: null,
      passMark: null,
      percent: null,
      seconds: null,
      extras: JSON.stringify({
        chatbotId: capture.chatbotId,
        chatSessionId: capture.chatSessionId,
        variable: capture.variableName,
      }),
    });
  }
  for (const event of chatEvents) {
    log.push({
      eventId: event.eventId,
      type: event.type,
      occurredAt: event.at,
      courseId: null,
      learnerId: learnerOf(event),
      runId: null,
      slideNumber: null,
      slideTitle: null,
      scene: null,
      questionId: null,
      variableId: null,
      chatbotVariableId: null,
      value: null,
      correct: null,
      points: null,
      score: null,
      passMark: null,
      percent: null,
      seconds: null,
      extras: JSON.stringify({ chatbotId: event.chatbotId, chatSessionId: event.chatSessionId }),
    });
  }
  await storeFacts(
    tx,
    organizationId,
    { source: scope.source, apiKeyId: scope.apiKeyId },
    { values, chatbotValues, answers: [], runOutcomes: [], log },
  );
  await scope.publish?.(tx, {
    type: 'learning-events.accepted',
    organizationId,
    eventIds: log.map((row) => row.eventId),
    source: scope.source,
  });
  return { accepted: log.length, duplicates, learners };
}

function toLogRow(resolved: ResolvedEvent, extras: Record<string, unknown> | null): LogRow {
  const detail = handlerFor(resolved.event).log(resolved.event);
  return {
    eventId: resolved.event.id,
    type: resolved.event.type,
    occurredAt: resolved.at,
    courseId: resolved.courseId,
    learnerId: resolved.learnerId,
    runId: resolved.runId,
    slideNumber: detail.slideNumber ?? null,
    slideTitle: detail.slideTitle ?? null,
    scene: detail.scene ?? null,
    questionId: resolved.questionId,
    variableId: resolved.variable?.variableId ?? null,
    chatbotVariableId: null,
    value: detail.value === undefined || detail.value === null ? null : JSON.stringify(detail.value),
    correct: detail.correct ?? null,
    points: detail.points ?? null,
    score: detail.score ?? null,
    passMark: detail.passMark ?? null,
    percent: detail.percent ?? null,
    seconds: detail.seconds ?? null,
    extras: extras ? JSON.stringify(extras) : null,
  };
}

const variableKey = (courseId: string, name: string) => `${courseId} ${name}`;

/**
 * Variables: a course's mapping for the name, else the course's variable of
 * that name (registered on first sight). `known` holds those already
 * resolved with the batch's first round trip.
 */
async function resolveBatchVariables(
  tx: Database,
  organizationId: string,
  candidates: readonly Candidate[],
  courseOf: (c: Candidate) => string,
  known: readonly ResolvedVariable[],
  autoRegister: boolean,
): Promise<Map<string, ResolvedVariable>> {
  const variables = new Map<string, ResolvedVariable>();
  const variableEvents = candidates.flatMap((c) =>
    c.event.type === 'variable.set'
      ? [{ courseId: courseOf(c), name: c.event.variable.name, value: c.event.variable.value }]
      : [],
  );
  if (variableEvents.length === 0) return variables;
  const pairs = uniqueBy(variableEvents, (p) => variableKey(p.courseId, p.name));
  const addResolved = (rows: ResolvedVariable[]) => {
    for (const row of rows) variables.set(variableKey(row.courseId, row.name), row);
  };
  addResolved([...known]);
  const missing = pairs.filter((p) => !variables.has(variableKey(p.courseId, p.name)));
  if (missing.length > 0 && autoRegister) {
    // uniqueBy keeps the first event of each pair: its value decides the type.
    await insertVariables(
      tx,
      organizationId,
      missing.map((p) => ({ courseId: p.courseId, name: p.name, dataType: inferDataType(p.value) })),
    );
    addResolved(await resolveVariables(tx, organizationId, missing));
  }
  return variables;
}

/** Registers the questions a batch answers for the first time, with the numbers and text of their first answer. */
async function registerQuestions(
  tx: Database,
  organizationId: string,
  keys: readonly (QuestionKey & { question: QuestionDetail })[],
  questionIds: Map<string, string>,
): Promise<void> {
  const missing = keys.filter((k) => !questionIds.has(questionKey(k.courseId, k.interactionId)));
  if (missing.length === 0) return;
  await insertQuestions(
    tx,
    organizationId,
    missing.map(({ courseId, interactionId, question: q }) => ({
      courseId,
      interactionId,
      slideNumber: q.slideNumber ?? null,
      questionNumber: q.questionNumber ?? null,
      text: q.text ?? null,
      correctAnswer: q.correctAnswer ?? null,
    })),
  );
  for (const [key, id] of await findQuestions(tx, organizationId, missing)) questionIds.set(key, id);
}

type QuestionDetail = Extract<IngestionEvent, { type: 'question.answered' }>['question'];

/**
 * Runs: named ones (the tracker's run id) exist once; a course.started
 * without a name starts one; other unnamed events attach to the learner's
 * current run; a completion with no run records the attempt it ends.
 */
async function resolveRuns(
  tx: Database,
  organizationId: string,
  accepted: readonly Candidate[],
  courseOf: (c: Candidate) => string,
  learnerOf: (c: Candidate) => string,
): Promise<Map<Candidate, string | null>> {
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
      .filter((c) => handlerFor(c.event).startsRun && c.event.run === undefined)
      .map((c) => ({ courseId: courseOf(c), learnerId: learnerOf(c), startedAt: c.at })),
  );
  const runOf = new Map<Candidate, string | null>();
  const unnamed = accepted.filter((c) => c.event.run === undefined);
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

  const orphans = accepted.filter((c) => handlerFor(c.event).needsRun && !runOf.get(c));
  if (orphans.length > 0) {
    const ids = await ensureNamedRuns(
      tx,
      organizationId,
      orphans.map((c) => ({
        courseId: courseOf(c),
        learnerId: learnerOf(c),
        clientRunId: `completion:${c.event.id}`,
        startedAt: c.at,
      })),
    );
    for (const c of orphans) {
      runOf.set(c, ids.get(runKey(courseOf(c), learnerOf(c), `completion:${c.event.id}`)) ?? null);
    }
  }
  return runOf;
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

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}
