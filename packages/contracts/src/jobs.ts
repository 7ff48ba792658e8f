import { z } from 'zod';

/** A background job whose retries are used up, as owners see it in settings. */
export const failedJobSchema = z.object({
  id: z.string(),
  /** The kind of job (its queue), e.g. `learning-events.maintain`. */
  queue: z.string(),
  error: z.string(),
  attempts: z.number().int(),
  createdAt: z.string(),
  failedAt: z.string().nullable(),
});
export type FailedJob = z.infer<typeof failedJobSchema>;

export const failedJobsResponse = z.object({ jobs: z.array(failedJobSchema) });
export type FailedJobsResponse = z.infer<typeof failedJobsResponse>;

export const retryJobInput = z.object({
  queue: z.string().min(1, 'queue is required').max(200),
  id: z.uuid('id must be a job id'),
});
export type RetryJobInput = z.infer<typeof retryJobInput>;

export const JOB_MESSAGES = {
  notFound: 'Failed job not found',
  retried: 'The job was queued again',
} as const;
