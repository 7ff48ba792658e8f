import {
  BILLING_BANNERS,
  BILLING_MESSAGES,
  BILLING_METRICS,
  LEARNER_GRACE_DAYS,
  PAYMENT_GRACE_DAYS,
  planById,
  type BillingInterval,
  type BillingInvoices,
  type BillingMeter,
  type BillingMetric,
  type BillingOverview,
  type BillingStatus,
  type PlanId,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import type { BillingAccount } from '../../db/schema';
import { AppError } from '../../errors';
import {
  findOrganizationPlan,
  insertActivity,
  selectOwnerRecipients,
  setOrganizationPlan,
} from '../organizations/organizations.queries';
import {
  WebhookSignatureError,
  freeSubscription,
  type BillingProvider,
  type ProviderAccount,
  type ProviderEvent,
  type SubscriptionState,
} from './billing-provider';
import {
  claimUnsentNotices,
  claimWebhookEvent,
  countAddedSince,
  countUsage,
  insertNoticeOnce,
  lockOrganizationCaps,
  markNoticesEmailed,
  selectAccount,
  selectAccountByCustomer,
  selectLapsedPaymentGraces,
  selectNotices,
  selectOrganizationsWithUnsentNotices,
  upsertAccount,
  type Usage,
} from './billing.queries';
import { capsWithOverrides, loadEntitlements, periodStartOf } from './entitlements';

const DAY_MS = 86_400_000;
const FORECAST_DAYS = 30;
/** Notices older than this are not e-mailed any more (news no longer). */
const NOTICE_EMAIL_WINDOW_MS = 2 * DAY_MS;

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
const day = (date: Date) => date.toISOString().slice(0, 10);
const readableDay = (date: Date) =>
  date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** Used, cap and the pace of the last 30 days, with the day the cap is reached at that pace. */
export function meterOf(
  metric: BillingMetric,
  input: { used: number; cap: number; planCap: number; addedLast30Days: number },
  now: Date,
): BillingMeter {
  const { used, cap, planCap, addedLast30Days } = input;
  const perDay = addedLast30Days / FORECAST_DAYS;
  let reachesCapOn: string | null = null;
  if (used < cap && perDay > 0) {
    reachesCapOn = day(new Date(now.getTime() + Math.ceil((cap - used) / perDay) * DAY_MS));
  }
  const percent = cap > 0 ? Math.round((used / cap) * 1000) / 10 : used > 0 ? 100 : 0;
  return {
    metric,
    used,
    cap,
    planCap,
    percent,
    forecast: { addedLast30Days, perDay: Math.round(perDay * 100) / 100, reachesCapOn },
  };
}

function learnerGraceOf(account: BillingAccount | undefined, now: Date) {
  const started = account?.learnerCapReachedAt;
  if (!started) return null;
  const ends = new Date(started.getTime() + LEARNER_GRACE_DAYS * DAY_MS);
  return { startedAt: started.toISOString(), endsAt: ends.toISOString(), ended: now >= ends };
}

export async function getBillingOverview(
  db: Database,
  organizationId: string,
  provider: BillingProvider,
  now = new Date(),
): Promise<BillingOverview> {
  const [entitlements, account, usage, added] = await Promise.all([
    loadEntitlements(db, organizationId),
    selectAccount(db, organizationId),
    countUsage(db, organizationId),
    countAddedSince(db, organizationId, new Date(now.getTime() - FORECAST_DAYS * DAY_MS)),
  ]);
  const periodStart = new Date(`${periodStartOf(account, now)}T00:00:00Z`);
  const notices = await selectNotices(db, organizationId, periodStart);
  const isPaid = entitlements.plan.id !== 'free';
  return {
    plan: { id: entitlements.plan.id, name: entitlements.plan.name },
    provider: account?.provider === 'stripe' && provider.kind === 'stripe' ? 'stripe' : provider.kind,
    interval: isPaid ? (account?.interval ?? 'month') : null,
    status: account?.status ?? 'active',
    renewsAt: isPaid ? iso(account?.currentPeriodEnd) : null,
    cancelAtPeriodEnd: account?.cancelAtPeriodEnd ?? false,
    paymentGraceEndsAt: iso(account?.paymentGraceUntil),
    learnerGrace: learnerGraceOf(account, now),
    meters: BILLING_METRICS.map((metric) =>
      meterOf(
        metric,
        {
          used: usage[metric],
          cap: entitlements.caps[metric],
          planCap: entitlements.planCaps[metric],
          addedLast30Days: added[metric],
        },
        now,
      ),
    ),
    notices: notices.map((notice) => ({
      id: notice.id,
      metric: notice.metric ?? 'learners',
      threshold: notice.threshold,
      message: notice.message,
      createdAt: notice.createdAt.toISOString(),
    })),
    paymentMethod: account?.paymentMethod ?? null,
    features: [...entitlements.features],
  };
}

/** What the app's banner says to every member: the learner cap's grace period, its end, a failed payment. */
export async function getBillingStatus(
  db: Database,
  organizationId: string,
  now = new Date(),
): Promise<BillingStatus> {
  const [entitlements, account] = await Promise.all([
    loadEntitlements(db, organizationId),
    selectAccount(db, organizationId),
  ]);
  const plan = { id: entitlements.plan.id, name: entitlements.plan.name };
  if (account?.paymentGraceUntil && account.paymentGraceUntil > now) {
    return {
      plan,
      banner: {
        kind: 'payment-failed',
        message: BILLING_BANNERS.paymentFailed(readableDay(account.paymentGraceUntil)),
      },
    };
  }
  const grace = learnerGraceOf(account, now);
  if (grace) {
    const cap = entitlements.caps.learners;
    return {
      plan,
      banner: grace.ended
        ? { kind: 'learner-blocked', message: BILLING_BANNERS.learnerBlocked(cap) }
        : {
            kind: 'learner-grace',
            message: BILLING_BANNERS.learnerGrace(cap, readableDay(new Date(grace.endsAt))),
          },
    };
  }
  return { plan, banner: null };
}

async function providerAccountOf(db: Database, organizationId: string): Promise<ProviderAccount> {
  const [organization, account] = await Promise.all([
    findOrganizationPlan(db, organizationId),
    selectAccount(db, organizationId),
  ]);
  return {
    organizationId,
    organizationName: organization?.name ?? '',
    email: organization?.owner_email ?? '',
    customerId: account?.stripeCustomerId ?? null,
    subscriptionId: account?.stripeSubscriptionId ?? null,
  };
}

/** What would have to go for the organization to fit `caps`: the metrics over, by how many. */
function excessOver(usage: Usage, caps: Usage) {
  return BILLING_METRICS.flatMap((metric) =>
    usage[metric] > caps[metric] ? [{ metric, over: usage[metric] - caps[metric], cap: caps[metric] }] : [],
  );
}

/** Refuses (409) a move to a plan whose caps the organization's current holdings exceed. */
async function assertFits(db: Database, organizationId: string, plan: PlanId): Promise<void> {
  const target = planById(plan);
  const [usage, account] = await Promise.all([
    countUsage(db, organizationId),
    selectAccount(db, organizationId),
  ]);
  const excess = excessOver(usage, capsWithOverrides(target, account));
  if (excess.length > 0)
    throw new AppError('CONFLICT', BILLING_MESSAGES.downgradeRefused(target.name, excess));
}

const intervalWords = (interval: BillingInterval | null) =>
  interval === 'year' ? ' (yearly)' : interval === 'month' ? ' (monthly)' : '';

/**
 * Stores a subscription's state and applies its plan: the caps in force are
 * the plan's (or the operator's overrides), copied onto the organization,
 * and the change is logged. In the caller's transaction.
 */
export async function applySubscription(
  tx: Database,
  organizationId: string,
  state: SubscriptionState,
  input: { provider: 'local' | 'stripe'; actorUserId: string | null; reason?: string },
): Promise<void> {
  await lockOrganizationCaps(tx, organizationId);
  const [before, account] = await Promise.all([
    loadEntitlements(tx, organizationId),
    selectAccount(tx, organizationId),
  ]);
  const plan = planById(state.plan);
  const caps = capsWithOverrides(plan, account);
  await setOrganizationPlan(tx, organizationId, {
    plan: plan.id,
    maxLearners: caps.learners,
    maxCourses: caps.courses,
    maxChatbots: caps.chatbots,
  });
  const learnerCapGrew = caps.learners > before.caps.learners;
  await upsertAccount(tx, organizationId, {
    provider: input.provider,
    interval: state.interval,
    status: state.status,
    stripeCustomerId: state.customerId ?? account?.stripeCustomerId ?? null,
    stripeSubscriptionId: state.subscriptionId,
    currentPeriodStart: state.currentPeriodStart,
    currentPeriodEnd: state.currentPeriodEnd,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    paymentMethod: state.paymentMethod ?? (state.plan === 'free' ? null : (account?.paymentMethod ?? null)),
    ...(state.status === 'active' ? { paymentGraceUntil: null } : {}),
    // A larger learner cap starts the count afresh: the grace period is for the cap that was reached.
    ...(learnerCapGrew ? { learnerCapReachedAt: null } : {}),
  });
  const previousInterval = before.plan.id === 'free' ? null : (account?.interval ?? null);
  if (before.plan.id !== plan.id || previousInterval !== state.interval) {
    await insertActivity(tx, {
      organizationId,
      actorUserId: input.actorUserId,
      kind: 'billing.plan_changed',
      subjectType: 'billing',
      subjectId: plan.id,
      summary: `Plan changed from ${before.plan.name}${intervalWords(previousInterval)} to ${plan.name}${intervalWords(state.interval)}${input.reason ? `: ${input.reason}` : ''}`,
      details: {
        from: before.plan.id,
        to: plan.id,
        interval: state.interval,
        provider: input.provider,
        caps,
      },
    });
  }
}

/**
 * An operator's caps for one organization (null: back to the plan's), kept
 * across plan changes and applied at once. Resolves to the caps in force.
 */
export async function setCapOverrides(
  db: Database,
  organizationId: string,
  overrides: Partial<Record<BillingMetric, number | null>>,
): Promise<Usage> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    await lockOrganizationCaps(tx, organizationId);
    const before = await loadEntitlements(tx, organizationId);
    const account = await upsertAccount(tx, organizationId, {
      ...(overrides.learners !== undefined ? { overrideMaxLearners: overrides.learners } : {}),
      ...(overrides.courses !== undefined ? { overrideMaxCourses: overrides.courses } : {}),
      ...(overrides.chatbots !== undefined ? { overrideMaxChatbots: overrides.chatbots } : {}),
    });
    const caps = capsWithOverrides(before.plan, account);
    await setOrganizationPlan(tx, organizationId, {
      plan: before.plan.id,
      maxLearners: caps.learners,
      maxCourses: caps.courses,
      maxChatbots: caps.chatbots,
    });
    if (caps.learners > before.caps.learners) {
      await upsertAccount(tx, organizationId, { learnerCapReachedAt: null });
    }
    const changed = BILLING_METRICS.filter((metric) => caps[metric] !== before.caps[metric]);
    if (changed.length > 0) {
      await insertActivity(tx, {
        organizationId,
        actorUserId: null,
        kind: 'billing.plan_changed',
        subjectType: 'billing',
        subjectId: before.plan.id,
        summary: `Limits of the ${before.plan.name} plan set by an operator: ${changed
          .map(
            (metric) =>
              `${metric} ${before.caps[metric].toLocaleString('en-US')} → ${caps[metric].toLocaleString('en-US')}`,
          )
          .join(', ')}`,
        details: { from: before.caps, to: caps },
      });
    }
    return caps;
  });
}

/**
 * Subscribes to or changes to a plan. Free cancels the paid plan. A move to
 * a smaller plan than what the organization holds is refused with what
 * would have to go.
 */
export async function checkout(
  db: Database,
  provider: BillingProvider,
  input: {
    organizationId: string;
    userId: string;
    plan: PlanId;
    interval: BillingInterval;
    returnUrl: string;
  },
): Promise<{ kind: 'changed'; overview: BillingOverview } | { kind: 'redirect'; url: string }> {
  const { organizationId } = input;
  if (input.plan === 'free') {
    return { kind: 'changed', overview: await cancelSubscription(db, provider, input) };
  }
  const [entitlements, account] = await Promise.all([
    loadEntitlements(db, organizationId),
    selectAccount(db, organizationId),
  ]);
  const currentInterval = entitlements.plan.id === 'free' ? null : (account?.interval ?? 'month');
  if (
    entitlements.plan.id === input.plan &&
    currentInterval === input.interval &&
    !account?.cancelAtPeriodEnd
  ) {
    throw new AppError('BAD_REQUEST', BILLING_MESSAGES.samePlan(entitlements.plan.name));
  }
  await assertFits(db, organizationId, input.plan);
  const outcome = await provider.checkout(await providerAccountOf(db, organizationId), {
    plan: input.plan,
    interval: input.interval,
    returnUrl: input.returnUrl,
  });
  if (outcome.kind === 'redirect') {
    if (outcome.customerId && outcome.customerId !== account?.stripeCustomerId) {
      await upsertAccount(db, organizationId, { stripeCustomerId: outcome.customerId });
    }
    return { kind: 'redirect', url: outcome.url };
  }
  await db.transaction(async (tx) =>
    applySubscription(tx as unknown as Database, organizationId, outcome.subscription, {
      provider: provider.kind,
      actorUserId: input.userId,
    }),
  );
  return { kind: 'changed', overview: await getBillingOverview(db, organizationId, provider) };
}

/** Ends the paid plan: at once with the local provider, at the period's end with Stripe. */
export async function cancelSubscription(
  db: Database,
  provider: BillingProvider,
  input: { organizationId: string; userId: string },
): Promise<BillingOverview> {
  const { organizationId } = input;
  const [entitlements, account] = await Promise.all([
    loadEntitlements(db, organizationId),
    selectAccount(db, organizationId),
  ]);
  if (entitlements.plan.id === 'free') throw new AppError('BAD_REQUEST', BILLING_MESSAGES.nothingToCancel);
  if (account?.cancelAtPeriodEnd) throw new AppError('BAD_REQUEST', BILLING_MESSAGES.alreadyCanceled);
  await assertFits(db, organizationId, 'free');
  const state = await provider.cancel(await providerAccountOf(db, organizationId));
  await db.transaction(async (tx) =>
    applySubscription(tx as unknown as Database, organizationId, state, {
      provider: provider.kind,
      actorUserId: input.userId,
    }),
  );
  return getBillingOverview(db, organizationId, provider);
}

export async function getPortalUrl(
  db: Database,
  provider: BillingProvider,
  organizationId: string,
  returnUrl: string,
): Promise<{ url: string }> {
  const url = await provider.portalUrl(await providerAccountOf(db, organizationId), returnUrl);
  if (!url) throw new AppError('BAD_REQUEST', BILLING_MESSAGES.portalUnavailable);
  return { url };
}

export async function listInvoices(
  db: Database,
  provider: BillingProvider,
  organizationId: string,
): Promise<BillingInvoices> {
  return {
    provider: provider.kind,
    invoices: await provider.invoices(await providerAccountOf(db, organizationId)),
  };
}

/**
 * Handles a verified webhook event once (by its id): subscriptions change
 * the plan, a failed payment starts the payment grace period, a paid
 * invoice ends it. Events of customers billing does not know are recorded
 * and acknowledged.
 */
export async function handleProviderEvent(
  db: Database,
  event: ProviderEvent,
  now = new Date(),
): Promise<'handled' | 'duplicate' | 'ignored'> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const customerId = 'customerId' in event ? event.customerId : null;
    const byCustomer = customerId ? await selectAccountByCustomer(tx, customerId) : undefined;
    const organizationId =
      ('organizationId' in event ? event.organizationId : null) ?? byCustomer?.organizationId ?? null;
    const known = organizationId !== null && (await findOrganizationPlan(tx, organizationId)) !== undefined;
    const isNew = await claimWebhookEvent(tx, {
      eventId: event.id,
      type: event.type === 'ignored' ? event.stripeType : event.type,
    });
    if (!isNew) return 'duplicate';
    if (event.type === 'ignored' || !known || !organizationId) return 'ignored';
    switch (event.type) {
      case 'subscription.updated':
        await applySubscription(
          tx,
          organizationId,
          event.subscription.status === 'canceled' ? freeSubscription(event.customerId) : event.subscription,
          { provider: 'stripe', actorUserId: null },
        );
        return 'handled';
      case 'subscription.deleted':
        await applySubscription(tx, organizationId, freeSubscription(event.customerId), {
          provider: 'stripe',
          actorUserId: null,
          reason: 'the subscription ended',
        });
        return 'handled';
      case 'invoice.paid':
        await upsertAccount(tx, organizationId, { paymentGraceUntil: null, status: 'active' });
        return 'handled';
      case 'invoice.payment_failed': {
        const account = await selectAccount(tx, organizationId);
        const graceUntil =
          account?.paymentGraceUntil ?? new Date(now.getTime() + PAYMENT_GRACE_DAYS * DAY_MS);
        await upsertAccount(tx, organizationId, { paymentGraceUntil: graceUntil, status: 'past_due' });
        const message = BILLING_BANNERS.paymentFailed(readableDay(graceUntil));
        await insertNoticeOnce(tx, organizationId, {
          kind: 'payment_failed',
          metric: null,
          threshold: 0,
          periodStart: day(now),
          used: 0,
          cap: 0,
          message,
        });
        await insertActivity(tx, {
          organizationId,
          actorUserId: null,
          kind: 'billing.payment_failed',
          subjectType: 'billing',
          subjectId: event.id,
          summary: `Payment failed: the plan keeps its limits until ${day(graceUntil)}, then moves to the Free plan’s`,
          details: { graceUntil: graceUntil.toISOString() },
        });
        return 'handled';
      }
    }
  });
}

/** Reads and verifies a webhook delivery with the provider; 400 when it does not verify. */
export function parseWebhook(
  provider: BillingProvider,
  rawBody: string,
  signature: string | undefined,
): ProviderEvent {
  if (!provider.parseWebhook) throw new AppError('NOT_FOUND', BILLING_MESSAGES.webhooksOff);
  try {
    return provider.parseWebhook(rawBody, signature);
  } catch (error) {
    if (error instanceof WebhookSignatureError)
      throw new AppError('BAD_REQUEST', BILLING_MESSAGES.badSignature);
    throw new AppError('BAD_REQUEST', error instanceof Error ? error.message : String(error));
  }
}

/**
 * Organizations whose payment grace period passed without a payment get
 * the Free plan's caps (their data stays; adding more is refused until they
 * fit or pay). Resolves to how many moved.
 */
export async function lapsePaymentGraces(db: Database, now = new Date()): Promise<number> {
  const organizationIds = await selectLapsedPaymentGraces(db, now);
  for (const organizationId of organizationIds) {
    await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      const account = await selectAccount(tx, organizationId);
      if (!account?.paymentGraceUntil || account.paymentGraceUntil > now) return;
      await applySubscription(
        tx,
        organizationId,
        { ...freeSubscription(account.stripeCustomerId), status: 'canceled' },
        { provider: account.provider, actorUserId: null, reason: 'the payment was not received in time' },
      );
      await upsertAccount(tx, organizationId, { paymentGraceUntil: null });
    });
  }
  return organizationIds.length;
}

export type NoticeMailer = (mail: { to: string[]; subject: string; text: string }) => Promise<void>;

/** Organizations with notices to e-mail (the fan-out of the e-mail job). */
export function organizationsWithUnsentNotices(db: Database, now = new Date()): Promise<string[]> {
  return selectOrganizationsWithUnsentNotices(db, new Date(now.getTime() - NOTICE_EMAIL_WINDOW_MS));
}

/**
 * E-mails the organization's unsent notices to its owners in one message
 * and marks them sent (in one transaction with the claim, so a notice is
 * mailed at most once). Resolves to the notices sent.
 */
export async function emailNotices(
  db: Database,
  input: { organizationId: string; mailer: NoticeMailer; publicUrl: string; now?: Date },
): Promise<number> {
  const now = input.now ?? new Date();
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const notices = await claimUnsentNotices(
      tx,
      input.organizationId,
      new Date(now.getTime() - NOTICE_EMAIL_WINDOW_MS),
    );
    if (notices.length === 0) return 0;
    const { organizationName, emails } = await selectOwnerRecipients(tx, input.organizationId);
    if (emails.length > 0) {
      await input.mailer({
        to: emails,
        subject: `${organizationName}: ${notices.length === 1 ? 'a billing notice' : `${notices.length} billing notices`}`,
        text: [
          `Hello,`,
          '',
          ...notices.map((notice) => `- ${notice.message}`),
          '',
          `Your plan, usage and invoices: ${input.publicUrl}/billing`,
        ].join('\n'),
      });
    }
    await markNoticesEmailed(
      tx,
      input.organizationId,
      notices.map((notice) => notice.id),
    );
    return notices.length;
  });
}
