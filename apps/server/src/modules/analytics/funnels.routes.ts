import {
  funnelComputeInput,
  funnelComputeResult,
  funnelDroppedOffExportInput,
  funnelDroppedOffInput,
  funnelDroppedOffResponse,
  funnelParams,
  funnelSaveInput,
  funnelUpdateInput,
  listFunnelsResponse,
  savedFunnelSchema,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { sendCsv } from '../../lib/csv';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import {
  computeFunnel,
  createFunnel,
  deleteFunnel,
  droppedOffCsvColumns,
  exportDroppedOffLearners,
  getFunnel,
  listDroppedOffLearners,
  listFunnels,
  updateFunnel,
} from './funnels.service';
import { recentAnalytics } from './recent-analytics';

const tags = ['analytics'];
const funnelConfig = { resource: 'analyticsFunnel' } as const;

/**
 * Funnels: saved definitions (list, create, read, rename or replace,
 * delete), the computation of a definition over a period, and the learners
 * who dropped off at a step (a page, or every one as CSV). Every member may
 * use them; saving and deleting is recorded in the activity.
 */
export const funnelsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/analytics/funnels',
    {
      schema: {
        tags,
        summary: 'Saved funnels by name, and a suggested funnel when none is saved',
        response: { 200: listFunnelsResponse },
      },
    },
    async (request) => listFunnels(db, requireTenant(request).organizationId),
  );

  app.post(
    '/api/analytics/funnels',
    {
      schema: {
        tags,
        summary: 'Save a funnel (name, description, steps, order, window, breakdown)',
        body: funnelSaveInput,
        response: { 201: savedFunnelSchema },
      },
    },
    async (request, reply) => {
      const funnel = await createFunnel(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        name: request.body.name,
        description: request.body.description,
        config: request.body.config,
      });
      return reply.status(201).send(funnel);
    },
  );

  app.post(
    '/api/analytics/funnels/compute',
    {
      schema: {
        tags,
        summary:
          'Compute a funnel over a period: conversion, drop-off and time per step, breakdown, comparison',
        body: funnelComputeInput,
        response: { 200: funnelComputeResult },
      },
    },
    async (request) => {
      const { organizationId } = requireTenant(request);
      return recentAnalytics(db, organizationId, 'funnel', request.body, () =>
        computeFunnel(db, organizationId, request.body),
      );
    },
  );

  app.post(
    '/api/analytics/funnels/dropped-off',
    {
      schema: {
        tags,
        summary: 'One page of the learners who reached the step before `stepIndex` and not `stepIndex`',
        body: funnelDroppedOffInput,
        response: { 200: funnelDroppedOffResponse },
      },
    },
    async (request) => listDroppedOffLearners(db, requireTenant(request).organizationId, request.body),
  );

  app.post(
    '/api/analytics/funnels/dropped-off/export',
    {
      schema: {
        tags,
        summary:
          'Every learner who dropped off at a step, as CSV (the body of the dropped-off list, no page)',
        body: funnelDroppedOffExportInput,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { items, period } = await exportDroppedOffLearners(
        db,
        requireTenant(request).organizationId,
        request.body,
      );
      const fileName = `funnel-dropped-off-step-${request.body.stepIndex + 1}-${period.from}-to-${period.to}`;
      return sendCsv(reply, fileName, droppedOffCsvColumns, items);
    },
  );

  app.get(
    '/api/analytics/funnels/:funnelId',
    {
      config: funnelConfig,
      schema: {
        tags,
        summary: 'A saved funnel',
        params: funnelParams,
        response: { 200: savedFunnelSchema },
      },
    },
    async (request) => getFunnel(db, requireTenant(request).organizationId, request.params.funnelId),
  );

  app.put(
    '/api/analytics/funnels/:funnelId',
    {
      config: funnelConfig,
      schema: {
        tags,
        summary: 'Rename a funnel, change its description or replace its configuration',
        params: funnelParams,
        body: funnelUpdateInput,
        response: { 200: savedFunnelSchema },
      },
    },
    async (request) =>
      updateFunnel(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        funnelId: request.params.funnelId,
        ...request.body,
      }),
  );

  app.delete(
    '/api/analytics/funnels/:funnelId',
    {
      config: funnelConfig,
      schema: { tags, summary: 'Delete a saved funnel', params: funnelParams },
    },
    async (request, reply) => {
      await deleteFunnel(db, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        funnelId: request.params.funnelId,
      });
      return reply.status(204).send();
    },
  );
};
