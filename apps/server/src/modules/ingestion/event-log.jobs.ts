import { z } from 'zod';
import { defineJob } from '../../jobs/job-runner';
import { applyEventRetention, ensureEventPartitions } from './ingestion.queries';

/** Months of partitions kept ready ahead of time, so the first events of a month never wait for DDL. */
const MONTHS_AHEAD = 2;

/**
 * Hourly upkeep of the learning-event log: partitions for this month and
 * the next ones, and each organization's retention (events older than its
 * `event_retention_months` deleted, emptied months dropped whole).
 * Idempotent: running it twice changes nothing more.
 */
export const maintainEventLogJob = defineJob({
  name: 'learning-events.maintain',
  payload: z.object({ organizationId: z.undefined().optional() }),
  schedule: { cron: '17 * * * *', payload: {} },
  queue: { retryLimit: 3, expireInSeconds: 1800 },
  handle: async (_payload, { db }) => {
    const now = new Date();
    const months = Array.from(
      { length: MONTHS_AHEAD + 1 },
      (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1)),
    );
    await ensureEventPartitions(db, months);
    await applyEventRetention(db);
  },
});
