import type { AppConfig } from '../../config';
import { createLocalProvider, type BillingProvider } from './billing-provider';
import { createStripeProvider } from './stripe-provider';

/** Stripe when STRIPE_SECRET_KEY is set, else the local provider that changes plans at once. */
export function createBillingProvider(config: Pick<AppConfig, 'stripe'>): BillingProvider {
  return config.stripe ? createStripeProvider(config.stripe) : createLocalProvider();
}
