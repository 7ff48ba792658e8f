import {
  findInvalidInput,
  isSupportedXapiVersion,
  LRS_MESSAGES,
  XAPI_ABOUT_VERSIONS,
  XAPI_MAX_DOCUMENT_BYTES,
  XAPI_MAX_STATEMENTS_BYTES,
  XAPI_VERSION,
} from '@courselens/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client';
import type { XapiDocumentKind } from '../../db/schema';
import { AppError } from '../../errors';
import { requireTenant } from '../../plugins/tenant';
import type { ApiKeyCaller } from '../api-keys/api-keys.service';
import type { Publish } from '../ingestion/write-path';
import { getActivity, getPerson, handleDocument, type DocumentMethod } from './documents.service';
import {
  buildMultipartMixed,
  parseContentType,
  parseMultipartMixed,
  xapiAttachmentParts,
  type XapiAttachment,
} from './multipart';
import { parseAcceptLanguage } from './statement-format';
import { consistentThrough, getStatements, storeStatements } from './statements.service';

const bad = (message: string) => new AppError('BAD_REQUEST', message);

type Method = DocumentMethod;
const METHODS: readonly Method[] = ['GET', 'PUT', 'POST', 'DELETE'];

/** Header fields an alternate request carries in its form (xAPI lists these). */
const FORM_HEADERS = new Set([
  'authorization',
  'x-experience-api-version',
  'content-type',
  'content-length',
  'if-match',
  'if-none-match',
]);

/** A request to the LRS after the alternate syntax (a form POST standing for another method) is unfolded. */
type LrsRequest = {
  method: Method;
  params: Record<string, string>;
  header: (name: string) => string | undefined;
  body: Buffer;
};

function singleValues(query: unknown): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (Array.isArray(value)) throw bad(LRS_MESSAGES.invalidParameter(name, 'must be given once'));
    if (typeof value === 'string') params[name] = value;
  }
  return params;
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The request in one shape, whichever syntax it came in: xAPI's alternate
 * request syntax (for browsers that cannot send PUT or custom headers) is a
 * POST with only `method` in the URL and everything else, headers included,
 * as form fields.
 */
function lrsRequest(request: FastifyRequest): LrsRequest {
  const query = singleValues(request.query);
  const invalid = findInvalidInput(query, { root: 'query' });
  if (invalid) throw bad(invalid.message);
  if (request.method === 'POST' && query.method !== undefined) {
    const method = query.method.toUpperCase() as Method;
    if (!METHODS.includes(method)) throw bad(LRS_MESSAGES.alternateMethod);
    if (Object.keys(query).length !== 1) throw bad(LRS_MESSAGES.alternateSyntax);
    const form = request.body;
    if (typeof form !== 'object' || form === null || Buffer.isBuffer(form))
      throw bad(LRS_MESSAGES.alternateSyntax);
    const headers = new Map<string, string>();
    const params: Record<string, string> = {};
    let content = '';
    for (const [name, value] of Object.entries(form as Record<string, string>)) {
      const lower = name.toLowerCase();
      if (FORM_HEADERS.has(lower)) headers.set(lower, value);
      else if (name === 'content') content = value;
      else params[name] = value;
    }
    const invalidForm = findInvalidInput(params, { root: 'form' });
    if (invalidForm) throw bad(invalidForm.message);
    return {
      method,
      params,
      header: (name) =>
        headers.get(name) ?? (name === 'accept-language' ? headerOf(request, name) : undefined),
      body: Buffer.from(content, 'utf8'),
    };
  }
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  if (!Buffer.isBuffer(request.body) && request.body !== undefined && request.body !== null)
    throw bad(LRS_MESSAGES.alternateSyntax);
  return {
    method: (request.method === 'HEAD' ? 'GET' : request.method) as Method,
    params: query,
    header: (name) => headerOf(request, name),
    body,
  };
}

function requireVersion(lrs: LrsRequest): void {
  const version = lrs.header('x-experience-api-version');
  if (version === undefined || version.trim() === '') throw bad(LRS_MESSAGES.versionMissing);
  if (!isSupportedXapiVersion(version.trim())) throw bad(LRS_MESSAGES.versionUnsupported(version.trim()));
}

function mediaType(header: string | undefined): string | undefined {
  return header === undefined ? undefined : parseContentType(header).mediaType;
}

/** The statements and attachment parts of a PUT or POST body (JSON, or multipart/mixed with attachments). */
function statementsBody(lrs: LrsRequest): { body: unknown; attachments: Map<string, XapiAttachment> } {
  const contentType = lrs.header('content-type');
  const type = mediaType(contentType);
  let json: string;
  let attachments = new Map<string, XapiAttachment>();
  if (type === 'application/json') {
    json = lrs.body.toString('utf8');
  } else if (type === 'multipart/mixed' && contentType !== undefined) {
    const multipart = parseMultipartMixed(lrs.body, contentType);
    if (!multipart.ok) throw bad(multipart.error);
    const parts = xapiAttachmentParts(multipart.parts);
    if (!parts.ok) throw bad(parts.error);
    json = parts.statementsJson;
    attachments = new Map([...parts.attachments].map(([sha2, part]) => [sha2.toLowerCase(), part]));
  } else {
    throw bad(LRS_MESSAGES.statementsContentType);
  }
  try {
    return { body: JSON.parse(json) as unknown, attachments };
  } catch {
    throw bad(LRS_MESSAGES.invalidJson);
  }
}

function httpDate(date: Date): string {
  return date.toUTCString();
}

/**
 * The Learning Record Store (xAPI 1.0.3) under `/xapi/`: statements,
 * documents, activities, agents and `/about`, for authoring tools that
 * report to any LRS. Authenticated with an API key as HTTP Basic (`lrs`
 * access, in the tenant plugin), open to any origin like the ingestion API.
 */
export const xapiRoutes: FastifyPluginAsync<{
  db: Database;
  publish: Publish;
  publicUrl: string | null;
}> = async (app, { db, publish, publicUrl }) => {
  // Bodies are read raw: documents are any media type, statements may be
  // multipart/mixed, and an alternate request is a form.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(
        null,
        Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))),
      );
    },
  );
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-experience-api-version', XAPI_VERSION);
    reply.header('access-control-allow-origin', '*');
    reply.header(
      'access-control-expose-headers',
      'ETag, Last-Modified, Content-Type, X-Experience-API-Version, X-Experience-API-Consistent-Through, X-Request-Id',
    );
    reply.header('cross-origin-resource-policy', 'cross-origin');
    reply.header('cache-control', 'no-store');
    // No WWW-Authenticate on a 401: a browser course would pop up a login
    // box before the learner instead of reporting the misconfiguration.
    return payload;
  });

  app.options(
    '/xapi/*',
    { config: { access: 'public' }, schema: { hide: true } },
    async (_request, reply) => {
      reply.header('access-control-allow-methods', 'GET, HEAD, PUT, POST, DELETE, OPTIONS');
      reply.header(
        'access-control-allow-headers',
        'Authorization, Content-Type, X-Experience-API-Version, If-Match, If-None-Match, Accept-Language',
      );
      reply.header('access-control-max-age', '86400');
      return reply.status(204).send();
    },
  );

  app.get('/xapi/about', { config: { access: 'public' }, schema: { hide: true } }, async () => ({
    version: [...XAPI_ABOUT_VERSIONS],
    extensions: {},
  }));

  const callerOf = (request: FastifyRequest) => {
    const caller = request.caller as ApiKeyCaller;
    const home = publicUrl ?? `${request.protocol}://${request.host}`;
    return {
      organizationId: requireTenant(request).organizationId,
      apiKeyId: caller.apiKeyId,
      authority: {
        objectType: 'Agent',
        account: { homePage: `${home.replace(/\/$/, '')}/xapi/`, name: caller.apiKeyId },
      },
    };
  };

  const route = (
    url: string,
    bodyLimit: number,
    handler: (lrs: LrsRequest, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ) =>
    app.route({
      method: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'],
      url,
      exposeHeadRoute: false,
      bodyLimit,
      config: { access: 'lrs', perItemValidation: true },
      schema: { hide: true },
      handler: async (request, reply) => {
        const lrs = lrsRequest(request);
        requireVersion(lrs);
        return handler(lrs, request, reply);
      },
    });

  route('/xapi/statements', XAPI_MAX_STATEMENTS_BYTES, async (lrs, request, reply) => {
    const caller = callerOf(request);
    if (lrs.method === 'GET') {
      const answer = await getStatements(
        db,
        caller.organizationId,
        lrs.params,
        parseAcceptLanguage(lrs.header('accept-language')),
      );
      reply.header('x-experience-api-consistent-through', consistentThrough().toISOString());
      if (answer.lastModified) reply.header('last-modified', httpDate(answer.lastModified));
      if (answer.attachments === null)
        return reply.type('application/json').send(JSON.stringify(answer.body));
      const multipart = buildMultipartMixed([
        { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(answer.body) },
        ...answer.attachments.map((attachment) => ({
          headers: {
            'Content-Type': attachment.contentType,
            'Content-Transfer-Encoding': 'binary',
            'X-Experience-API-Hash': attachment.sha2,
          },
          body: attachment.content,
        })),
      ]);
      return reply.type(multipart.contentType).send(multipart.body);
    }
    if (lrs.method === 'DELETE')
      throw new AppError('METHOD_NOT_ALLOWED', LRS_MESSAGES.methodNotAllowed('DELETE', '/xapi/statements'));
    const { body, attachments } = statementsBody(lrs);
    if (lrs.method === 'PUT') {
      const statementId = lrs.params.statementId;
      const others = Object.keys(lrs.params).filter((name) => name !== 'statementId');
      if (others[0] !== undefined) throw bad(LRS_MESSAGES.unknownParameter(others[0]));
      if (statementId === undefined) throw bad(LRS_MESSAGES.parameterRequired('statementId'));
      await storeStatements(db, caller, { body, attachments, statementId, publish });
      return reply.status(204).send();
    }
    const unknown = Object.keys(lrs.params)[0];
    if (unknown !== undefined) throw bad(LRS_MESSAGES.unknownParameter(unknown));
    const ids = await storeStatements(db, caller, { body, attachments, publish });
    return reply.type('application/json').send(JSON.stringify(ids));
  });

  const documentRoute = (url: string, kind: XapiDocumentKind) =>
    route(url, XAPI_MAX_DOCUMENT_BYTES, async (lrs, request, reply) => {
      const caller = callerOf(request);
      const answer = await handleDocument(db, { ...caller, publish }, kind, {
        method: lrs.method,
        params: lrs.params,
        ifMatch: lrs.header('if-match'),
        ifNoneMatch: lrs.header('if-none-match'),
        contentType: lrs.header('content-type'),
        body: lrs.body,
      });
      if (answer.kind === 'document') {
        return reply
          .header('etag', answer.etag)
          .header('last-modified', httpDate(answer.updatedAt))
          .type(answer.contentType)
          .send(answer.content);
      }
      if (answer.kind === 'ids') return reply.type('application/json').send(JSON.stringify(answer.ids));
      return reply.status(204).send();
    });
  documentRoute('/xapi/activities/state', 'state');
  documentRoute('/xapi/activities/profile', 'activity_profile');
  documentRoute('/xapi/agents/profile', 'agent_profile');

  route('/xapi/activities', 65_536, async (lrs, request, reply) => {
    if (lrs.method !== 'GET')
      throw new AppError('METHOD_NOT_ALLOWED', LRS_MESSAGES.methodNotAllowed(lrs.method, '/xapi/activities'));
    return reply
      .type('application/json')
      .send(JSON.stringify(await getActivity(db, requireTenant(request).organizationId, lrs.params)));
  });
  route('/xapi/agents', 65_536, async (lrs, request, reply) => {
    if (lrs.method !== 'GET')
      throw new AppError('METHOD_NOT_ALLOWED', LRS_MESSAGES.methodNotAllowed(lrs.method, '/xapi/agents'));
    return reply
      .type('application/json')
      .send(JSON.stringify(await getPerson(db, requireTenant(request).organizationId, lrs.params)));
  });
};
