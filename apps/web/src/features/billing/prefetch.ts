import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';
import { permissionFor } from '@/lib/roles';

import { billingInvoicesQueryOptions } from './api/get-billing-invoices';
import { billingOverviewQueryOptions } from './api/get-billing-overview';

/*
 * What the billing routes start before their pages' code arrives, with the
 * pages' own query options. Loaded by `routes.tsx` on demand (its own
 * chunk). Owners only: a member's page says why instead, and the server
 * would refuse the request.
 */

/** `/billing`: the overview and the invoices. */
export function billing({ organizationId, organization, prefetch }: OrganizationPrefetchRoute) {
  if (!permissionFor(organization.role, 'billing').isAllowed) return;
  prefetch(billingOverviewQueryOptions(organizationId));
  prefetch(billingInvoicesQueryOptions(organizationId));
}

/** `/subscribe`: the overview (the current plan and interval). */
export function subscribe({ organizationId, organization, prefetch }: OrganizationPrefetchRoute) {
  if (!permissionFor(organization.role, 'billing').isAllowed) return;
  prefetch(billingOverviewQueryOptions(organizationId));
}
