import {
  actionInput,
  actionParams,
  actionSchema,
  actionTestResultSchema,
  createdActionSchema,
  listActionsQuery,
  listActionsResponse,
  rotatedActionSecretSchema,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import {
  createAction,
  deleteAction,
  getAction,
  listActions,
  rotateActionSecret,
  testAction,
  updateAction,
} from './actions.service';
import type { ActionsRuntime } from './runtime';

// Members and owners alike manage actions: they are work with the data (decision 008).
const actionConfig = { resource: 'action' } as const;
const tags = ['actions'];

/**
 * Actions of the request's organization: the reusable steps pipelines run
 * (webhook, e-mail, course broadcast, learner variable, team notification).
 * A webhook's signing secret is answered once, by the creation or a rotation.
 */
export const actionRoutes: FastifyPluginAsyncZod<{ db: Database; runtime: ActionsRuntime }> = async (
  app,
  { db, runtime },
) => {
  app.get(
    '/api/actions',
    {
      schema: {
        tags,
        summary: 'List actions, newest first; ?q= searches the name, ?type= filters',
        querystring: listActionsQuery,
        response: { 200: listActionsResponse },
      },
    },
    async (request) =>
      listActions(db, { organizationId: requireTenant(request).organizationId, ...request.query }),
  );

  app.post(
    '/api/actions',
    {
      schema: {
        tags,
        summary: 'Create an action; a webhook’s signing secret (whsec_…) is in this response only',
        body: actionInput,
        response: { 201: createdActionSchema },
      },
    },
    async (request, reply) => {
      const created = await createAction(db, runtime, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        draft: request.body,
      });
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/api/actions/:actionId',
    {
      config: actionConfig,
      schema: {
        tags,
        summary: 'An action with its settings (never a secret)',
        params: actionParams,
        response: { 200: actionSchema },
      },
    },
    async (request) => getAction(db, requireTenant(request).organizationId, request.params.actionId),
  );

  app.put(
    '/api/actions/:actionId',
    {
      config: actionConfig,
      schema: {
        tags,
        summary:
          'Replace an action’s settings (the type cannot change; a secret header sent without a value keeps it)',
        params: actionParams,
        body: actionInput,
        response: { 200: actionSchema },
      },
    },
    async (request) =>
      updateAction(db, runtime, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        actionId: request.params.actionId,
        draft: request.body,
      }),
  );

  app.delete(
    '/api/actions/:actionId',
    {
      config: actionConfig,
      schema: { tags, summary: 'Delete an action no pipeline uses', params: actionParams },
    },
    async (request, reply) => {
      await deleteAction(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        actionId: request.params.actionId,
      });
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/actions/:actionId/rotate-secret',
    {
      config: actionConfig,
      schema: {
        tags,
        summary: 'A new signing secret for a webhook action, in this response only (empty body)',
        params: actionParams,
        response: { 200: rotatedActionSecretSchema },
      },
    },
    async (request) =>
      rotateActionSecret(db, runtime, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        actionId: request.params.actionId,
      }),
  );

  app.post(
    '/api/actions/:actionId/test',
    {
      config: actionConfig,
      schema: {
        tags,
        summary:
          'Send a test with the sample event: a webhook for real, an e-mail to you; other types are previewed (empty body)',
        params: actionParams,
        response: { 200: actionTestResultSchema },
      },
    },
    async (request) =>
      testAction(db, runtime, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        actionId: request.params.actionId,
      }),
  );
};
