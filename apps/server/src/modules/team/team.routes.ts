import {
  acceptInvitationSignupInput,
  createInvitationInput,
  idParams,
  invitationPreviewSchema,
  invitationSchema,
  listInvitationsResponse,
  listMembersResponse,
  memberParams,
  memberSchema,
  organizationSchema,
  sentInvitationSchema,
  signupResponse,
  tokenParams,
  updateMemberInput,
} from '@courselens/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import type { Auth } from '../auth/auth';
import { getOrganization } from '../organizations/organizations.service';
import type { InvitationMailer } from './invitation-mailer';
import {
  acceptInvitation,
  inviteMember,
  listInvitations,
  listMembers,
  previewInvitation,
  removeMember,
  resendInvitation,
  revokeInvitation,
  signUpWithInvitation,
  updateMemberRole,
} from './team.service';

type TeamRoutesOptions = {
  db: Database;
  auth: Auth;
  mailer: InvitationMailer;
  publicUrl: string | undefined;
};

/** Members and invitations of the request's organization; owners manage them. */
export const teamRoutes: FastifyPluginAsyncZod<TeamRoutesOptions> = async (
  app,
  { db, auth, mailer, publicUrl },
) => {
  const originOf = (request: FastifyRequest) => publicUrl ?? `${request.protocol}://${request.host}`;

  app.get(
    '/api/team/members',
    {
      schema: {
        tags: ['team'],
        summary: 'Members of the organization',
        response: { 200: listMembersResponse },
      },
    },
    async (request) => ({ members: await listMembers(db, requireTenant(request).organizationId) }),
  );

  app.patch(
    '/api/team/members/:userId',
    {
      config: { access: 'owner:team', resource: 'member' },
      schema: {
        tags: ['team'],
        summary: "Change a member's role (owners)",
        params: memberParams,
        body: updateMemberInput,
        response: { 200: memberSchema },
      },
    },
    async (request) =>
      updateMemberRole(db, {
        organizationId: requireTenant(request).organizationId,
        actorUserId: requireSessionCaller(request).userId,
        userId: request.params.userId,
        role: request.body.role,
      }),
  );

  app.delete(
    '/api/team/members/:userId',
    {
      config: { access: 'owner:team', resource: 'member' },
      schema: { tags: ['team'], summary: 'Remove a member (owners)', params: memberParams },
    },
    async (request, reply) => {
      await removeMember(db, {
        organizationId: requireTenant(request).organizationId,
        actorUserId: requireSessionCaller(request).userId,
        userId: request.params.userId,
      });
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/invitations',
    {
      config: { access: 'owner:team' },
      schema: {
        tags: ['team'],
        summary: 'Pending invitations (owners)',
        response: { 200: listInvitationsResponse },
      },
    },
    async (request) => ({ invitations: await listInvitations(db, requireTenant(request).organizationId) }),
  );

  app.post(
    '/api/invitations',
    {
      config: { access: 'owner:team' },
      schema: {
        tags: ['team'],
        summary: 'Invite by e-mail (owners); the link is in the answer',
        body: createInvitationInput,
        response: { 201: sentInvitationSchema },
      },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      const organization = await getOrganization(db, tenant.organizationId);
      const sent = await inviteMember(
        { db, mailer, origin: originOf(request) },
        {
          organizationId: tenant.organizationId,
          organizationName: organization.name,
          inviterId: request.caller?.kind === 'session' ? request.caller.userId : undefined,
          email: request.body.email,
          role: request.body.role,
        },
      );
      return reply.status(201).send(sent);
    },
  );

  app.post(
    '/api/invitations/:id/resend',
    {
      config: { access: 'owner:team', resource: 'invitation' },
      schema: {
        tags: ['team'],
        summary: 'Re-send with a new link (owners)',
        params: idParams,
        response: { 200: sentInvitationSchema },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const organization = await getOrganization(db, tenant.organizationId);
      return resendInvitation(
        { db, mailer, origin: originOf(request) },
        {
          organizationId: tenant.organizationId,
          organizationName: organization.name,
          inviterId: requireSessionCaller(request).userId,
          invitationId: request.params.id,
        },
      );
    },
  );

  app.post(
    '/api/invitations/:id/revoke',
    {
      config: { access: 'owner:team', resource: 'invitation' },
      schema: {
        tags: ['team'],
        summary: 'Revoke an invitation (owners)',
        params: idParams,
        response: { 200: invitationSchema },
      },
    },
    async (request) =>
      revokeInvitation(db, {
        organizationId: requireTenant(request).organizationId,
        invitationId: request.params.id,
      }),
  );

  app.get(
    '/api/invitations/:token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['team'],
        summary: 'What an invitation link is for (public, /team-signup)',
        params: tokenParams,
        response: { 200: invitationPreviewSchema },
      },
    },
    async (request) => previewInvitation(db, request.params.token),
  );

  app.post(
    '/api/invitations/:token/signup',
    {
      config: { access: 'public' },
      schema: {
        tags: ['team'],
        summary: 'Create an account through an invitation and join',
        params: tokenParams,
        body: acceptInvitationSignupInput,
        response: { 201: signupResponse },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await signUpWithInvitation(db, auth, { token: request.params.token, ...request.body })),
  );

  app.post(
    '/api/invitations/:token/accept',
    {
      config: { access: 'user' },
      schema: {
        tags: ['team'],
        summary: 'Accept an invitation as the signed-in person',
        params: tokenParams,
        response: { 200: organizationSchema },
      },
    },
    async (request) =>
      acceptInvitation(db, { token: request.params.token, userId: requireSessionCaller(request).userId }),
  );
};
