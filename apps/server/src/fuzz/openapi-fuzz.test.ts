import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import {
  insertCourse,
  insertCourseRun,
  insertLearner,
  insertQuestion,
  insertResponse,
  insertVariable,
  insertVariableValue,
} from '../db/factories/learning';
import { authSessions, pipelineRuns } from '../db/schema';
import { signUpViaApi, type SignedUp } from '../test/auth';
import { createTestApp } from '../test/app';
import { changedTables, databaseFingerprint, writeCounter } from '../test/fingerprint';

/**
 * Every operation of the OpenAPI document gets generated bad input in its
 * path parameters, query and body (NUL characters, lone surrogates, huge
 * strings, wrong types, empty and deeply nested values, upper-case and
 * malformed UUIDs, numbers as strings, arrays for objects), mixed with
 * well-formed requests, as the owner of a seeded organization and signed
 * out. Two rules hold for every answer: never a 5xx, and a 4xx writes
 * nothing (the content of every table is compared before and after).
 *
 * Only /api operations are fuzzed: /docs and the static files (tracker.js,
 * the web app) are not JSON APIs and take no input but their path.
 */

/** Fixed, so every run (and both engines) sends the same requests; FUZZ_SEED=<n> explores others. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_124);
/**
 * Runs per operation: enough to hit every kind of bad input a few times,
 * few enough for < 60 s per engine. FUZZ_RUNS=<n> multiplies them when exploring.
 */
const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
const RUNS_SIGNED_IN = 20 * SCALE;
/** Signed out, most operations stop at the 401; the public ones go further. */
const RUNS_SIGNED_OUT = 6 * SCALE;

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};
type OpenApiParameter = {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
};
type OpenApiOperation = {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>> };

type Operation = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI form, `/api/courses/{courseId}`. */
  path: string;
  /** The ingestion API takes an API key; everything else a session (or nothing, when public). */
  isApiKeyRoute: boolean;
  pathParams: OpenApiParameter[];
  queryParams: OpenApiParameter[];
  body: JsonSchema | null;
};

/** One generated request, before it is encoded: `undefined` leaves a query parameter or the body out. */
type Draft = {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  hasBody: boolean;
};

// ---- the application and its seeded organization --------------------------------

const testApp = await createTestApp();
const { app, database } = testApp;
await app.ready();
const db = database.db;

afterAll(async () => {
  await testApp.close();
});

async function injectOk(options: InjectOptions & { url: string }): Promise<Record<string, unknown>> {
  const response = await app.inject(options);
  if (response.statusCode >= 300)
    throw new Error(`seeding ${options.url}: ${response.statusCode} ${response.body}`);
  return response.json<Record<string, unknown>>();
}

const owner: SignedUp = await signUpViaApi(app, { name: 'Fuzz Owner' });
const orgId = owner.organization.id;
const ownerHeaders = () => ({ ...owner.headers, 'x-organization-id': orgId });

async function invite(email: string) {
  return (await injectOk({
    method: 'POST',
    url: '/api/invitations',
    headers: ownerHeaders(),
    payload: { email },
  })) as { token: string; invitation: { id: string } };
}
const memberInvitation = await invite('fuzz-member@example.com');
const member = (await injectOk({
  method: 'POST',
  url: `/api/invitations/${memberInvitation.token}/signup`,
  payload: { name: 'Fuzz Member', password: 'correct horse battery' },
})) as { user: { id: string } };
const pendingInvitation = await invite('fuzz-pending@example.com');
const linkInvitation = await invite('fuzz-link@example.com');

async function createKey(name: string) {
  return (await injectOk({
    method: 'POST',
    url: '/api/api-keys',
    headers: ownerHeaders(),
    payload: { name },
  })) as {
    id: string;
    key: string;
  };
}
const ingestKey = await createKey('Fuzz tracker');
const revocableKey = await createKey('Fuzz revocable');

const tenant = { organizationId: orgId };
const course = await insertCourse(db, { ...tenant, externalCourseId: 'fuzz-course' });
const learner = await insertLearner(db, tenant);
const variable = await insertVariable(db, {
  ...tenant,
  courseId: course.id,
  name: 'fuzz_score',
  dataType: 'number',
});
const question = await insertQuestion(db, { ...tenant, courseId: course.id });
const run = await insertCourseRun(db, { ...tenant, courseId: course.id, learnerId: learner.id });
await insertVariableValue(db, {
  ...tenant,
  courseId: course.id,
  learnerId: learner.id,
  variableId: variable.id,
  courseRunId: run.id,
  raw: 42,
  dataType: 'number',
});
await insertResponse(db, {
  ...tenant,
  courseId: course.id,
  learnerId: learner.id,
  questionId: question.id,
  courseRunId: run.id,
});
const report = (await injectOk({
  method: 'POST',
  url: '/api/custom-reports',
  headers: ownerHeaders(),
  payload: { name: 'Fuzz report', items: [{ kind: 'variable', variableId: variable.id }] },
})) as { id: string };
const publicReport = (await injectOk({
  method: 'PUT',
  url: `/api/custom-reports/${report.id}/public`,
  headers: ownerHeaders(),
  payload: { isPublic: true },
})) as { publicShareToken: string };
const variableShare = (await injectOk({
  method: 'PUT',
  url: `/api/variables/${variable.id}/share`,
  headers: ownerHeaders(),
  payload: { enabled: true },
})) as { token: string };
const questionShare = (await injectOk({
  method: 'PUT',
  url: `/api/questions/${question.id}/share`,
  headers: ownerHeaders(),
  payload: { enabled: true },
})) as { token: string };

// A webhook action to a host that never resolves (.invalid, RFC 6761): its tests fail fast, reaching nobody.
const action = (await injectOk({
  method: 'POST',
  url: '/api/actions',
  headers: ownerHeaders(),
  payload: { name: 'Fuzz webhook', config: { type: 'webhook', url: 'https://fuzz.invalid/hook' } },
})) as { id: string };

// A pipeline from a course's completions to that webhook (off: nothing runs by itself), with a failed run to retry.
const pipeline = (await injectOk({
  method: 'POST',
  url: '/api/pipelines',
  headers: ownerHeaders(),
  payload: {
    name: 'Fuzz pipeline',
    nodes: [
      { id: 'done', type: 'course', data: { courseId: course.id, events: ['course.completed'] } },
      { id: 'button', type: 'manual', data: {} },
      { id: 'hook', type: 'action', data: { actionId: action.id } },
    ],
    edges: [
      { source: 'done', target: 'hook' },
      { source: 'button', target: 'hook' },
    ],
  },
})) as { id: string };
const [failedRun] = await db
  .insert(pipelineRuns)
  .values({
    ...tenant,
    pipelineId: pipeline.id,
    version: 1,
    triggerKind: 'manual',
    triggerKey: 'manual:fuzz',
    status: 'failed',
    error: 'Fuzz',
  })
  .returning();

/** The real value of a parameter or field named `name` on `path`, when the seed has one. */
function knownValue(path: string, name: string): string | undefined {
  switch (name) {
    case 'id':
      if (path.startsWith('/api/organizations')) return orgId;
      if (path.startsWith('/api/api-keys')) return revocableKey.id;
      if (path.startsWith('/api/invitations')) return pendingInvitation.invitation.id;
      return undefined;
    case 'token':
      if (path.startsWith('/api/invitations')) return linkInvitation.token;
      if (path.startsWith('/api/public-reports')) return publicReport.publicShareToken;
      if (path.startsWith('/api/shared/questions')) return questionShare.token;
      if (path.startsWith('/api/shared/')) return variableShare.token;
      return undefined;
    case 'userId':
      return member.user.id;
    case 'courseId':
      return course.id;
    case 'learnerId':
      return learner.id;
    case 'variableId':
      return variable.id;
    case 'questionId':
      return question.id;
    case 'reportId':
      return report.id;
    case 'actionId':
      return action.id;
    case 'pipelineId':
      return pipeline.id;
    case 'runId':
      return failedRun?.id;
    case 'version':
      return path.includes('/pipelines/') ? '1' : undefined;
    case 'variableName':
    case 'name':
      return path.includes('variable') ? variable.name : undefined;
    case 'externalCourseId':
      return course.externalCourseId ?? undefined;
    default:
      return undefined;
  }
}

/**
 * A signed-in run may end its own session (sign-out, a password change):
 * after a success, a new session row stands in for the old one, so the next
 * run is signed in again.
 */
async function keepOwnerSignedIn(): Promise<void> {
  const [session] = await db
    .select({ id: authSessions.id })
    .from(authSessions)
    .where(eq(authSessions.token, owner.token))
    .limit(1);
  if (session) return;
  const token = randomBytes(24).toString('base64url');
  await db
    .insert(authSessions)
    .values({ token, userId: owner.user.id, expiresAt: new Date(Date.now() + 86_400_000) });
  owner.token = token;
  owner.headers = { authorization: `Bearer ${token}` };
}

// ---- the operations ----------------------------------------------------------------

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const document = app.swagger() as unknown as OpenApiDocument;
const operations: Operation[] = Object.entries(document.paths)
  .filter(([path]) => path.startsWith('/api/'))
  .flatMap(([path, byMethod]) =>
    METHODS.filter((method) => byMethod[method]).map((method) => {
      const operation = byMethod[method] as OpenApiOperation;
      const upper = method.toUpperCase() as Operation['method'];
      return {
        method: upper,
        path,
        isApiKeyRoute: path.startsWith('/api/v1/'),
        pathParams: (operation.parameters ?? []).filter((parameter) => parameter.in === 'path'),
        queryParams: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query'),
        body: operation.requestBody?.content?.['application/json']?.schema ?? null,
      };
    }),
  )
  // Deletions last, courses (which take their data along) at the very end,
  // so the other operations meet the seeded rows.
  .sort((a, b) => rank(a) - rank(b));

function rank(operation: Operation): number {
  if (operation.method !== 'DELETE') return 0;
  return operation.path.startsWith('/api/courses/') ? 2 : 1;
}

// ---- generators --------------------------------------------------------------------

const NUL_STRINGS = ['\u0000', 'a\u0000b', 'name\u0000\u0000'];
const LONE_SURROGATES = ['\ud800', 'x\udfff', '\udc00\ud800', 'end \ud83d'];
const HUGE_STRINGS = ['a'.repeat(10_000), '\u00e9'.repeat(70_000), '9'.repeat(400)];
const ODD_STRINGS = [
  '',
  ' ',
  '%',
  '%00',
  '../../etc/passwd',
  "' or 1=1 --",
  '<script>alert(1)</script>',
  '\u202etxt.exe',
  '\ufeff',
  '😀',
  'null',
  'undefined',
  '__proto__',
  '2024-02-30',
  '0001-01-01',
  '9999-12-31T23:59:59Z',
  '275760-09-14',
  '-infinity',
];
const NUMBERS_AS_STRINGS = [
  '0',
  '-1',
  '1.5',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '0x1f',
  '1_000',
  ' 7 ',
  '99999999999999999999',
];
const WRONG_TYPES: unknown[] = [
  0,
  -1,
  1.5,
  2 ** 53 + 1,
  1e308,
  -1e308,
  true,
  false,
  null,
  [],
  {},
  [1, 'a'],
  { a: 1 },
];

function nested(depth: number, asObject: boolean): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = asObject ? { a: value } : [value];
  return value;
}

/** Upper-case, malformed and foreign forms of an id (or of any UUID). */
function uuidVariants(id: string): string[] {
  return [
    id.toUpperCase(),
    `${id}x`,
    id.slice(0, -1),
    `{${id}}`,
    id.replace(/-/g, ''),
    ` ${id}`,
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '12345678-1234-1234-1234-123456789abc',
    '6f1c3c9e-7a43-4a55-9d4f-2b1c0e0b1a11',
    'not-a-uuid',
  ];
}

/** Bad input for a slot whose well-formed value is `valid`. */
function badValue(valid: unknown): fc.Arbitrary<unknown> {
  const isId = typeof valid === 'string' && UUID_SHAPE.test(valid);
  const options: fc.WeightedArbitrary<unknown>[] = [
    { arbitrary: fc.constantFrom(...NUL_STRINGS), weight: 2 },
    { arbitrary: fc.constantFrom(...LONE_SURROGATES), weight: 2 },
    { arbitrary: fc.constantFrom(...HUGE_STRINGS), weight: 1 },
    { arbitrary: fc.constantFrom(...ODD_STRINGS), weight: 2 },
    { arbitrary: fc.constantFrom(...NUMBERS_AS_STRINGS), weight: 1 },
    { arbitrary: fc.constantFrom(...WRONG_TYPES), weight: 2 },
    { arbitrary: fc.constantFrom(...uuidVariants(isId ? valid : course.id)), weight: isId ? 4 : 1 },
    { arbitrary: fc.constantFrom(nested(200, false), nested(200, true), nested(20, true)), weight: 1 },
    { arbitrary: fc.constant([valid]), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 1 },
  ];
  if (typeof valid === 'string' && valid.length > 0) {
    const spoiled = fc.constantFrom(
      `${valid}\u0000`,
      `\ud800${valid}`,
      valid.toUpperCase(),
      `${valid} `,
      valid.repeat(300),
    );
    options.push({ arbitrary: spoiled, weight: 2 });
  }
  return fc.oneof(...options);
}

function boundedInteger(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -5);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 500);
  return fc.integer({ min: Math.max(min, -1_000_000), max: Math.min(Math.max(max, min), 1_000_000) });
}

function validString(schema: JsonSchema, name: string, path: string): fc.Arbitrary<string> {
  const known = knownValue(path, name);
  if (known !== undefined) return fc.constant(known);
  if (schema.format === 'uuid') return fc.constantFrom(course.id, variable.id, question.id, learner.id);
  if (schema.format === 'email' || name === 'email')
    return fc.nat(1_000_000).map((n) => `fuzz-${n}@example.com`);
  if (schema.format === 'date-time')
    return fc.constantFrom('2024-01-15T10:00:00Z', '2025-06-01T00:00:00.000Z');
  if (schema.format === 'date' || name === 'from' || name === 'to')
    return fc.constantFrom('2024-01-01', '2025-12-31');
  if (schema.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((value) => value.length <= (schema.maxLength ?? 200));
    } catch {
      // A pattern JavaScript cannot read: fall through to plain text.
    }
  }
  const minLength = schema.minLength ?? 0;
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 24, 24)) });
}

/** A well-formed value of `schema` (as far as the schema tells). */
function validValue(
  schema: JsonSchema | undefined,
  name: string,
  path: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => validValue(choice, name, path, depth + 1)));
  if (schema.allOf?.[0]) return validValue(schema.allOf[0], name, path, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return validString(schema, name, path);
    case 'integer':
      return boundedInteger(schema);
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validValue(schema.items, name, path, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const required = schema.required ?? [];
      return fc.record(
        Object.fromEntries(
          Object.entries(properties).map(([key, property]) => [
            key,
            validValue(property, key, path, depth + 1),
          ]),
        ),
        { requiredKeys: required.filter((key) => key in properties) },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Every place inside a JSON value, as a list of keys from the root. */
function placesIn(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value))
    return value.flatMap((item, index) => [[...prefix, index], ...placesIn(item, [...prefix, index])]);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => [
      [...prefix, key],
      ...placesIn(item, [...prefix, key]),
    ]);
  }
  return [];
}

function replaceAt(value: unknown, place: readonly (string | number)[], replacement: unknown): unknown {
  const [head, ...rest] = place;
  if (head === undefined) return replacement;
  if (Array.isArray(value)) {
    return value.map((item: unknown, index) => (index === head ? replaceAt(item, rest, replacement) : item));
  }
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    copy[String(head)] = replaceAt(copy[String(head)], rest, replacement);
    return copy;
  }
  return value;
}

function getAt(value: unknown, place: readonly (string | number)[]): unknown {
  return place.reduce<unknown>(
    (current, key) =>
      typeof current === 'object' && current !== null
        ? (current as Record<string, unknown>)[String(key)]
        : undefined,
    value,
  );
}

function validDraft(operation: Operation): fc.Arbitrary<Draft> {
  const path = fc.record(
    Object.fromEntries(
      operation.pathParams.map((p) => [p.name, validValue(p.schema, p.name, operation.path)]),
    ),
  );
  const query = fc.record(
    Object.fromEntries(
      operation.queryParams.map((p) => [p.name, validValue(p.schema, p.name, operation.path)]),
    ),
    { requiredKeys: operation.queryParams.filter((p) => p.required).map((p) => p.name) },
  );
  const body = operation.body ? validValue(operation.body, 'body', operation.path) : fc.constant(undefined);
  return fc.record({ path, query, body }).map((draft) => ({ ...draft, hasBody: operation.body !== null }));
}

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The same value with every UUID in it upper-cased (the same ids, as some clients write them). */
function upperCaseIds(value: unknown): unknown {
  if (typeof value === 'string') return UUID_SHAPE.test(value) ? value.toUpperCase() : value;
  if (Array.isArray(value)) return value.map(upperCaseIds);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, upperCaseIds(item)]));
  }
  return value;
}

function withExtraKey(body: unknown, key: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, [key]: 1 } : body;
}

/** A request to `operation`: well-formed now and then, mostly with one bad part. */
function draftFor(operation: Operation): fc.Arbitrary<Draft> {
  return validDraft(operation).chain((valid) => {
    const mutations: fc.WeightedArbitrary<Draft>[] = [{ arbitrary: fc.constant(valid), weight: 1 }];
    const upper: Draft = {
      ...valid,
      path: upperCaseIds(valid.path) as Draft['path'],
      query: upperCaseIds(valid.query) as Draft['query'],
      body: upperCaseIds(valid.body),
    };
    if (JSON.stringify(upper) !== JSON.stringify(valid))
      mutations.push({ arbitrary: fc.constant(upper), weight: 1 });
    const pathNames = Object.keys(valid.path);
    if (pathNames.length > 0) {
      const badPath = fc
        .constantFrom(...pathNames)
        .chain((name) =>
          badValue(valid.path[name]).map((bad) => ({ ...valid, path: { ...valid.path, [name]: bad } })),
        );
      mutations.push({ arbitrary: badPath, weight: 2 });
    }
    if (operation.queryParams.length > 0) {
      const badQuery = fc
        .constantFrom(...operation.queryParams.map((parameter) => parameter.name))
        .chain((name) =>
          badValue(valid.query[name]).map((bad) => ({ ...valid, query: { ...valid.query, [name]: bad } })),
        );
      mutations.push(
        { arbitrary: badQuery, weight: 2 },
        { arbitrary: fc.constant({ ...valid, query: {} }), weight: 1 },
      );
    }
    if (operation.body) {
      const wholeBody = fc.oneof(
        badValue(valid.body),
        fc.constantFrom<unknown>({}, [], [valid.body], '', 'null'),
      );
      const extraKey = fc
        .constantFrom('\u0000', 'a\ud800', '__proto__', 'constructor', 'unexpected')
        .map((key) => ({ ...valid, body: withExtraKey(valid.body, key) }));
      mutations.push(
        { arbitrary: wholeBody.map((bad) => ({ ...valid, body: bad })), weight: 1 },
        { arbitrary: extraKey, weight: 1 },
      );
      const places = placesIn(valid.body);
      if (places.length > 0) {
        const badPlace = fc.constantFrom(...places).chain((place) =>
          badValue(getAt(valid.body, place)).map((bad) => ({
            ...valid,
            body: replaceAt(valid.body, place, bad),
          })),
        );
        mutations.push({ arbitrary: badPlace, weight: 3 });
      }
    }
    return fc.oneof(...mutations);
  });
}

// ---- encoding ----------------------------------------------------------------------

/** Percent-encodes a URL part; a lone surrogate, which has no UTF-8 form, goes as its CESU-8 bytes. */
function encodePart(value: string): string {
  let encoded = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      encoded += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      encoded += encodeURIComponent(char);
    }
  }
  return encoded;
}

function asUrlText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value) ?? '';
  return String(value);
}

type FuzzRequest = {
  method: Operation['method'];
  url: string;
  payload?: string;
  headers: Record<string, string>;
};

function toRequest(operation: Operation, draft: Draft): FuzzRequest {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodePart(asUrlText(draft.path[name])),
  );
  const query = Object.entries(draft.query)
    .filter(([, value]) => value !== undefined)
    .flatMap(([name, value]) =>
      // An array goes as a repeated parameter (?a=1&a=2), the way a form would send it.
      (Array.isArray(value) ? value : [value]).map(
        (item) => `${encodePart(name)}=${encodePart(asUrlText(item))}`,
      ),
    )
    .join('&');
  const request: FuzzRequest = {
    method: operation.method,
    url: query ? `${path}?${query}` : path,
    headers: {},
  };
  if (draft.hasBody && draft.body !== undefined) {
    // JSON.stringify writes a lone surrogate as a \ud800 escape, which the server's parser turns back into one.
    request.payload = draft.body === '' ? '' : JSON.stringify(draft.body);
    request.headers = { 'content-type': 'application/json' };
  }
  return request;
}

// ---- the property --------------------------------------------------------------------

/** What the database held, and the write counter then: computed again only when the counter moved. */
let baseline: { counter: string; fingerprint: Map<string, string> } | null = null;

async function currentBaseline(): Promise<{ counter: string; fingerprint: Map<string, string> }> {
  const counter = await writeCounter(db);
  if (baseline?.counter !== counter) baseline = { counter, fingerprint: await databaseFingerprint(db) };
  return baseline;
}

function credentials(operation: Operation, isSignedIn: boolean): Record<string, string> {
  if (!isSignedIn) return {};
  if (operation.isApiKeyRoute) return { authorization: `Bearer ${ingestKey.key}` };
  return ownerHeaders();
}

async function checkOne(operation: Operation, draft: Draft, isSignedIn: boolean): Promise<void> {
  const before = await currentBaseline();
  const request = toRequest(operation, draft);
  request.headers = { ...request.headers, ...credentials(operation, isSignedIn) };
  const response = await app.inject(request);
  const describeRequest = () =>
    `${request.method} ${request.url.slice(0, 300)} body=${(request.payload ?? '').slice(0, 300)}`;
  if (response.statusCode >= 500) {
    throw new Error(`${response.statusCode} for ${describeRequest()}: ${response.body.slice(0, 300)}`);
  }
  if (response.statusCode >= 400) {
    const counter = await writeCounter(db);
    if (counter !== before.counter) {
      const after = await databaseFingerprint(db);
      baseline = { counter, fingerprint: after };
      const changed = changedTables(before.fingerprint, after);
      if (changed.length > 0) {
        throw new Error(
          `${response.statusCode} for ${describeRequest()} but wrote to ${changed.join(', ')}: ${response.body.slice(0, 300)}`,
        );
      }
    }
  } else {
    // A success may write; the next run's baseline notices by the counter.
    await keepOwnerSignedIn();
  }
}

describe.each([
  { label: 'signed in as the owner', isSignedIn: true },
  { label: 'signed out', isSignedIn: false },
])('OpenAPI fuzz, $label: no 5xx, and a 4xx changes nothing', ({ isSignedIn }) => {
  it.each(operations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    '%s',
    async (_name, operation) => {
      const runs = isSignedIn ? RUNS_SIGNED_IN : RUNS_SIGNED_OUT;
      await fc.assert(
        fc.asyncProperty(draftFor(operation), (draft) => checkOne(operation, draft, isSignedIn)),
        // A fixed seed: the same requests on every run and on both engines. No
        // shrinking: each run changes the database, so a replay is not the same run.
        { seed: SEED, numRuns: runs, endOnFailure: true },
      );
    },
    60_000 * SCALE,
  );

  it('leaves the owner signed in and the seeded organization usable', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/me', headers: ownerHeaders() });
    expect(response.statusCode).toBe(200);
  });
});

describe('the fuzz covers the API', () => {
  it('found every operation of the document', () => {
    expect(operations.length).toBeGreaterThan(90);
    expect(operations.some((operation) => operation.method === 'DELETE')).toBe(true);
  });
});
