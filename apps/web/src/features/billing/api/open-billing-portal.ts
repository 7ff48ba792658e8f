import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** `POST /api/billing/portal` (owners, Stripe only): the Customer Portal's address for the card and invoices. */
export function openBillingPortal(): Promise<{ url: string }> {
  return api.post<{ url: string }>('/billing/portal');
}

export function useOpenBillingPortal() {
  return useMutation({ mutationFn: openBillingPortal });
}
