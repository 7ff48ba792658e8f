import {
  BILLING_MESSAGES,
  type BillingCheckoutResult,
  type BillingInvoices,
  type BillingOverview,
} from '@courselens/contracts';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { fakeEvent, startFakeStripe, type FakeStripe } from '../../test/fake-stripe';
import { createStripeProvider } from './stripe-provider';

// Billing through the real routes with the Stripe provider, against a local
// fake of the Stripe API: Checkout, the webhook that applies the plan (signed
// with the SDK's test helper, handled once), a plan change of a live
// subscription, cancellation at the period's end, the portal and invoices.

const WEBHOOK_SECRET = 'whsec_billing_routes';
const PRICES = {
  'team:month': 'price_team_month',
  'team:year': 'price_team_year',
  'business:month': 'price_business_month',
} as const;

let fake: FakeStripe;
let testApp: TestApp;
let owner: SignedUp;

beforeAll(async () => {
  fake = await startFakeStripe();
  testApp = await createTestApp(
    {},
    {
      billingProvider: createStripeProvider({
        secretKey: 'sk_test_routes',
        webhookSecret: WEBHOOK_SECRET,
        prices: PRICES,
        apiBase: fake.apiBase,
      }),
    },
  );
  owner = await signUpViaApi(testApp.app);
});

afterAll(async () => {
  await testApp.close();
  await fake.close();
});

const overview = async () => {
  const response = await testApp.app.inject({ method: 'GET', url: '/api/billing', headers: owner.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<BillingOverview>();
};

function postWebhook(event: unknown, secret = WEBHOOK_SECRET, timestamp?: number) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
  return testApp.app.inject({
    method: 'POST',
    url: '/api/billing/webhooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

describe('billing with Stripe', () => {
  let subscriptionId: string;

  it('sends a new subscriber to Checkout and changes nothing until Stripe confirms', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: owner.headers,
      payload: { plan: 'team', interval: 'month' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<BillingCheckoutResult>();
    expect(result.kind).toBe('redirect');
    const session = [...fake.state.checkoutSessions.values()][0];
    expect(session?.client_reference_id).toBe(owner.organization.id);
    expect(session?.success_url).toMatch(/\/billing\?checkout=success$/);
    expect((await overview()).plan.id).toBe('free');
    // The customer is kept at once: a second checkout before the webhook reuses it.
    await testApp.app.inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: owner.headers,
      payload: { plan: 'team', interval: 'year' },
    });
    expect(fake.state.customers.size).toBe(1);
    expect(fake.state.checkoutSessions.size).toBe(2);
  });

  it('applies the subscription from its signed webhook once, and refuses a bad or stale signature', async () => {
    const customer = [...fake.state.customers.values()][0];
    const subscription = fake.seedSubscription({
      customer: customer?.id ?? '',
      price: 'price_team_month',
      metadata: { organizationId: owner.organization.id },
      paymentMethod: { brand: 'visa', last4: '4242', expMonth: 4, expYear: 2031 },
      currentPeriodStart: 1_795_046_400, // 2026-11-19
      currentPeriodEnd: 1_797_638_400, // 2026-12-19
    });
    subscriptionId = subscription.id;
    const event = fakeEvent('customer.subscription.created', subscription, 'evt_created_1');

    const forged = await postWebhook(event, 'whsec_someone_else');
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ error: BILLING_MESSAGES.badSignature });
    const stale = await postWebhook(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 301);
    expect(stale.statusCode).toBe(400);
    expect((await overview()).plan.id).toBe('free');

    const first = await postWebhook(event);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, outcome: 'handled' });
    expect(await overview()).toMatchObject({
      plan: { id: 'team' },
      provider: 'stripe',
      interval: 'month',
      renewsAt: '2026-12-19T00:00:00.000Z',
    });
    const again = await postWebhook(event);
    expect(again.json()).toEqual({ received: true, outcome: 'duplicate' });
  });

  it('moves the live subscription to another plan at once', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: owner.headers,
      payload: { plan: 'business', interval: 'month' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<BillingCheckoutResult>();
    expect(result.kind).toBe('changed');
    if (result.kind === 'changed') {
      expect(result.overview.plan.id).toBe('business');
      expect(result.overview.meters.find((meter) => meter.metric === 'courses')?.cap).toBe(250);
    }
    expect(fake.state.subscriptions.get(subscriptionId)?.items.data[0]?.price.id).toBe(
      'price_business_month',
    );
  });

  it('says when a plan has no price here', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: owner.headers,
      payload: { plan: 'business', interval: 'year' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: BILLING_MESSAGES.priceNotConfigured('Business', 'year') });
  });

  it('cancels at the end of the period, opens the portal and lists invoices', async () => {
    const cancel = await testApp.app.inject({
      method: 'POST',
      url: '/api/billing/cancel',
      headers: owner.headers,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json<BillingOverview>()).toMatchObject({
      plan: { id: 'business' },
      cancelAtPeriodEnd: true,
    });

    // Choosing the same plan again keeps it: the subscription no longer ends.
    const kept = await testApp.app.inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: owner.headers,
      payload: { plan: 'business', interval: 'month' },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<BillingCheckoutResult>()).toMatchObject({
      kind: 'changed',
      overview: { plan: { id: 'business' }, cancelAtPeriodEnd: false },
    });
    expect(fake.state.subscriptions.get(subscriptionId)?.cancel_at_period_end).toBe(false);

    const portal = await testApp.app.inject({
      method: 'POST',
      url: '/api/billing/portal',
      headers: owner.headers,
    });
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json<{ url: string }>().url).toMatch(/^https?:\/\//);

    const customer = [...fake.state.customers.values()][0]?.id ?? '';
    fake.seedInvoice({
      customer,
      created: 1_795_046_400,
      amountDue: 4900,
      number: 'ACME-0001',
      invoicePdf: 'https://files.stripe.test/ACME-0001.pdf',
    });
    const invoices = await testApp.app.inject({
      method: 'GET',
      url: '/api/billing/invoices',
      headers: owner.headers,
    });
    expect(invoices.json<BillingInvoices>()).toMatchObject({
      provider: 'stripe',
      invoices: [{ number: 'ACME-0001', amountDue: 4900, pdfUrl: 'https://files.stripe.test/ACME-0001.pdf' }],
    });
  });

  it('moves to Free when Stripe deletes the subscription', async () => {
    const subscription = fake.state.subscriptions.get(subscriptionId);
    const deleted = await postWebhook(
      fakeEvent('customer.subscription.deleted', subscription, 'evt_deleted_1'),
    );
    expect(deleted.json()).toEqual({ received: true, outcome: 'handled' });
    expect(await overview()).toMatchObject({
      plan: { id: 'free' },
      cancelAtPeriodEnd: false,
      renewsAt: null,
    });
  });
});
