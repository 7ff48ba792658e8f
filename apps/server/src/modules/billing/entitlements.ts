import {
  BILLING_MESSAGES,
  BILLING_METRIC_LABELS,
  LEARNER_GRACE_DAYS,
  USAGE_THRESHOLDS,
  planById,
  planCap,
  usageNoticeMessage,
  type BillingMetric,
  type Plan,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import type { BillingAccount } from '../../db/schema';
import { AppError } from '../../errors';
import { findOrganizationPlan, insertActivity } from '../organizations/organizations.queries';
import {
  countMetric,
  insertNoticeOnce,
  lockOrganizationCaps,
  selectAccount,
  selectKnownLearnerEmails,
  upsertAccount,
  type Usage,
} from './billing.queries';

/**
 * Entitlements: what an organization's plan allows, and the one place every
 * writer that adds a course, a chatbot or a learner asks before it writes.
 * The caps in force are the organization's `max_*` columns (copied from the
 * plan, or an operator's override); a missing one reads as the plan's.
 */

const DAY_MS = 86_400_000;

export type Entitlements = {
  plan: Plan;
  caps: Usage;
  planCaps: Usage;
  /** The features the plan lists (shown on the billing page). */
  features: readonly string[];
};

export function planCaps(plan: Plan): Usage {
  return {
    learners: planCap(plan, 'learners'),
    courses: planCap(plan, 'courses'),
    chatbots: planCap(plan, 'chatbots'),
  };
}

/** The caps a plan gives an organization: the plan's, except where an operator set an override. */
export function capsWithOverrides(
  plan: Plan,
  account:
    Pick<BillingAccount, 'overrideMaxLearners' | 'overrideMaxCourses' | 'overrideMaxChatbots'> | undefined,
): Usage {
  const base = planCaps(plan);
  return {
    learners: account?.overrideMaxLearners ?? base.learners,
    courses: account?.overrideMaxCourses ?? base.courses,
    chatbots: account?.overrideMaxChatbots ?? base.chatbots,
  };
}

export async function loadEntitlements(db: Database, organizationId: string): Promise<Entitlements> {
  const row = await findOrganizationPlan(db, organizationId);
  const plan = planById(row?.plan ?? 'free');
  const base = planCaps(plan);
  return {
    plan,
    planCaps: base,
    caps: {
      learners: row?.max_learners ?? base.learners,
      courses: row?.max_courses ?? base.courses,
      chatbots: row?.max_chatbots ?? base.chatbots,
    },
    features: plan.features,
  };
}

/** The first day (UTC, YYYY-MM-DD) of the billing period `now` falls in: the subscription's, else the month's. */
export function periodStartOf(
  account: Pick<BillingAccount, 'currentPeriodStart'> | undefined,
  now: Date,
): string {
  const start = account?.currentPeriodStart;
  if (start && start <= now) return start.toISOString().slice(0, 10);
  return `${now.toISOString().slice(0, 7)}-01`;
}

const capMessage = (metric: 'courses' | 'chatbots', plan: Plan, cap: number) =>
  metric === 'courses'
    ? BILLING_MESSAGES.courseCap(plan.name, cap)
    : BILLING_MESSAGES.chatbotCap(plan.name, cap);

/**
 * Asks, in the writing transaction, whether `adding` more courses or
 * chatbots fit the cap: throws a 402 naming the cap, the plan and what to do
 * when they do not; otherwise records the usage notices the addition
 * crosses. Holds the organization's cap lock until the transaction ends.
 */
export async function assertCanAdd(
  tx: Database,
  organizationId: string,
  metric: 'courses' | 'chatbots',
  adding = 1,
  now = new Date(),
): Promise<void> {
  await lockOrganizationCaps(tx, organizationId);
  const entitlements = await loadEntitlements(tx, organizationId);
  const cap = entitlements.caps[metric];
  const used = await countMetric(tx, organizationId, metric);
  if (used + adding > cap)
    throw new AppError('PLAN_LIMIT_REACHED', capMessage(metric, entitlements.plan, cap));
  await recordThresholds(tx, organizationId, { metric, before: used, after: used + adding, cap, now });
}

/**
 * The course cap at ingestion: of the unknown courses a batch would
 * register (in order of first appearance), those past the cap are refused
 * with the reason. Returns the refused external ids and the message
 * (empty when nothing was asked).
 */
export async function admitNewCourses(
  tx: Database,
  organizationId: string,
  externalIds: readonly string[],
  now = new Date(),
): Promise<{ refused: Set<string>; reason: string }> {
  if (externalIds.length === 0) return { refused: new Set(), reason: '' };
  await lockOrganizationCaps(tx, organizationId);
  const entitlements = await loadEntitlements(tx, organizationId);
  const cap = entitlements.caps.courses;
  const reason = capMessage('courses', entitlements.plan, cap);
  const used = await countMetric(tx, organizationId, 'courses');
  const room = Math.max(0, cap - used);
  const admitted = externalIds.slice(0, room);
  if (admitted.length > 0) {
    await recordThresholds(tx, organizationId, {
      metric: 'courses',
      before: used,
      after: used + admitted.length,
      cap,
      now,
    });
  }
  return { refused: new Set(externalIds.slice(room)), reason };
}

/**
 * The learner cap, for every path that creates learners: of these e-mail
 * addresses, the ones that would be new learners past the cap. Learner data
 * is never dropped silently: existing learners always pass; new ones keep
 * passing for `LEARNER_GRACE_DAYS` after the cap is first exceeded (the
 * owners are told when that starts), and only then are refused with the
 * reason (the owners are told once per period).
 */
export async function admitNewLearners(
  tx: Database,
  organizationId: string,
  emails: readonly string[],
  now = new Date(),
): Promise<{ refused: Set<string>; reason: string }> {
  // A batch of known learners costs one lookup. Under the cap no lock is
  // taken either: the learner cap is soft (a grace period follows it), so
  // batches racing past it by a few learners only start the grace period a
  // batch later, and ingestion never queues on it. Past the cap the lock
  // makes the grace period start once.
  const unique = [...new Set(emails)];
  if (unique.length === 0) return { refused: new Set(), reason: '' };
  const known = await selectKnownLearnerEmails(tx, organizationId, unique);
  const fresh = unique.filter((email) => !known.has(email));
  if (fresh.length === 0) return { refused: new Set(), reason: '' };
  const entitlements = await loadEntitlements(tx, organizationId);
  const cap = entitlements.caps.learners;
  const reason = BILLING_MESSAGES.learnerCap(entitlements.plan.name, cap);
  const used = await countMetric(tx, organizationId, 'learners');
  const notice = (after: number) =>
    recordThresholds(tx, organizationId, { metric: 'learners', before: used, after, cap, now });
  if (used + fresh.length <= cap) {
    await notice(used + fresh.length);
    return { refused: new Set(), reason };
  }

  await lockOrganizationCaps(tx, organizationId);
  const account = await selectAccount(tx, organizationId);
  let graceStartedAt = account?.learnerCapReachedAt ?? null;
  if (!graceStartedAt) {
    graceStartedAt = now;
    await upsertAccount(tx, organizationId, { learnerCapReachedAt: now });
    const endsOn = new Date(now.getTime() + LEARNER_GRACE_DAYS * DAY_MS);
    await insertActivity(tx, {
      organizationId,
      actorUserId: null,
      kind: 'billing.cap_reached',
      subjectType: 'billing',
      subjectId: 'learners',
      summary: `Learner limit of ${cap.toLocaleString('en-US')} reached: new learners are stored until ${endsOn.toISOString().slice(0, 10)}, then refused`,
      details: { metric: 'learners', cap, used, graceEndsAt: endsOn.toISOString() },
    });
  }
  if (now.getTime() < graceStartedAt.getTime() + LEARNER_GRACE_DAYS * DAY_MS) {
    await notice(used + fresh.length);
    return { refused: new Set(), reason };
  }

  const room = Math.max(0, cap - used);
  if (room > 0) await notice(used + room);
  const refused = new Set(fresh.slice(room));
  const blocked = await insertNoticeOnce(tx, organizationId, {
    kind: 'learners_blocked',
    metric: 'learners',
    threshold: 0,
    periodStart: periodStartOf(account, now),
    used,
    cap,
    message: reason,
  });
  if (blocked) {
    await insertActivity(tx, {
      organizationId,
      actorUserId: null,
      kind: 'billing.cap_reached',
      subjectType: 'billing',
      subjectId: 'learners',
      summary: `Learner limit of ${cap.toLocaleString('en-US')} reached and the grace period has ended: events of new learners are refused`,
      details: { metric: 'learners', cap, used, refused: refused.size },
    });
  }
  return { refused, reason };
}

/**
 * Records the 80, 90 or 100 % notice that going from `before` to `after`
 * crosses, once per metric, threshold and period, with an activity entry
 * for each new one (the e-mail job sends them to the owners).
 */
async function recordThresholds(
  tx: Database,
  organizationId: string,
  input: { metric: BillingMetric; before: number; after: number; cap: number; now: Date },
): Promise<void> {
  const { metric, before, after, cap, now } = input;
  if (cap <= 0) return;
  // A jump over several thresholds (3 courses of 3 at once) is one notice, the highest.
  const crossed = USAGE_THRESHOLDS.filter(
    (threshold) => before * 100 < threshold * cap && after * 100 >= threshold * cap,
  ).slice(-1);
  if (crossed.length === 0) return;
  const account = await selectAccount(tx, organizationId);
  for (const threshold of crossed) {
    const message = usageNoticeMessage(metric, threshold, after, cap);
    const row = await insertNoticeOnce(tx, organizationId, {
      kind: 'usage',
      metric,
      threshold,
      periodStart: periodStartOf(account, now),
      used: after,
      cap,
      message,
    });
    if (!row) continue;
    await insertActivity(tx, {
      organizationId,
      actorUserId: null,
      kind: threshold >= 100 ? 'billing.cap_reached' : 'billing.usage_notice',
      subjectType: 'billing',
      subjectId: metric,
      summary: `${BILLING_METRIC_LABELS[metric].title}: ${message}`,
      details: { metric, threshold, used: after, cap },
    });
  }
}
