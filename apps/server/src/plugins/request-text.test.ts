import Fastify, { type InjectOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { insertCourse, insertLearner, insertQuestion, insertVariable } from '../db/factories/learning';
import type { Course } from '../db/schema';
import { createTestApp, type TestApp } from '../test/app';
import { signUpViaApi, type SignedUp } from '../test/auth';
import { changedTables, databaseFingerprint } from '../test/fingerprint';
import { registerErrorHandler } from './error-handler';
import { registerRequestTextCheck } from './request-text';

type OpenApiOperation = { parameters?: { in: string; name: string }[] };
type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>> };

let testApp: TestApp;
let owner: SignedUp;
let course: Course;
let learnerId: string;
let questionId: string;
let variableId: string;
let apiKey: string;

const inject = (options: InjectOptions) => testApp.app.inject(options);
const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { ...owner.headers, 'content-type': 'application/json' },
});

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app, { name: 'Ada Lovelace' });
  const tenant = { organizationId: owner.organization.id };
  course = await insertCourse(testApp.database.db, { ...tenant, externalCourseId: 'intro-101' });
  learnerId = (await insertLearner(testApp.database.db, tenant)).id;
  questionId = (await insertQuestion(testApp.database.db, { ...tenant, courseId: course.id })).id;
  variableId = (await insertVariable(testApp.database.db, { ...tenant, courseId: course.id })).id;
  const created = await inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: owner.headers,
    payload: { name: 'Tracker' },
  });
  expect(created.statusCode).toBe(201);
  apiKey = created.json<{ key: string }>().key;
});

afterAll(async () => {
  await testApp.close();
});

/** Runs the request and checks that the database is exactly as before. */
async function changesNothing(options: InjectOptions) {
  const before = await databaseFingerprint(testApp.database.db);
  const response = await inject(options);
  expect(changedTables(before, await databaseFingerprint(testApp.database.db))).toEqual([]);
  return response;
}

describe('strings the database cannot store', () => {
  it('refuses a NUL character in a JSON body with a 400 naming the field, and changes nothing', async () => {
    const response = await changesNothing({
      method: 'PUT',
      url: `/api/courses/${course.id}/broadcast`,
      ...json({ message: 'Quiz moved to\u0000 Friday' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'message must not contain a NUL character',
      code: 'VALIDATION_ERROR',
      issues: [{ path: 'body.message', message: 'message must not contain a NUL character' }],
    });
  });

  it('refuses an unpaired UTF-16 surrogate (a broadcast, an external id) that jsonb cannot hold', async () => {
    const broadcast = await changesNothing({
      method: 'PUT',
      url: `/api/courses/${course.id}/broadcast`,
      ...json({ message: 'Half an emoji: \ud83d' }),
    });
    expect(broadcast.statusCode).toBe(400);
    expect(broadcast.json()).toMatchObject({
      error: 'message contains an invalid character (an unpaired UTF-16 surrogate)',
      code: 'VALIDATION_ERROR',
    });

    const created = await changesNothing({
      method: 'POST',
      url: '/api/courses',
      ...json({ courseTitle: 'Safety', externalCourseId: 'safety-\udc00' }),
    });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({
      error: 'externalCourseId contains an invalid character (an unpaired UTF-16 surrogate)',
    });

    // A whole emoji (a paired surrogate) is ordinary text.
    const emoji = await inject({
      method: 'PUT',
      url: `/api/courses/${course.id}/broadcast`,
      ...json({ message: 'Well done \ud83c\udf89' }),
    });
    expect(emoji.statusCode).toBe(200);
  });

  it('names the place of a bad string deep in a body, and checks field names too', async () => {
    const nested = await changesNothing({
      method: 'POST',
      url: '/api/custom-reports',
      ...json({
        name: 'Report',
        items: [{ kind: 'question', questionId: course.id, displayName: 'x\u0000' }],
      }),
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json()).toMatchObject({
      error: 'items.0.displayName must not contain a NUL character',
      issues: [{ path: 'body.items.0.displayName' }],
    });

    const key = await changesNothing({
      method: 'POST',
      url: '/api/courses',
      ...json({ courseTitle: 'Keys', 'bad\u0000key': 1 }),
    });
    expect(key.statusCode).toBe(400);
    expect(key.json()).toMatchObject({ error: 'body has a field name that contains a NUL character' });
  });

  it('refuses a body nested deeper than any request needs, without overflowing the stack', async () => {
    // Written out by hand: JSON.stringify itself would overflow on it.
    const deep = `${'['.repeat(100_000)}"leaf"${']'.repeat(100_000)}`;
    const response = await changesNothing({
      method: 'POST',
      url: '/api/custom-reports',
      payload: `{"name":"Deep","config":${deep}}`,
      headers: { ...owner.headers, 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: expect.stringMatching(/^config(\.0)+ is nested too deeply \(at most 32 levels\)$/),
      code: 'VALIDATION_ERROR',
    });
  });

  it('answers ?q=%00 with a 400 on every list and CSV export', async () => {
    await testApp.app.ready();
    const document = testApp.app.swagger() as unknown as OpenApiDocument;
    const pipeline = await testApp.app.inject({
      method: 'POST',
      url: '/api/pipelines',
      headers: owner.headers,
      payload: { name: 'Searched', nodes: [], edges: [] },
    });
    expect(pipeline.statusCode, pipeline.body).toBe(201);
    const chatbot = await inject({
      method: 'POST',
      url: '/api/chatbots',
      headers: owner.headers,
      payload: { name: 'Searched' },
    });
    expect(chatbot.statusCode, chatbot.body).toBe(201);
    const ids: Record<string, string> = {
      chatbotId: chatbot.json<{ id: string }>().id,
      courseId: course.id,
      learnerId,
      questionId,
      variableId,
      pipelineId: pipeline.json<{ id: string }>().id,
    };
    const searchable = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(
          ([method, operation]) => method === 'get' && operation.parameters?.some((p) => p.name === 'q'),
        )
        .map(() => path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? 'unknown')),
    );
    expect(searchable).toContain('/api/courses');
    expect(searchable).toContain('/api/courses/export');
    expect(searchable).toContain('/api/activity/export');
    const variableReport = '/api/variable-reports/report';
    for (const path of searchable) {
      // The variable report needs its variable's name before it reads q.
      const query = path === variableReport ? 'name=score&q=%00' : 'q=%00';
      const response = await changesNothing({
        method: 'GET',
        url: `${path}?${query}`,
        headers: owner.headers,
      });
      expect({ path, status: response.statusCode, body: response.json() }).toEqual({
        path,
        status: 400,
        body: {
          error: 'q must not contain a NUL character',
          code: 'VALIDATION_ERROR',
          issues: [{ path: 'query.q', message: 'q must not contain a NUL character' }],
        },
      });
    }
  });

  it('refuses a NUL in a path parameter; an id that cannot exist stays a 404', async () => {
    const broadcast = await inject({
      method: 'GET',
      url: '/api/v1/courses/%00/broadcast',
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(broadcast.statusCode).toBe(400);
    expect(broadcast.json()).toMatchObject({ error: 'externalCourseId must not contain a NUL character' });

    // The tenant plugin answers a parameter naming a resource first: not a
    // UUID of this organization, so "not found", as for any other bad id.
    const scoped = await inject({ method: 'GET', url: '/api/courses/%00', headers: owner.headers });
    expect(scoped.statusCode).toBe(404);
    expect(scoped.json()).toEqual({ error: 'Course not found', code: 'NOT_FOUND' });
  });

  it('answers a path that is not UTF-8 (a lone surrogate, %ED%A0%80) in the one error shape', async () => {
    const response = await inject({ method: 'GET', url: '/api/courses/%ED%A0%80', headers: owner.headers });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'The URL is not valid: a percent-encoded part of its path is not UTF-8 text',
      code: 'BAD_REQUEST',
    });
    const long = await inject({
      method: 'GET',
      url: `/api/courses/${'a'.repeat(101)}`,
      headers: owner.headers,
    });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('answers a sign-up whose name holds a NUL with a 400, not a conflict, and creates no account', async () => {
    const response = await changesNothing({
      method: 'POST',
      url: '/api/signup',
      payload: JSON.stringify({
        name: 'Grace\u0000',
        email: 'grace-nul@example.com',
        password: 'correct horse battery',
        organizationName: 'Navy',
      }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'name must not contain a NUL character',
      code: 'VALIDATION_ERROR',
    });
    const surrogate = await changesNothing({
      method: 'POST',
      url: '/api/signup',
      payload: JSON.stringify({
        name: 'Grace',
        email: 'grace-surrogate@example.com',
        password: 'correct horse battery',
        organizationName: 'Navy \ud800',
      }),
      headers: { 'content-type': 'application/json' },
    });
    expect(surrogate.statusCode).toBe(400);
    expect(surrogate.json()).toMatchObject({
      error: 'organizationName contains an invalid character (an unpaired UTF-16 surrogate)',
    });
  });

  it('checks after authentication: a signed-out caller still gets 401', async () => {
    const response = await inject({ method: 'GET', url: '/api/courses?q=%00' });
    expect(response.statusCode).toBe(401);
  });

  it('answers a malformed X-Organization-Id with 404 and accepts an upper-case one', async () => {
    for (const header of ['not-a-uuid', `${owner.organization.id}x`, '', ' ']) {
      const response = await inject({
        method: 'GET',
        url: '/api/courses',
        headers: { ...owner.headers, 'x-organization-id': header },
      });
      expect(response.statusCode, header).toBe(404);
      expect(response.json()).toEqual({ error: 'Organization not found', code: 'NOT_FOUND' });
    }
    const upper = await inject({
      method: 'POST',
      url: '/api/courses',
      headers: { ...owner.headers, 'x-organization-id': owner.organization.id.toUpperCase() },
      payload: { courseTitle: 'Upper-case header' },
    });
    expect(upper.statusCode).toBe(201);
    const listed = await inject({ method: 'GET', url: '/api/courses?q=Upper-case', headers: owner.headers });
    expect(listed.json<{ total: number }>().total).toBe(1);
  });
});

describe('routes that check the items of a batch one by one', () => {
  it('leave the body to the route (perItemValidation) but still check params and query', async () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(app);
    registerRequestTextCheck(app);
    app.post(
      '/api/batch',
      {
        config: { perItemValidation: true },
        schema: {
          body: z.object({ items: z.array(z.string()) }),
          querystring: z.object({ q: z.string().optional() }),
        },
      },
      async (request) => ({ accepted: request.body.items.filter((item) => !item.includes('\u0000')).length }),
    );
    app.post('/api/whole', { schema: { body: z.object({ items: z.array(z.string()) }) } }, async () => ({}));
    await app.ready();

    const payload = { items: ['fine', 'bad\u0000'] };
    const batch = await app.inject({ method: 'POST', url: '/api/batch', payload });
    expect(batch.statusCode).toBe(200);
    expect(batch.json()).toEqual({ accepted: 1 });
    const query = await app.inject({ method: 'POST', url: '/api/batch?q=%00', payload });
    expect(query.statusCode).toBe(400);
    const whole = await app.inject({ method: 'POST', url: '/api/whole', payload });
    expect(whole.statusCode).toBe(400);
    expect(whole.json()).toMatchObject({ error: 'items.1 must not contain a NUL character' });
    await app.close();
  });
});
