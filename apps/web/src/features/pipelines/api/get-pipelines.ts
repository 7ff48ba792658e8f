import type { PipelineListResponse, PipelineStatus, SortOrder } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

export const PIPELINES_PAGE_SIZE = 20;

export type PipelineSortKey = 'updatedAt' | 'name' | 'lastRunAt' | 'createdAt';

export type PipelineListParams = {
  q: string;
  page: number;
  sort: PipelineSortKey;
  order: SortOrder;
  status: PipelineStatus | null;
};

/** Every pipeline query of an organization starts with this key (list, detail, runs, versions). */
export function pipelinesRootKey(organizationId: OrganizationIdInput) {
  return organizationDomainKey(organizationId, 'pipelines');
}

/** `GET /api/pipelines`: one page of the organization's pipelines with their status and run counts. */
export function getPipelines(
  params: PipelineListParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<PipelineListResponse> {
  return api.get<PipelineListResponse>('/pipelines', {
    query: {
      q: params.q || undefined,
      status: params.status ?? undefined,
      page: params.page,
      pageSize: PIPELINES_PAGE_SIZE,
      sort: params.sort,
      order: params.order,
    },
    signal,
  });
}

export function pipelinesQueryOptions(organizationId: OrganizationIdInput, params: PipelineListParams) {
  return queryOptions({
    queryKey: [...pipelinesRootKey(organizationId), 'list', params] as const,
    queryFn: ({ signal }) => getPipelines(params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function usePipelines(organizationId: OrganizationIdInput, params: PipelineListParams) {
  return useQuery(pipelinesQueryOptions(organizationId, params));
}
