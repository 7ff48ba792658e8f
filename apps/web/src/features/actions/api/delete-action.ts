import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, type OrganizationIdInput } from '@/lib/query-keys';

import { actionPath, actionQueryOptions } from './get-action';
import { actionsRootKey } from './get-actions';

/** `DELETE /api/actions/:actionId`: refused (409) while a pipeline uses the action. */
export function deleteAction(actionId: string): Promise<void> {
  return api.delete<void>(actionPath(actionId));
}

export function useDeleteAction(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAction,
    onSuccess: (_result, actionId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [...actionsRootKey(organizationId), 'list'] }),
        // The page still showing it is leaving: no refetch that would answer 404 under it.
        queryClient.invalidateQueries({
          queryKey: actionQueryOptions(organizationId, actionId).queryKey,
          refetchType: 'none',
        }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
