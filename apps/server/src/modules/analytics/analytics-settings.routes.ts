import { analyticsSettingsPatch, analyticsSettingsResponse } from '@courselens/contracts';
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

  app.patch(
    '/api/analytics/settings',
    {
      config: { access: 'owner:analytics' },
      schema: {
        tags,
        summary: 'Change analytics settings (the fields sent; the others keep their value)',
        body: analyticsSettingsPatch,
        response: { 200: analyticsSettingsResponse },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return updateAnalyticsSettings(db, {
        organizationId: tenant.organizationId,
        userId: requireSessionCaller(request).userId,
        role: tenant.role,
        patch: request.body,
      });
    },
  );
};
