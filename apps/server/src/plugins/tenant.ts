import {
  ANALYTICS_MESSAGES,
  ORGANIZATION_MESSAGES,
  TEAM_MESSAGES,
  AUTH_MESSAGES,
  API_KEY_MESSAGES,
  LRS_MESSAGES,
  LEARNING_MESSAGES,
  CUSTOM_REPORT_MESSAGES,
  ACTION_MESSAGES,
  PIPELINE_MESSAGES,
  CHATBOT_MESSAGES,
  OWNER_AREAS,
  OWNER_ONLY_MESSAGES,
  canManage,
  type MemberRole,
  type OwnerArea,
  isUuid,
} from '@courselens/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import { AppError } from '../errors';
import { authenticateApiKey, type ApiKeyCaller } from '../modules/api-keys/api-keys.service';
import { resolveSession, type SessionCaller } from '../modules/auth/sessions.service';
import {
  isOwnedByOrganization,
  resolveOrganization,
  type TenantResource,
} from '../modules/organizations/organizations.service';

/**
 * Who may call a route (decision 008 has the whole table):
 * - `public`: anyone;
 * - `user`: a signed-in person, no organization needed (e.g. /api/me);
 * - `member` (the default for every /api route): a person acting in one of
 *   their organizations, whatever their role: the work with the data;
 * - `owner:<area>`: the same, with the owner role; the area (API keys, team,
 *   organization settings, billing, course deletion, public sharing) names
 *   the 403 a team member gets, from one table (`OWNER_ONLY_MESSAGES`);
 * - `api-key`: an API key (`Authorization: Bearer cl_...`), which can only
 *   send learning data (the one scope, `ingest`);
 * - `lrs`: the same key as a Learning Record Store credential, sent the way
 *   authoring tools send one: HTTP Basic with the key's id as the user and
 *   the key as the password (or in the form body of an xAPI alternate
 *   request, which carries its headers as form fields).
 */
export type RouteAccess = 'public' | 'user' | 'member' | OwnerAccess | 'api-key' | 'lrs';
export type OwnerAccess = `owner:${OwnerArea}`;

const OWNER_ACCESS_PREFIX = 'owner:';
const ROUTE_ACCESSES: readonly string[] = [
  'public',
  'user',
  'member',
  'api-key',
  'lrs',
  ...OWNER_AREAS.map((area) => `${OWNER_ACCESS_PREFIX}${area}`),
];

export function isOwnerAccess(access: RouteAccess): access is OwnerAccess {
  return access.startsWith(OWNER_ACCESS_PREFIX);
}

/** The 403 a team member gets on an owner-only route: one message per area, never per route. */
export function forbiddenMessage(access: OwnerAccess): string {
  return OWNER_ONLY_MESSAGES[access.slice(OWNER_ACCESS_PREFIX.length) as OwnerArea];
}

/**
 * What a route's parameter names. `organization` (param `id`): the request
 * acts on that organization, which must be one of the caller's. The others
 * must belong to the request's organization. Either way a miss is a 404,
 * the same as for a row that does not exist.
 */
export type RouteResource = 'organization' | TenantResource;

const RESOURCE_PARAM: Record<RouteResource, string> = {
  organization: 'id',
  apiKey: 'id',
  invitation: 'id',
  member: 'userId',
  course: 'courseId',
  learner: 'learnerId',
  variable: 'variableId',
  question: 'questionId',
  customReport: 'reportId',
  action: 'actionId',
  pipeline: 'pipelineId',
  chatbot: 'chatbotId',
  chatbotVariable: 'chatbotVariableId',
  analyticsFunnel: 'funnelId',
  analyticsInsight: 'insightId',
};

const RESOURCE_NOT_FOUND: Record<RouteResource, string> = {
  organization: ORGANIZATION_MESSAGES.notFound,
  apiKey: API_KEY_MESSAGES.notFound,
  invitation: TEAM_MESSAGES.invitationNotFound,
  member: TEAM_MESSAGES.memberNotFound,
  course: LEARNING_MESSAGES.courseNotFound,
  learner: LEARNING_MESSAGES.learnerNotFound,
  variable: LEARNING_MESSAGES.variableNotFound,
  question: LEARNING_MESSAGES.questionNotFound,
  customReport: CUSTOM_REPORT_MESSAGES.notFound,
  action: ACTION_MESSAGES.notFound,
  pipeline: PIPELINE_MESSAGES.notFound,
  chatbot: CHATBOT_MESSAGES.notFound,
  chatbotVariable: LEARNING_MESSAGES.variableNotFound,
  analyticsFunnel: ANALYTICS_MESSAGES.funnelNotFound,
  analyticsInsight: ANALYTICS_MESSAGES.insightNotFound,
};

export type Tenant = { organizationId: string; role: MemberRole | null };

declare module 'fastify' {
  // Fastify's extension points are interfaces.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** One resource, or several when a route has several parameters (`/learners/:learnerId/courses/:courseId`). */
    resource?: RouteResource | readonly RouteResource[];
    /**
     * `api-key` routes only: without an Authorization header, the key may come
     * as `key` in the JSON body (navigator.sendBeacon cannot set headers). It
     * is checked after the body is parsed, before validation and the handler.
     */
    apiKeyInBody?: boolean;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    caller: SessionCaller | ApiKeyCaller | null;
    tenant: Tenant | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.slice(0, 7).toLowerCase() !== 'bearer ') return null;
  const token = header.slice(7).trim();
  return token.length > 0 && token.length <= 512 ? token : null;
}

/** The routes this plugin guards: the product's API and the LRS. */
function isApiRoute(url: string | undefined): url is string {
  return (
    url !== undefined &&
    (url === '/api' || url.startsWith('/api/') || url === '/xapi' || url.startsWith('/xapi/'))
  );
}

/**
 * The LRS credential of an Authorization value: Basic `<key id>:<key>`, or
 * Bearer `<key>` as the ingestion API takes it. The id must be the key's own,
 * so a key pasted as both user and password (a common slip) is refused too.
 */
function lrsCredential(header: string | undefined): { keyId: string | null; key: string } | null {
  if (typeof header !== 'string' || header.length > 1024) return null;
  const [scheme, value] = [
    header.slice(0, header.indexOf(' ')).toLowerCase(),
    header.slice(header.indexOf(' ') + 1).trim(),
  ];
  if (scheme === 'bearer') return value ? { keyId: null, key: value } : null;
  if (scheme !== 'basic' || !value) return null;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { keyId: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
}

/** The Authorization field of an xAPI alternate request's form body (field names are case-insensitive there). */
function formAuthorization(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Buffer.isBuffer(body)) return undefined;
  const entry = Object.entries(body).find(([name]) => name.toLowerCase() === 'authorization');
  return typeof entry?.[1] === 'string' ? entry[1] : undefined;
}

function isAlternateRequest(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return request.method === 'POST' && typeof query?.method === 'string';
}

/** The signed-in person; throws 401 when there is none (only after the tenant hook ran). */
export function requireSessionCaller(request: FastifyRequest): SessionCaller {
  if (request.caller?.kind !== 'session')
    throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.notAuthenticated);
  return request.caller;
}

export function requireTenant(request: FastifyRequest): Tenant {
  if (!request.tenant) throw new AppError('BAD_REQUEST', ORGANIZATION_MESSAGES.noOrganization);
  return request.tenant;
}

/**
 * The one place that decides who is calling and for which organization.
 * Every /api route is `member` unless it says otherwise, so a new route is
 * protected by default; a route with an `:id`-style parameter must say which
 * resource it names (checked at start-up), so its isolation is enforced here
 * before the handler runs.
 */
export function registerTenant(app: FastifyInstance, db: Database): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('tenant', null);

  const authenticateApiKeyCaller = async (request: FastifyRequest, key: string | null): Promise<void> => {
    const caller = key ? await authenticateApiKey(db, key) : null;
    if (!caller) throw new AppError('UNAUTHENTICATED', 'Invalid or expired API key');
    request.caller = caller;
    request.tenant = { organizationId: caller.organizationId, role: null };
  };

  const authenticateLrsCaller = async (
    request: FastifyRequest,
    header: string | undefined,
  ): Promise<void> => {
    const credential = lrsCredential(header);
    const caller = credential ? await authenticateApiKey(db, credential.key) : null;
    if (!caller || (credential?.keyId !== null && credential?.keyId !== caller.apiKeyId)) {
      throw new AppError('UNAUTHENTICATED', LRS_MESSAGES.invalidCredentials);
    }
    request.caller = caller;
    request.tenant = { organizationId: caller.organizationId, role: null };
  };

  // The API key of a route with `apiKeyInBody`, when no Authorization header
  // carried it. The key is never logged (Fastify does not log bodies).
  app.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config;
    if (config.access === 'lrs' && request.caller === null && isApiRoute(request.routeOptions.url)) {
      await authenticateLrsCaller(request, formAuthorization(request.body));
      return;
    }
    if (!config.apiKeyInBody || request.caller !== null || !isApiRoute(request.routeOptions.url)) return;
    if ((config.access ?? 'member') !== 'api-key') return;
    const body = request.body as { key?: unknown } | null | undefined;
    const key = typeof body === 'object' && body !== null && typeof body.key === 'string' ? body.key : null;
    await authenticateApiKeyCaller(request, key);
  });

  app.addHook('onRoute', (route) => {
    if (!isApiRoute(route.url)) return;
    const access = route.config?.access ?? 'member';
    if (!ROUTE_ACCESSES.includes(access)) {
      throw new Error(`Route ${route.method.toString()} ${route.url} declares an unknown access "${access}"`);
    }
    const hasParams = route.url.includes(':');
    if (
      hasParams &&
      access !== 'public' &&
      access !== 'api-key' &&
      access !== 'lrs' &&
      access !== 'user' &&
      !route.config?.resource
    ) {
      throw new Error(
        `Route ${route.method.toString()} ${route.url} needs config.resource so the tenant plugin can scope its parameter`,
      );
    }
  });

  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (!isApiRoute(url)) return;
    const config = request.routeOptions.config;
    const access = config.access ?? 'member';
    if (access === 'public') return;

    if (access === 'lrs') {
      // An alternate request's credential is in its form body, not parsed yet: see preValidation.
      if (request.headers.authorization === undefined && isAlternateRequest(request)) return;
      await authenticateLrsCaller(request, request.headers.authorization);
      return;
    }
    const token = bearerToken(request);
    if (access === 'api-key') {
      // A beacon's key is in the body, which is not parsed yet: see preValidation.
      if (config.apiKeyInBody && request.headers.authorization === undefined) return;
      await authenticateApiKeyCaller(request, token);
      return;
    }

    const caller = token ? await resolveSession(db, token) : null;
    if (!caller) throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.notAuthenticated);
    request.caller = caller;
    if (access === 'user') return;

    const params = request.params as Record<string, string | undefined>;
    const resources: readonly RouteResource[] =
      config.resource === undefined
        ? []
        : typeof config.resource === 'string'
          ? [config.resource]
          : config.resource;
    const scoped = resources.map((resource) => ({ resource, id: params[RESOURCE_PARAM[resource]] }));
    for (const { resource, id } of scoped) {
      if (!id || !isUuid(id)) throw new AppError('NOT_FOUND', RESOURCE_NOT_FOUND[resource]);
    }
    const resourceId = scoped.find(({ resource }) => resource === 'organization')?.id;
    const header = request.headers['x-organization-id'];
    const named = resourceId ?? (typeof header === 'string' ? header : undefined);
    if (named !== undefined && !isUuid(named))
      throw new AppError('NOT_FOUND', ORGANIZATION_MESSAGES.notFound);
    const tenant = await resolveOrganization(db, { userId: caller.userId, organizationId: named });
    if (!tenant) {
      throw named === undefined
        ? new AppError('BAD_REQUEST', ORGANIZATION_MESSAGES.noOrganization)
        : new AppError('NOT_FOUND', ORGANIZATION_MESSAGES.notFound);
    }
    for (const { resource, id } of scoped) {
      if (resource === 'organization' || !id) continue;
      if (!(await isOwnedByOrganization(db, resource, tenant.organizationId, id))) {
        throw new AppError('NOT_FOUND', RESOURCE_NOT_FOUND[resource]);
      }
    }
    // After the isolation checks: another organization's row stays a 404
    // whatever the caller's role, and a 403 tells nothing about other tenants.
    if (isOwnerAccess(access) && !canManage(tenant.role)) {
      throw new AppError('FORBIDDEN', forbiddenMessage(access));
    }
    request.tenant = tenant;
  });
}
