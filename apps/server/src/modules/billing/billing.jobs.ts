import { z } from 'zod';
import { loadConfig } from '../../config';
import { defineJob, type JobDefinition } from '../../jobs/job-runner';
import { createActionMailer } from '../actions/runtime';
import { digestSmtp } from '../analytics/insights.job';
import { emailNotices, lapsePaymentGraces, organizationsWithUnsentNotices } from './billing.service';

/**
 * Billing's jobs:
 * - `billing.notices.email`, every 10 minutes: the owners' e-mail of the
 *   notices written since (usage thresholds, learners refused, a failed
 *   payment), one job per organization, only when SMTP is set up;
 * - `billing.payment-graces`, hourly: organizations whose payment grace
 *   period passed get the Free plan's caps.
 */

const payload = z.object({ organizationId: z.uuid().optional() });
type BillingJobPayload = z.infer<typeof payload>;

export const billingNoticesEmailJob: JobDefinition<BillingJobPayload> = defineJob({
  name: 'billing.notices.email',
  payload,
  schedule: { cron: '*/10 * * * *', payload: {} },
  // A message half sent is not sent again: the notices are marked with the claim.
  queue: { retryLimit: 0, expireInSeconds: 300 },
  handle: async ({ organizationId }, { db, jobs }) => {
    const smtp = digestSmtp();
    if (!smtp) return;
    if (!organizationId) {
      const organizationIds = await organizationsWithUnsentNotices(db);
      await jobs.sendMany(
        billingNoticesEmailJob,
        organizationIds.map((id) => ({ organizationId: id })),
      );
      return;
    }
    const config = loadConfig();
    const mailer = createActionMailer(smtp);
    await emailNotices(db, {
      organizationId,
      mailer: async (mail) => {
        await mailer(mail);
      },
      publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    });
  },
});

export const paymentGracesJob: JobDefinition<BillingJobPayload> = defineJob({
  name: 'billing.payment-graces',
  payload,
  schedule: { cron: '15 * * * *', payload: {} },
  queue: { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 600 },
  handle: async (_payload, { db }) => {
    await lapsePaymentGraces(db);
  },
});

/** Billing's job definitions, for the registry. */
export const billingJobs = [billingNoticesEmailJob, paymentGracesJob] as const;
