import type { IngestEventsResponse, IngestionEventInput } from '@courselens/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCourse, insertVariable } from '../../db/factories/learning';
import {
  activityEvents,
  apiKeys,
  courseRunQuestions,
  courseRuns,
  courses,
  courseVariableMappings,
  ingestedEvents,
  learners,
  learnerVariableValues,
  organizations,
  questions,
  variables,
} from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { inferDataType, isRetryable } from './ingestion.service';

let testApp: TestApp;
let owner: SignedUp;
let ingestKey: { id: string; key: string };
let fullKey: { id: string; key: string };

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
  ingestKey = await createKey(owner, { name: 'LMS', scope: 'ingest' });
  fullKey = await createKey(owner, { name: 'Warehouse', scope: 'full' });
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
  table: 'ingested_events' | 'learner_variable_values' | 'course_runs' | 'course_run_questions',
) {
  const result = await db().execute<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(table)} where organization_id = ${orgId()}`,
  );
  return result.rows[0]?.n ?? 0;
}
async function snapshot() {
  return {
    events: await count('ingested_events'),
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
        error: 'type must be one of course.started, variable.set, question.answered, course.completed',
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
      .select({ eventId: ingestedEvents.eventId })
      .from(ingestedEvents)
      .where(eq(ingestedEvents.eventId, good.id));
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

// Referenced so later tests can extend without lint noise.
void [activityEvents, apiKeys, courseVariableMappings, organizations, insertCourse, insertVariable, fullKey];
