import { analyticsSettingsInput, analyticsSettingsResponse } from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import { getAnalyticsSettings, updateAnalyticsSettings } from './analytics-settings.service';

const tags = ['analytics'];

/** The organization's analytics settings: every member reads them, owners change them. */
export const analyticsSettingsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/analytics/settings',
    {
      schema: {
        tags,
        summary:
          'The analytics settings (time zone, pass marks, completion, exclusions, attempts, funnel window)',
        response: { 200: analyticsSettingsResponse },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return getAnalyticsSettings(db, tenant.organizationId, tenant.role);
    },
  );

  app.put(
    '/api/analytics/settings',
    {
      config: { access: 'owner:analytics' },
      schema: {
        tags,
        summary: 'Replace the analytics settings (a field left out takes its default)',
        body: analyticsSettingsInput,
        response: { 200: analyticsSettingsResponse },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return updateAnalyticsSettings(db, {
        organizationId: tenant.organizationId,
        userId: requireSessionCaller(request).userId,
        role: tenant.role,
        settings: request.body,
      });
    },
  );
};
