import type { ShareSettings } from '@courselens/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey } from '@/lib/query-keys';

const path = (variableId: string) => `/variables/${encodeURIComponent(variableId)}/share`;

export function variableShareQueryOptions(
  organizationId: string | null | undefined,
  variableId: string | null,
) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'variable-share'), variableId] as const,
    queryFn: ({ signal }) => api.get<ShareSettings>(path(variableId ?? ''), { signal }),
    enabled: Boolean(organizationId && variableId),
  });
}

export function useVariableShare(organizationId: string | null | undefined, variableId: string | null) {
  return useQuery(variableShareQueryOptions(organizationId, variableId));
}

/** Switches sharing (`{ enabled }`) or replaces the link (`'rotate'`); the answer is the new settings. */
export function useChangeVariableShare(organizationId: string | null | undefined, variableId: string | null) {
  const queryClient = useQueryClient();
  const { queryKey } = variableShareQueryOptions(organizationId, variableId);
  return useMutation({
    mutationFn: (change: { enabled: boolean } | 'rotate') =>
      change === 'rotate'
        ? api.post<ShareSettings>(`${path(variableId ?? '')}/rotate`)
        : api.put<ShareSettings>(path(variableId ?? ''), change),
    onSuccess: (settings) => queryClient.setQueryData(queryKey, settings),
  });
}
