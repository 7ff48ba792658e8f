import type { CreatePipelineInput, PipelineDetail } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, type OrganizationIdInput } from '@/lib/query-keys';

import { pipelinesRootKey } from './get-pipelines';

/** `POST /api/pipelines`: a new pipeline (off, until its graph can run and someone turns it on). */
export function createPipeline(input: CreatePipelineInput): Promise<PipelineDetail> {
  return api.post<PipelineDetail>('/pipelines', input);
}

export function useCreatePipeline(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPipeline,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: pipelinesRootKey(organizationId) }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
