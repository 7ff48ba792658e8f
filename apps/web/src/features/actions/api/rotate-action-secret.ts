import type { ActionBody, RotatedActionSecret } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, type OrganizationIdInput } from '@/lib/query-keys';

import { actionPath, actionQueryOptions } from './get-action';

/** `POST /api/actions/:actionId/rotate-secret` (empty body): the new secret, this once; the old one stops at once. */
export function rotateActionSecret(actionId: string): Promise<RotatedActionSecret> {
  return api.post<RotatedActionSecret>(`${actionPath(actionId)}/rotate-secret`);
}

export function useRotateActionSecret(organizationId: OrganizationIdInput, actionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rotateActionSecret(actionId),
    onSuccess: ({ secretHint }) => {
      queryClient.setQueryData<ActionBody>(actionQueryOptions(organizationId, actionId).queryKey, (action) =>
        action ? { ...action, secretHint } : action,
      );
      return invalidateActivity(queryClient, organizationId);
    },
  });
}
