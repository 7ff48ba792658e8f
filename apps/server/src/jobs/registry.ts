import type { AppConfig } from '../config';
import type { DatabaseConnection } from '../db/client';
import { insightJobs } from '../modules/analytics/insights.job';
import { billingJobs } from '../modules/billing/billing.jobs';
import { maintainEventLogJob } from '../modules/ingestion/event-log.jobs';
import { foldReportDataVersionsJob } from '../modules/metrics/metrics.jobs';
import { createPipelineJobs } from '../modules/pipelines/pipelines.jobs';
import type { HostLookup } from '../modules/actions/address-guard';
import { createJobRunner, type JobDefinition, type JobRunner, type Subscriptions } from './job-runner';

/** Every kind of job of the product, each defined beside the module it belongs to. */
export const JOB_DEFINITIONS: readonly JobDefinition<never>[] = [
  maintainEventLogJob,
  foldReportDataVersionsJob,
  ...insightJobs,
  ...billingJobs,
].map((definition) => definition as unknown as JobDefinition<never>);

/**
 * Which modules react to which domain events, besides the pipelines (whose
 * handlers need the runner's configuration: `createPipelineJobs` below).
 */
export const SUBSCRIPTIONS: Subscriptions = {};

/**
 * The product's job runner: with `workers`, this process also runs jobs and
 * schedules. `config` is what the pipelines' actions run with (the
 * environment's when absent); `lookup` resolves webhook hosts in tests.
 */
export function createAppJobRunner(
  connection: DatabaseConnection,
  options: {
    workers: boolean;
    onError?: (error: unknown) => void;
    config?: AppConfig;
    lookup?: HostLookup;
  },
): JobRunner {
  const pipelineJobs = createPipelineJobs({
    connection,
    config: options.config,
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  return createJobRunner(connection, {
    definitions: [...JOB_DEFINITIONS, ...pipelineJobs.definitions],
    subscriptions: mergeSubscriptions(SUBSCRIPTIONS, pipelineJobs.subscriptions),
    workers: options.workers,
    ...(options.onError ? { onError: options.onError } : {}),
  });
}

function mergeSubscriptions(...lists: Subscriptions[]): Subscriptions {
  const merged: Record<string, unknown[]> = {};
  for (const list of lists) {
    for (const [type, definitions] of Object.entries(list)) {
      merged[type] = [...(merged[type] ?? []), ...(definitions ?? [])];
    }
  }
  return merged;
}
