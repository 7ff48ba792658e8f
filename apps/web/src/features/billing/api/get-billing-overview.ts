import type { BillingOverview } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

/** Everything cached about an organization's billing: the overview, the invoices, the banner's status. */
export function billingKey(organizationId: OrganizationIdInput) {
  return organizationDomainKey(organizationId, 'billing');
}

/** `GET /api/billing` (owners): the plan, the subscription, the meters and the notices. */
export function getBillingOverview({ signal }: { signal?: AbortSignal } = {}): Promise<BillingOverview> {
  return api.get<BillingOverview>('/billing', { signal });
}

/** Pass a null organization for a member: the query is not run (the server would refuse it). */
export function billingOverviewQueryOptions(organizationId: OrganizationIdInput) {
  return queryOptions({
    queryKey: [...billingKey(organizationId), 'overview'] as const,
    queryFn: ({ signal }) => getBillingOverview({ signal }),
    enabled: Boolean(organizationId),
  });
}

/** How often, and how many times, the page asks again while Stripe's confirmation is on its way. */
export const CONFIRMATION_POLL_MS = 3000;
export const CONFIRMATION_POLLS = 40;

/**
 * The overview; with `awaitingConfirmation` (back from a paid Checkout) it is
 * asked again every few seconds, for two minutes at most, until the caller
 * stops waiting (the plan changed): Stripe's webhook may land after the owner.
 */
export function useBillingOverview(
  organizationId: OrganizationIdInput,
  { awaitingConfirmation = false }: { awaitingConfirmation?: boolean } = {},
) {
  return useQuery({
    ...billingOverviewQueryOptions(organizationId),
    refetchInterval: (query) =>
      awaitingConfirmation && query.state.dataUpdateCount < CONFIRMATION_POLLS ? CONFIRMATION_POLL_MS : false,
  });
}
