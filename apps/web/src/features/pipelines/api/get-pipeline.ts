import type { PipelineDetail } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { pipelinesRootKey } from './get-pipelines';

/** The key of one pipeline and of everything about it (its versions, runs, test events). */
export function pipelineKey(organizationId: OrganizationIdInput, pipelineId: string) {
  return [...pipelinesRootKey(organizationId), 'detail', pipelineId] as const;
}

/** `GET /api/pipelines/:pipelineId`: the saved graph, its status and the problems in the way of turning it on. */
export function getPipeline(pipelineId: string, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<PipelineDetail>(`/pipelines/${encodeURIComponent(pipelineId)}`, { signal });
}

export function pipelineQueryOptions(organizationId: OrganizationIdInput, pipelineId: string) {
  return queryOptions({
    queryKey: pipelineKey(organizationId, pipelineId),
    queryFn: ({ signal }) => getPipeline(pipelineId, { signal }),
    enabled: Boolean(organizationId) && pipelineId !== '',
  });
}

export function usePipeline(organizationId: OrganizationIdInput, pipelineId: string) {
  return useQuery(pipelineQueryOptions(organizationId, pipelineId));
}
