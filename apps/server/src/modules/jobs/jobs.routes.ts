import { failedJobsResponse, JOB_MESSAGES, retryJobInput } from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors';
import type { JobRunner } from '../../jobs/job-runner';
import { requireTenant } from '../../plugins/tenant';

/** Owners see the organization's failed background jobs and queue them again. */
export const jobRoutes: FastifyPluginAsyncZod<{ jobs: JobRunner }> = async (app, { jobs }) => {
  app.get(
    '/api/jobs/failed',
    {
      config: { access: 'owner:organization' },
      schema: {
        tags: ['jobs'],
        summary: "The organization's failed background jobs (retries used up), newest first",
        response: { 200: failedJobsResponse },
      },
    },
    async (request) => {
      const failed = await jobs.listFailed(requireTenant(request).organizationId);
      return { jobs: failed.map(({ payload: _payload, ...job }) => job) };
    },
  );

  app.post(
    '/api/jobs/retry',
    {
      config: { access: 'owner:organization' },
      schema: {
        tags: ['jobs'],
        summary: 'Queue a failed job again',
        body: retryJobInput,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const isQueued = await jobs.retry(
        requireTenant(request).organizationId,
        request.body.queue,
        request.body.id,
      );
      if (!isQueued) throw new AppError('NOT_FOUND', JOB_MESSAGES.notFound);
      return { message: JOB_MESSAGES.retried };
    },
  );
};
