import type {
  BillingInterval,
  BillingInvoice,
  BillingProviderKind,
  PlanId,
  SubscriptionStatus,
} from '@courselens/contracts';

/**
 * Who takes payment. Stripe when it is configured (Checkout for new
 * subscriptions, the Customer Portal for the card and invoices, webhooks for
 * what happens later); otherwise the local provider of self-hosted installs,
 * which changes plans at once without payment. The billing service speaks
 * only to this interface.
 */

/** The state of a subscription as the provider reports it, which billing stores and applies. */
export type SubscriptionState = {
  plan: PlanId;
  interval: BillingInterval | null;
  status: SubscriptionStatus;
  customerId: string | null;
  subscriptionId: string | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  paymentMethod: { brand: string; last4: string; expMonth: number; expYear: number } | null;
};

/** What billing knows of an organization's account when it asks the provider for something. */
export type ProviderAccount = {
  organizationId: string;
  organizationName: string;
  /** The owner's e-mail, for a new Stripe customer. */
  email: string;
  customerId: string | null;
  subscriptionId: string | null;
};

export type CheckoutOutcome =
  /** The plan changed at once (local provider, or an existing Stripe subscription moved to another price). */
  | { kind: 'changed'; subscription: SubscriptionState }
  /**
   * The owner pays on the provider's page; the plan changes when its webhook
   * arrives. `customerId` is the provider's customer the payment is for,
   * kept at once so a second checkout before the webhook reuses it.
   */
  | { kind: 'redirect'; url: string; customerId: string | null };

/**
 * A verified webhook event, reduced to what billing acts on. `organizationId`
 * comes from the subscription's metadata (set at checkout) when present;
 * otherwise billing finds the organization by `customerId`.
 */
export type ProviderEvent =
  | {
      id: string;
      type: 'subscription.updated';
      organizationId: string | null;
      customerId: string;
      subscription: SubscriptionState;
    }
  | {
      id: string;
      type: 'subscription.deleted';
      organizationId: string | null;
      customerId: string;
    }
  | { id: string; type: 'invoice.paid'; customerId: string }
  | { id: string; type: 'invoice.payment_failed'; customerId: string }
  /** An event of a type billing does not act on (it is acknowledged and recorded). */
  | { id: string; type: 'ignored'; stripeType: string };

export type BillingProvider = {
  readonly kind: BillingProviderKind;
  /**
   * Subscribes to, or changes to, a paid plan. `returnUrl` is where the
   * provider's page sends the owner back to (`?checkout=success|canceled`
   * is appended by the provider).
   */
  checkout(
    account: ProviderAccount,
    request: { plan: Exclude<PlanId, 'free'>; interval: BillingInterval; returnUrl: string },
  ): Promise<CheckoutOutcome>;
  /**
   * Ends the paid plan: the local provider at once (the returned state is on
   * Free); Stripe at the end of the period already paid for (the state says
   * `cancelAtPeriodEnd`).
   */
  cancel(account: ProviderAccount): Promise<SubscriptionState>;
  /** The provider's page for the card and invoices (null: the provider has none). */
  portalUrl(account: ProviderAccount, returnUrl: string): Promise<string | null>;
  /** The organization's invoices, newest first (none for the local provider). */
  invoices(account: ProviderAccount): Promise<BillingInvoice[]>;
  /**
   * Verifies a webhook's signature (300 s tolerance) and reads the event;
   * throws `WebhookSignatureError` when it does not verify. Null when the
   * provider takes no webhooks.
   */
  parseWebhook: ((rawBody: string, signatureHeader: string | undefined) => ProviderEvent) | null;
};

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/** The Free plan's state: what the local provider's cancel and a deleted subscription leave. */
export function freeSubscription(customerId: string | null = null): SubscriptionState {
  return {
    plan: 'free',
    interval: null,
    status: 'active',
    customerId,
    subscriptionId: null,
    currentPeriodStart: null,
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
    paymentMethod: null,
  };
}

/** The local provider: plans change at once, nobody pays, there are no invoices. */
export function createLocalProvider(): BillingProvider {
  return {
    kind: 'local',
    checkout: async (_account, request) => ({
      kind: 'changed',
      subscription: {
        ...freeSubscription(),
        plan: request.plan,
        interval: request.interval,
      },
    }),
    cancel: async () => freeSubscription(),
    portalUrl: async () => null,
    invoices: async () => [],
    parseWebhook: null,
  };
}

/** Stripe's settings (STRIPE_* variables); billing uses Stripe when this is present. */
export type StripeSettings = {
  secretKey: string;
  webhookSecret: string | undefined;
  /** Price ids by plan and interval; a missing one cannot be bought. */
  prices: Partial<Record<`${Exclude<PlanId, 'free'>}:${BillingInterval}`, string>>;
  /** Another API host (a local fake in tests, stripe-mock); Stripe's own when absent. */
  apiBase: string | undefined;
};
