import { z } from 'zod';
import { defineJob } from '../../jobs/job-runner';
import { foldReportDataVersions } from './report-data-version.queries';

/**
 * Hourly upkeep of the report data versions: each organization's per-backend
 * counts folded into one row, its version unchanged (see
 * `foldReportDataVersions`). Idempotent.
 */
export const foldReportDataVersionsJob = defineJob({
  name: 'report-data-versions.fold',
  payload: z.object({ organizationId: z.undefined().optional() }),
  schedule: { cron: '41 * * * *', payload: {} },
  queue: { retryLimit: 3, expireInSeconds: 600 },
  handle: async (_payload, { db }) => {
    await foldReportDataVersions(db);
  },
});
