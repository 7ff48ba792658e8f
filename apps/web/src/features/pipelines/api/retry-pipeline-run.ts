import type { PipelineRunDetail } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { pipelineKey } from './get-pipeline';

export type RetryFrom = 'failed' | 'start';

/** `POST /api/pipelines/:pipelineId/runs/:runId/retry`: from the failed step, or the whole run again. */
export function retryPipelineRun(pipelineId: string, runId: string, from: RetryFrom) {
  return api.post<PipelineRunDetail>(
    `/pipelines/${encodeURIComponent(pipelineId)}/runs/${encodeURIComponent(runId)}/retry`,
    { from },
  );
}

export function useRetryPipelineRun(organizationId: OrganizationIdInput, pipelineId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ runId, from }: { runId: string; from: RetryFrom }) =>
      retryPipelineRun(pipelineId, runId, from),
    // The list's counts and last run change too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pipelineKey(organizationId, pipelineId) }),
  });
}
