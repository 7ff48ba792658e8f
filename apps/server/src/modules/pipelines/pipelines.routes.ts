import {
  createPipelineInput,
  dryRunInput,
  dryRunResponse,
  listPipelineRunsQuery,
  listPipelinesQuery,
  manualRunInput,
  pipelineDetailSchema,
  pipelineListResponse,
  pipelineParams,
  pipelineRunDetailSchema,
  pipelineRunListResponse,
  pipelineRunParams,
  pipelineRunSummarySchema,
  pipelineVersionParams,
  pipelineVersionsResponse,
  retryPipelineRunInput,
  testEventsResponse,
  testRunInput,
  testRunResponse,
  updatePipelineInput,
  validatePipelineInput,
  validatePipelineResponse,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireSessionCaller, requireTenant } from '../../plugins/tenant';
import type { ActionsRuntime } from '../actions/runtime';
import type { PipelineQueue } from './pipeline-queue';
import {
  createPipeline,
  deletePipeline,
  getPipeline,
  getRun,
  listPipelines,
  listRuns,
  listVersions,
  restoreVersion,
  retryRun,
  runManually,
  updatePipeline,
  validateGraph,
} from './pipelines.service';
import { dryRun, listTestEvents, testRun } from './trial-runs.service';

// Members and owners alike build and run pipelines: they are work with the data (decision 008).
const pipelineConfig = { resource: 'pipeline' } as const;
const tags = ['pipelines'];

/**
 * Pipelines of the request's organization: their graphs and versions, the
 * runs they made and the test and dry runs that run nothing for real.
 */
export const pipelineRoutes: FastifyPluginAsyncZod<{
  db: Database;
  queue: PipelineQueue;
  runtime: ActionsRuntime;
}> = async (app, { db, queue, runtime }) => {
  app.get(
    '/api/pipelines',
    {
      schema: {
        tags,
        summary:
          'List pipelines with status, last run and runs of 30 days; ?q= searches names, ?status= filters',
        querystring: listPipelinesQuery,
        response: { 200: pipelineListResponse },
      },
    },
    async (request) =>
      listPipelines(db, { organizationId: requireTenant(request).organizationId, ...request.query }),
  );

  app.post(
    '/api/pipelines',
    {
      schema: {
        tags,
        summary: 'Create a pipeline (version 1); active only when its graph has no problem',
        body: createPipelineInput,
        response: { 201: pipelineDetailSchema },
      },
    },
    async (request, reply) => {
      const created = await createPipeline(db, queue, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        ...request.body,
      });
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/api/pipelines/validate',
    {
      schema: {
        tags,
        summary: 'The problems of a graph that is not saved',
        body: validatePipelineInput,
        response: { 200: validatePipelineResponse },
      },
    },
    async (request) =>
      validateGraph(db, { organizationId: requireTenant(request).organizationId, ...request.body }),
  );

  app.get(
    '/api/pipelines/:pipelineId',
    {
      config: pipelineConfig,
      schema: {
        tags,
        summary: 'A pipeline with its graph and what stands in the way of running it',
        params: pipelineParams,
        response: { 200: pipelineDetailSchema },
      },
    },
    async (request) => getPipeline(db, requireTenant(request).organizationId, request.params.pipelineId),
  );

  app.patch(
    '/api/pipelines/:pipelineId',
    {
      config: pipelineConfig,
      schema: {
        tags,
        summary:
          'Change a pipeline; a changed graph is a new version; turning it on needs a graph without problems',
        params: pipelineParams,
        body: updatePipelineInput,
        response: { 200: pipelineDetailSchema },
      },
    },
    async (request) =>
      updatePipeline(db, queue, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        pipelineId: request.params.pipelineId,
        ...request.body,
      }),
  );

  app.delete(
    '/api/pipelines/:pipelineId',
    {
      config: pipelineConfig,
      schema: { tags, summary: 'Delete a pipeline with its versions and runs', params: pipelineParams },
    },
    async (request, reply) => {
      await deletePipeline(db, queue, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        pipelineId: request.params.pipelineId,
      });
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/pipelines/:pipelineId/versions',
    {
      config: pipelineConfig,
      schema: {
        tags,
        summary: 'The versions of a pipeline, newest first',
        params: pipelineParams,
        response: { 200: pipelineVersionsResponse },
      },
    },
    async (request) => listVersions(db, requireTenant(request).organizationId, request.params.pipelineId),
  );

  app.post(
    '/api/pipelines/:pipelineId/versions/:version/restore',
    {
      config: pipelineConfig,
      schema: {
        tags,
        summary: 'Make an earlier version the current graph (saved as a new version; empty body)',
        params: pipelineVersionParams,
        response: { 200: pipelineDetailSchema },
      },
    },
    async (request) =>
      restoreVersion(db, queue, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        pipelineId: request.params.pipelineId,
        version: request.params.version,
      }),
  );

  app.get(
    '/api/pipelines/:pipelineId/runs',
    {
      config: pipelineConfig,
      schema: {
        tags,
        summary:
          'Runs of a pipeline, newest first; filters by status, trigger, period; ?q= a learner or an event id',
        params: pipelineParams,
        querystring: listPipelineRunsQuery,
        response: { 200: pipelineRunListResponse },
      },
    },
    async (request) =>
      listRuns(db, {
        organizationId: requireTenant(request).organizationId,
        pipelineId: request.params.pipelineId,
        ...request.query,
      }),
  );

  app.get(
    '/api/pipelines/:pipelineId/runs/:runId',
    {
      config: pipelineConfig,
      schema: {
        tags,
        summary: 'One run with each step’s input, output, status and duration',
        params: pipelineRunParams,
        response: { 200: pipelineRunDetailSchema },
      },
    },
    async (request) =>
      getRun(db, {
        organizationId: requireTenant(request).organizationId,
        pipelineId: request.params.pipelineId,
        runId: request.params.runId,
      }),
  );

  app.post(
    '/api/pipelines/:pipelineId/runs/:runId/retry',
    {
      config: pipelineConfig,
      schema: {
        tags,
        summary: 'Run a failed run again as a new run: from the failed step (default) or from the start',
        params: pipelineRunParams,
        body: retryPipelineRunInput.nullish(),
        response: { 202: pipelineRunSummarySchema },
      },
    },
    async (request, reply) => {
      const run = await retryRun(db, queue, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        pipelineId: request.params.pipelineId,
        runId: request.params.runId,
        from: request.body?.from ?? 'failed',
      });
      return reply.status(202).send(run);
    },
  );

  app.post(
    '/api/pipelines/:pipelineId/run',
    {
      config: pipelineConfig,
      schema: {
        tags,
        summary: 'Start a run by hand (the pipeline needs a "Run by hand" source and must be on)',
        params: pipelineParams,
        body: manualRunInput.nullish(),
        response: { 202: pipelineRunSummarySchema },
      },
    },
    async (request, reply) => {
      const run = await runManually(db, queue, {
        organizationId: requireTenant(request).organizationId,
        userId: requireSessionCaller(request).userId,
        pipelineId: request.params.pipelineId,
        learnerEmail: request.body?.learnerEmail,
      });
      return reply.status(202).send(run);
    },
  );

  app.post(
    '/api/pipelines/:pipelineId/test',
    {
      config: pipelineConfig,
      schema: {
        tags,
        summary:
          'Run the pipeline (saved, or the graph sent) on a real event, now; dry unless execute: no action runs',
        params: pipelineParams,
        body: testRunInput,
        response: { 200: testRunResponse },
      },
    },
    async (request) =>
      testRun(db, runtime, {
        organizationId: requireTenant(request).organizationId,
        pipelineId: request.params.pipelineId,
        ...request.body,
      }),
  );

  app.get(
    '/api/pipelines/:pipelineId/test-events',
    {
      config: pipelineConfig,
      schema: {
        tags,
        summary: 'Recent events of the log the pipeline’s sources react to, for a test run',
        params: pipelineParams,
        response: { 200: testEventsResponse },
      },
    },
    async (request) =>
      listTestEvents(db, {
        organizationId: requireTenant(request).organizationId,
        pipelineId: request.params.pipelineId,
      }),
  );

  app.post(
    '/api/pipelines/:pipelineId/dry-run',
    {
      config: pipelineConfig,
      schema: {
        tags,
        summary:
          'What the pipeline (saved, or the graph sent) would have done over a past period; changes nothing',
        params: pipelineParams,
        body: dryRunInput,
        response: { 200: dryRunResponse },
      },
    },
    async (request) =>
      dryRun(db, {
        organizationId: requireTenant(request).organizationId,
        pipelineId: request.params.pipelineId,
        ...request.body,
      }),
  );
};
