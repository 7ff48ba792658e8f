import {
  BILLING_INTERVALS,
  BILLING_METRICS,
  BILLING_PROVIDERS,
  SUBSCRIPTION_STATUSES,
  type BillingInterval,
  type BillingMetric,
  type BillingProviderKind,
  type SubscriptionStatus,
} from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  unique,
} from 'drizzle-orm/pg-core';
import { isOneOf, tenantId, timestamps, timestamptz } from './columns';
import { organizationId } from './organizations';

/**
 * The organization's billing account: which provider holds the
 * subscription, its period and state, the operator's cap overrides, and the
 * learner cap's grace period. One row per organization, created on first
 * need (an organization without one is on Free with the local provider).
 * The plan itself and the caps in force live on `organizations`, which
 * billing changes through the organizations module.
 */
export const billingAccounts = pgTable(
  'billing_accounts',
  {
    id: tenantId(),
    organizationId: organizationId().unique('billing_accounts_organization_unique'),
    provider: text('provider').$type<BillingProviderKind>().notNull().default('local'),
    interval: text('interval').$type<BillingInterval>(),
    status: text('status').$type<SubscriptionStatus>().notNull().default('active'),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    currentPeriodStart: timestamptz('current_period_start'),
    currentPeriodEnd: timestamptz('current_period_end'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** The card Stripe charges, as shown (brand, last 4, expiry); null for the local provider. */
    paymentMethod: jsonb('payment_method').$type<{
      brand: string;
      last4: string;
      expMonth: number;
      expYear: number;
    }>(),
    /** Set by a failed payment; the Free caps apply once this passes unless a payment succeeds. */
    paymentGraceUntil: timestamptz('payment_grace_until'),
    /** When usage first reached the learner cap (new learners are stored for the grace period after it). */
    learnerCapReachedAt: timestamptz('learner_cap_reached_at'),
    /** An operator's caps for this organization, kept across plan changes (null: the plan's). */
    overrideMaxLearners: integer('override_max_learners'),
    overrideMaxCourses: integer('override_max_courses'),
    overrideMaxChatbots: integer('override_max_chatbots'),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'billing_accounts_pk', columns: [table.organizationId, table.id] }),
    // Webhooks find the account by Stripe's customer id, across organizations
    // (not unique here: a unique key must hold the distribution column; Stripe's ids are unique).
    index('billing_accounts_stripe_customer_idx').on(table.stripeCustomerId),
    check('billing_accounts_provider_check', isOneOf(table.provider, BILLING_PROVIDERS)),
    check('billing_accounts_status_check', isOneOf(table.status, SUBSCRIPTION_STATUSES)),
    check(
      'billing_accounts_interval_check',
      sql`${table.interval} is null or ${isOneOf(table.interval, BILLING_INTERVALS)}`,
    ),
    check(
      'billing_accounts_overrides_non_negative',
      sql`coalesce(${table.overrideMaxLearners}, 0) >= 0 and coalesce(${table.overrideMaxCourses}, 0) >= 0 and coalesce(${table.overrideMaxChatbots}, 0) >= 0`,
    ),
  ],
);

export const BILLING_NOTICE_KINDS = ['usage', 'learners_blocked', 'payment_failed'] as const;
export type BillingNoticeKind = (typeof BILLING_NOTICE_KINDS)[number];

/**
 * What owners are told: usage passing 80, 90 or 100 % of a cap (once per
 * metric, threshold and billing period, which the unique key guarantees even
 * when two writers cross it at once), new learners refused after the grace
 * period, a failed payment. Written in the transaction that caused it; the
 * e-mail job sends the ones not yet e-mailed (`emailed_at`), so a writer
 * never waits for SMTP.
 */
export const billingNotices = pgTable(
  'billing_notices',
  {
    id: tenantId(),
    organizationId: organizationId(),
    kind: text('kind').$type<BillingNoticeKind>().notNull().default('usage'),
    metric: text('metric').$type<BillingMetric>(),
    /** The % of the cap for usage notices; 0 for the others. */
    threshold: integer('threshold').notNull().default(0),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    used: integer('used').notNull().default(0),
    cap: integer('cap').notNull().default(0),
    message: text('message').notNull(),
    emailedAt: timestamptz('emailed_at'),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'billing_notices_pk', columns: [table.organizationId, table.id] }),
    unique('billing_notices_once_per_period').on(
      table.organizationId,
      table.kind,
      table.metric,
      table.threshold,
      table.periodStart,
    ),
    check('billing_notices_kind_check', isOneOf(table.kind, BILLING_NOTICE_KINDS)),
    check(
      'billing_notices_metric_check',
      sql`${table.metric} is null or ${isOneOf(table.metric, BILLING_METRICS)}`,
    ),
    index('billing_notices_unsent_idx')
      .on(table.createdAt)
      .where(sql`${table.emailedAt} is null`),
  ],
);

/**
 * Stripe webhook events already handled, by Stripe's event id: a delivery
 * Stripe retries (or sends twice) changes nothing the second time. A
 * reference table: an event arrives before anyone knows its organization.
 */
export const billingWebhookEvents = pgTable('billing_webhook_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamptz('received_at').notNull().defaultNow(),
});

export type BillingAccount = typeof billingAccounts.$inferSelect;
export type NewBillingAccount = typeof billingAccounts.$inferInsert;
export type BillingNoticeRow = typeof billingNotices.$inferSelect;
