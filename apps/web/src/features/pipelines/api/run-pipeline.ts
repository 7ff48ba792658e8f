import type { PipelineRunSummary } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { pipelineKey } from './get-pipeline';

/** `POST /api/pipelines/:pipelineId/run`: a run by hand (its "Run by hand" source), for one learner or none. */
export function runPipeline(pipelineId: string, learnerEmail?: string) {
  return api.post<PipelineRunSummary>(`/pipelines/${encodeURIComponent(pipelineId)}/run`, {
    learnerEmail: learnerEmail || undefined,
  });
}

export function useRunPipeline(organizationId: OrganizationIdInput, pipelineId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (learnerEmail?: string) => runPipeline(pipelineId, learnerEmail),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pipelineKey(organizationId, pipelineId) }),
  });
}
