import {
  courseBroadcastResponse,
  externalCourseParams,
  ingestEventsRequest,
  ingestEventsResponse,
} from '@courselens/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import type { ApiKeyCaller } from '../api-keys/api-keys.service';
import { requireTenant } from '../../plugins/tenant';
import { getCourseBroadcast, ingestEvents } from './ingestion.service';
import type { Publish } from './write-path';

/**
 * CORS of the public API: a course on any host calls it, with an API key and
 * never a cookie, so any origin may. Only these routes (this plugin's
 * context) answer cross-origin; the rest of /api stays same-origin.
 */
function allowAnyOrigin(reply: FastifyReply): void {
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', 'x-request-id');
  // Helmet's same-origin default would stop a page on another host from reading the answer.
  reply.header('cross-origin-resource-policy', 'cross-origin');
}

/**
 * The public ingestion API (`/api/v1`), authenticated by an API key of any
 * scope: courses send what learners do, and read their broadcast message.
 */
export const ingestionRoutes: FastifyPluginAsyncZod<{ db: Database; publish: Publish }> = async (
  app,
  { db, publish },
) => {
  // Runs for every response of this plugin's routes, errors (401, 413) included.
  app.addHook('onSend', async (_request, reply, payload) => {
    allowAnyOrigin(reply);
    return payload;
  });

  // navigator.sendBeacon posts JSON as text/plain (a "simple" request with no
  // preflight): parse it as JSON here, for this plugin's routes only.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (request, body, done) => {
    void parseJson(request, typeof body === 'string' ? body : body.toString('utf8'), done);
  });

  app.options(
    '/api/v1/*',
    { config: { access: 'public' }, schema: { hide: true } },
    async (_request, reply) => {
      reply.header('access-control-allow-methods', 'GET, POST, OPTIONS');
      reply.header('access-control-allow-headers', 'Authorization, Content-Type');
      reply.header('access-control-max-age', '86400');
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/events',
    {
      config: { access: 'api-key', apiKeyInBody: true, perItemValidation: true },
      schema: {
        tags: ['ingestion'],
        summary: 'Send learning events (1 to 1000 per request, at most 1 MB)',
        description:
          'Authenticate with `Authorization: Bearer <API key>` (scope ingest or full); a beacon, ' +
          'which cannot set headers, may send the key as `key` in the JSON body instead. Each event ' +
          'is checked on its own: bad ones are listed in `rejected` with their index, the rest are ' +
          'stored and committed before the answer. An event whose `id` is already stored counts as ' +
          'a duplicate and changes nothing, so a request can always be retried.',
        body: ingestEventsRequest,
        response: { 200: ingestEventsResponse },
      },
    },
    async (request) => {
      const caller = request.caller as ApiKeyCaller;
      return ingestEvents(db, {
        organizationId: requireTenant(request).organizationId,
        apiKeyId: caller.apiKeyId,
        events: request.body.events,
        publish,
      });
    },
  );

  app.get(
    '/api/v1/courses/:externalCourseId/broadcast',
    {
      config: { access: 'api-key' },
      schema: {
        tags: ['ingestion'],
        summary: "A course's current broadcast message (for the tracker)",
        params: externalCourseParams,
        response: { 200: courseBroadcastResponse },
      },
    },
    async (request) =>
      getCourseBroadcast(db, requireTenant(request).organizationId, request.params.externalCourseId),
  );
};
