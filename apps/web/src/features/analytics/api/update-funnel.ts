import type { FunnelUpdateInput, SavedFunnel } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, type OrganizationIdInput } from '@/lib/query-keys';

import { funnelsQueryOptions } from './get-funnels';

/** `PUT /api/analytics/funnels/:funnelId`: a rename (the name alone) or a new configuration. */
export function updateFunnel({
  funnelId,
  ...input
}: FunnelUpdateInput & { funnelId: string }): Promise<SavedFunnel> {
  return api.put<SavedFunnel>(`/analytics/funnels/${encodeURIComponent(funnelId)}`, input);
}

export function useUpdateFunnel(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFunnel,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: funnelsQueryOptions(organizationId).queryKey }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
