import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, type OrganizationIdInput } from '@/lib/query-keys';

import { funnelsQueryOptions } from './get-funnels';

/** `DELETE /api/analytics/funnels/:funnelId` (recorded in the activity). */
export function deleteFunnel(funnelId: string): Promise<void> {
  return api.delete<void>(`/analytics/funnels/${encodeURIComponent(funnelId)}`);
}

export function useDeleteFunnel(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFunnel,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: funnelsQueryOptions(organizationId).queryKey }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
