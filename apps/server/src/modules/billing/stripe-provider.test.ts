import { BILLING_MESSAGES } from '@courselens/contracts';
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import { fakeEvent, startFakeStripe, type FakeStripe } from '../../test/fake-stripe';
import {
  WebhookSignatureError,
  type BillingProvider,
  type ProviderAccount,
  type StripeSettings,
} from './billing-provider';
import { createStripeProvider } from './stripe-provider';

// The Stripe provider through the real SDK against a local fake of the Stripe
// API: what it sends for Checkout, plan changes, cancellation, the portal and
// invoices, and how it verifies and reads webhooks. Nothing leaves 127.0.0.1.

const WEBHOOK_SECRET = 'whsec_test_provider';
// Business yearly has no price, as on an installation that sells it monthly only.
const PRICES = {
  'team:month': 'price_team_month',
  'team:year': 'price_team_year',
  'business:month': 'price_business_month',
} as const;

const PERIOD_START = 1_767_225_600; // 2026-01-01T00:00:00Z
const PERIOD_END = 1_769_904_000; // 2026-02-01T00:00:00Z

let fake: FakeStripe;
let provider: BillingProvider;

const settingsFor = (apiBase: string, overrides: Partial<StripeSettings> = {}): StripeSettings => ({
  secretKey: 'sk_test_provider',
  webhookSecret: WEBHOOK_SECRET,
  prices: PRICES,
  apiBase,
  ...overrides,
});

const account = (overrides: Partial<ProviderAccount> = {}): ProviderAccount => ({
  organizationId: 'org_acme',
  organizationName: 'Acme Learning',
  email: 'owner@acme.test',
  customerId: null,
  subscriptionId: null,
  ...overrides,
});

const requestsTo = (method: string, path: string) =>
  fake.requests.filter((request) => request.method === method && request.path === path);

beforeEach(async () => {
  fake = await startFakeStripe();
  provider = createStripeProvider(settingsFor(fake.apiBase));
});

afterEach(async () => {
  await fake.close();
});

describe('checkout', () => {
  it('creates the customer once and opens Checkout for the plan’s price', async () => {
    const first = await provider.checkout(account(), {
      plan: 'team',
      interval: 'year',
      returnUrl: 'https://acme.courselens.test/settings/billing',
    });

    expect([...fake.state.customers.values()]).toEqual([
      expect.objectContaining({
        id: 'cus_fake_1',
        email: 'owner@acme.test',
        name: 'Acme Learning',
        metadata: { organizationId: 'org_acme' },
      }),
    ]);
    expect(first).toEqual({
      kind: 'redirect',
      url: 'https://checkout.stripe.test/c/pay/cs_fake_2',
      customerId: 'cus_fake_1',
    });
    expect(requestsTo('POST', '/v1/checkout/sessions').map((request) => request.body)).toEqual([
      {
        mode: 'subscription',
        line_items: [{ price: 'price_team_year', quantity: '1' }],
        customer: 'cus_fake_1',
        client_reference_id: 'org_acme',
        subscription_data: { metadata: { organizationId: 'org_acme' } },
        success_url: 'https://acme.courselens.test/settings/billing?checkout=success',
        cancel_url: 'https://acme.courselens.test/settings/billing?checkout=canceled',
      },
    ]);

    // Billing has linked the customer (from the webhook) by the second visit.
    const second = await provider.checkout(account({ customerId: 'cus_fake_1' }), {
      plan: 'business',
      interval: 'month',
      returnUrl: 'https://acme.courselens.test/settings/billing?tab=plans#top',
    });

    expect(second).toEqual({
      kind: 'redirect',
      url: 'https://checkout.stripe.test/c/pay/cs_fake_3',
      customerId: 'cus_fake_1',
    });
    expect(requestsTo('POST', '/v1/customers')).toHaveLength(1);
    expect(fake.state.customers.size).toBe(1);
    expect(requestsTo('POST', '/v1/checkout/sessions')[1]?.body).toMatchObject({
      line_items: [{ price: 'price_business_month', quantity: '1' }],
      customer: 'cus_fake_1',
      success_url: 'https://acme.courselens.test/settings/billing?tab=plans&checkout=success#top',
      cancel_url: 'https://acme.courselens.test/settings/billing?tab=plans&checkout=canceled#top',
    });
  });

  it('moves a live subscription to the new price at once, prorated', async () => {
    const customer = fake.seedCustomer({ email: 'owner@acme.test' });
    const subscription = fake.seedSubscription({
      customer: customer.id,
      price: PRICES['team:month'],
      metadata: { organizationId: 'org_acme' },
      cancelAtPeriodEnd: true,
      paymentMethod: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
      currentPeriodStart: PERIOD_START,
      currentPeriodEnd: PERIOD_END,
    });
    const itemId = subscription.items.data[0]?.id;

    const outcome = await provider.checkout(
      account({ customerId: customer.id, subscriptionId: subscription.id }),
      { plan: 'team', interval: 'year', returnUrl: 'https://acme.courselens.test/settings/billing' },
    );

    expect(outcome).toEqual({
      kind: 'changed',
      subscription: {
        plan: 'team',
        interval: 'year',
        status: 'active',
        customerId: customer.id,
        subscriptionId: subscription.id,
        currentPeriodStart: new Date('2026-01-01T00:00:00Z'),
        currentPeriodEnd: new Date('2026-02-01T00:00:00Z'),
        cancelAtPeriodEnd: false,
        paymentMethod: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
      },
    });
    expect(requestsTo('POST', `/v1/subscriptions/${subscription.id}`).map((request) => request.body)).toEqual(
      [
        {
          items: [{ id: itemId, price: 'price_team_year' }],
          proration_behavior: 'create_prorations',
          cancel_at_period_end: 'false',
          metadata: { organizationId: 'org_acme' },
          expand: ['default_payment_method'],
        },
      ],
    );
    expect(subscription.items.data.map((item) => item.price.id)).toEqual(['price_team_year']);
    expect(fake.state.checkoutSessions.size).toBe(0);
    expect(requestsTo('POST', '/v1/customers')).toHaveLength(0);
  });

  it('opens Checkout when the stored subscription has ended, never started or no longer exists', async () => {
    const customer = fake.seedCustomer();
    const ended = fake.seedSubscription({
      customer: customer.id,
      price: PRICES['team:month'],
      status: 'canceled',
    });
    // Its first payment failed: Stripe refuses to change its price.
    const unpaid = fake.seedSubscription({
      customer: customer.id,
      price: PRICES['team:month'],
      status: 'incomplete',
    });

    for (const subscriptionId of [ended.id, unpaid.id, 'sub_deleted_in_dashboard']) {
      const outcome = await provider.checkout(account({ customerId: customer.id, subscriptionId }), {
        plan: 'business',
        interval: 'month',
        returnUrl: 'https://acme.courselens.test/settings/billing',
      });
      expect(outcome.kind).toBe('redirect');
    }
    expect([...fake.state.checkoutSessions.values()].map((session) => session.customer)).toEqual([
      customer.id,
      customer.id,
      customer.id,
    ]);
    expect(
      fake.requests.filter(
        (request) => request.method === 'POST' && request.path.startsWith('/v1/subscriptions/'),
      ),
    ).toEqual([]);
  });

  it('refuses a plan and interval without a configured price, before calling Stripe', async () => {
    const attempt = provider.checkout(account(), {
      plan: 'business',
      interval: 'year',
      returnUrl: 'https://acme.courselens.test/settings/billing',
    });

    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The Business plan cannot be bought yearly here yet: its Stripe price is not configured.',
    });
    expect(BILLING_MESSAGES.priceNotConfigured('Business', 'year')).toBe(
      'The Business plan cannot be bought yearly here yet: its Stripe price is not configured.',
    );
    expect(fake.requests).toEqual([]);
  });
});

describe('cancel', () => {
  it('ends the subscription with the period already paid for', async () => {
    const subscription = fake.seedSubscription({
      price: PRICES['business:month'],
      currentPeriodStart: PERIOD_START,
      currentPeriodEnd: PERIOD_END,
    });

    const state = await provider.cancel(
      account({ customerId: subscription.customer, subscriptionId: subscription.id }),
    );

    expect(state).toEqual({
      plan: 'business',
      interval: 'month',
      status: 'active',
      customerId: subscription.customer,
      subscriptionId: subscription.id,
      currentPeriodStart: new Date('2026-01-01T00:00:00Z'),
      currentPeriodEnd: new Date('2026-02-01T00:00:00Z'),
      cancelAtPeriodEnd: true,
      paymentMethod: null,
    });
    expect(subscription.cancel_at_period_end).toBe(true);
    expect(requestsTo('POST', `/v1/subscriptions/${subscription.id}`)[0]?.body).toEqual({
      cancel_at_period_end: 'true',
      expand: ['default_payment_method'],
    });
  });

  it('says there is nothing to cancel without a subscription', async () => {
    await expect(provider.cancel(account({ customerId: 'cus_fake_1' }))).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Your organization is on the Free plan: there is no subscription to cancel.',
    });
    expect(fake.requests).toEqual([]);
  });
});

describe('portal', () => {
  it('opens a Customer Portal session that returns to the Billing page', async () => {
    const customer = fake.seedCustomer();

    const url = await provider.portalUrl(
      account({ customerId: customer.id }),
      'https://acme.courselens.test/settings/billing',
    );

    expect(url).toBe('https://billing.stripe.test/p/session/bps_fake_2');
    expect(requestsTo('POST', '/v1/billing_portal/sessions')[0]?.body).toEqual({
      customer: customer.id,
      return_url: 'https://acme.courselens.test/settings/billing',
    });
  });

  it('needs a customer', async () => {
    await expect(
      provider.portalUrl(account(), 'https://acme.courselens.test/settings/billing'),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: BILLING_MESSAGES.noCustomer,
    });
  });
});

describe('invoices', () => {
  it('lists the customer’s invoices newest first, in the contract’s shape', async () => {
    const customer = fake.seedCustomer();
    const other = fake.seedCustomer();
    fake.seedInvoice({
      customer: customer.id,
      created: PERIOD_START,
      amountDue: 4900,
      number: 'ACME-0001',
      invoicePdf: 'https://pay.stripe.test/invoice/1/pdf',
      hostedInvoiceUrl: 'https://invoice.stripe.test/i/1',
    });
    fake.seedInvoice({ customer: other.id, created: PERIOD_END, amountDue: 19900 });
    fake.seedInvoice({
      customer: customer.id,
      created: PERIOD_END,
      amountDue: 49000,
      currency: 'eur',
      status: 'open',
      number: 'ACME-0002',
    });

    const invoices = await provider.invoices(account({ customerId: customer.id }));

    expect(invoices).toEqual([
      {
        id: 'in_fake_5',
        number: 'ACME-0002',
        createdAt: '2026-02-01T00:00:00.000Z',
        amountDue: 49000,
        currency: 'eur',
        status: 'open',
        pdfUrl: null,
        hostedUrl: null,
      },
      {
        id: 'in_fake_3',
        number: 'ACME-0001',
        createdAt: '2026-01-01T00:00:00.000Z',
        amountDue: 4900,
        currency: 'usd',
        status: 'paid',
        pdfUrl: 'https://pay.stripe.test/invoice/1/pdf',
        hostedUrl: 'https://invoice.stripe.test/i/1',
      },
    ]);
    expect(requestsTo('GET', '/v1/invoices')[0]?.query).toEqual({ customer: customer.id, limit: '24' });
  });

  it('is empty without a customer, without asking Stripe', async () => {
    expect(await provider.invoices(account())).toEqual([]);
    expect(fake.requests).toEqual([]);
  });
});

describe('webhooks', () => {
  const sign = (payload: string, options: { secret?: string; timestamp?: number } = {}) =>
    Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
    });

  const parse = (event: unknown) => {
    const payload = JSON.stringify(event);
    return provider.parseWebhook?.(payload, sign(payload));
  };

  const seedWebhookSubscription = (status = 'active') =>
    fake.seedSubscription({
      price: PRICES['team:year'],
      status,
      metadata: { organizationId: 'org_acme' },
      paymentMethod: { brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2029 },
      currentPeriodStart: PERIOD_START,
      currentPeriodEnd: PERIOD_END,
    });

  it.each(['customer.subscription.created', 'customer.subscription.updated'])(
    'reads %s as the subscription’s new state',
    (type) => {
      const subscription = seedWebhookSubscription();

      expect(parse(fakeEvent(type, subscription, 'evt_1'))).toEqual({
        id: 'evt_1',
        type: 'subscription.updated',
        organizationId: 'org_acme',
        customerId: subscription.customer,
        subscription: {
          plan: 'team',
          interval: 'year',
          status: 'active',
          customerId: subscription.customer,
          subscriptionId: subscription.id,
          currentPeriodStart: new Date('2026-01-01T00:00:00Z'),
          currentPeriodEnd: new Date('2026-02-01T00:00:00Z'),
          cancelAtPeriodEnd: false,
          // Events never expand the payment method.
          paymentMethod: null,
        },
      });
    },
  );

  it.each([
    ['active', 'active'],
    ['trialing', 'active'],
    ['past_due', 'past_due'],
    ['unpaid', 'past_due'],
    ['incomplete', 'past_due'],
    ['paused', 'past_due'],
    ['canceled', 'canceled'],
    ['incomplete_expired', 'canceled'],
  ])('reads Stripe status %s as %s', (stripeStatus, status) => {
    const event = parse(fakeEvent('customer.subscription.updated', seedWebhookSubscription(stripeStatus)));
    expect(event?.type === 'subscription.updated' && event.subscription.status).toBe(status);
  });

  it('reads the period from the subscription in events of older API versions', () => {
    const subscription = seedWebhookSubscription();
    const legacy = {
      ...subscription,
      current_period_start: PERIOD_START + 86_400,
      current_period_end: PERIOD_END + 86_400,
      items: {
        ...subscription.items,
        data: subscription.items.data.map(
          ({ current_period_start: _start, current_period_end: _end, ...item }) => item,
        ),
      },
    };

    const event = parse(fakeEvent('customer.subscription.updated', legacy));

    expect(event?.type === 'subscription.updated' && event.subscription).toMatchObject({
      currentPeriodStart: new Date('2026-01-02T00:00:00Z'),
      currentPeriodEnd: new Date('2026-02-02T00:00:00Z'),
    });
  });

  it('reads a deleted subscription, with or without the organization in its metadata', () => {
    const subscription = seedWebhookSubscription('canceled');

    expect(parse(fakeEvent('customer.subscription.deleted', subscription, 'evt_2'))).toEqual({
      id: 'evt_2',
      type: 'subscription.deleted',
      organizationId: 'org_acme',
      customerId: subscription.customer,
    });
    expect(
      parse(fakeEvent('customer.subscription.deleted', { ...subscription, metadata: {} })),
    ).toMatchObject({
      organizationId: null,
      customerId: subscription.customer,
    });
  });

  it('reads paid and failed invoices by customer', () => {
    const invoice = fake.seedInvoice({ customer: 'cus_acme', created: PERIOD_START, amountDue: 4900 });

    expect(parse(fakeEvent('invoice.paid', invoice, 'evt_3'))).toEqual({
      id: 'evt_3',
      type: 'invoice.paid',
      customerId: 'cus_acme',
    });
    expect(parse(fakeEvent('invoice.payment_failed', { ...invoice, status: 'open' }, 'evt_4'))).toEqual({
      id: 'evt_4',
      type: 'invoice.payment_failed',
      customerId: 'cus_acme',
    });
  });

  it('acknowledges other events as ignored', () => {
    expect(
      parse(fakeEvent('checkout.session.completed', { id: 'cs_1', object: 'checkout.session' }, 'evt_5')),
    ).toEqual({ id: 'evt_5', type: 'ignored', stripeType: 'checkout.session.completed' });
  });

  it('fails on a subscription whose price is not configured here', () => {
    const subscription = fake.seedSubscription({ price: 'price_legacy_plan' });

    expect(() => parse(fakeEvent('customer.subscription.updated', subscription))).toThrow(
      `Stripe subscription ${subscription.id} is on price price_legacy_plan, which is none of the STRIPE_PRICE_* prices configured here`,
    );
  });

  describe('signatures', () => {
    const payload = JSON.stringify(
      fakeEvent('invoice.paid', { id: 'in_1', object: 'invoice', customer: 'cus_1' }),
    );
    const refusal = (rawBody: string, header: string | undefined) => {
      try {
        provider.parseWebhook?.(rawBody, header);
      } catch (error) {
        return error;
      }
      return null;
    };

    it.each([
      ['another secret', () => refusal(payload, sign(payload, { secret: 'whsec_someone_else' }))],
      ['a tampered body', () => refusal(payload.replace('cus_1', 'cus_2'), sign(payload))],
      [
        'a signature older than 300 s',
        () => refusal(payload, sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 })),
      ],
      ['no signature header', () => refusal(payload, undefined)],
      ['a malformed header', () => refusal(payload, 'not-a-signature')],
    ])('refuses %s', (_case, attempt) => {
      const error = attempt();
      expect(error).toBeInstanceOf(WebhookSignatureError);
      expect(error).toMatchObject({ message: BILLING_MESSAGES.badSignature });
    });

    it('accepts a signature made 290 s ago', () => {
      expect(refusal(payload, sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 290 }))).toBeNull();
    });
  });

  it('takes no webhooks without a signing secret', () => {
    expect(
      createStripeProvider(settingsFor(fake.apiBase, { webhookSecret: undefined })).parseWebhook,
    ).toBeNull();
  });
});
