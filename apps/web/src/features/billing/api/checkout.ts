import type { BillingCheckoutInput, BillingCheckoutResult } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { billingOverviewQueryOptions } from './get-billing-overview';
import { invalidateBilling } from './invalidate-billing';

/**
 * `POST /api/billing/checkout` (owners): subscribe to, or change to, a plan
 * (`free` ends the paid plan). Either the plan changed at once (`changed`,
 * with the new overview) or the owner pays on Stripe's page (`redirect`).
 */
export function checkout(input: BillingCheckoutInput): Promise<BillingCheckoutResult> {
  return api.post<BillingCheckoutResult>('/billing/checkout', input);
}

export function useCheckout(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: checkout,
    onSuccess: (result) => {
      // A redirect changes nothing yet: Stripe's webhook does, after payment.
      if (result.kind !== 'changed') return;
      queryClient.setQueryData(billingOverviewQueryOptions(organizationId).queryKey, result.overview);
      return invalidateBilling(queryClient, organizationId);
    },
  });
}
