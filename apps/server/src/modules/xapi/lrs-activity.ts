import {
  LRS_RECENT_UNMAPPED,
  lrsActivityResponseSchema,
  type LrsActivityResponse,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireTenant } from '../../plugins/tenant';
import { findLrsActivity } from './xapi.queries';

const WINDOW_DAYS = 30;

/**
 * What the organization's LRS received lately: when the last statement came,
 * and the latest statements that made no data with the reason, so whoever
 * connected a course sees why a statement shows nowhere.
 */
export async function getLrsActivity(
  db: Database,
  organizationId: string,
  now = new Date(),
): Promise<LrsActivityResponse> {
  const since = new Date(now.getTime() - WINDOW_DAYS * 86_400_000);
  const activity = await findLrsActivity(db, organizationId, since, LRS_RECENT_UNMAPPED);
  return {
    unmapped: activity.unmapped,
    lastStoredAt: activity.lastStoredAt?.toISOString() ?? null,
    recentUnmapped: activity.recent.map((statement) => ({
      ...statement,
      stored: statement.stored.toISOString(),
    })),
  };
}

/** `GET /api/lrs/activity` for the API keys tab (owners, like the keys themselves). */
export const lrsActivityRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/lrs/activity',
    {
      config: { access: 'owner:api-keys' },
      schema: {
        tags: ['api-keys'],
        summary: 'What the LRS (/xapi/) received lately, and the statements that made no data',
        response: { 200: lrsActivityResponseSchema },
      },
    },
    async (request) => getLrsActivity(db, requireTenant(request).organizationId),
  );
};
