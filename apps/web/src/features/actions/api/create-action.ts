import type { ActionInput, CreatedAction } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, type OrganizationIdInput } from '@/lib/query-keys';

import { actionsRootKey } from './get-actions';

/** `POST /api/actions`: a webhook's signing secret is in the answer, this once. */
export function createAction(input: ActionInput): Promise<CreatedAction> {
  return api.post<CreatedAction>('/actions', input);
}

export function useCreateAction(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAction,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: actionsRootKey(organizationId) }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
