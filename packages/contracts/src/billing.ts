import { z } from 'zod';
import { PLAN_IDS, type Plan } from './plans';

/**
 * Billing: the organization's plan and its caps, the usage against them, the
 * provider that takes payment (Stripe when configured, else a local provider
 * that changes plans at once), and the notices owners get as usage grows.
 * The caps live on the organization (`max_learners`, `max_courses`,
 * `max_chatbots`): the plan's limits unless an operator set an override.
 */

export const BILLING_INTERVALS = ['month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export const BILLING_METRICS = ['learners', 'courses', 'chatbots'] as const;
export type BillingMetric = (typeof BILLING_METRICS)[number];

export const BILLING_METRIC_LABELS: Record<BillingMetric, { one: string; many: string; title: string }> = {
  learners: { one: 'learner', many: 'learners', title: 'Learners' },
  courses: { one: 'course', many: 'courses', title: 'Courses' },
  chatbots: { one: 'chatbot', many: 'chatbots', title: 'Custom AI agents' },
};

/** Usage shares at which owners are told, once each per billing period. */
export const USAGE_THRESHOLDS = [80, 90, 100] as const;
export type UsageThreshold = (typeof USAGE_THRESHOLDS)[number];

/** Days new learners keep being stored after the learner cap is reached. */
export const LEARNER_GRACE_DAYS = 14;
/** Days a paid plan keeps its caps after a failed payment, before the Free caps apply. */
export const PAYMENT_GRACE_DAYS = 7;

export const BILLING_PROVIDERS = ['local', 'stripe'] as const;
export type BillingProviderKind = (typeof BILLING_PROVIDERS)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

const count = (n: number, metric: BillingMetric) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? BILLING_METRIC_LABELS[metric].one : BILLING_METRIC_LABELS[metric].many}`;

/** Joins "a", "a and b", "a, b and c". */
function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}`;
}

export const BILLING_MESSAGES = {
  courseCap: (planName: string, cap: number) =>
    `Course limit reached: the ${planName} plan allows ${count(cap, 'courses')}. Delete a course or upgrade your plan on the Billing page to add another.`,
  chatbotCap: (planName: string, cap: number) =>
    `Chatbot limit reached: the ${planName} plan allows ${count(cap, 'chatbots')}. Delete a chatbot or upgrade your plan on the Billing page to add another.`,
  learnerCap: (planName: string, cap: number) =>
    `Learner limit reached: the ${planName} plan allows ${count(cap, 'learners')} and the ${LEARNER_GRACE_DAYS}-day grace period has ended. Upgrade your plan on the Billing page to add new learners; data of existing learners is still stored.`,
  /** A downgrade that would leave more than the smaller plan holds. */
  downgradeRefused: (
    planName: string,
    excess: readonly { metric: BillingMetric; over: number; cap: number }[],
  ) =>
    `The ${planName} plan allows ${listInWords(excess.map((e) => count(e.cap, e.metric)))}. Delete ${listInWords(
      excess.map((e) => count(e.over, e.metric)),
    )} first, then change the plan.`,
  samePlan: (planName: string) => `Your organization is already on the ${planName} plan.`,
  portalUnavailable:
    'Payment methods and invoices are kept by Stripe, which this installation does not use: the local provider changes plans without payment.',
  noCustomer: 'Your organization has no Stripe customer yet: subscribe to a paid plan first.',
  nothingToCancel: 'Your organization is on the Free plan: there is no subscription to cancel.',
  alreadyCanceled: 'The subscription is already set to end with the current period.',
  priceNotConfigured: (planName: string, interval: BillingInterval) =>
    `The ${planName} plan cannot be bought ${interval === 'year' ? 'yearly' : 'monthly'} here yet: its Stripe price is not configured.`,
  badSignature: 'The webhook signature is not valid (or its timestamp is too old).',
  webhooksOff: 'Stripe webhooks are not configured on this installation.',
  invalidPlan: `Choose a plan: ${PLAN_IDS.join(', ')}`,
  invalidInterval: 'Choose monthly (month) or yearly (year) billing',
} as const;

/** The plan's limits by metric, as the meters and caps read them. */
export function planCap(plan: Plan, metric: BillingMetric): number {
  if (metric === 'learners') return plan.limits.maxLearners;
  if (metric === 'courses') return plan.limits.maxCourses;
  return plan.limits.maxChatbots;
}

/** The price of a plan for an interval, in US dollars (yearly: ten months for twelve). */
export function planPrice(plan: Plan, interval: BillingInterval): number | null {
  if (plan.monthlyPriceUsd === null) return null;
  return interval === 'year' ? plan.monthlyPriceUsd * 10 : plan.monthlyPriceUsd;
}

export const planIdSchema = z.enum(PLAN_IDS, { error: BILLING_MESSAGES.invalidPlan });
export const billingIntervalSchema = z.enum(BILLING_INTERVALS, { error: BILLING_MESSAGES.invalidInterval });

/** `POST /api/billing/checkout`: subscribe to, or change to, a plan. Free cancels the paid plan. */
export const billingCheckoutInput = z.object({
  plan: planIdSchema,
  interval: billingIntervalSchema.default('month'),
});
export type BillingCheckoutInput = z.input<typeof billingCheckoutInput>;

export const billingMeterSchema = z.object({
  metric: z.enum(BILLING_METRICS),
  used: z.number().int().nonnegative(),
  cap: z.number().int().nonnegative(),
  /** The plan's limit, when an override makes the cap differ from it. */
  planCap: z.number().int().nonnegative(),
  /** used / cap × 100, rounded to one decimal (0 when the cap is 0 and nothing is used). */
  percent: z.number().nonnegative(),
  /** Added in the last 30 days, and the day the cap is reached at that pace (null: not at this pace). */
  forecast: z.object({
    addedLast30Days: z.number().int().nonnegative(),
    perDay: z.number().nonnegative(),
    reachesCapOn: z.string().nullable(),
  }),
});
export type BillingMeter = z.infer<typeof billingMeterSchema>;

export const billingNoticeSchema = z.object({
  id: z.string(),
  metric: z.enum(BILLING_METRICS),
  /** 80, 90 or 100 (% of the cap). */
  threshold: z.number().int(),
  message: z.string(),
  createdAt: z.string(),
});
export type BillingNotice = z.infer<typeof billingNoticeSchema>;

export const learnerGraceSchema = z.object({
  startedAt: z.string(),
  endsAt: z.string(),
  /** True once the grace period is over: events of new learners are refused. */
  ended: z.boolean(),
});

export const paymentMethodSchema = z.object({
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});

/** `GET /api/billing` (owners): plan, subscription, meters, notices. */
export const billingOverviewSchema = z.object({
  plan: z.object({ id: planIdSchema, name: z.string() }),
  provider: z.enum(BILLING_PROVIDERS),
  interval: z.enum(BILLING_INTERVALS).nullable(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** When the paid plan renews (or ends, with `cancelAtPeriodEnd`); null on Free and the local provider. */
  renewsAt: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** After a failed payment: when the Free caps apply unless a payment succeeds. */
  paymentGraceEndsAt: z.string().nullable(),
  learnerGrace: learnerGraceSchema.nullable(),
  meters: z.array(billingMeterSchema),
  notices: z.array(billingNoticeSchema),
  paymentMethod: paymentMethodSchema.nullable(),
  /** The features of the plan, as the pricing page lists them. */
  features: z.array(z.string()),
});
export type BillingOverview = z.infer<typeof billingOverviewSchema>;

export const billingInvoiceSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  createdAt: z.string(),
  /** In the currency's smallest unit (cents). */
  amountDue: z.number().int(),
  currency: z.string(),
  status: z.string(),
  /** The PDF to download, and Stripe's page of the invoice. */
  pdfUrl: z.string().nullable(),
  hostedUrl: z.string().nullable(),
});
export type BillingInvoice = z.infer<typeof billingInvoiceSchema>;

export const billingInvoicesSchema = z.object({
  provider: z.enum(BILLING_PROVIDERS),
  invoices: z.array(billingInvoiceSchema),
});
export type BillingInvoices = z.infer<typeof billingInvoicesSchema>;

/** What a checkout did: changed the plan at once (local provider, or a Stripe subscription updated), or a page to pay on. */
export const billingCheckoutResultSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('changed'), overview: billingOverviewSchema }),
  z.object({ kind: z.literal('redirect'), url: z.string() }),
]);
export type BillingCheckoutResult = z.infer<typeof billingCheckoutResultSchema>;

export const billingPortalSchema = z.object({ url: z.string() });

/**
 * `GET /api/billing/status` (every member): what the app's banner says, if
 * anything: the learner cap's grace period, its end, a failed payment.
 */
export const billingStatusSchema = z.object({
  plan: z.object({ id: planIdSchema, name: z.string() }),
  banner: z
    .object({
      kind: z.enum(['learner-grace', 'learner-blocked', 'payment-failed']),
      message: z.string(),
    })
    .nullable(),
});
export type BillingStatus = z.infer<typeof billingStatusSchema>;

/** The banner's words; `endsOn` is a day such as "14 March 2027". */
export const BILLING_BANNERS = {
  learnerGrace: (cap: number, endsOn: string) =>
    `Your organization has reached its limit of ${count(cap, 'learners')}. New learners are still stored until ${endsOn}; upgrade the plan to keep adding them.`,
  learnerBlocked: (cap: number) =>
    `Your organization is over its limit of ${count(cap, 'learners')}: events of new learners are refused. Upgrade the plan to add them.`,
  paymentFailed: (endsOn: string) =>
    `The last payment failed. Update the payment method before ${endsOn}, or the organization moves to the Free plan’s limits.`,
} as const;

/** The notice owners read when usage passes a threshold. */
export function usageNoticeMessage(
  metric: BillingMetric,
  threshold: number,
  used: number,
  cap: number,
): string {
  const what = BILLING_METRIC_LABELS[metric].many;
  if (threshold >= 100)
    return `You have reached your plan’s limit of ${count(cap, metric)} (${count(used, metric)} now).`;
  return `You have used ${threshold} % of your plan’s ${what}: ${count(used, metric)} of ${cap.toLocaleString('en-US')}.`;
}
