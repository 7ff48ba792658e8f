import type { PipelineDetail, UpdatePipelineInput } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

import { pipelineKey } from './get-pipeline';
import { pipelinesRootKey } from './get-pipelines';

export type UpdatePipelineVariables = { pipelineId: string; input: UpdatePipelineInput };

/**
 * `PATCH /api/pipelines/:pipelineId`: a changed graph becomes a new version;
 * `active` turns it on or off (refused while the graph has problems).
 */
export function updatePipeline({ pipelineId, input }: UpdatePipelineVariables): Promise<PipelineDetail> {
  return api.patch<PipelineDetail>(`/pipelines/${encodeURIComponent(pipelineId)}`, input);
}

export function useUpdatePipeline(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePipeline,
    onSuccess: (pipeline, { pipelineId }) => {
      // The answer is the saved pipeline: the editor reads it at once, the rest refreshes.
      queryClient.setQueryData(pipelineKey(organizationId, pipelineId), pipeline);
      return Promise.all([
        // The editor copies the graph once and keeps it: refetching the detail only refreshes its status.
        queryClient.invalidateQueries({ queryKey: pipelinesRootKey(organizationId) }),
        // Actions list how many pipelines use them.
        queryClient.invalidateQueries({ queryKey: organizationDomainKey(organizationId, 'actions') }),
        invalidateActivity(queryClient, organizationId),
      ]);
    },
  });
}
