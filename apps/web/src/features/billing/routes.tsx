import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';

// The loaders' bodies and what they import (query options, contracts) load
// on demand, beside the page's code, never with the main chunk.
const prefetches = () => import('./prefetch');

/**
 * The signed-in billing routes (lazy modules, mounted under the auth guard):
 * the billing overview and the plan chooser. Each loader prefetches its
 * page's first screen, for owners only. Stripe Checkout comes back to
 * `/billing?checkout=success|canceled`.
 */
export function billingRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.billing.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).billing),
      lazy: async () => ({ Component: (await import('./components/billing-page')).BillingPage }),
    },
    {
      path: paths.subscribe.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).subscribe),
      lazy: async () => ({ Component: (await import('./components/subscribe-page')).SubscribePage }),
    },
  ];
}
