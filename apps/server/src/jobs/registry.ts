import type { DatabaseConnection } from '../db/client';
import { maintainEventLogJob } from '../modules/ingestion/event-log.jobs';
import { createJobRunner, type JobDefinition, type JobRunner, type Subscriptions } from './job-runner';

/** Every kind of job of the product, each defined beside the module it belongs to. */
export const JOB_DEFINITIONS: readonly JobDefinition<never>[] = [maintainEventLogJob].map(
  (definition) => definition as unknown as JobDefinition<never>,
);

/**
 * Which modules react to which domain events. Empty for now: the pipelines,
 * chatbots and analytics subscribe here to `learning-events.accepted` and
 * `course.deleted` as they arrive.
 */
export const SUBSCRIPTIONS: Subscriptions = {};

/** The product's job runner: with `workers`, this process also runs jobs and schedules. */
export function createAppJobRunner(
  connection: DatabaseConnection,
  options: { workers: boolean; onError?: (error: unknown) => void },
): JobRunner {
  return createJobRunner(connection, {
    definitions: JOB_DEFINITIONS,
    subscriptions: SUBSCRIPTIONS,
    workers: options.workers,
    ...(options.onError ? { onError: options.onError } : {}),
  });
}
