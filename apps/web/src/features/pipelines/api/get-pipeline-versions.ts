import type { PipelineDetail, pipelineVersionSchema } from '@courselens/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';

import { api } from '@/lib/api-client';
import { invalidateActivity, type OrganizationIdInput } from '@/lib/query-keys';

import { pipelineKey } from './get-pipeline';
import { pipelinesRootKey } from './get-pipelines';

export type PipelineVersionItem = z.infer<typeof pipelineVersionSchema>;

const path = (pipelineId: string) => `/pipelines/${encodeURIComponent(pipelineId)}/versions`;

/** `GET /api/pipelines/:pipelineId/versions`: every save, newest first. */
export function getPipelineVersions(pipelineId: string, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<{ items: PipelineVersionItem[] }>(path(pipelineId), { signal });
}

export function pipelineVersionsQueryOptions(organizationId: OrganizationIdInput, pipelineId: string) {
  return queryOptions({
    queryKey: [...pipelineKey(organizationId, pipelineId), 'versions'] as const,
    queryFn: ({ signal }) => getPipelineVersions(pipelineId, { signal }),
    enabled: Boolean(organizationId) && pipelineId !== '',
  });
}

export function usePipelineVersions(organizationId: OrganizationIdInput, pipelineId: string, enabled = true) {
  return useQuery({
    ...pipelineVersionsQueryOptions(organizationId, pipelineId),
    enabled: enabled && Boolean(organizationId),
  });
}

/**
 * `POST /api/pipelines/:pipelineId/versions/:version/restore`: an earlier
 * version becomes the current graph, saved as a new version.
 */
export function restorePipelineVersion(pipelineId: string, version: number): Promise<PipelineDetail> {
  return api.post<PipelineDetail>(`${path(pipelineId)}/${version}/restore`);
}

export function useRestorePipelineVersion(organizationId: OrganizationIdInput, pipelineId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => restorePipelineVersion(pipelineId, version),
    onSuccess: (pipeline) => {
      queryClient.setQueryData(pipelineKey(organizationId, pipelineId), pipeline);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: pipelinesRootKey(organizationId) }),
        invalidateActivity(queryClient, organizationId),
      ]);
    },
  });
}
