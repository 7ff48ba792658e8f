import {
  activityActorsResponse,
  activityExportQuerySchema,
  activityListResponse,
  activityQuerySchema,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { csvFileName, MAX_EXPORT_ROWS, sendCsv } from '../../lib/csv';
import { requireTenant } from '../../plugins/tenant';
import {
  ACTIVITY_CSV_COLUMNS,
  listActivity,
  listActivityActors,
  listActivityForExport,
} from './activity.service';

/** The organization's activity feed: team actions and summarized ingestion. */
export const activityRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/activity',
    {
      schema: {
        tags: ['activity'],
        summary: 'Activity feed, newest first (filters: kind, actor, from/to days in UTC, q in the summary)',
        querystring: activityQuerySchema,
        response: { 200: activityListResponse },
      },
    },
    async (request) => listActivity(db, requireTenant(request).organizationId, request.query),
  );

  app.get(
    '/api/activity/actors',
    {
      schema: {
        tags: ['activity'],
        summary: 'People who appear in the activity feed (for its actor filter)',
        response: { 200: activityActorsResponse },
      },
    },
    async (request) => ({ actors: await listActivityActors(db, requireTenant(request).organizationId) }),
  );

  app.get(
    '/api/activity/export',
    {
      schema: {
        tags: ['activity'],
        summary: `Activity feed as CSV with the same filters (at most ${MAX_EXPORT_ROWS} rows)`,
        querystring: activityExportQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const items = await listActivityForExport(
        db,
        requireTenant(request).organizationId,
        request.query,
        MAX_EXPORT_ROWS,
      );
      const today = new Date().toISOString().slice(0, 10);
      return sendCsv(reply, csvFileName(`activity-${today}`), ACTIVITY_CSV_COLUMNS, items);
    },
  );
};
