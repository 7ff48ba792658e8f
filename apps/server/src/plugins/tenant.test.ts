import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { apiKeys, customReports, invitations, organizations } from '../db/schema';
import { insertCourse, insertLearner, insertQuestion, insertVariable } from '../db/factories/learning';
import { createTestDatabase, type TestDatabaseConnection } from '../test/database';
import { signUpViaApi, type SignedUp } from '../test/auth';
import type { RouteAccess, RouteResource } from './tenant';

/**
 * Every route anyone may call without signing in. Making a route public means
 * adding it here, in review.
 */
const PUBLIC_ROUTES = [
  'GET /api/health',
  'POST /api/signup',
  'POST /api/session',
  'GET /api/invitations/:token',
  'POST /api/invitations/:token/signup',
  // A custom report's public link: the token is the capability (issue 6, item 6).
  'GET /api/public-reports/:token',
  // Shared views: the token in the query is the capability (issue 6, item 4).
  'GET /api/shared/course-variables/report',
  'GET /api/shared/course-variables/chart',
  'GET /api/shared/course-variables/leaders',
  'GET /api/shared/questions/:questionId/report',
  'GET /api/shared/questions/:questionId/chart',
  'GET /api/shared/questions/:questionId/leaders',
  // CORS preflight of the ingestion API: browsers send it without credentials.
  'OPTIONS /api/v1/*',
];

/**
 * Routes whose parameter is a secret capability (an invitation token sent to
 * one e-mail address), not an id of an organization's row: they do not scope
 * by the caller's organization, by design.
 */
const CAPABILITY_ROUTES = ['POST /api/invitations/:token/accept'];

/**
 * API-key routes whose parameter is looked up within the key's own
 * organization (the key decides the tenant), not an id checked by the plugin.
 * Their isolation is tested in the module (another organization's key → 404).
 */
const KEY_SCOPED_ROUTES = ['GET /api/v1/courses/:externalCourseId/broadcast'];

/** Routes whose 401 carries the spec's own words instead of 'Not authenticated'. */
const SPEC_UNAUTHENTICATED_MESSAGES: Record<string, string> = {
  'DELETE /api/courses/:courseId': 'No active session. Please login and try again.',
  'POST /api/custom-reports': 'User not authenticated',
};

type RegisteredRoute = {
  key: string;
  method: string;
  url: string;
  access: RouteAccess;
  resource?: RouteResource | readonly RouteResource[];
};

const routes: RegisteredRoute[] = [];
let app: FastifyInstance;
let database: TestDatabaseConnection;
let ownerA: SignedUp;
let ownerB: SignedUp;
const idsOfA: Record<string, string[]> = {};

function collect(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  for (const method of methods) {
    if (method === 'HEAD' || !route.url.startsWith('/api')) continue;
    const config = route.config;
    routes.push({
      key: `${method} ${route.url}`,
      method,
      url: route.url,
      access: config?.access ?? 'member',
      ...(config?.resource ? { resource: config.resource } : {}),
    });
  }
}

function fill(url: string, value: (param: string) => string): string {
  return url.replace(/:(\w+)/g, (_, param: string) => value(param));
}

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST_DIR: '/nonexistent-web-dist' });
  app = await buildApp({ config, database, logger: false, onRoute: collect });
  await app.ready();

  ownerA = await signUpViaApi(app);
  ownerB = await signUpViaApi(app);
  const key = await app.inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: ownerA.headers,
    payload: { name: 'A key', scope: 'full' },
  });
  const invitation = await app.inject({
    method: 'POST',
    url: '/api/invitations',
    headers: ownerA.headers,
    payload: { email: 'invitee-a@example.com' },
  });
  expect(key.statusCode).toBe(201);
  expect(invitation.statusCode).toBe(201);
  idsOfA.id = [
    ownerA.organization.id,
    key.json<{ id: string }>().id,
    invitation.json<{ invitation: { id: string } }>().invitation.id,
  ];
  idsOfA.userId = [ownerA.user.id];

  // One row of each learning resource in A, so every route naming one is probed with a real id.
  const tenant = { organizationId: ownerA.organization.id };
  const course = await insertCourse(database.db, tenant);
  const learner = await insertLearner(database.db, tenant);
  const variable = await insertVariable(database.db, { ...tenant, courseId: course.id });
  const question = await insertQuestion(database.db, { ...tenant, courseId: course.id });
  idsOfA.courseId = [course.id];
  idsOfA.learnerId = [learner.id];
  idsOfA.variableId = [variable.id];
  idsOfA.questionId = [question.id];
  const [report] = await database.db
    .insert(customReports)
    .values({ ...tenant, name: 'A report', createdBy: ownerA.user.id })
    .returning();
  idsOfA.reportId = [report?.id ?? ''];
});

afterAll(async () => {
  await app.close();
  await database.close();
});

describe('the route table', () => {
  it('has routes to check, and exactly the listed public ones', () => {
    expect(routes.length).toBeGreaterThan(15);
    const isPublic = routes.filter((route) => route.access === 'public').map((route) => route.key);
    expect(isPublic.sort()).toEqual([...PUBLIC_ROUTES].sort());
  });

  it('names the resource of every parameter of a non-public route (or lists it as a capability)', () => {
    const unscoped = routes.filter(
      (route) =>
        route.url.includes(':') &&
        route.access !== 'public' &&
        !route.resource &&
        !CAPABILITY_ROUTES.includes(route.key) &&
        !KEY_SCOPED_ROUTES.includes(route.key),
    );
    expect(unscoped.map((route) => route.key)).toEqual([]);
  });
});

describe('anonymous callers', () => {
  it('get 401 "Not authenticated" on every route that is not public', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((candidate) => candidate.access !== 'public')) {
      const response = await app.inject({
        method: route.method as InjectOptions['method'],
        url: fill(route.url, () => randomUUID()),
        payload: {},
      });
      const body = response.json<{ error: string; code: string }>();
      const isSessionRoute = !route.access.startsWith('api-key');
      if (
        response.statusCode !== 401 ||
        body.code !== 'UNAUTHENTICATED' ||
        (isSessionRoute && body.error !== (SPEC_UNAUTHENTICATED_MESSAGES[route.key] ?? 'Not authenticated'))
      ) {
        failures.push(`${route.key} -> ${response.statusCode} ${response.body}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('also get 401 with a malformed or unknown bearer token', async () => {
    for (const authorization of ['Bearer', 'Bearer nope', 'Basic abc', `Bearer ${'x'.repeat(600)}`]) {
      const response = await app.inject({ method: 'GET', url: '/api/me', headers: { authorization } });
      expect(response.statusCode).toBe(401);
    }
  });
});

describe('a member of organization B', () => {
  it("gets 404 for every one of organization A's rows, on every route with an id", async () => {
    const failures: string[] = [];
    const scoped = routes.filter((route) => route.resource);
    expect(scoped.length).toBeGreaterThanOrEqual(6);
    for (const route of scoped) {
      const params = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');
      for (const param of params) {
        for (const id of idsOfA[param] ?? []) {
          const response = await app.inject({
            method: route.method as InjectOptions['method'],
            url: fill(route.url, (name) => (name === param ? id : randomUUID())),
            headers: ownerB.headers,
            payload: {},
          });
          if (response.statusCode !== 404)
            failures.push(`${route.key} (${param}=${id}) -> ${response.statusCode}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('gets 404 on every organization route when naming A in X-Organization-Id', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((candidate) => ['member', 'owner'].includes(candidate.access))) {
      const response = await app.inject({
        method: route.method as InjectOptions['method'],
        url: fill(route.url, () => randomUUID()),
        headers: { ...ownerB.headers, 'x-organization-id': ownerA.organization.id },
        payload: {},
      });
      if (response.statusCode !== 404) failures.push(`${route.key} -> ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it("a 404 for A's row looks exactly like one for a row that does not exist", async () => {
    const [keyOfA] = await database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.organizationId, ownerA.organization.id));
    const theirs = await app.inject({
      method: 'POST',
      url: `/api/api-keys/${keyOfA?.id}/revoke`,
      headers: ownerB.headers,
    });
    const missing = await app.inject({
      method: 'POST',
      url: `/api/api-keys/${randomUUID()}/revoke`,
      headers: ownerB.headers,
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(missing.body);
  });

  it("left A's rows untouched", async () => {
    const [organization] = await database.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, ownerA.organization.id));
    expect(organization?.name).toBe(ownerA.organization.name);
    const keys = await database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.organizationId, ownerA.organization.id));
    expect(keys.map((key) => key.revokedAt)).toEqual([null]);
    const pending = await database.db
      .select()
      .from(invitations)
      .where(eq(invitations.organizationId, ownerA.organization.id));
    expect(pending.map((invitation) => invitation.status)).toEqual(['pending']);
  });
});
