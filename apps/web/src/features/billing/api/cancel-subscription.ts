import type { BillingOverview } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { billingOverviewQueryOptions } from './get-billing-overview';
import { invalidateBilling } from './invalidate-billing';

/**
 * `POST /api/billing/cancel` (owners): Stripe ends the plan at the end of the
 * period paid for (`cancelAtPeriodEnd`); the local provider moves to Free at once.
 */
export function cancelSubscription(): Promise<BillingOverview> {
  return api.post<BillingOverview>('/billing/cancel');
}

export function useCancelSubscription(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: (overview) => {
      queryClient.setQueryData(billingOverviewQueryOptions(organizationId).queryKey, overview);
      return invalidateBilling(queryClient, organizationId);
    },
  });
}
