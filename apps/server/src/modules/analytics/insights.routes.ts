import {
  analyticsInsightSchema,
  analyticsInsightsQuery,
  analyticsInsightsResponse,
  analyticsOverviewQuery,
  analyticsOverviewResponse,
  insightIdParams,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import { digestSmtp } from './insights.job';
import { dismissInsight, listInsights, refreshInsights, restoreInsight } from './insights.service';
import { getAnalyticsOverview } from './overview.service';

const tags = ['analytics'];

/** Analytics: the overview of `/analytics` and the insights (list, dismiss, restore, refresh now). */
export const insightsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  // The digest goes out only where the server has SMTP; the screens say so.
  const isEmailConfigured = digestSmtp() !== undefined;

  app.get(
    '/api/analytics/overview',
    {
      schema: {
        tags,
        summary:
          'Key figures of a period (local days, the last 30 by default) against the period before, a daily trend and the top insights',
        querystring: analyticsOverviewQuery,
        response: { 200: analyticsOverviewResponse },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return getAnalyticsOverview(db, {
        organizationId: tenant.organizationId,
        from: request.query.from,
        to: request.query.to,
      });
    },
  );

  app.get(
    '/api/analytics/insights',
    {
      schema: {
        tags,
        summary: 'The findings of the insight job, open or dismissed, most important first',
        querystring: analyticsInsightsQuery,
        response: { 200: analyticsInsightsResponse },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return listInsights(db, {
        organizationId: tenant.organizationId,
        status: request.query.status,
        isEmailConfigured,
      });
    },
  );

  app.post(
    '/api/analytics/insights/refresh',
    {
      schema: {
        tags,
        summary: 'Compute the findings now (a few times an hour); answers the open findings',
        response: { 200: analyticsInsightsResponse },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return refreshInsights(db, { organizationId: tenant.organizationId, isEmailConfigured });
    },
  );

  app.post(
    '/api/analytics/insights/:insightId/dismiss',
    {
      config: { resource: 'analyticsInsight' },
      schema: {
        tags,
        summary: 'Dismiss a finding (it comes back only if its evidence changes materially)',
        params: insightIdParams,
        response: { 200: analyticsInsightSchema },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return dismissInsight(db, {
        organizationId: tenant.organizationId,
        insightId: request.params.insightId,
        userId: requireSessionCaller(request).userId,
      });
    },
  );

  app.post(
    '/api/analytics/insights/:insightId/restore',
    {
      config: { resource: 'analyticsInsight' },
      schema: {
        tags,
        summary: 'Show a dismissed finding again',
        params: insightIdParams,
        response: { 200: analyticsInsightSchema },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return restoreInsight(db, {
        organizationId: tenant.organizationId,
        insightId: request.params.insightId,
        userId: requireSessionCaller(request).userId,
      });
    },
  );
};
