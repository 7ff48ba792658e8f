import type { FunnelSaveInput, SavedFunnel } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, type OrganizationIdInput } from '@/lib/query-keys';

import { funnelsQueryOptions } from './get-funnels';

/** `POST /api/analytics/funnels`: saves a funnel (recorded in the activity). */
export function createFunnel(input: FunnelSaveInput): Promise<SavedFunnel> {
  return api.post<SavedFunnel>('/analytics/funnels', input);
}

export function useCreateFunnel(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFunnel,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: funnelsQueryOptions(organizationId).queryKey }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
