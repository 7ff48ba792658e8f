import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCourse, insertLearner, insertQuestion, insertVariable } from './db/factories/learning';
import { activityEvents, analyticsFunnels, userOrganizations } from './db/schema';
import { createTestApp, type TestApp } from './test/app';
import { signUpViaApi, type SignedUp } from './test/auth';
import { changedTables, databaseFingerprint } from './test/fingerprint';

type OpenApiDocument = { paths: Record<string, Record<string, unknown>> };

let testApp: TestApp;
let owner: SignedUp;
let memberId: string;

const inject = (options: InjectOptions) => testApp.app.inject(options);

async function changesNothing(options: InjectOptions) {
  const before = await databaseFingerprint(testApp.database.db);
  const response = await inject(options);
  expect(changedTables(before, await databaseFingerprint(testApp.database.db))).toEqual([]);
  return response;
}

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app, { name: 'Owner' });
  const sent = await inject({
    method: 'POST',
    url: '/api/invitations',
    headers: owner.headers,
    payload: { email: 'member@example.com' },
  });
  expect(sent.statusCode).toBe(201);
  const joined = await inject({
    method: 'POST',
    url: `/api/invitations/${sent.json<{ token: string }>().token}/signup`,
    payload: { name: 'Member', password: 'correct horse battery' },
  });
  expect(joined.statusCode).toBe(201);
  memberId = joined.json<{ user: { id: string } }>().user.id;
});

afterAll(async () => {
  await testApp.close();
});

describe('an empty change set', () => {
  it('PATCH /api/organizations/:id with {} answers 400 and says what to send', async () => {
    const response = await changesNothing({
      method: 'PATCH',
      url: `/api/organizations/${owner.organization.id}`,
      headers: owner.headers,
      payload: {},
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'Nothing to change: send at least one of name, subdomain',
      code: 'VALIDATION_ERROR',
      issues: [{ path: 'body', message: 'Nothing to change: send at least one of name, subdomain' }],
    });
  });

  it('PATCH /api/profile with {} answers 400 and says what to send', async () => {
    const response = await changesNothing({
      method: 'PATCH',
      url: '/api/profile',
      headers: owner.headers,
      payload: {},
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'Nothing to change: send at least one of name, email',
      code: 'VALIDATION_ERROR',
    });
  });

  it('every other PATCH and PUT refuses {} with a 400 too', async () => {
    const tenant = { organizationId: owner.organization.id };
    const db = testApp.database.db;
    const course = await insertCourse(db, tenant);
    const variable = await insertVariable(db, { ...tenant, courseId: course.id });
    const question = await insertQuestion(db, { ...tenant, courseId: course.id });
    const report = await inject({
      method: 'POST',
      url: '/api/custom-reports',
      headers: owner.headers,
      payload: { name: 'Report' },
    });
    expect(report.statusCode).toBe(201);
    const action = await inject({
      method: 'POST',
      url: '/api/actions',
      headers: owner.headers,
      payload: { name: 'Tell the team', config: { type: 'notify_team', message: 'Done' } },
    });
    expect(action.statusCode, action.body).toBe(201);
    const pipeline = await inject({
      method: 'POST',
      url: '/api/pipelines',
      headers: owner.headers,
      payload: { name: 'Pipeline', nodes: [], edges: [] },
    });
    expect(pipeline.statusCode, pipeline.body).toBe(201);
    const chatbot = await inject({
      method: 'POST',
      url: '/api/chatbots',
      headers: owner.headers,
      payload: { name: 'Agent', variables: [{ name: 'goal', type: 'text' }] },
    });
    expect(chatbot.statusCode, chatbot.body).toBe(201);
    const agent = chatbot.json<{ id: string; variables: { id: string }[] }>();
    const [funnel] = await db
      .insert(analyticsFunnels)
      .values({ ...tenant, name: 'Funnel', config: {} })
      .returning({ id: analyticsFunnels.id });
    const ids: Record<string, string> = {
      funnelId: funnel?.id ?? 'missing',
      chatbotId: agent.id,
      chatbotVariableId: agent.variables[0]?.id ?? 'missing',
      id: owner.organization.id,
      userId: memberId,
      courseId: course.id,
      variableId: variable.id,
      questionId: question.id,
      reportId: report.json<{ id: string }>().id,
      actionId: action.json<{ id: string }>().id,
      pipelineId: pipeline.json<{ id: string }>().id,
    };
    await testApp.app.ready();
    const document = testApp.app.swagger() as unknown as OpenApiDocument;
    const writes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => method === 'patch' || method === 'put')
        .map((method) => ({ method: method.toUpperCase() as 'PATCH' | 'PUT', path })),
    );
    expect(writes.length).toBeGreaterThanOrEqual(10);
    for (const { method, path } of writes) {
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? 'missing');
      const response = await changesNothing({ method, url, headers: owner.headers, payload: {} });
      expect({ method, path, status: response.statusCode }).toEqual({ method, path, status: 400 });
      expect(response.json<{ error: string }>().error.length).toBeGreaterThan(0);
    }
  });
});

describe('ids are canonical (lower-case) wherever they come from', () => {
  it('PATCH /api/team/members/{upper-case id} changes the role, answers it, and logs it once', async () => {
    const response = await inject({
      method: 'PATCH',
      url: `/api/team/members/${memberId.toUpperCase()}`,
      headers: owner.headers,
      payload: { role: 'owner' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ userId: memberId, role: 'owner' });
    const [membership] = await testApp.database.db
      .select({ role: userOrganizations.role })
      .from(userOrganizations)
      .where(
        and(
          eq(userOrganizations.userId, memberId),
          eq(userOrganizations.organizationId, owner.organization.id),
        ),
      );
    expect(membership?.role).toBe('owner');
    const logged = await testApp.database.db
      .select({ subjectId: activityEvents.subjectId })
      .from(activityEvents)
      .where(
        and(
          eq(activityEvents.organizationId, owner.organization.id),
          eq(activityEvents.kind, 'member.role_changed'),
        ),
      );
    expect(logged).toEqual([{ subjectId: memberId }]);
  });

  it('a member that does not exist (in any case) is a 404 that changes nothing', async () => {
    for (const id of [randomUUID(), randomUUID().toUpperCase()]) {
      const response = await changesNothing({
        method: 'PATCH',
        url: `/api/team/members/${id}`,
        headers: owner.headers,
        payload: { role: 'team_member' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Member not found', code: 'NOT_FOUND' });
    }
  });

  it('an upper-case id in a path, a filter or a body finds the same rows as the lower-case one', async () => {
    const tenant = { organizationId: owner.organization.id };
    const course = await insertCourse(testApp.database.db, { ...tenant, courseTitle: 'Case test' });
    await insertVariable(testApp.database.db, { ...tenant, courseId: course.id, name: 'case_score' });
    const upper = course.id.toUpperCase();
    const byPath = await inject({ method: 'GET', url: `/api/courses/${upper}`, headers: owner.headers });
    expect(byPath.statusCode).toBe(200);
    expect(byPath.json()).toMatchObject({ id: course.id });
    const byFilter = await inject({
      method: 'GET',
      url: `/api/variables?courseId=${upper}`,
      headers: owner.headers,
    });
    expect(byFilter.json<{ items: { name: string }[] }>().items.map((item) => item.name)).toEqual([
      'case_score',
    ]);
    const learner = await insertLearner(testApp.database.db, tenant);
    const history = await inject({
      method: 'GET',
      url: `/api/variable-reports/history?name=case_score&courseId=${upper}&learnerId=${learner.id.toUpperCase()}`,
      headers: owner.headers,
    });
    expect(history.statusCode).toBe(200);
  });
});

describe('response headers', () => {
  it('sends Cache-Control: no-store on every /api answer, signed in or not', async () => {
    await testApp.app.ready();
    const document = testApp.app.swagger() as unknown as OpenApiDocument;
    const gets = Object.entries(document.paths)
      .filter(([, operations]) => 'get' in operations)
      .map(([path]) =>
        path.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === 'id' ? owner.organization.id : randomUUID(),
        ),
      );
    expect(gets).toContain('/api/me');
    expect(gets).toContain('/api/api-keys');
    for (const url of gets) {
      const signedIn = await inject({ method: 'GET', url, headers: owner.headers });
      const signedOut = await inject({ method: 'GET', url });
      expect({
        url,
        signedIn: signedIn.headers['cache-control'],
        signedOut: signedOut.headers['cache-control'],
      }).toEqual({
        url,
        signedIn: 'no-store',
        signedOut: 'no-store',
      });
    }
    const missing = await inject({ method: 'GET', url: '/api/no-such-route', headers: owner.headers });
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  it('sends HSTS only when PUBLIC_URL is https', async () => {
    const plain = await inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();

    const secure = await createTestApp({ publicUrl: 'https://app.example.com' });
    try {
      for (const url of ['/api/health', '/api/me', '/']) {
        const response = await secure.app.inject({ method: 'GET', url });
        expect(response.headers['strict-transport-security'], url).toBe(
          'max-age=31536000; includeSubDomains',
        );
      }
    } finally {
      await secure.close();
    }
  });
});
