import { z } from 'zod';
import { ConfigError, loadConfig, type AppConfig } from '../../config';
import type { Database } from '../../db/client';
import { defineJob, type JobDefinition, type JobRunner } from '../../jobs/job-runner';
import { createActionMailer } from '../actions/runtime';
import {
  computeInsights,
  listOrganizationsWithData,
  sendInsightDigest,
  type DigestMailer,
} from './insights.service';

/**
 * The insights' jobs. Each runs for one organization when its payload
 * names one; the scheduled run (no organization) fans out one job per
 * organization with data, so one organization's failure is retried alone.
 * - `analytics.insights.compute`, every 6 hours: the findings;
 * - `analytics.insights.digest`, Mondays 08:00 UTC: the owners' e-mail,
 *   only when SMTP is set up.
 */

const payload = z.object({ organizationId: z.uuid().optional() });
type InsightJobPayload = z.infer<typeof payload>;

/** The SMTP server digests go through (SMTP_URL, SMTP_FROM, as invitations and e-mail actions), if any. */
export function digestSmtp(config?: Pick<AppConfig, 'smtp'>): AppConfig['smtp'] {
  if (config) return config.smtp;
  try {
    return loadConfig().smtp;
  } catch (error) {
    if (error instanceof ConfigError) return undefined;
    throw error;
  }
}

async function fanOut(
  db: Database,
  jobs: JobRunner,
  definition: JobDefinition<InsightJobPayload>,
): Promise<void> {
  const organizationIds = await listOrganizationsWithData(db);
  await jobs.sendMany(
    definition,
    organizationIds.map((organizationId) => ({ organizationId })),
  );
}

export const computeInsightsJob: JobDefinition<InsightJobPayload> = defineJob({
  name: 'analytics.insights.compute',
  payload,
  schedule: { cron: '25 */6 * * *', payload: {} },
  queue: { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 1800 },
  handle: async ({ organizationId }, { db, jobs }) => {
    if (!organizationId) return fanOut(db, jobs, computeInsightsJob);
    await computeInsights(db, organizationId);
  },
});

/**
 * One organization's digest (or the fan-out), with the mail set-up given:
 * nothing is sent without SMTP. Resolves to the e-mails sent.
 */
export async function runInsightDigest(
  db: Database,
  input: InsightJobPayload & {
    jobs: JobRunner;
    smtp: AppConfig['smtp'];
    publicUrl: string;
    mailer?: DigestMailer;
  },
): Promise<number> {
  if (!input.smtp) return 0;
  if (!input.organizationId) {
    await fanOut(db, input.jobs, insightDigestJob);
    return 0;
  }
  const actionMailer = input.mailer ? null : createActionMailer(input.smtp);
  const mailer: DigestMailer =
    input.mailer ??
    (async (mail) => {
      await actionMailer?.(mail);
    });
  return sendInsightDigest(db, { organizationId: input.organizationId, mailer, publicUrl: input.publicUrl });
}

export const insightDigestJob: JobDefinition<InsightJobPayload> = defineJob({
  name: 'analytics.insights.digest',
  payload,
  schedule: { cron: '0 8 * * 1', payload: {} },
  // A digest that failed half-way is not sent again to the owners who got it: no retries.
  queue: { retryLimit: 0, expireInSeconds: 900 },
  handle: async ({ organizationId }, { db, jobs }) => {
    const config = loadConfig();
    await runInsightDigest(db, {
      organizationId,
      jobs,
      smtp: config.smtp,
      publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    });
  },
});

/** The insights' job definitions, for the registry. */
export const insightJobs = [computeInsightsJob, insightDigestJob] as const;
