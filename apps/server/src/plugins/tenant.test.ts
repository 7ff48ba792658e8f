import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import { OWNER_ONLY_MESSAGES, type OwnerArea } from '@courselens/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import {
  actions,
  activityEvents,
  analyticsFunnels,
  analyticsInsights,
  apiKeys,
  courses,
  customReports,
  invitations,
  organizations,
  pipelineRuns,
  pipelineVersions,
  chatbots,
  chatbotVariables,
  pipelines,
  sharedViews,
  userOrganizations,
} from '../db/schema';
import { insertCourse, insertLearner, insertQuestion, insertVariable } from '../db/factories/learning';
import { createTestDatabase, type TestDatabaseConnection } from '../test/database';
import { bearer, signUpViaApi, type SignedUp } from '../test/auth';
import { isOwnerAccess, type RouteAccess, type RouteResource } from './tenant';

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
  // A custom report's public link: the token is the capability.
  'GET /api/public-reports/:token',
  // Shared views: the token in the query is the capability.
  'GET /api/shared/course-variables/report',
  'GET /api/shared/course-variables/chart',
  'GET /api/shared/course-variables/leaders',
  'GET /api/shared/chatbot-variables/report',
  'GET /api/shared/chatbot-variables/chart',
  'GET /api/shared/chatbot-variables/leaders',
  'GET /api/shared/questions/:questionId/report',
  'GET /api/shared/questions/:questionId/chart',
  'GET /api/shared/questions/:questionId/leaders',
  // The chat of an agent: learners are not users; the agent's id is the address,
  // and a conversation is read back only with its learner's e-mail.
  'GET /api/chat/:chatbotId',
  'POST /api/chat/:chatbotId/messages',
  'GET /api/chat/:chatbotId/sessions/:sessionId',
  // CORS preflight of the ingestion API: browsers send it without credentials.
  'OPTIONS /api/v1/*',
  // Stripe's webhooks: the signature over the body is the credential.
  'POST /api/billing/webhooks/stripe',
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

/**
 * What a team member (an organization's member without the owner role) gets
 * on every /api route: `allowed`, `403 <area>` (owners only; the 403 carries
 * the area's message from OWNER_ONLY_MESSAGES) or `api key only` (sessions are
 * not keys). Decision 008 explains the choices. A new route fails the test
 * until it is added here, so whoever adds it decides who may call it.
 */
type MemberOutcome = 'allowed' | 'api key only' | `403 ${OwnerArea}`;
const MEMBER_COLUMN: Record<string, MemberOutcome> = {
  // Identity and the person's own settings.
  'GET /api/health': 'allowed',
  'POST /api/signup': 'allowed',
  'POST /api/session': 'allowed',
  'DELETE /api/session': 'allowed',
  'GET /api/me': 'allowed',
  'PATCH /api/profile': 'allowed',
  'POST /api/profile/password': 'allowed',
  // Organizations: anyone may create one (and owns it) or pick their primary.
  'POST /api/organizations': 'allowed',
  'GET /api/organizations/:id': 'allowed',
  'PATCH /api/organizations/:id': '403 organization',
  'POST /api/organizations/:id/primary': 'allowed',
  // Background jobs that failed, and retrying them: running the organization.
  'GET /api/jobs/failed': '403 organization',
  'POST /api/jobs/retry': '403 organization',
  // API keys.
  'GET /api/api-keys': '403 api-keys',
  'POST /api/api-keys': '403 api-keys',
  'POST /api/api-keys/:id/revoke': '403 api-keys',
  'GET /api/lrs/activity': '403 api-keys',
  // The team: members see who is in it; owners invite, change roles and remove.
  'GET /api/team/members': 'allowed',
  'PATCH /api/team/members/:userId': '403 team',
  'DELETE /api/team/members/:userId': '403 team',
  'GET /api/invitations': '403 team',
  'POST /api/invitations': '403 team',
  'POST /api/invitations/:id/resend': '403 team',
  'POST /api/invitations/:id/revoke': '403 team',
  'GET /api/invitations/:token': 'allowed',
  'POST /api/invitations/:token/signup': 'allowed',
  'POST /api/invitations/:token/accept': 'allowed',
  // Ingestion: API keys only.
  'OPTIONS /api/v1/*': 'allowed',
  'POST /api/v1/events': 'api key only',
  'GET /api/v1/courses/:externalCourseId/broadcast': 'api key only',
  // Courses: members create, edit and broadcast; deleting one is for owners.
  'GET /api/courses': 'allowed',
  'GET /api/courses/export': 'allowed',
  'POST /api/courses': 'allowed',
  'GET /api/courses/:courseId': 'allowed',
  'PATCH /api/courses/:courseId': 'allowed',
  'DELETE /api/courses/:courseId': '403 course-deletion',
  'GET /api/courses/:courseId/learners': 'allowed',
  'GET /api/courses/:courseId/learners/export': 'allowed',
  'GET /api/courses/:courseId/broadcasts': 'allowed',
  'PUT /api/courses/:courseId/broadcast': 'allowed',
  // Learners, variables, questions, dashboard, activity: the data.
  'GET /api/learners': 'allowed',
  'GET /api/learners/export': 'allowed',
  'GET /api/learners/:learnerId': 'allowed',
  'GET /api/learners/:learnerId/courses': 'allowed',
  'GET /api/learners/:learnerId/courses/export': 'allowed',
  'GET /api/learners/:learnerId/variables': 'allowed',
  'GET /api/learners/:learnerId/variables/export': 'allowed',
  'GET /api/learners/:learnerId/courses/:courseId/variables': 'allowed',
  'GET /api/learners/:learnerId/courses/:courseId/variables/export': 'allowed',
  'GET /api/learners/:learnerId/responses': 'allowed',
  'GET /api/learners/:learnerId/responses/export': 'allowed',
  'GET /api/variables': 'allowed',
  'GET /api/variables/export': 'allowed',
  'GET /api/variables/courses': 'allowed',
  'GET /api/courses/:courseId/variables': 'allowed',
  'GET /api/courses/:courseId/variables/export': 'allowed',
  'PATCH /api/variables/:variableId': 'allowed',
  'GET /api/questions': 'allowed',
  'GET /api/questions/export': 'allowed',
  'GET /api/questions/courses': 'allowed',
  'GET /api/courses/:courseId/questions': 'allowed',
  'GET /api/courses/:courseId/questions/export': 'allowed',
  'PATCH /api/questions/:questionId': 'allowed',
  'GET /api/dashboard': 'allowed',
  'GET /api/activity': 'allowed',
  'GET /api/activity/actors': 'allowed',
  'GET /api/activity/export': 'allowed',
  // Custom reports: members build, duplicate and delete them; a public link is for owners.
  'GET /api/custom-reports': 'allowed',
  'GET /api/custom-reports/catalog': 'allowed',
  'POST /api/custom-reports': 'allowed',
  'POST /api/custom-reports/generate': 'allowed',
  'POST /api/custom-reports/preview': 'allowed',
  'GET /api/custom-reports/:reportId': 'allowed',
  'PUT /api/custom-reports/:reportId': 'allowed',
  'DELETE /api/custom-reports/:reportId': 'allowed',
  'POST /api/custom-reports/:reportId/duplicate': 'allowed',
  'GET /api/custom-reports/:reportId/data': 'allowed',
  'GET /api/custom-reports/:reportId/export': 'allowed',
  'PUT /api/custom-reports/:reportId/public': '403 sharing',
  'POST /api/custom-reports/:reportId/public/rotate': '403 sharing',
  'GET /api/public-reports/:token': 'allowed',
  // Actions (the steps pipelines run): work with the data, for members and owners alike.
  'GET /api/actions': 'allowed',
  'POST /api/actions': 'allowed',
  'GET /api/actions/:actionId': 'allowed',
  'PUT /api/actions/:actionId': 'allowed',
  'DELETE /api/actions/:actionId': 'allowed',
  'POST /api/actions/:actionId/rotate-secret': 'allowed',
  'POST /api/actions/:actionId/test': 'allowed',
  // Billing: owners alone see and change it; every member reads the banner's status.
  'GET /api/billing': '403 billing',
  'GET /api/billing/status': 'allowed',
  'GET /api/billing/invoices': '403 billing',
  'POST /api/billing/checkout': '403 billing',
  'POST /api/billing/cancel': '403 billing',
  'POST /api/billing/portal': '403 billing',
  'POST /api/billing/webhooks/stripe': 'allowed',
  // Analytics: every member reads the settings; owners alone change them.
  'GET /api/analytics/settings': 'allowed',
  'PATCH /api/analytics/settings': '403 analytics',
  // Analytics screens, saved funnels and insights are work with the data, for everyone.
  'GET /api/analytics/questions': 'allowed',
  'GET /api/analytics/questions/courses': 'allowed',
  'GET /api/analytics/funnels': 'allowed',
  'POST /api/analytics/funnels': 'allowed',
  'POST /api/analytics/funnels/compute': 'allowed',
  'POST /api/analytics/funnels/dropped-off': 'allowed',
  'POST /api/analytics/funnels/dropped-off/export': 'allowed',
  'GET /api/analytics/funnels/:funnelId': 'allowed',
  'PUT /api/analytics/funnels/:funnelId': 'allowed',
  'DELETE /api/analytics/funnels/:funnelId': 'allowed',
  'GET /api/analytics/heatmaps/questions': 'allowed',
  'GET /api/analytics/heatmaps/learners': 'allowed',
  'GET /api/analytics/heatmaps/activity': 'allowed',
  'GET /api/analytics/learning-paths': 'allowed',
  'GET /api/analytics/learning-paths/courses': 'allowed',
  'GET /api/analytics/overview': 'allowed',
  'GET /api/analytics/insights': 'allowed',
  'POST /api/analytics/insights/refresh': 'allowed',
  'POST /api/analytics/insights/:insightId/dismiss': 'allowed',
  'POST /api/analytics/insights/:insightId/restore': 'allowed',
  // Pipelines: building, versions, runs, test and dry runs are work with the data, for everyone.
  'GET /api/pipelines': 'allowed',
  'POST /api/pipelines': 'allowed',
  'POST /api/pipelines/validate': 'allowed',
  'GET /api/pipelines/:pipelineId': 'allowed',
  'PATCH /api/pipelines/:pipelineId': 'allowed',
  'DELETE /api/pipelines/:pipelineId': 'allowed',
  'GET /api/pipelines/:pipelineId/versions': 'allowed',
  'POST /api/pipelines/:pipelineId/versions/:version/restore': 'allowed',
  'GET /api/pipelines/:pipelineId/runs': 'allowed',
  'GET /api/pipelines/:pipelineId/runs/:runId': 'allowed',
  'POST /api/pipelines/:pipelineId/runs/:runId/retry': 'allowed',
  'POST /api/pipelines/:pipelineId/run': 'allowed',
  'POST /api/pipelines/:pipelineId/test': 'allowed',
  'GET /api/pipelines/:pipelineId/test-events': 'allowed',
  'POST /api/pipelines/:pipelineId/dry-run': 'allowed',
  // The pipeline generator drafts from the organization's names and saves nothing: the work with the data.
  'POST /api/pipelines/generate': 'allowed',
  // AI summaries (regenerating included) and the variable and question reports.
  'GET /api/ai-summaries/courses/:courseId/variables/:variableName': 'allowed',
  'GET /api/ai-summaries/variables/:variableId': 'allowed',
  'GET /api/ai-summaries/chatbot-variable': 'allowed',
  'POST /api/ai-summaries/courses/:courseId/variables/:variableName': 'allowed',
  'POST /api/ai-summaries/variables/:variableId': 'allowed',
  'POST /api/ai-summaries/chatbot-variable': 'allowed',
  // Custom AI agents: building them and reading their conversations is work with the data.
  'GET /api/chatbots': 'allowed',
  'POST /api/chatbots': 'allowed',
  'POST /api/chatbots/knowledge/extract': 'allowed',
  'GET /api/chatbots/:chatbotId': 'allowed',
  'PUT /api/chatbots/:chatbotId': 'allowed',
  'DELETE /api/chatbots/:chatbotId': 'allowed',
  'GET /api/chatbots/:chatbotId/sessions': 'allowed',
  'GET /api/chatbots/:chatbotId/sessions/:sessionId': 'allowed',
  'GET /api/chatbots/:chatbotId/insights': 'allowed',
  'GET /api/chatbots/:chatbotId/results/export': 'allowed',
  'GET /api/learners/:learnerId/chatbot-variables': 'allowed',
  'GET /api/chat/:chatbotId': 'allowed',
  'POST /api/chat/:chatbotId/messages': 'allowed',
  'GET /api/chat/:chatbotId/sessions/:sessionId': 'allowed',
  'GET /api/variable-reports/report': 'allowed',
  'GET /api/variable-reports/export': 'allowed',
  'GET /api/variable-reports/history': 'allowed',
  'GET /api/variable-reports/chart': 'allowed',
  'GET /api/variable-reports/leaders': 'allowed',
  'GET /api/courses/:courseId/variables/:variableName/report': 'allowed',
  'GET /api/courses/:courseId/variables/:variableName/export': 'allowed',
  'GET /api/courses/:courseId/variables/:variableName/history': 'allowed',
  'GET /api/courses/:courseId/variables/:variableName/chart': 'allowed',
  'GET /api/courses/:courseId/variables/:variableName/leaders': 'allowed',
  'GET /api/questions/:questionId/report': 'allowed',
  'GET /api/questions/:questionId/report/export': 'allowed',
  'GET /api/questions/:questionId/chart': 'allowed',
  'GET /api/questions/:questionId/leaders': 'allowed',
  // Shared views: members see whether a view is shared; switching and new links are for owners.
  'GET /api/variables/:variableId/share': 'allowed',
  'PUT /api/variables/:variableId/share': '403 sharing',
  'POST /api/variables/:variableId/share/rotate': '403 sharing',
  'GET /api/questions/:questionId/share': 'allowed',
  'PUT /api/questions/:questionId/share': '403 sharing',
  'POST /api/questions/:questionId/share/rotate': '403 sharing',
  'GET /api/chatbot-variables/:chatbotVariableId/share': 'allowed',
  'PUT /api/chatbot-variables/:chatbotVariableId/share': '403 sharing',
  'POST /api/chatbot-variables/:chatbotVariableId/share/rotate': '403 sharing',
  'GET /api/shared/chatbot-variables/report': 'allowed',
  'GET /api/shared/chatbot-variables/chart': 'allowed',
  'GET /api/shared/chatbot-variables/leaders': 'allowed',
  'GET /api/shared/course-variables/report': 'allowed',
  'GET /api/shared/course-variables/chart': 'allowed',
  'GET /api/shared/course-variables/leaders': 'allowed',
  'GET /api/shared/questions/:questionId/report': 'allowed',
  'GET /api/shared/questions/:questionId/chart': 'allowed',
  'GET /api/shared/questions/:questionId/leaders': 'allowed',
};

/** What the route's declared access means for a team member. */
function memberOutcomeOf(access: RouteAccess): MemberOutcome {
  if (isOwnerAccess(access)) return `403 ${access.slice('owner:'.length) as OwnerArea}`;
  return access === 'api-key' ? 'api key only' : 'allowed';
}

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
    payload: { name: 'A key', scope: 'ingest' },
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
  const [action] = await database.db
    .insert(actions)
    .values({
      ...tenant,
      name: 'A note',
      actionType: 'notify_team',
      config: { message: 'Hello', roles: ['owner'] },
      createdBy: ownerA.user.id,
    })
    .returning();
  idsOfA.actionId = [action?.id ?? ''];
  const [pipeline] = await database.db
    .insert(pipelines)
    .values({ ...tenant, name: 'A pipeline', createdBy: ownerA.user.id })
    .returning();
  await database.db.insert(pipelineVersions).values({
    ...tenant,
    pipelineId: pipeline?.id ?? '',
    version: 1,
    nodes: [],
    edges: [],
  });
  const [run] = await database.db
    .insert(pipelineRuns)
    .values({
      ...tenant,
      pipelineId: pipeline?.id ?? '',
      version: 1,
      triggerKind: 'manual',
      triggerKey: 'manual:a',
      status: 'failed',
    })
    .returning();
  idsOfA.pipelineId = [pipeline?.id ?? ''];
  idsOfA.runId = [run?.id ?? ''];
  const [chatbot] = await database.db
    .insert(chatbots)
    .values({ ...tenant, name: 'A chatbot' })
    .returning();
  const [chatbotVariable] = await database.db
    .insert(chatbotVariables)
    .values({ ...tenant, chatbotId: chatbot?.id ?? '', name: 'goal' })
    .returning();
  idsOfA.chatbotId = [chatbot?.id ?? ''];
  idsOfA.chatbotVariableId = [chatbotVariable?.id ?? ''];
  const [funnel] = await database.db
    .insert(analyticsFunnels)
    .values({ ...tenant, name: 'A funnel', config: {} })
    .returning();
  const [insight] = await database.db
    .insert(analyticsInsights)
    .values({
      ...tenant,
      kind: 'hard_question',
      fingerprint: 'a',
      title: 'A finding',
      body: 'Why',
      link: '/analytics',
    })
    .returning();
  idsOfA.funnelId = [funnel?.id ?? ''];
  idsOfA.insightId = [insight?.id ?? ''];
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
    for (const route of routes.filter(
      (candidate) => candidate.access === 'member' || isOwnerAccess(candidate.access),
    )) {
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

describe('a team member of organization A (the member column)', () => {
  let memberHeaders: { authorization: string };
  /** The one id a route's parameter takes when A's own rows are probed. */
  const idFor = (route: RegisteredRoute, param: string): string => {
    if (param === 'id') {
      const resources = [route.resource].flat();
      const [organizationId, apiKeyId, invitationId] = idsOfA.id ?? [];
      if (resources.includes('apiKey')) return apiKeyId ?? '';
      if (resources.includes('invitation')) return invitationId ?? '';
      return organizationId ?? '';
    }
    return idsOfA[param]?.[0] ?? randomUUID();
  };
  const probe = (route: RegisteredRoute, headers: Record<string, string>) =>
    app.inject({
      method: route.method as InjectOptions['method'],
      url: fill(route.url, (param) => idFor(route, param)),
      headers,
      payload: {},
    });

  /** Every row a forbidden call could have touched, to prove it touched none. */
  const snapshot = async () => {
    const tables = [
      organizations,
      userOrganizations,
      invitations,
      apiKeys,
      courses,
      customReports,
      sharedViews,
      actions,
      pipelines,
      pipelineRuns,
      activityEvents,
    ] as const;
    return Promise.all(tables.map((table) => database.db.select().from(table)));
  };

  beforeAll(async () => {
    const sent = await app.inject({
      method: 'POST',
      url: '/api/invitations',
      headers: ownerA.headers,
      payload: { email: `member-a-${randomUUID()}@example.com` },
    });
    expect(sent.statusCode).toBe(201);
    const joined = await app.inject({
      method: 'POST',
      url: `/api/invitations/${sent.json<{ token: string }>().token}/signup`,
      payload: { name: 'Mia Member', password: 'correct horse battery' },
    });
    expect(joined.statusCode).toBe(201);
    memberHeaders = bearer(joined.json<{ token: string }>().token);
    // A variable and a question of A shared by the owner, so switching them off is a real change.
    for (const url of [
      `/api/variables/${idsOfA.variableId?.[0]}/share`,
      `/api/questions/${idsOfA.questionId?.[0]}/share`,
    ]) {
      const shared = await app.inject({
        method: 'PUT',
        url,
        headers: ownerA.headers,
        payload: { enabled: true },
      });
      expect(shared.statusCode).toBe(200);
    }
  });

  it('is declared for every route, and agrees with what the route declares', () => {
    const declared = Object.fromEntries(routes.map((route) => [route.key, memberOutcomeOf(route.access)]));
    expect(declared).toEqual(MEMBER_COLUMN);
  });

  it("gets the area's 403 on every owner-only route, and nothing changes", async () => {
    const failures: string[] = [];
    const before = await snapshot();
    for (const route of routes.filter((candidate) => isOwnerAccess(candidate.access))) {
      const response = await probe(route, memberHeaders);
      const area = (MEMBER_COLUMN[route.key] ?? '').replace('403 ', '') as OwnerArea;
      const expected = { error: OWNER_ONLY_MESSAGES[area], code: 'FORBIDDEN' };
      if (response.statusCode !== 403 || JSON.stringify(response.json()) !== JSON.stringify(expected))
        failures.push(`${route.key} -> ${response.statusCode} ${response.body}`);
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('is let through on every other organization route (never 401 or 403)', async () => {
    const failures: string[] = [];
    const allowed = routes.filter((route) => ['member', 'user'].includes(route.access));
    // Calls that end the session or delete a row go last, so every other one sees A's rows.
    const order = (route: RegisteredRoute) =>
      route.key === 'DELETE /api/session' ? 2 : route.method === 'DELETE' ? 1 : 0;
    for (const route of [...allowed].sort((a, b) => order(a) - order(b))) {
      const response = await probe(route, memberHeaders);
      if ([401, 403].includes(response.statusCode))
        failures.push(`${route.key} -> ${response.statusCode} ${response.body}`);
    }
    expect(failures).toEqual([]);
  });

  it("while A's owner passes the same owner-only routes", async () => {
    // The member deleted A's report above (members may); the owner shares a new one.
    const [report] = await database.db
      .insert(customReports)
      .values({ organizationId: ownerA.organization.id, name: 'Another report', createdBy: ownerA.user.id })
      .returning();
    idsOfA.reportId = [report?.id ?? ''];
    // The same for A's chatbot, whose variable the owner shares.
    const [chatbot] = await database.db
      .insert(chatbots)
      .values({ organizationId: ownerA.organization.id, name: 'Another chatbot' })
      .returning();
    const [chatbotVariable] = await database.db
      .insert(chatbotVariables)
      .values({ organizationId: ownerA.organization.id, chatbotId: chatbot?.id ?? '', name: 'goal' })
      .returning();
    idsOfA.chatbotId = [chatbot?.id ?? ''];
    idsOfA.chatbotVariableId = [chatbotVariable?.id ?? ''];
    const failures: string[] = [];
    const ownerOnly = routes.filter((route) => isOwnerAccess(route.access));
    for (const route of [...ownerOnly].sort(
      (a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
    )) {
      const response = await probe(route, ownerA.headers);
      if ([401, 403, 404].includes(response.statusCode))
        failures.push(`${route.key} -> ${response.statusCode} ${response.body}`);
    }
    expect(failures).toEqual([]);
  });
});
