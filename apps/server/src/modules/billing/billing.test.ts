import {
  BILLING_BANNERS,
  BILLING_MESSAGES,
  LEARNER_GRACE_DAYS,
  OWNER_ONLY_MESSAGES,
  PAYMENT_GRACE_DAYS,
  type BillingCheckoutResult,
  type BillingOverview,
  type BillingStatus,
  type IngestionEventInput,
} from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityEvents, billingAccounts, organizations, userOrganizations } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { emailNotices, handleProviderEvent, lapsePaymentGraces, setCapOverrides } from './billing.service';

let testApp: TestApp;
const inject = (options: InjectOptions) => testApp.app.inject(options);
let counter = 0;
const uid = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;
const DAY = 86_400_000;

beforeAll(async () => {
  testApp = await createTestApp();
  await testApp.app.ready();
});

afterAll(async () => {
  await testApp.close();
});

async function json<T>(options: InjectOptions, status = 200): Promise<T> {
  const response = await inject(options);
  expect(response.statusCode, response.body).toBe(status);
  return response.json<T>();
}

const overviewOf = (who: SignedUp) =>
  json<BillingOverview>({ method: 'GET', url: '/api/billing', headers: who.headers });

const createCourse = (who: SignedUp, title: string) =>
  inject({ method: 'POST', url: '/api/courses', headers: who.headers, payload: { courseTitle: title } });

async function ingestKey(who: SignedUp): Promise<string> {
  return (
    await json<{ key: string }>(
      {
        method: 'POST',
        url: '/api/api-keys',
        headers: who.headers,
        payload: { name: 'LMS', scope: 'ingest' },
      },
      201,
    )
  ).key;
}

const started = (course: string, email: string): IngestionEventInput => ({
  id: uid('evt'),
  type: 'course.started',
  timestamp: new Date().toISOString(),
  course: { externalCourseId: course, title: course },
  learner: { email },
});

async function ingest(key: string, events: IngestionEventInput[]) {
  return json<{ accepted: number; duplicates: number; rejected: { index: number; error: string }[] }>({
    method: 'POST',
    url: '/api/v1/events',
    headers: { authorization: `Bearer ${key}` },
    payload: { events },
  });
}

async function activityKinds(organizationId: string): Promise<string[]> {
  const rows = await testApp.database.db
    .select({ kind: activityEvents.kind })
    .from(activityEvents)
    .where(sql`${activityEvents.organizationId} = ${organizationId}`);
  return rows.map((row) => row.kind);
}

describe('plans and caps', () => {
  let owner: SignedUp;

  beforeAll(async () => {
    owner = await signUpViaApi(testApp.app);
  });

  it('starts a new organization on Free, with its caps copied on and the local provider', async () => {
    const overview = await overviewOf(owner);
    expect(overview).toMatchObject({
      plan: { id: 'free', name: 'Free' },
      provider: 'local',
      interval: null,
      status: 'active',
      renewsAt: null,
      learnerGrace: null,
      paymentMethod: null,
    });
    expect(overview.meters.map((meter) => [meter.metric, meter.used, meter.cap])).toEqual([
      ['learners', 0, 100],
      ['courses', 0, 3],
      ['chatbots', 0, 1],
    ]);
    const [row] = await testApp.database.db
      .select({ plan: organizations.plan, maxCourses: organizations.maxCourses })
      .from(organizations)
      .where(sql`${organizations.id} = ${owner.organization.id}`);
    expect(row).toEqual({ plan: 'free', maxCourses: 3 });
  });

  it('creates three courses and refuses the fourth with 402 naming the cap, the plan and what to do', async () => {
    for (const title of ['One', 'Two', 'Three'])
      expect((await createCourse(owner, title)).statusCode).toBe(201);
    const fourth = await createCourse(owner, 'Four');
    expect(fourth.statusCode).toBe(402);
    expect(fourth.json()).toEqual({
      error: BILLING_MESSAGES.courseCap('Free', 3),
      code: 'PLAN_LIMIT_REACHED',
    });
    expect(BILLING_MESSAGES.courseCap('Free', 3)).toBe(
      'Course limit reached: the Free plan allows 3 courses. Delete a course or upgrade your plan on the Billing page to add another.',
    );
    const overview = await overviewOf(owner);
    expect(overview.meters.find((meter) => meter.metric === 'courses')).toMatchObject({
      used: 3,
      percent: 100,
    });
    // One notice for the jump to the cap (not 80, 90 and 100 at once), in the feed as the cap reached.
    expect(overview.notices.map((notice) => [notice.metric, notice.threshold])).toEqual([['courses', 100]]);
    expect(
      (await activityKinds(owner.organization.id)).filter((kind) => kind === 'billing.cap_reached'),
    ).toHaveLength(1);
  });

  it('refuses the events of a fourth, unknown course at ingestion and stores the others of the batch', async () => {
    const other = await signUpViaApi(testApp.app);
    const key = await ingestKey(other);
    const events = [
      started('c1', 'a@acme.test'),
      started('c2', 'a@acme.test'),
      started('c3', 'b@acme.test'),
      started('c4', 'b@acme.test'),
      started('c4', 'c@acme.test'),
      started('c1', 'c@acme.test'),
    ];
    const result = await ingest(key, events);
    expect(result.accepted).toBe(4);
    expect(result.rejected).toEqual([
      { index: 3, id: events[3]?.id, error: BILLING_MESSAGES.courseCap('Free', 3) },
      { index: 4, id: events[4]?.id, error: BILLING_MESSAGES.courseCap('Free', 3) },
    ]);
    // The learner only the refused course brought in is not a learner.
    const usage = await overviewOf(other);
    expect(usage.meters.map((meter) => meter.used)).toEqual([3, 3, 0]);
    // A refused event gives its id back: sent again after an upgrade, it is stored.
    await json<BillingCheckoutResult>({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: other.headers,
      payload: { plan: 'team' },
    });
    const again = await ingest(key, [events[3] as IngestionEventInput]);
    expect(again).toMatchObject({ accepted: 1, duplicates: 0, rejected: [] });
  });

  it('allows one chatbot on Free and refuses the second', async () => {
    const agent = { name: 'Ada', instructions: 'Help learners with safety.', variables: [] };
    await json({ method: 'POST', url: '/api/chatbots', headers: owner.headers, payload: agent }, 201);
    const second = await inject({
      method: 'POST',
      url: '/api/chatbots',
      headers: owner.headers,
      payload: agent,
    });
    expect(second.statusCode).toBe(402);
    expect(second.json()).toMatchObject({ error: BILLING_MESSAGES.chatbotCap('Free', 1) });
  });

  it('upgrades through the local provider at once: the caps change, the feed says so', async () => {
    const result = await json<BillingCheckoutResult>({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: owner.headers,
      payload: { plan: 'team', interval: 'year' },
    });
    expect(result.kind).toBe('changed');
    if (result.kind !== 'changed') return;
    expect(result.overview).toMatchObject({
      plan: { id: 'team', name: 'Team' },
      interval: 'year',
      provider: 'local',
    });
    expect(result.overview.meters.map((meter) => meter.cap)).toEqual([2500, 25, 5]);
    expect((await createCourse(owner, 'Four')).statusCode).toBe(201);
    expect(await activityKinds(owner.organization.id)).toContain('billing.plan_changed');
    const again = await inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: owner.headers,
      payload: { plan: 'team', interval: 'year' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: BILLING_MESSAGES.samePlan('Team') });
  });

  it('refuses a downgrade below current usage with what would have to go, and changes nothing', async () => {
    const refused = await inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: owner.headers,
      payload: { plan: 'free' },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(
      'The Free plan allows 3 courses. Delete 1 course first, then change the plan.',
    );
    const cancel = await inject({ method: 'POST', url: '/api/billing/cancel', headers: owner.headers });
    expect(cancel.statusCode).toBe(409);
    expect((await overviewOf(owner)).plan.id).toBe('team');
  });

  it('answers bad input with 400 and a message a person can act on', async () => {
    const bad = await inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: owner.headers,
      payload: { plan: 'platinum', interval: 'week' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(BILLING_MESSAGES.invalidPlan);
    const portal = await inject({ method: 'POST', url: '/api/billing/portal', headers: owner.headers });
    expect(portal.statusCode).toBe(400);
    expect(portal.json()).toMatchObject({ error: BILLING_MESSAGES.portalUnavailable });
    const invoices = await json({ method: 'GET', url: '/api/billing/invoices', headers: owner.headers });
    expect(invoices).toEqual({ provider: 'local', invoices: [] });
  });

  it('keeps billing to owners; every member reads the status', async () => {
    const member = await signUpViaApi(testApp.app);
    await testApp.database.db
      .insert(userOrganizations)
      .values({ userId: member.user.id, organizationId: owner.organization.id, role: 'team_member' });
    const headers = { ...member.headers, 'x-organization-id': owner.organization.id };
    for (const [method, url] of [
      ['GET', '/api/billing'],
      ['GET', '/api/billing/invoices'],
      ['POST', '/api/billing/checkout'],
      ['POST', '/api/billing/cancel'],
      ['POST', '/api/billing/portal'],
    ] as const) {
      const response = await inject({ method, url, headers, payload: { plan: 'business' } });
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toMatchObject({ error: OWNER_ONLY_MESSAGES.billing });
    }
    const status = await json<BillingStatus>({ method: 'GET', url: '/api/billing/status', headers });
    expect(status).toEqual({ plan: { id: 'team', name: 'Team' }, banner: null });
  });

  it('moves back to Free at once with the local provider once the organization fits', async () => {
    const db = testApp.database.db;
    await db.execute(sql`
      update courses set is_deleted = true, deleted_at = now()
      where organization_id = ${owner.organization.id} and course_title = 'Four'`);
    const overview = await json<BillingOverview>({
      method: 'POST',
      url: '/api/billing/cancel',
      headers: owner.headers,
    });
    expect(overview.plan.id).toBe('free');
    expect(overview.meters.map((meter) => meter.cap)).toEqual([100, 3, 1]);
    const none = await inject({ method: 'POST', url: '/api/billing/cancel', headers: owner.headers });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: BILLING_MESSAGES.nothingToCancel });
  });

  it('keeps an operator’s override across plan changes', async () => {
    const someone = await signUpViaApi(testApp.app);
    await testApp.database.db
      .insert(billingAccounts)
      .values({ organizationId: someone.organization.id, overrideMaxCourses: 40 });
    await json({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: someone.headers,
      payload: { plan: 'team' },
    });
    const courses = (await overviewOf(someone)).meters.find((meter) => meter.metric === 'courses');
    expect(courses).toMatchObject({ cap: 40, planCap: 25 });
  });

  it('applies an operator’s caps at once, and puts them back to the plan’s', async () => {
    const someone = await signUpViaApi(testApp.app);
    const db = testApp.database.db;
    expect(await setCapOverrides(db, someone.organization.id, { courses: 5, chatbots: 0 })).toEqual({
      learners: 100,
      courses: 5,
      chatbots: 0,
    });
    for (const title of ['A', 'B', 'C', 'D'])
      expect((await createCourse(someone, title)).statusCode).toBe(201);
    const agent = { name: 'Ada', instructions: 'Help.', variables: [] };
    const refused = await inject({
      method: 'POST',
      url: '/api/chatbots',
      headers: someone.headers,
      payload: agent,
    });
    expect(refused.json()).toMatchObject({ error: BILLING_MESSAGES.chatbotCap('Free', 0) });
    expect(await setCapOverrides(db, someone.organization.id, { courses: null, chatbots: null })).toEqual({
      learners: 100,
      courses: 3,
      chatbots: 1,
    });
    expect((await createCourse(someone, 'E')).statusCode).toBe(402);
    expect(await activityKinds(someone.organization.id)).toContain('billing.plan_changed');
  });

  it('lets only one of two racing creations take the last course', async () => {
    const racer = await signUpViaApi(testApp.app);
    await createCourse(racer, 'A');
    await createCourse(racer, 'B');
    const answers = await Promise.all([createCourse(racer, 'C'), createCourse(racer, 'D')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 402]);
  });
});

describe('the learner cap', () => {
  let owner: SignedUp;
  let key: string;

  beforeAll(async () => {
    owner = await signUpViaApi(testApp.app);
    key = await ingestKey(owner);
    // A small cap by override keeps the test to a handful of learners.
    await testApp.database.db.execute(
      sql`update organizations set max_learners = 2 where id = ${owner.organization.id}`,
    );
  });

  it('stores new learners past the cap during the grace period, and says so', async () => {
    const first = await ingest(key, [started('c1', 'a@acme.test'), started('c1', 'b@acme.test')]);
    expect(first).toMatchObject({ accepted: 2, rejected: [] });
    const past = await ingest(key, [started('c1', 'c@acme.test')]);
    expect(past).toMatchObject({ accepted: 1, rejected: [] });
    const overview = await overviewOf(owner);
    expect(overview.learnerGrace?.ended).toBe(false);
    expect(
      new Date(overview.learnerGrace?.endsAt ?? 0).getTime() -
        new Date(overview.learnerGrace?.startedAt ?? 0).getTime(),
    ).toBe(LEARNER_GRACE_DAYS * DAY);
    const status = await json<BillingStatus>({
      method: 'GET',
      url: '/api/billing/status',
      headers: owner.headers,
    });
    expect(status.banner?.kind).toBe('learner-grace');
    expect(status.banner?.message).toContain('Your organization has reached its limit of 2 learners.');
    expect(await activityKinds(owner.organization.id)).toContain('billing.cap_reached');
  });

  it('after the grace period refuses events of new learners with the reason, and stores those of existing ones', async () => {
    await testApp.database.db.execute(sql`
      update billing_accounts set learner_cap_reached_at = now() - interval '15 days'
      where organization_id = ${owner.organization.id}`);
    const events = [started('c1', 'd@acme.test'), started('c1', 'a@acme.test')];
    const result = await ingest(key, events);
    expect(result.accepted).toBe(1);
    expect(result.rejected).toEqual([
      { index: 0, id: events[0]?.id, error: BILLING_MESSAGES.learnerCap('Free', 2) },
    ]);
    const status = await json<BillingStatus>({
      method: 'GET',
      url: '/api/billing/status',
      headers: owner.headers,
    });
    expect(status.banner).toEqual({ kind: 'learner-blocked', message: BILLING_BANNERS.learnerBlocked(2) });
    const overview = await overviewOf(owner);
    expect(overview.notices.some((notice) => notice.message === BILLING_MESSAGES.learnerCap('Free', 2))).toBe(
      true,
    );
  });

  it('stores new learners again after an upgrade, and the grace period is over', async () => {
    await json({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: owner.headers,
      payload: { plan: 'team' },
    });
    const result = await ingest(key, [started('c1', 'd@acme.test')]);
    expect(result).toMatchObject({ accepted: 1, rejected: [] });
    expect((await overviewOf(owner)).learnerGrace).toBeNull();
  });
});

describe('provider events', () => {
  let owner: SignedUp;
  const customerId = `cus_${Date.now()}`;
  const subscription = (plan: 'team' | 'business', status: 'active' | 'past_due' = 'active') => ({
    plan,
    interval: 'month' as const,
    status,
    customerId,
    subscriptionId: 'sub_1',
    currentPeriodStart: new Date('2026-11-01T00:00:00Z'),
    currentPeriodEnd: new Date('2026-12-01T00:00:00Z'),
    cancelAtPeriodEnd: false,
    paymentMethod: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
  });

  beforeAll(async () => {
    owner = await signUpViaApi(testApp.app);
  });

  it('applies a subscription once, by event id, finding the organization by metadata then by customer', async () => {
    const db = testApp.database.db;
    const event = {
      id: uid('evt'),
      type: 'subscription.updated' as const,
      organizationId: owner.organization.id,
      customerId,
      subscription: subscription('business'),
    };
    expect(await handleProviderEvent(db, event)).toBe('handled');
    expect(await handleProviderEvent(db, event)).toBe('duplicate');
    const overview = await overviewOf(owner);
    expect(overview).toMatchObject({
      plan: { id: 'business' },
      interval: 'month',
      renewsAt: '2026-12-01T00:00:00.000Z',
      paymentMethod: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
    });
    expect(
      await handleProviderEvent(db, {
        ...event,
        id: uid('evt'),
        organizationId: null,
        subscription: subscription('team'),
      }),
    ).toBe('handled');
    expect((await overviewOf(owner)).plan.id).toBe('team');
    expect(
      await handleProviderEvent(db, { id: uid('evt'), type: 'invoice.paid', customerId: 'cus_nobody' }),
    ).toBe('ignored');
  });

  it('keeps the plan for a grace period after a failed payment, then applies the Free caps', async () => {
    const db = testApp.database.db;
    const now = new Date();
    expect(
      await handleProviderEvent(db, { id: uid('evt'), type: 'invoice.payment_failed', customerId }, now),
    ).toBe('handled');
    const overview = await overviewOf(owner);
    expect(overview.status).toBe('past_due');
    expect(new Date(overview.paymentGraceEndsAt ?? 0).getTime()).toBe(
      now.getTime() + PAYMENT_GRACE_DAYS * DAY,
    );
    const status = await json<BillingStatus>({
      method: 'GET',
      url: '/api/billing/status',
      headers: owner.headers,
    });
    expect(status.banner?.kind).toBe('payment-failed');
    expect(await activityKinds(owner.organization.id)).toContain('billing.payment_failed');

    expect(await lapsePaymentGraces(db, now)).toBe(0);
    expect(await lapsePaymentGraces(db, new Date(now.getTime() + (PAYMENT_GRACE_DAYS + 1) * DAY))).toBe(1);
    const lapsed = await overviewOf(owner);
    expect(lapsed).toMatchObject({ plan: { id: 'free' }, paymentGraceEndsAt: null });
    expect(lapsed.meters.map((meter) => meter.cap)).toEqual([100, 3, 1]);
  });

  it('clears a failed payment when an invoice is paid, and ends the plan when the subscription is deleted', async () => {
    const db = testApp.database.db;
    await handleProviderEvent(db, {
      id: uid('evt'),
      type: 'subscription.updated',
      organizationId: owner.organization.id,
      customerId,
      subscription: subscription('team'),
    });
    await handleProviderEvent(db, { id: uid('evt'), type: 'invoice.payment_failed', customerId });
    await handleProviderEvent(db, { id: uid('evt'), type: 'invoice.paid', customerId });
    expect(await overviewOf(owner)).toMatchObject({
      plan: { id: 'team' },
      status: 'active',
      paymentGraceEndsAt: null,
    });
    await handleProviderEvent(db, {
      id: uid('evt'),
      type: 'subscription.deleted',
      organizationId: null,
      customerId,
    });
    expect((await overviewOf(owner)).plan.id).toBe('free');
  });
});

describe('usage notices', () => {
  it('e-mails each notice to the owners once', async () => {
    const owner = await signUpViaApi(testApp.app);
    for (const title of ['One', 'Two', 'Three']) await createCourse(owner, title);
    const sent: { to: string[]; subject: string; text: string }[] = [];
    const mailer = async (mail: { to: string[]; subject: string; text: string }) => {
      sent.push(mail);
    };
    const db = testApp.database.db;
    const input = { organizationId: owner.organization.id, mailer, publicUrl: 'https://app.example.com' };
    expect(await emailNotices(db, input)).toBe(1);
    expect(await emailNotices(db, input)).toBe(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to).toEqual([owner.user.email]);
    expect(sent[0]?.text).toContain('You have reached your plan’s limit of 3 courses (3 courses now).');
    expect(sent[0]?.text).toContain('https://app.example.com/billing');
  });
});
