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

export function useBillingOverview(organizationId: OrganizationIdInput) {
  return useQuery(billingOverviewQueryOptions(organizationId));
}
