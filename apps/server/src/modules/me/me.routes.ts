import { meResponse } from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireSessionCaller } from '../../plugins/tenant';
import { getMe } from './me.service';

/** GET /api/me: who is signed in and their organizations. */
export const meRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/me',
    {
      config: { access: 'user' },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in person and their organizations',
        response: { 200: meResponse },
      },
    },
    async (request) => getMe(db, requireSessionCaller(request).userId),
  );
};
