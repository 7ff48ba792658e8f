import {
  createOrganizationInput,
  idParams,
  meResponse,
  organizationSchema,
  updateOrganizationInput,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import {
  createOrganization,
  getOrganization,
  markPrimaryOrganization,
  updateOrganization,
} from './organizations.service';

/** Creating organizations, their settings (owners) and the caller's primary one. */
export const organizationRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.post(
    '/api/organizations',
    {
      config: { access: 'user' },
      schema: {
        tags: ['organizations'],
        summary: 'Create an organization (not primary)',
        body: createOrganizationInput,
        response: { 201: organizationSchema },
      },
    },
    async (request, reply) => {
      const caller = requireSessionCaller(request);
      const organization = await createOrganization(db, { userId: caller.userId, ...request.body });
      return reply.status(201).send(organization);
    },
  );

  app.get(
    '/api/organizations/:id',
    {
      config: { access: 'member', resource: 'organization' },
      schema: {
        tags: ['organizations'],
        summary: "One of the caller's organizations",
        params: idParams,
        response: { 200: organizationSchema },
      },
    },
    async (request) => getOrganization(db, requireTenant(request).organizationId),
  );

  app.patch(
    '/api/organizations/:id',
    {
      config: { access: 'owner:organization', resource: 'organization' },
      schema: {
        tags: ['organizations'],
        summary: 'Rename or change the subdomain (owners)',
        params: idParams,
        body: updateOrganizationInput,
        response: { 200: organizationSchema },
      },
    },
    async (request) =>
      updateOrganization(db, { organizationId: requireTenant(request).organizationId, ...request.body }),
  );

  app.post(
    '/api/organizations/:id/primary',
    {
      config: { access: 'member', resource: 'organization' },
      schema: {
        tags: ['organizations'],
        summary: 'Make this the primary organization',
        params: idParams,
        response: { 200: meResponse.shape.organizations },
      },
    },
    async (request) =>
      markPrimaryOrganization(db, {
        userId: requireSessionCaller(request).userId,
        organizationId: requireTenant(request).organizationId,
      }),
  );
};
