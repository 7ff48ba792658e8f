import type {
  ListVariablesResponse,
  UpdateVariableInput,
  VariableBody,
  VariableListItem,
} from '@courselens/contracts';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey } from '@/lib/query-keys';

import { variablesRootKey } from './get-variables';

/**
 * `PATCH /api/variables/:variableId`. The description is updated by id and
 * name (spec section 7), so `name` is the name the person saw; a variable
 * renamed since answers 409.
 */
export function updateVariable({
  variableId,
  ...input
}: UpdateVariableInput & { variableId: string }): Promise<VariableBody> {
  return api.patch<VariableBody>(`/variables/${encodeURIComponent(variableId)}`, input);
}

type VariableUpdate = UpdateVariableInput & { variableId: string };

function isVariableList(data: unknown): data is ListVariablesResponse {
  return typeof data === 'object' && data !== null && Array.isArray((data as { items?: unknown }).items);
}

/** The list rows as they look with the change applied (what the server will answer). */
export function applyVariableUpdate(
  data: ListVariablesResponse,
  update: VariableUpdate,
): ListVariablesResponse {
  return {
    ...data,
    items: data.items.map((item): VariableListItem => {
      if (item.id !== update.variableId) return item;
      const description =
        update.description === undefined ? item.description : update.description?.trim() || null;
      return { ...item, active: update.active ?? item.active, description };
    }),
  };
}

/**
 * Changes a variable with an optimistic update: every cached list of the
 * organization shows the change at once, and goes back to what it was when
 * the server refuses (the caller shows the error). Lists refetch afterwards
 * (an active filter may no longer match the row).
 */
export function useUpdateVariable(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  const rootKey = variablesRootKey(organizationId);
  return useMutation({
    mutationFn: updateVariable,
    onMutate: async (update: VariableUpdate) => {
      await queryClient.cancelQueries({ queryKey: rootKey });
      const previous = queryClient.getQueriesData<unknown>({ queryKey: rootKey });
      for (const [key, data] of previous) {
        if (isVariableList(data)) queryClient.setQueryData(key, applyVariableUpdate(data, update));
      }
      return { previous };
    },
    onError: (_error, _update, context?: { previous: [QueryKey, unknown][] }) => {
      for (const [key, data] of context?.previous ?? []) queryClient.setQueryData(key, data);
    },
    // AI summaries show the variable's description too.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: rootKey }),
        queryClient.invalidateQueries({ queryKey: organizationDomainKey(organizationId, 'ai-summaries') }),
      ]),
  });
}
