import {
  INGESTION_MESSAGES,
  type IngestEventsResponse,
  type IngestionEventInput,
} from '@courselens/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCourse, insertLearner, insertVariable } from '../../db/factories/learning';
import {
  activityEvents,
  apiKeys,
  courseRunQuestions,
  courseRuns,
  courses,
  courseVariableMappings,
  learningEventKeys,
  learners,
  learnerVariableValues,
  organizations,
  questions,
  variables,
} from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { changePlanViaApi, signUpViaApi, type SignedUp } from '../../test/auth';
import { ensureNamedRuns, runKey } from './ingestion.queries';
import { inferDataType, isRetryable } from './ingestion.service';

let testApp: TestApp;
let owner: SignedUp;
let ingestKey: { id: string; key: string };
let secondKey: { id: string; key: string };

const db = () => testApp.database.db;
const inject = (options: InjectOptions) => testApp.app.inject(options);
let sequence = 0;
const uid = (prefix: string) => `${prefix}-${process.pid}-${++sequence}`;

async function createKey(
  who: SignedUp,
  payload: Record<string, unknown>,
): Promise<{ id: string; key: string }> {
  const response = await inject({ method: 'POST', url: '/api/api-keys', headers: who.headers, payload });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: string; key: string }>();
}

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  // More courses than Free allows; the caps have their own tests (billing).
  await changePlanViaApi(testApp.app, owner);
  ingestKey = await createKey(owner, { name: 'LMS', scope: 'ingest' });
  secondKey = await createKey(owner, { name: 'Warehouse', scope: 'ingest' });
});

afterAll(async () => {
  await testApp.close();
});

function post(payload: unknown, key: string | null = ingestKey.key, headers: Record<string, string> = {}) {
  return inject({
    method: 'POST',
    url: '/api/v1/events',
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    payload: payload as InjectOptions['payload'],
  });
}

async function send(events: unknown[], key: string = ingestKey.key): Promise<IngestEventsResponse> {
  const response = await post({ events }, key);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<IngestEventsResponse>();
}

type Names = { course: string; email: string };
function started(names: Names, extra: Partial<IngestionEventInput> = {}): IngestionEventInput {
  return {
    id: uid('evt'),
    type: 'course.started',
    course: { externalCourseId: names.course, title: `Title of ${names.course}` },
    learner: { email: names.email, name: 'Ada Lovelace' },
    ...extra,
  } as IngestionEventInput;
}
function variableSet(names: Names, name: string, value: unknown, extra: Record<string, unknown> = {}) {
  return {
    id: uid('evt'),
    type: 'variable.set',
    course: { externalCourseId: names.course },
    learner: { email: names.email },
    variable: { name, value },
    ...extra,
  };
}
function answered(names: Names, question: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    id: uid('evt'),
    type: 'question.answered',
    course: { externalCourseId: names.course },
    learner: { email: names.email },
    question,
    ...extra,
  };
}
function completed(names: Names, extra: Record<string, unknown> = {}) {
  return {
    id: uid('evt'),
    type: 'course.completed',
    course: { externalCourseId: names.course },
    learner: { email: names.email },
    ...extra,
  };
}
const fresh = (): Names => ({ course: uid('course'), email: `${uid('learner')}@example.com` });
const orgId = () => owner.organization.id;

async function courseByExternalId(externalId: string) {
  const rows = await db()
    .select()
    .from(courses)
    .where(and(eq(courses.organizationId, orgId()), eq(courses.externalCourseId, externalId)));
  return rows;
}
async function learnerByEmail(email: string) {
  const [row] = await db()
    .select()
    .from(learners)
    .where(and(eq(learners.organizationId, orgId()), eq(learners.email, email.toLowerCase())));
  return row;
}
async function count(
  table:
    | 'learning_event_keys'
    | 'learning_events'
    | 'learner_variable_values'
    | 'course_runs'
    | 'course_run_questions',
) {
  const result = await db().execute<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(table)} where organization_id = ${orgId()}`,
  );
  return result.rows[0]?.n ?? 0;
}
async function snapshot() {
  return {
    events: await count('learning_event_keys'),
    log: await count('learning_events'),
    values: await count('learner_variable_values'),
    runs: await count('course_runs'),
    answers: await count('course_run_questions'),
  };
}

describe('POST /api/v1/events', () => {
  it('stores a course start, a value, an answer and a completion, creating what it sees first', async () => {
    const names = fresh();
    const at = '2026-03-01T10:00:00.000Z';
    const result = await send([
      started(names, { timestamp: at, run: 'attempt-1' }),
      variableSet(names, 'final_score', 87.5, { run: 'attempt-1', timestamp: '2026-03-01T10:05:00Z' }),
      answered(
        names,
        {
          interactionId: 'q-capital',
          slideNumber: 3,
          questionNumber: 1,
          text: 'Capital of France?',
          answer: 'Paris',
          correct: true,
          correctAnswer: 'Paris',
          points: 10,
        },
        { run: 'attempt-1', timestamp: '2026-03-01T10:06:00Z' },
      ),
      completed(names, { run: 'attempt-1', timestamp: '2026-03-01T10:30:00Z' }),
    ]);
    expect(result).toEqual({ accepted: 4, duplicates: 0, rejected: [] });

    const [course] = await courseByExternalId(names.course);
    expect(course).toMatchObject({ courseTitle: `Title of ${names.course}`, isDeleted: false });
    const learner = await learnerByEmail(names.email);
    expect(learner).toMatchObject({ name: 'Ada Lovelace', email: names.email });
    expect(learner?.lastActivityAt?.toISOString()).toBe('2026-03-01T10:30:00.000Z');

    const runs = await db().select().from(courseRuns).where(eq(courseRuns.learnerId, learner!.id));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ clientRunId: 'attempt-1', courseId: course!.id });
    expect(runs[0]?.startedAt.toISOString()).toBe(at);
    expect(runs[0]?.completedAt?.toISOString()).toBe('2026-03-01T10:30:00.000Z');

    const [variable] = await db().select().from(variables).where(eq(variables.courseId, course!.id));
    expect(variable).toMatchObject({ name: 'final_score', dataType: 'number', active: true });
    const [value] = await db()
      .select()
      .from(learnerVariableValues)
      .where(eq(learnerVariableValues.variableId, variable!.id));
    expect(value).toMatchObject({
      value: '87.5',
      valueNumber: 87.5,
      learnerId: learner!.id,
      courseId: course!.id,
      courseRunId: runs[0]!.id,
    });
    expect(value?.recordedAt.toISOString()).toBe('2026-03-01T10:05:00.000Z');

    const [question] = await db().select().from(questions).where(eq(questions.courseId, course!.id));
    expect(question).toMatchObject({
      interactionId: 'q-capital',
      slideNumber: 3,
      questionNumber: 1,
      questionText: 'Capital of France?',
      correctAnswer: 'Paris',
      active: true,
    });
    const [answer] = await db()
      .select()
      .from(courseRunQuestions)
      .where(eq(courseRunQuestions.questionId, question!.id));
    expect(answer).toMatchObject({
      answerChoice: 'Paris',
      correct: true,
      pointsAssigned: 10,
      slideNumber: 3,
      questionNumber: 1,
      questionText: 'Capital of France?',
      courseRunId: runs[0]!.id,
      learnerId: learner!.id,
    });
  });

  it('counts an id sent again, in the same batch or a later one, as a duplicate that changes nothing', async () => {
    const names = fresh();
    const first = started(names, { run: 'r1' });
    const value = variableSet(names, 'score', 10, { run: 'r1' });
    expect(await send([first, value, { ...value, variable: { name: 'score', value: 99 } }])).toEqual({
      accepted: 2,
      duplicates: 1,
      rejected: [],
    });
    const before = await snapshot();
    expect(await send([first, { ...value, variable: { name: 'score', value: 50 } }])).toEqual({
      accepted: 0,
      duplicates: 2,
      rejected: [],
    });
    expect(await snapshot()).toEqual(before);
    const learner = await learnerByEmail(names.email);
    const values = await db()
      .select({ valueNumber: learnerVariableValues.valueNumber })
      .from(learnerVariableValues)
      .where(eq(learnerVariableValues.learnerId, learner!.id));
    expect(values).toEqual([{ valueNumber: 10 }]);
  });

  it('rejects a bad event with its index, id and a message, and stores the others', async () => {
    const names = fresh();
    const good = started(names);
    const result = await send([
      { ...started(names), learner: { email: 'not-an-email' } },
      good,
      'not an object',
      { ...started(names), type: 'course.paused' },
      { ...variableSet(names, 'x', 1), variable: undefined },
      { ...started(names), id: '' },
      { ...started(names), timestamp: 'yesterday' },
      { ...started(names), id: 'x'.repeat(129) },
      { ...variableSet(names, 'x', { nested: true }) },
    ]);
    expect(result.accepted).toBe(1);
    expect(result.duplicates).toBe(0);
    expect(result.rejected).toEqual([
      { index: 0, id: expect.any(String), error: 'learner.email must be an e-mail address' },
      { index: 2, id: null, error: 'An event must be a JSON object' },
      {
        index: 3,
        id: expect.any(String),
        error:
          'type must be one of course.started, slide.viewed, variable.set, question.answered, course.progressed, ' +
          'course.passed, course.failed, course.exited, course.completed',
      },
      { index: 4, id: expect.any(String), error: expect.stringContaining('variable') },
      { index: 5, id: null, error: 'id must be a string of 1 to 128 characters' },
      {
        index: 6,
        id: expect.any(String),
        error: 'timestamp must be an ISO 8601 date-time such as 2026-01-31T09:30:00Z',
      },
      { index: 7, id: null, error: 'id must be a string of 1 to 128 characters' },
      {
        index: 8,
        id: expect.any(String),
        error: 'variable.value must be a string, number, boolean or null (strings up to 10000 characters)',
      },
    ]);
    const stored = await db()
      .select({ eventId: learningEventKeys.eventId })
      .from(learningEventKeys)
      .where(eq(learningEventKeys.eventId, good.id));
    expect(stored).toHaveLength(1);
  });
});

describe('authentication, CORS and beacons', () => {
  it('answers 401 without a key, with an unknown one, and a session token is no API key', async () => {
    const body = { events: [started(fresh())] };
    for (const key of [null, 'cl_unknown', owner.token]) {
      const response = await post(body, key);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Invalid or expired API key', code: 'UNAUTHENTICATED' });
    }
  });

  it('allows any origin on /api/v1 (with a preflight) and none on the rest of /api', async () => {
    const preflight = await inject({
      method: 'OPTIONS',
      url: '/api/v1/events',
      headers: {
        origin: 'https://lms.example.org',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toBe('Authorization, Content-Type');
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');

    const ok = await post({ events: [started(fresh())] }, ingestKey.key, {
      origin: 'https://lms.example.org',
    });
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    const denied = await post({ events: [started(fresh())] }, null, { origin: 'https://lms.example.org' });
    expect(denied.statusCode).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe('*');

    const me = await inject({
      method: 'GET',
      url: '/api/me',
      headers: { ...owner.headers, origin: 'https://lms.example.org' },
    });
    expect(me.statusCode).toBe(200);
    expect(me.headers['access-control-allow-origin']).toBeUndefined();
    const mePreflight = await inject({
      method: 'OPTIONS',
      url: '/api/me',
      headers: { origin: 'https://lms.example.org', 'access-control-request-method': 'GET' },
    });
    expect(mePreflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('takes the key from a text/plain beacon body when there is no Authorization header', async () => {
    const names = fresh();
    const event = started(names);
    const response = await inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify({ key: ingestKey.key, events: [event] }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ accepted: 1, duplicates: 0, rejected: [] });

    const wrongKey = await inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ key: 'cl_nope', events: [started(names)] }),
    });
    expect(wrongKey.statusCode).toBe(401);
  });
});

describe('helpers', () => {
  it('infers a new variable type from its first value', () => {
    expect(inferDataType(3)).toBe('number');
    expect(inferDataType(false)).toBe('boolean');
    expect(inferDataType('2026-01-02')).toBe('date');
    expect(inferDataType('2026-01-02T03:04:05Z')).toBe('date');
    expect(inferDataType('85')).toBe('text');
    expect(inferDataType(null)).toBe('text');
  });

  it('retries deadlocks and serialization failures only', () => {
    expect(isRetryable({ code: '40P01' })).toBe(true);
    expect(isRetryable(new Error('wrapped', { cause: { code: '40001' } }))).toBe(true);
    expect(isRetryable({ code: '23505' })).toBe(false);
  });
});

describe('request shape and limits', () => {
  it('answers 400 for a body that is not {"events": [1 to 1000 events]} and stores nothing', async () => {
    const before = await snapshot();
    const cases: [unknown, string][] = [
      [undefined, 'The body must be a JSON object with an events array'],
      [[started(fresh())], 'The body must be a JSON object with an events array'],
      [{}, 'events must be an array of 1 to 1000 events'],
      [{ events: 'many' }, 'events must be an array of 1 to 1000 events'],
      [{ events: [] }, 'events must hold 1 to 1000 events'],
      [{ events: Array.from({ length: 1001 }, () => started(fresh())) }, 'events must hold 1 to 1000 events'],
    ];
    for (const [payload, error] of cases) {
      const response =
        payload === undefined
          ? await inject({
              method: 'POST',
              url: '/api/v1/events',
              headers: { authorization: `Bearer ${ingestKey.key}`, 'content-type': 'application/json' },
            })
          : await post(payload);
      expect(response.statusCode, JSON.stringify(payload)?.slice(0, 80)).toBe(400);
      expect(response.json()).toMatchObject({ error, code: 'VALIDATION_ERROR' });
    }
    const badJson = await inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${ingestKey.key}`, 'content-type': 'application/json' },
      payload: '{"events": [',
    });
    expect(badJson.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('accepts 1000 events in one request', async () => {
    const names = fresh();
    const events = Array.from({ length: 1000 }, (_, i) =>
      variableSet({ course: names.course, email: `bulk-${i % 250}-${names.email}` }, `v${i % 4}`, i),
    );
    expect(await send(events)).toEqual({ accepted: 1000, duplicates: 0, rejected: [] });
    const [course] = await courseByExternalId(names.course);
    const learnerCount = await db().execute<{ n: number }>(
      sql`select count(distinct learner_id)::int as n from learner_variable_values where course_id = ${course!.id}`,
    );
    expect(learnerCount.rows[0]?.n).toBe(250);
  });

  it('answers 413 for a body over 1 MB and stores nothing', async () => {
    const before = await snapshot();
    const event = { ...variableSet(fresh(), 'essay', 'x'.repeat(9_000)) };
    const events = Array.from({ length: 120 }, () => ({ ...event, id: uid('big') }));
    const payload = JSON.stringify({ events });
    expect(payload.length).toBeGreaterThan(1_048_576);
    const response = await inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${ingestKey.key}`, 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await snapshot()).toEqual(before);
  });
});

describe('learners, runs and values', () => {
  it('finds a learner by e-mail without case and keeps last_activity_at at the latest event', async () => {
    const names = fresh();
    const upper = { ...names, email: names.email.toUpperCase() };
    await send([started(upper, { timestamp: '2026-05-02T08:00:00Z' })]);
    await send([variableSet(names, 'score', 1, { timestamp: '2026-05-01T08:00:00Z' })]);
    const rows = await db()
      .select()
      .from(learners)
      .where(
        and(eq(learners.organizationId, orgId()), sql`${learners.email} = ${names.email.toLowerCase()}`),
      );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.lastActivityAt?.toISOString()).toBe('2026-05-02T08:00:00.000Z');
    await send([completed(upper, { timestamp: '2026-05-03T09:00:00Z' })]);
    expect((await learnerByEmail(names.email))?.lastActivityAt?.toISOString()).toBe(
      '2026-05-03T09:00:00.000Z',
    );
    // A rejected event moves nothing.
    const rejected = await send([{ ...started(names), timestamp: 'soon' }]);
    expect(rejected.accepted).toBe(0);
    expect((await learnerByEmail(names.email))?.lastActivityAt?.toISOString()).toBe(
      '2026-05-03T09:00:00.000Z',
    );
  });

  it('starts a run per unnamed course.started and attaches unnamed events to the current run', async () => {
    const names = fresh();
    await send([
      started(names, { timestamp: '2026-06-01T08:00:00Z' }),
      variableSet(names, 'progress', 10, { timestamp: '2026-06-01T08:10:00Z' }),
    ]);
    await send([
      started(names, { timestamp: '2026-06-02T08:00:00Z' }),
      variableSet(names, 'progress', 20, { timestamp: '2026-06-02T08:10:00Z' }),
      completed(names, { timestamp: '2026-06-02T09:00:00Z' }),
    ]);
    const learner = await learnerByEmail(names.email);
    const runs = await db()
      .select()
      .from(courseRuns)
      .where(eq(courseRuns.learnerId, learner!.id))
      .orderBy(courseRuns.startedAt);
    expect(runs.map((r) => [r.clientRunId, r.completedAt?.toISOString() ?? null])).toEqual([
      [null, null],
      [null, '2026-06-02T09:00:00.000Z'],
    ]);
    const values = await db()
      .select({ runId: learnerVariableValues.courseRunId, n: learnerVariableValues.valueNumber })
      .from(learnerVariableValues)
      .where(eq(learnerVariableValues.learnerId, learner!.id))
      .orderBy(learnerVariableValues.recordedAt);
    expect(values).toEqual([
      { runId: runs[0]!.id, n: 10 },
      { runId: runs[1]!.id, n: 20 },
    ]);
  });

  it('reuses a named run across batches and moves its start back for a late earlier event', async () => {
    const names = fresh();
    await send([variableSet(names, 'p', 1, { run: 'A', timestamp: '2026-07-01T10:00:00Z' })]);
    await send([started(names, { run: 'A', timestamp: '2026-07-01T09:00:00Z' })]);
    await send([completed(names, { run: 'A', timestamp: '2026-07-01T11:00:00Z' })]);
    await send([completed(names, { run: 'A', timestamp: '2026-07-01T12:00:00Z' })]);
    const learner = await learnerByEmail(names.email);
    const runs = await db().select().from(courseRuns).where(eq(courseRuns.learnerId, learner!.id));
    expect(runs).toHaveLength(1);
    expect(runs[0]?.startedAt.toISOString()).toBe('2026-07-01T09:00:00.000Z');
    expect(runs[0]?.completedAt?.toISOString()).toBe('2026-07-01T11:00:00.000Z');
  });

  it("types each value by its variable's data type", async () => {
    const course = await insertCourse(db(), { organizationId: orgId() });
    const names = { course: course.externalCourseId!, email: fresh().email };
    const make = (name: string, dataType: 'number' | 'text' | 'boolean' | 'date') =>
      insertVariable(db(), { organizationId: orgId(), courseId: course.id, name, dataType });
    const number = await make('score', 'number');
    const bool = await make('passed', 'boolean');
    const date = await make('finished_on', 'date');
    const text = await make('comment', 'text');
    await send([
      variableSet(names, 'score', '42', { timestamp: '2026-01-01T00:00:01Z' }),
      variableSet(names, 'score', 'n/a', { timestamp: '2026-01-01T00:00:02Z' }),
      variableSet(names, 'score', null, { timestamp: '2026-01-01T00:00:03Z' }),
      variableSet(names, 'passed', 'yes'),
      variableSet(names, 'passed', false),
      variableSet(names, 'finished_on', '2026-02-03'),
      variableSet(names, 'comment', 5),
    ]);
    const rows = async (variableId: string) =>
      db()
        .select({
          value: learnerVariableValues.value,
          valueNumber: learnerVariableValues.valueNumber,
          valueBoolean: learnerVariableValues.valueBoolean,
          valueDate: learnerVariableValues.valueDate,
        })
        .from(learnerVariableValues)
        .where(eq(learnerVariableValues.variableId, variableId))
        .orderBy(learnerVariableValues.recordedAt, learnerVariableValues.value);
    expect(await rows(number.id)).toEqual([
      { value: '42', valueNumber: 42, valueBoolean: null, valueDate: null },
      { value: 'n/a', valueNumber: null, valueBoolean: null, valueDate: null },
      { value: null, valueNumber: null, valueBoolean: null, valueDate: null },
    ]);
    expect((await rows(bool.id)).map((r) => r.valueBoolean).sort()).toEqual([false, true]);
    expect(await rows(date.id)).toEqual([
      {
        value: '2026-02-03T00:00:00.000Z',
        valueNumber: null,
        valueBoolean: null,
        valueDate: new Date('2026-02-03T00:00:00.000Z'),
      },
    ]);
    expect(await rows(text.id)).toEqual([
      { value: '5', valueNumber: null, valueBoolean: null, valueDate: null },
    ]);
    // Numeric aggregation runs in SQL on the typed column.
    const avg = await db().execute<{ avg: number }>(
      sql`select avg(value_number)::float8 as avg from learner_variable_values where variable_id = ${number.id}`,
    );
    expect(avg.rows[0]?.avg).toBe(42);
  });

  it('registers a variable on first sight with the type of its first value', async () => {
    const names = fresh();
    await send([
      variableSet(names, 'count', 3),
      variableSet(names, 'ok', true),
      variableSet(names, 'when', '2026-04-05T06:07:08Z'),
      variableSet(names, 'label', 'hello'),
    ]);
    const [course] = await courseByExternalId(names.course);
    const rows = await db()
      .select({ name: variables.name, dataType: variables.dataType })
      .from(variables)
      .where(eq(variables.courseId, course!.id))
      .orderBy(variables.name);
    expect(rows).toEqual([
      { name: 'count', dataType: 'number' },
      { name: 'label', dataType: 'text' },
      { name: 'ok', dataType: 'boolean' },
      { name: 'when', dataType: 'date' },
    ]);
  });

  it("writes a mapped source name into the mapping's destination variable", async () => {
    const source = await insertCourse(db(), { organizationId: orgId() });
    const target = await insertCourse(db(), { organizationId: orgId() });
    const destination = await insertVariable(db(), {
      organizationId: orgId(),
      courseId: target.id,
      name: 'final_score',
      dataType: 'number',
    });
    await db().insert(courseVariableMappings).values({
      organizationId: orgId(),
      courseId: source.id,
      sourceVariableName: 'Score1',
      destinationVariableId: destination.id,
    });
    const names = { course: source.externalCourseId!, email: fresh().email };
    expect(await send([variableSet(names, 'Score1', '77')])).toMatchObject({ accepted: 1 });
    const values = await db()
      .select()
      .from(learnerVariableValues)
      .where(eq(learnerVariableValues.variableId, destination.id));
    expect(values).toHaveLength(1);
    expect(values[0]).toMatchObject({ valueNumber: 77, courseId: target.id });
    // No variable named Score1 was registered on the source course.
    const sourceVariables = await db().select().from(variables).where(eq(variables.courseId, source.id));
    expect(sourceVariables).toEqual([]);
  });

  it('keeps a question registered once per course and interaction id', async () => {
    const names = fresh();
    const q = {
      interactionId: 'q1',
      slideNumber: 2,
      questionNumber: 4,
      text: 'Pick one',
      correctAnswer: 'B',
    };
    await send([
      answered(names, { ...q, answer: 'A', correct: false, points: 0 }),
      answered({ ...names, email: fresh().email }, { ...q, answer: 'B', correct: true, points: 5 }),
    ]);
    await send([answered(names, { interactionId: 'q1', answer: 'B', correct: true })]);
    const [course] = await courseByExternalId(names.course);
    const rows = await db().select().from(questions).where(eq(questions.courseId, course!.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      slideNumber: 2,
      questionNumber: 4,
      questionText: 'Pick one',
      correctAnswer: 'B',
    });
    const answers = await db()
      .select()
      .from(courseRunQuestions)
      .where(eq(courseRunQuestions.questionId, rows[0]!.id));
    expect(answers).toHaveLength(3);
  });

  it('registers a new course when the one with that external id was deleted', async () => {
    const names = fresh();
    await send([started(names)]);
    const [first] = await courseByExternalId(names.course);
    await db()
      .update(courses)
      .set({ isDeleted: true, deletedAt: new Date() })
      .where(eq(courses.id, first!.id));
    await send([started(names)]);
    const all = await courseByExternalId(names.course);
    expect(all).toHaveLength(2);
    expect(all.filter((c) => !c.isDeleted)).toHaveLength(1);
  });
});

describe('auto-register off', () => {
  let other: SignedUp;
  let key: string;
  beforeAll(async () => {
    other = await signUpViaApi(testApp.app);
    key = (await createKey(other, { name: 'Strict', scope: 'ingest' })).key;
    await db()
      .update(organizations)
      .set({ autoRegister: false })
      .where(eq(organizations.id, other.organization.id));
  });

  it("rejects unknown courses and variables with the spec's messages and stores known ones", async () => {
    const course = await insertCourse(db(), {
      organizationId: other.organization.id,
      externalCourseId: 'known-1',
    });
    await insertVariable(db(), {
      organizationId: other.organization.id,
      courseId: course.id,
      name: 'score',
      dataType: 'number',
    });
    const known = { course: 'known-1', email: 'pat@example.com' };
    const result = await send(
      [
        started({ course: 'ghost-course', email: 'pat@example.com' }),
        variableSet(known, 'score', 3),
        variableSet(known, 'mystery', 1),
        answered(known, { interactionId: 'q-new', answer: 'A' }),
        variableSet({ course: 'ghost-course', email: 'pat@example.com' }, 'score', 1),
      ],
      key,
    );
    expect(result).toEqual({
      accepted: 2,
      duplicates: 0,
      rejected: [
        { index: 0, id: expect.any(String), error: 'Course with externalCourseId ghost-course not found' },
        { index: 2, id: expect.any(String), error: 'Variable with name mystery not found' },
        { index: 4, id: expect.any(String), error: 'Course with externalCourseId ghost-course not found' },
      ],
    });
    const orgCourses = await db()
      .select()
      .from(courses)
      .where(eq(courses.organizationId, other.organization.id));
    expect(orgCourses.map((c) => c.externalCourseId)).toEqual(['known-1']);
    const orgVariables = await db()
      .select({ name: variables.name })
      .from(variables)
      .where(eq(variables.organizationId, other.organization.id));
    expect(orgVariables).toEqual([{ name: 'score' }]);
    // A rejected event, the same id and all, can be sent again once its course exists.
    const ghost = started({ course: 'ghost-course', email: 'pat@example.com' });
    const retried = await send([ghost], key);
    expect(retried.rejected).toHaveLength(1);
    await insertCourse(db(), { organizationId: other.organization.id, externalCourseId: 'ghost-course' });
    expect(await send([ghost], key)).toMatchObject({ accepted: 1, duplicates: 0 });
    expect(await send([ghost], key)).toMatchObject({ accepted: 0, duplicates: 1 });
  });

  it('accepts a mapped name even without a variable of that name', async () => {
    const course = await insertCourse(db(), { organizationId: other.organization.id });
    const destination = await insertVariable(db(), {
      organizationId: other.organization.id,
      courseId: course.id,
      name: 'grade',
      dataType: 'text',
    });
    await db().insert(courseVariableMappings).values({
      organizationId: other.organization.id,
      courseId: course.id,
      sourceVariableName: 'Grade_Text',
      destinationVariableId: destination.id,
    });
    const result = await send(
      [variableSet({ course: course.externalCourseId!, email: 'kim@example.com' }, 'Grade_Text', 'A+')],
      key,
    );
    expect(result).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
  });
});

describe('concurrency', () => {
  it('stores two parallel batches sharing new learners and courses once each', async () => {
    const shared = Array.from({ length: 5 }, () => fresh());
    const batch = () =>
      shared.flatMap((names) => [
        started(names),
        variableSet(names, 'score', 1),
        answered(names, { interactionId: 'q' }),
      ]);
    const [a, b] = await Promise.all([send(batch()), send(batch())]);
    expect(a).toEqual({ accepted: 15, duplicates: 0, rejected: [] });
    expect(b).toEqual({ accepted: 15, duplicates: 0, rejected: [] });
    for (const names of shared) {
      expect(await courseByExternalId(names.course)).toHaveLength(1);
      expect(await learnerByEmail(names.email)).toBeDefined();
      const [course] = await courseByExternalId(names.course);
      expect(await db().select().from(variables).where(eq(variables.courseId, course!.id))).toHaveLength(1);
      expect(await db().select().from(questions).where(eq(questions.courseId, course!.id))).toHaveLength(1);
    }
  });

  it('accepts each event id once when the same batch is sent in parallel', async () => {
    const names = fresh();
    const events = [started(names, { run: 'p' }), variableSet(names, 'score', 5, { run: 'p' })];
    const results = await Promise.all([send(events), send(events), send(events)]);
    expect(results.reduce((sum, r) => sum + r.accepted, 0)).toBe(2);
    expect(results.reduce((sum, r) => sum + r.duplicates, 0)).toBe(4);
    const learner = await learnerByEmail(names.email);
    expect(await db().select().from(courseRuns).where(eq(courseRuns.learnerId, learner!.id))).toHaveLength(1);
    expect(
      await db().select().from(learnerVariableValues).where(eq(learnerVariableValues.learnerId, learner!.id)),
    ).toHaveLength(1);
  });
  it('finds a named run that a concurrent batch committed while this one waited on it, and moves its start back', async () => {
    const organizationId = orgId();
    const course = await insertCourse(db(), { organizationId });
    const learner = await insertLearner(db(), { organizationId });
    const run = (startedAt: string) => ({
      courseId: course.id,
      learnerId: learner.id,
      clientRunId: 'shared',
      startedAt: new Date(startedAt),
    });
    const key = runKey(course.id, learner.id, 'shared');
    let commitFirst!: () => void;
    const held = new Promise<void>((resolve) => (commitFirst = resolve));
    let firstId: string | undefined;
    const first = db().transaction(async (tx) => {
      firstId = (await ensureNamedRuns(tx, organizationId, [run('2026-03-02T10:00:00Z')])).get(key);
      await held;
    });
    while (firstId === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    // The second batch names the same run with an older event. On PostgreSQL
    // its insert waits on the first transaction's row; on PGlite (one
    // connection) the transactions take turns.
    const second = db().transaction((tx) =>
      ensureNamedRuns(tx, organizationId, [run('2026-03-01T09:00:00Z')]),
    );
    if (process.env.TEST_DATABASE_URL) {
      for (;;) {
        const waiting = await testApp.database.db.execute(
          sql`select count(*)::int as n from pg_locks where not granted`,
        );
        if (Number((waiting.rows[0] as { n: number }).n) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    commitFirst();
    await first;
    expect((await second).get(key)).toBe(firstId);
    const stored = await db().select().from(courseRuns).where(eq(courseRuns.learnerId, learner.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]?.startedAt.toISOString()).toBe('2026-03-01T09:00:00.000Z');
  });
});

describe('activity', () => {
  it('writes one events.ingested row per request that accepted events', async () => {
    const before = await db()
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.organizationId, orgId()), eq(activityEvents.kind, 'events.ingested')));
    const names = fresh();
    const events = [started(names), variableSet(names, 'a', 1), variableSet(names, 'b', 2)];
    await send(events);
    await send(events); // all duplicates: no row
    await send([started(fresh())], secondKey.key);
    const after = await db()
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.organizationId, orgId()), eq(activityEvents.kind, 'events.ingested')))
      .orderBy(activityEvents.createdAt);
    const added = after.slice(before.length);
    expect(added.map((row) => row.summary)).toEqual([
      '3 events from API key "LMS"',
      '1 event from API key "Warehouse"',
    ]);
    expect(added[0]).toMatchObject({ actorUserId: null, subjectType: 'api_key', subjectId: ingestKey.id });
  });
});

describe('keys', () => {
  it('answers 401 for a revoked key and for an expired one', async () => {
    const revoked = await createKey(owner, { name: 'Old LMS', scope: 'ingest' });
    const revoke = await inject({
      method: 'POST',
      url: `/api/api-keys/${revoked.id}/revoke`,
      headers: owner.headers,
    });
    expect(revoke.statusCode).toBe(200);
    const expired = await createKey(owner, { name: 'Pilot', scope: 'ingest' });
    await db()
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expired.id));
    for (const key of [revoked.key, expired.key]) {
      const response = await post({ events: [started(fresh())] }, key);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Invalid or expired API key', code: 'UNAUTHENTICATED' });
      const beacon = await inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify({ key, events: [started(fresh())] }),
      });
      expect(beacon.statusCode).toBe(401);
    }
  });

  it('lets an ingest key read nothing outside /api/v1', async () => {
    for (const url of ['/api/me', '/api/api-keys', `/api/organizations/${orgId()}`]) {
      const response = await inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${ingestKey.key}` },
      });
      expect(response.statusCode, url).toBe(401);
    }
    const courses = await inject({
      method: 'GET',
      url: '/api/courses',
      headers: { authorization: `Bearer ${ingestKey.key}` },
    });
    // 401 once the courses routes exist; a 404 before they do (never data).
    expect([401, 404]).toContain(courses.statusCode);
  });

  it('prefers the Authorization header over a key in the body', async () => {
    const response = await post({ key: ingestKey.key, events: [started(fresh())] }, 'cl_wrong');
    expect(response.statusCode).toBe(401);
  });

  it("writes into the key's own organization only", async () => {
    const other = await signUpViaApi(testApp.app);
    const otherKey = await createKey(other, { name: 'Other', scope: 'ingest' });
    const names = fresh();
    await send([started(names)]);
    await send([started(names)], otherKey.key);
    const rows = await db().select().from(courses).where(eq(courses.externalCourseId, names.course));
    expect(rows.map((r) => r.organizationId).sort()).toEqual([orgId(), other.organization.id].sort());
  });
});

describe('GET /api/v1/courses/:externalCourseId/broadcast', () => {
  const read = (externalId: string, key = ingestKey.key) =>
    inject({
      method: 'GET',
      url: `/api/v1/courses/${encodeURIComponent(externalId)}/broadcast`,
      headers: { authorization: `Bearer ${key}`, origin: 'https://lms.example.org' },
    });

  it("returns the live course's message, null when none, and 404 with the spec's message otherwise", async () => {
    const course = await insertCourse(db(), { organizationId: orgId(), externalCourseId: uid('bc') });
    const empty = await read(course.externalCourseId!);
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['access-control-allow-origin']).toBe('*');
    expect(empty.json()).toEqual({ message: null, updatedAt: expect.any(String) });

    await db().update(courses).set({ broadcastMessage: 'Exam on Friday' }).where(eq(courses.id, course.id));
    expect((await read(course.externalCourseId!)).json()).toMatchObject({ message: 'Exam on Friday' });

    const missing = await read('no-such-course');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      error: 'Course with externalCourseId no-such-course not found',
      code: 'NOT_FOUND',
    });

    const other = await signUpViaApi(testApp.app);
    const otherKey = await createKey(other, { name: 'Other', scope: 'ingest' });
    expect((await read(course.externalCourseId!, otherKey.key)).statusCode).toBe(404);

    await db()
      .update(courses)
      .set({ isDeleted: true, deletedAt: new Date() })
      .where(eq(courses.id, course.id));
    expect((await read(course.externalCourseId!)).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: `/api/v1/courses/x/broadcast` })).statusCode).toBe(401);
  });
});

describe('the learning-event log and richer events', () => {
  function event(names: Names, type: string, detail: Record<string, unknown> = {}) {
    return {
      id: uid('evt'),
      type,
      course: { externalCourseId: names.course },
      learner: { email: names.email },
      ...detail,
    };
  }

  it('rejects an event dated 9999 or before 2000 alone, with its index and the reason', async () => {
    const names = fresh();
    const result = await send([
      started(names),
      started(names, { timestamp: '9999-12-31T00:00:00Z' }),
      started(names, { timestamp: '1999-12-31T23:59:59Z' }),
    ]);
    expect(result.accepted).toBe(1);
    expect(result.rejected).toEqual([
      { index: 1, id: expect.any(String), error: INGESTION_MESSAGES.timestampInFuture },
      { index: 2, id: expect.any(String), error: INGESTION_MESSAGES.timestampTooOld },
    ]);
  });

  it('accepts a day of clock skew into the future and nothing beyond', async () => {
    const names = fresh();
    const soon = new Date(Date.now() + 23 * 3600_000).toISOString();
    const later = new Date(Date.now() + 25 * 3600_000).toISOString();
    const result = await send([started(names, { timestamp: soon }), started(names, { timestamp: later })]);
    expect(result.accepted).toBe(1);
    expect(result.rejected.map((r) => r.index)).toEqual([1]);
  });

  it('rejects an event with a NUL or a lone surrogate in any string alone, and stores the others', async () => {
    const names = fresh();
    const before = await snapshot();
    const result = await send([
      started(names),
      { ...started(names), learner: { email: names.email, name: 'Ada\u0000Lovelace' } },
      variableSet(names, 'note', 'half an emoji \ud83d'),
      { ...started(names), comment: 'extra \u0000 field' },
    ]);
    expect(result.accepted).toBe(1);
    expect(result.rejected).toEqual([
      { index: 1, id: expect.any(String), error: 'learner.name must not contain a NUL character' },
      {
        index: 2,
        id: expect.any(String),
        error: 'variable.value contains an invalid character (an unpaired UTF-16 surrogate)',
      },
      { index: 3, id: expect.any(String), error: 'comment must not contain a NUL character' },
    ]);
    const after = await snapshot();
    expect(after.events - before.events).toBe(1);
    expect(after.log - before.log).toBe(1);
  });

  it('keeps every accepted event whole in the log, in order for the learner, with what else was sent', async () => {
    const names = fresh();
    const t = (minute: number) => new Date(Date.UTC(2026, 9, 1, 9, minute)).toISOString();
    const run = uid('run');
    const result = await send([
      started(names, { timestamp: t(0), run }),
      event(names, 'slide.viewed', {
        timestamp: t(1),
        run,
        slide: { number: 1, title: 'Welcome', scene: 'Intro' },
        device: 'tablet',
      }),
      event(names, 'slide.viewed', {
        timestamp: t(3),
        run,
        slide: { number: 2, title: 'Hazards', secondsOnPrevious: 120 },
      }),
      answered(
        names,
        { interactionId: 'q1', slideNumber: 2, answer: 'B', correct: true, points: 5 },
        { timestamp: t(4), run },
      ),
      variableSet(names, 'score', 80, { timestamp: t(5), run }),
      event(names, 'course.progressed', { timestamp: t(6), run, progress: { percent: 60 } }),
      event(names, 'course.passed', { timestamp: t(7), run, result: { score: 80, passMark: 70 } }),
      completed(names, { timestamp: t(8), run }),
    ]);
    expect(result).toEqual({ accepted: 8, duplicates: 0, rejected: [] });

    const learner = await learnerByEmail(names.email);
    const log = await db().execute<Record<string, unknown>>(sql`
      select type, slide_number, slide_title, scene, seconds, value, correct, points, percent, score, pass_mark,
        extras, run_id is not null as has_run, source
      from learning_events where organization_id = ${orgId()} and learner_id = ${learner!.id}
      order by occurred_at, id`);
    expect(log.rows.map((row) => row.type)).toEqual([
      'course.started',
      'slide.viewed',
      'slide.viewed',
      'question.answered',
      'variable.set',
      'course.progressed',
      'course.passed',
      'course.completed',
    ]);
    expect(log.rows.every((row) => row.has_run === true && row.source === 'api')).toBe(true);
    expect(log.rows[1]).toMatchObject({
      slide_number: 1,
      slide_title: 'Welcome',
      scene: 'Intro',
      extras: { device: 'tablet' },
    });
    expect(log.rows[2]).toMatchObject({ slide_number: 2, seconds: 120, extras: null });
    expect(log.rows[3]).toMatchObject({ slide_number: 2, value: 'B', correct: true, points: 5 });
    expect(log.rows[4]).toMatchObject({ value: 80 });
    expect(log.rows[5]).toMatchObject({ percent: 60 });
    expect(log.rows[6]).toMatchObject({ score: 80, pass_mark: 70 });

    const [runRow] = await db()
      .select()
      .from(courseRuns)
      .where(and(eq(courseRuns.organizationId, orgId()), eq(courseRuns.learnerId, learner!.id)));
    expect(runRow).toMatchObject({ passed: true, score: 80, passMark: 70, progressPercent: 60 });
    expect(runRow?.completedAt?.toISOString()).toBe(t(8));
  });

  it('records a failed attempt and an exit without completing the run', async () => {
    const names = fresh();
    const run = uid('run');
    await send([
      started(names, { run }),
      event(names, 'course.failed', { run, result: { score: 40, passMark: 70 } }),
      event(names, 'course.exited', { run }),
    ]);
    const learner = await learnerByEmail(names.email);
    const [runRow] = await db()
      .select()
      .from(courseRuns)
      .where(and(eq(courseRuns.organizationId, orgId()), eq(courseRuns.learnerId, learner!.id)));
    expect(runRow).toMatchObject({ passed: false, score: 40, completedAt: null });
    expect(runRow?.exitedAt).toBeInstanceOf(Date);
  });

  it('answers slide.viewed with accepted: 1 and names a bad slide number', async () => {
    const names = fresh();
    expect(
      await send([event(names, 'slide.viewed', { slide: { number: 3, title: 'Summary' } })]),
    ).toMatchObject({
      accepted: 1,
    });
    const bad = await send([event(names, 'slide.viewed', { slide: { number: -1 } })]);
    expect(bad.rejected[0]?.error).toBe('slide.number must not be negative');
  });

  it('writes events of another month into that month’s partition', async () => {
    const names = fresh();
    await send([started(names, { timestamp: '2003-02-10T10:00:00Z' })]);
    const partitions = await db().execute<{ name: string }>(sql`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      join pg_class p on p.oid = i.inhparent where p.relname = 'learning_events'`);
    expect(partitions.rows.map((row) => row.name)).toContain('learning_events_2003_02');
  });
});
