import type { BillingStatus } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { billingKey } from './get-billing-overview';

/** How long the banner's answer is reused: it changes with usage and payments, not by the second. */
const STATUS_FRESH_FOR_MS = 5 * 60_000;

/** `GET /api/billing/status` (every member): the plan and what the app's banner says, if anything. */
export function getBillingStatus({ signal }: { signal?: AbortSignal } = {}): Promise<BillingStatus> {
  return api.get<BillingStatus>('/billing/status', { signal });
}

export function billingStatusQueryOptions(organizationId: OrganizationIdInput) {
  return queryOptions({
    queryKey: [...billingKey(organizationId), 'status'] as const,
    queryFn: ({ signal }) => getBillingStatus({ signal }),
    enabled: Boolean(organizationId),
    staleTime: STATUS_FRESH_FOR_MS,
    // A banner is a hint, never a reason to hold the page: one failure hides it until the next visit.
    retry: false,
  });
}

export function useBillingStatus(organizationId: OrganizationIdInput) {
  return useQuery(billingStatusQueryOptions(organizationId));
}
