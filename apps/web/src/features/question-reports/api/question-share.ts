import type { ShareSettings } from '@courselens/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey } from '@/lib/query-keys';

const path = (questionId: string) => `/questions/${encodeURIComponent(questionId)}/share`;

export function questionShareQueryOptions(organizationId: string | null | undefined, questionId: string) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'question-share'), questionId] as const,
    queryFn: ({ signal }) => api.get<ShareSettings>(path(questionId), { signal }),
    enabled: Boolean(organizationId),
  });
}

export function useQuestionShare(organizationId: string | null | undefined, questionId: string) {
  return useQuery(questionShareQueryOptions(organizationId, questionId));
}

/** Switches sharing (`{ enabled }`) or replaces the link (`'rotate'`). */
export function useChangeQuestionShare(organizationId: string | null | undefined, questionId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = questionShareQueryOptions(organizationId, questionId);
  return useMutation({
    mutationFn: (change: { enabled: boolean } | 'rotate') =>
      change === 'rotate'
        ? api.post<ShareSettings>(`${path(questionId)}/rotate`)
        : api.put<ShareSettings>(path(questionId), change),
    onSuccess: (settings) => queryClient.setQueryData(queryKey, settings),
  });
}
