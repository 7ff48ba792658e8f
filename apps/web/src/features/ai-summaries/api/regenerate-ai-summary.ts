import type { VariableAiSummary } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import {
  aiSummariesRootKey,
  aiSummaryQueryOptions,
  aiSummaryRequest,
  type AiSummarySource,
} from './get-ai-summary';

/** `POST /api/ai-summaries/...`: writes a new summary from the current data, in place of the cached one. */
export function regenerateAiSummary(source: AiSummarySource): Promise<VariableAiSummary> {
  const { path, query } = aiSummaryRequest(source);
  return api.post<VariableAiSummary>(path, undefined, { query });
}

/**
 * Regenerates a summary and shows it at once. A variable's summary is shared
 * by its pages (by id and by course and name), so the organization's other
 * cached summaries are marked stale too.
 */
export function useRegenerateAiSummary(organizationId: string | null | undefined, source: AiSummarySource) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => regenerateAiSummary(source),
    onSuccess: async (summary) => {
      await queryClient.invalidateQueries({
        queryKey: aiSummariesRootKey(organizationId),
        refetchType: 'none',
      });
      queryClient.setQueryData(aiSummaryQueryOptions(organizationId, source).queryKey, summary);
    },
  });
}
