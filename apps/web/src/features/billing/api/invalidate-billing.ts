import type { QueryClient } from '@tanstack/react-query';

import { invalidateActivity, type OrganizationIdInput } from '@/lib/query-keys';

import { billingKey } from './get-billing-overview';

/**
 * After a plan change or a cancellation: the overview, the invoices and the
 * banner's status may all read differently, and the activity feed logs it.
 */
export function invalidateBilling(queryClient: QueryClient, organizationId: OrganizationIdInput) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: billingKey(organizationId) }),
    invalidateActivity(queryClient, organizationId),
  ]);
}
