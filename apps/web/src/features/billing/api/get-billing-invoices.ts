import type { BillingInvoices } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { billingKey } from './get-billing-overview';

/** `GET /api/billing/invoices` (owners): the provider's invoices, newest first (none with the local provider). */
export function getBillingInvoices({ signal }: { signal?: AbortSignal } = {}): Promise<BillingInvoices> {
  return api.get<BillingInvoices>('/billing/invoices', { signal });
}

export function billingInvoicesQueryOptions(organizationId: OrganizationIdInput) {
  return queryOptions({
    queryKey: [...billingKey(organizationId), 'invoices'] as const,
    queryFn: ({ signal }) => getBillingInvoices({ signal }),
    enabled: Boolean(organizationId),
  });
}

export function useBillingInvoices(organizationId: OrganizationIdInput) {
  return useQuery(billingInvoicesQueryOptions(organizationId));
}
