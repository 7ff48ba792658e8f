import {
  apiKeySchema,
  createApiKeyInput,
  createdApiKeySchema,
  idParams,
  listApiKeysResponse,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service';

/** API keys of the request's organization (spec section 7). */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/api-keys',
    {
      config: { access: 'owner:api-keys' },
      schema: {
        tags: ['api-keys'],
        summary: 'List API keys (never the secret)',
        response: { 200: listApiKeysResponse },
      },
    },
    async (request) => ({ apiKeys: await listApiKeys(db, requireTenant(request).organizationId) }),
  );

  app.post(
    '/api/api-keys',
    {
      config: { access: 'owner:api-keys' },
      schema: {
        tags: ['api-keys'],
        summary: 'Create an API key; the secret is in this response only',
        body: createApiKeyInput,
        response: { 201: createdApiKeySchema },
      },
    },
    async (request, reply) => {
      const created = await createApiKey(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        name: request.body.name,
        scope: request.body.scope,
        expiresAt: request.body.expires_at,
      });
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/api/api-keys/:id/revoke',
    {
      config: { access: 'owner:api-keys', resource: 'apiKey' },
      schema: {
        tags: ['api-keys'],
        summary: 'Revoke an API key (empty body)',
        params: idParams,
        response: { 200: apiKeySchema },
      },
    },
    async (request) =>
      revokeApiKey(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        apiKeyId: request.params.id,
      }),
  );
};
