import { dashboardQuerySchema, dashboardResponse } from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireTenant } from '../../plugins/tenant';
import { getDashboard } from './dashboard.service';

/** The organization's overview. */
export const dashboardRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/dashboard',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Totals, runs per day, top courses, hardest questions and recent activity of a period',
        querystring: dashboardQuerySchema,
        response: { 200: dashboardResponse },
      },
    },
    async (request) =>
      getDashboard(db, { organizationId: requireTenant(request).organizationId, days: request.query.days }),
  );
};
