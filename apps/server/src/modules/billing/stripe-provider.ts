import {
  BILLING_INTERVALS,
  BILLING_MESSAGES,
  PLAN_IDS,
  planById,
  type BillingInterval,
  type BillingInvoice,
  type PlanId,
  type SubscriptionStatus,
} from '@courselens/contracts';
import Stripe from 'stripe';
import { AppError } from '../../errors';
import {
  WebhookSignatureError,
  type BillingProvider,
  type ProviderEvent,
  type StripeSettings,
  type SubscriptionState,
} from './billing-provider';

type PaidPlan = Exclude<PlanId, 'free'>;

/** How old a webhook's signature may be, in seconds, before it is refused as a possible replay. */
const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Two years of monthly invoices: what the Billing page lists. */
const INVOICE_LIMIT = 24;

/**
 * The Stripe provider: Checkout for a new subscription, an in-place price
 * change (prorated) for a live one, cancellation at the end of the period,
 * the Customer Portal for the card, the invoice list, and verified webhooks
 * reduced to the events billing acts on.
 *
 * A checkout that redirects does not report the customer it may have
 * created: the `subscription.updated` event that follows the payment carries
 * that customer id and the organization id (from the subscription metadata
 * set here), and billing links the two then.
 *
 * `options.stripe` replaces the client built from the settings.
 */
export function createStripeProvider(
  settings: StripeSettings,
  options: { stripe?: Stripe } = {},
): BillingProvider {
  const stripe = options.stripe ?? createStripeClient(settings);

  const planByPrice = new Map<string, { plan: PaidPlan; interval: BillingInterval }>();
  for (const plan of PLAN_IDS) {
    if (plan === 'free') continue;
    for (const interval of BILLING_INTERVALS) {
      const price = settings.prices[`${plan}:${interval}`];
      if (price && !planByPrice.has(price)) planByPrice.set(price, { plan, interval });
    }
  }

  function readSubscription(subscription: Stripe.Subscription): SubscriptionState {
    const items = subscription.items.data;
    const item = items.find((candidate) => planByPrice.has(candidate.price.id));
    const bought = item && planByPrice.get(item.price.id);
    if (!item || !bought) {
      throw new Error(
        `Stripe subscription ${subscription.id} is on price ${items.map((i) => i.price.id).join(', ') || '(none)'}, ` +
          'which is none of the STRIPE_PRICE_* prices configured here',
      );
    }
    // The period is on the item since Stripe's 2025-03-31 API version, on the
    // subscription before it; a webhook endpoint may still send events in an
    // older version than the SDK's, so both places are read.
    const periodStart =
      secondsField(item, 'current_period_start') ?? secondsField(subscription, 'current_period_start');
    const periodEnd =
      secondsField(item, 'current_period_end') ?? secondsField(subscription, 'current_period_end');
    return {
      plan: bought.plan,
      interval: bought.interval,
      status: readStatus(subscription.status),
      customerId: idOf(subscription.customer),
      subscriptionId: subscription.id,
      currentPeriodStart: periodStart === null ? null : new Date(periodStart * 1000),
      currentPeriodEnd: periodEnd === null ? null : new Date(periodEnd * 1000),
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      paymentMethod: readPaymentMethod(subscription.default_payment_method),
    };
  }

  /** The subscription when its price can still be changed; null when it is over or gone. */
  async function findChangeableSubscription(id: string): Promise<Stripe.Subscription | null> {
    try {
      const subscription = await stripe.subscriptions.retrieve(id);
      // `incomplete` is excluded too: Stripe refuses item changes until its
      // first payment succeeds, and it expires by itself within a day, so a
      // new Checkout is the way forward.
      const isOver = ['canceled', 'incomplete_expired', 'incomplete'].includes(subscription.status);
      return isOver ? null : subscription;
    } catch (error) {
      // Deleted in Stripe (or made in another mode): subscribe anew.
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')
        return null;
      throw error;
    }
  }

  const webhookSecret = settings.webhookSecret;

  return {
    kind: 'stripe',

    async checkout(account, { plan, interval, returnUrl }) {
      const price = settings.prices[`${plan}:${interval}`];
      if (!price) {
        throw new AppError('BAD_REQUEST', BILLING_MESSAGES.priceNotConfigured(planById(plan).name, interval));
      }

      const live = account.subscriptionId ? await findChangeableSubscription(account.subscriptionId) : null;
      if (live) {
        // Subscriptions made here hold one item: the plan's price, which is swapped.
        const item = live.items.data[0];
        const updated = await stripe.subscriptions.update(live.id, {
          items: [item ? { id: item.id, price } : { price }],
          proration_behavior: 'create_prorations',
          // Choosing a plan again undoes a pending cancellation.
          cancel_at_period_end: false,
          metadata: { organizationId: account.organizationId },
          expand: ['default_payment_method'],
        });
        return { kind: 'changed', subscription: readSubscription(updated) };
      }

      const customerId =
        account.customerId ??
        (
          await stripe.customers.create({
            email: account.email,
            name: account.organizationName,
            metadata: { organizationId: account.organizationId },
          })
        ).id;
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price, quantity: 1 }],
        customer: customerId,
        client_reference_id: account.organizationId,
        // Copied onto the subscription, so its webhooks name the organization.
        subscription_data: { metadata: { organizationId: account.organizationId } },
        success_url: withQueryParameter(returnUrl, 'checkout', 'success'),
        cancel_url: withQueryParameter(returnUrl, 'checkout', 'canceled'),
      });
      // Only embedded and custom UI modes have no URL, and this asks for the hosted page.
      if (!session.url) throw new Error(`Stripe Checkout Session ${session.id} has no URL`);
      return { kind: 'redirect', url: session.url, customerId };
    },

    async cancel(account) {
      if (!account.subscriptionId) throw new AppError('BAD_REQUEST', BILLING_MESSAGES.nothingToCancel);
      const updated = await stripe.subscriptions.update(account.subscriptionId, {
        cancel_at_period_end: true,
        expand: ['default_payment_method'],
      });
      return readSubscription(updated);
    },

    async portalUrl(account, returnUrl) {
      if (!account.customerId) throw new AppError('BAD_REQUEST', BILLING_MESSAGES.noCustomer);
      const session = await stripe.billingPortal.sessions.create({
        customer: account.customerId,
        return_url: returnUrl,
      });
      return session.url;
    },

    async invoices(account) {
      if (!account.customerId) return [];
      // Stripe lists newest first, the order the Billing page shows.
      const list = await stripe.invoices.list({ customer: account.customerId, limit: INVOICE_LIMIT });
      return list.data.map(readInvoice);
    },

    parseWebhook: webhookSecret
      ? (rawBody, signatureHeader) => {
          let event: Stripe.Event;
          try {
            if (!signatureHeader) throw new Error('No Stripe-Signature header');
            event = stripe.webhooks.constructEvent(
              rawBody,
              signatureHeader,
              webhookSecret,
              WEBHOOK_TOLERANCE_SECONDS,
            );
          } catch (error) {
            throw new WebhookSignatureError(BILLING_MESSAGES.badSignature, { cause: error });
          }
          return readEvent(event);
        }
      : null,
  };

  function readEvent(event: Stripe.Event): ProviderEvent {
    switch (event.type) {
      case 'customer.subscription.created':
      case 'customer.subscription.updated': {
        const subscription = event.data.object;
        return {
          id: event.id,
          type: 'subscription.updated',
          organizationId: subscription.metadata.organizationId ?? null,
          customerId: idOf(subscription.customer),
          subscription: readSubscription(subscription),
        };
      }
      case 'customer.subscription.deleted': {
        const subscription = event.data.object;
        return {
          id: event.id,
          type: 'subscription.deleted',
          organizationId: subscription.metadata.organizationId ?? null,
          customerId: idOf(subscription.customer),
        };
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const customer = event.data.object.customer;
        // An invoice billed to a v2 Account instead of a customer is none of ours.
        if (!customer) return { id: event.id, type: 'ignored', stripeType: event.type };
        return {
          id: event.id,
          type: event.type === 'invoice.paid' ? 'invoice.paid' : 'invoice.payment_failed',
          customerId: idOf(customer),
        };
      }
      default:
        return { id: event.id, type: 'ignored', stripeType: event.type };
    }
  }
}

function createStripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  return new Stripe(settings.secretKey, {
    // Stripe's own API gets two retries (the SDK adds idempotency keys, so a
    // retried POST never charges twice). Another host is a local fake or
    // stripe-mock, where a failure is not transient and retrying only delays it.
    maxNetworkRetries: base ? 0 : 2,
    // The owner waits on the page for Checkout's URL: well short of the SDK's 80 s.
    timeout: 20_000,
    ...(base && {
      protocol: base.protocol === 'http:' ? 'http' : 'https',
      // An IPv6 origin's hostname keeps its brackets, which Node's http module does not accept.
      host: base.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: base.port || (base.protocol === 'http:' ? 80 : 443),
    }),
  });
}

function readStatus(status: Stripe.Subscription.Status): SubscriptionStatus {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    // past_due, unpaid, incomplete, and paused (a trial that ended without a
    // card): the plan is not being paid for, so billing's payment grace applies.
    default:
      return 'past_due';
  }
}

function readPaymentMethod(
  method: Stripe.Subscription['default_payment_method'],
): SubscriptionState['paymentMethod'] {
  // Unexpanded (webhooks never expand) or not a card: nothing to show.
  if (!method || typeof method === 'string' || !method.card) return null;
  const { brand, last4, exp_month, exp_year } = method.card;
  return { brand, last4, expMonth: exp_month, expYear: exp_year };
}

function readInvoice(invoice: Stripe.Invoice): BillingInvoice {
  return {
    id: invoice.id,
    number: invoice.number,
    createdAt: new Date(invoice.created * 1000).toISOString(),
    amountDue: invoice.amount_due,
    currency: invoice.currency,
    status: invoice.status ?? 'draft',
    pdfUrl: invoice.invoice_pdf ?? null,
    hostedUrl: invoice.hosted_invoice_url ?? null,
  };
}

function idOf(value: string | { id: string }): string {
  return typeof value === 'string' ? value : value.id;
}

/** A Unix-seconds field that the object's API version may lack. */
function secondsField(source: object, key: string): number | null {
  const value = (source as Record<string, unknown>)[key];
  return typeof value === 'number' ? value : null;
}

/** Appends `key=value` to a URL that may already have a query string or a fragment. */
function withQueryParameter(url: string, key: string, value: string): string {
  const hashAt = url.indexOf('#');
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${key}=${encodeURIComponent(value)}${hash}`;
}
