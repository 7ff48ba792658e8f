import type { ActionBody, ActionInput } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, type OrganizationIdInput } from '@/lib/query-keys';

import { actionPath, actionQueryOptions } from './get-action';
import { actionsRootKey } from './get-actions';

/** `PUT /api/actions/:actionId`: the whole action; a secret header sent without a value keeps its value. */
export function updateAction({
  actionId,
  input,
}: {
  actionId: string;
  input: ActionInput;
}): Promise<ActionBody> {
  return api.put<ActionBody>(actionPath(actionId), input);
}

export function useUpdateAction(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAction,
    onSuccess: (action) => {
      queryClient.setQueryData(actionQueryOptions(organizationId, action.id).queryKey, action);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: actionsRootKey(organizationId) }),
        invalidateActivity(queryClient, organizationId),
      ]);
    },
  });
}
