import type { PipelineGraph } from '@courselens/contracts';
import type { Database } from '../../db/client';

/**
 * What the pipelines' routes and handlers ask of the job queue: runs to
 * work on, and the cron schedules of active pipelines. Built on the job
 * runner by `pipelineQueue` (pipelines.jobs.ts).
 */
export type PipelineQueue = {
  /** Queues the runs' jobs; in `tx` when given, so they exist if and only if the runs do. */
  queueRuns: (
    runs: readonly { organizationId: string; runId: string }[],
    options?: { tx?: Database; startAfter?: Date },
  ) => Promise<void>;
  /** Makes the pipeline's cron schedules match its schedule nodes while it is on; none while it is off. */
  syncSchedules: (pipeline: {
    organizationId: string;
    pipelineId: string;
    active: boolean;
    graph: PipelineGraph;
  }) => Promise<void>;
};
