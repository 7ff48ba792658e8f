import type { BillingMetric } from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  billingAccounts,
  billingNotices,
  billingWebhookEvents,
  type BillingAccount,
  type BillingNoticeKind,
  type BillingNoticeRow,
  type NewBillingAccount,
} from '../../db/schema';

// The SQL of billing: its own tables (accounts, notices, handled webhook
// events) and the usage counts the caps are checked against.

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * Serializes the cap checks of one organization until the transaction ends:
 * two requests adding the last allowed course cannot both pass.
 */
export async function lockOrganizationCaps(tx: Database, organizationId: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`billing-caps:${organizationId}`}, 0))`,
  );
}

export type Usage = Record<BillingMetric, number>;

/** What the organization holds now: learners, live courses, chatbots. */
export async function countUsage(db: Database, organizationId: string): Promise<Usage> {
  const result = await db.execute<{ learners: number; courses: number; chatbots: number }>(sql`
    select
      (select count(*)::int from learners where organization_id = ${organizationId}) as learners,
      (select count(*)::int from courses where organization_id = ${organizationId} and not is_deleted) as courses,
      (select count(*)::int from chatbots where organization_id = ${organizationId}) as chatbots`);
  const row = result.rows[0];
  return { learners: row?.learners ?? 0, courses: row?.courses ?? 0, chatbots: row?.chatbots ?? 0 };
}

/** One metric's count (the write paths ask for the one they add to). */
export async function countMetric(
  db: Database,
  organizationId: string,
  metric: BillingMetric,
): Promise<number> {
  const query =
    metric === 'learners'
      ? sql`select count(*)::int as n from learners where organization_id = ${organizationId}`
      : metric === 'courses'
        ? sql`select count(*)::int as n from courses where organization_id = ${organizationId} and not is_deleted`
        : sql`select count(*)::int as n from chatbots where organization_id = ${organizationId}`;
  const result = await db.execute<{ n: number }>(query);
  return result.rows[0]?.n ?? 0;
}

/** How many of each were added since `since` (the forecast's pace; deleted courses count, they were added). */
export async function countAddedSince(db: Database, organizationId: string, since: Date): Promise<Usage> {
  const result = await db.execute<{ learners: number; courses: number; chatbots: number }>(sql`
    select
      (select count(*)::int from learners
        where organization_id = ${organizationId} and created_at >= ${at(since)}) as learners,
      (select count(*)::int from courses
        where organization_id = ${organizationId} and created_at >= ${at(since)}) as courses,
      (select count(*)::int from chatbots
        where organization_id = ${organizationId} and created_at >= ${at(since)}) as chatbots`);
  const row = result.rows[0];
  return { learners: row?.learners ?? 0, courses: row?.courses ?? 0, chatbots: row?.chatbots ?? 0 };
}

/** Which of these e-mail addresses are already learners of the organization. */
export async function selectKnownLearnerEmails(
  tx: Database,
  organizationId: string,
  emails: readonly string[],
): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const result = await tx.execute<{ email: string }>(sql`
    select email from learners
    where organization_id = ${organizationId} and email = any(${sql.param([...emails])}::text[])`);
  return new Set(result.rows.map((row) => row.email));
}

export async function selectAccount(
  db: Database,
  organizationId: string,
): Promise<BillingAccount | undefined> {
  const rows = await db
    .select()
    .from(billingAccounts)
    .where(sql`${billingAccounts.organizationId} = ${organizationId}`)
    .limit(1);
  return rows[0];
}

export async function selectAccountByCustomer(
  db: Database,
  customerId: string,
): Promise<BillingAccount | undefined> {
  const rows = await db
    .select()
    .from(billingAccounts)
    .where(sql`${billingAccounts.stripeCustomerId} = ${customerId}`)
    .limit(1);
  return rows[0];
}

type AccountChanges = Partial<Omit<NewBillingAccount, 'id' | 'organizationId' | 'createdAt' | 'updatedAt'>>;

/** Creates the organization's account or changes it; returns the row. */
export async function upsertAccount(
  tx: Database,
  organizationId: string,
  changes: AccountChanges,
): Promise<BillingAccount> {
  const rows = await tx
    .insert(billingAccounts)
    .values({ organizationId, ...changes })
    .onConflictDoUpdate({
      target: billingAccounts.organizationId,
      set: { ...changes, updatedAt: new Date() },
    })
    .returning();
  return rows[0] as BillingAccount;
}

/**
 * Records a notice unless the same one exists for the period; returns the
 * row when it is new (the caller then logs it in the activity feed).
 */
export async function insertNoticeOnce(
  tx: Database,
  organizationId: string,
  notice: {
    kind: BillingNoticeKind;
    metric: BillingMetric | null;
    threshold: number;
    periodStart: string;
    used: number;
    cap: number;
    message: string;
  },
): Promise<BillingNoticeRow | undefined> {
  const rows = await tx
    .insert(billingNotices)
    .values({ organizationId, ...notice })
    .onConflictDoNothing()
    .returning();
  return rows[0];
}

/** The period's notices, newest first. */
export async function selectNotices(
  db: Database,
  organizationId: string,
  since: Date,
): Promise<BillingNoticeRow[]> {
  return db
    .select()
    .from(billingNotices)
    .where(
      sql`${billingNotices.organizationId} = ${organizationId} and ${billingNotices.createdAt} >= ${at(since)}`,
    )
    .orderBy(sql`${billingNotices.createdAt} desc`)
    .limit(50);
}

/** Organizations with notices not yet e-mailed (recent ones only: an old unsent notice is news no more). */
export async function selectOrganizationsWithUnsentNotices(db: Database, since: Date): Promise<string[]> {
  const result = await db.execute<{ organization_id: string }>(sql`
    select distinct organization_id from ${billingNotices}
    where emailed_at is null and created_at >= ${at(since)}`);
  return result.rows.map((row) => row.organization_id);
}

/** Claims the organization's unsent notices (locked, so two senders never mail one twice). */
export async function claimUnsentNotices(
  tx: Database,
  organizationId: string,
  since: Date,
): Promise<{ id: string; message: string }[]> {
  const result = await tx.execute<{ id: string; message: string }>(sql`
    select id, message from ${billingNotices}
    where organization_id = ${organizationId} and emailed_at is null and created_at >= ${at(since)}
    order by created_at
    for update skip locked`);
  return result.rows;
}

export async function markNoticesEmailed(tx: Database, organizationId: string, ids: readonly string[]) {
  if (ids.length === 0) return;
  await tx.execute(sql`
    update ${billingNotices} set emailed_at = now(), updated_at = now()
    where organization_id = ${organizationId} and id = any(${sql.param([...ids])}::uuid[])`);
}

/** Records a webhook event as handled; false when it was handled before (Stripe retried it). */
export async function claimWebhookEvent(
  tx: Database,
  event: { eventId: string; type: string },
): Promise<boolean> {
  const rows = await tx
    .insert(billingWebhookEvents)
    .values(event)
    .onConflictDoNothing()
    .returning({ id: billingWebhookEvents.eventId });
  return rows.length > 0;
}

/** Accounts whose payment grace period has passed (the Free caps are due). */
export async function selectLapsedPaymentGraces(db: Database, now: Date): Promise<string[]> {
  const result = await db.execute<{ organization_id: string }>(sql`
    select organization_id from ${billingAccounts}
    where payment_grace_until is not null and payment_grace_until <= ${at(now)}`);
  return result.rows.map((row) => row.organization_id);
}
