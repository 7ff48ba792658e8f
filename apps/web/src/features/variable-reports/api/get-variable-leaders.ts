import type { VariableLeadersResponse } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { filterQuery, type VariableFilterParams } from './get-variable-report';
import { variableEndpoint, variableReportKey, type VariableReportTarget } from './report-target';

export type VariableLeadersParams = VariableFilterParams & { order: 'asc' | 'desc'; limit: number };

export function getVariableLeaders(
  target: VariableReportTarget,
  params: VariableLeadersParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<VariableLeadersResponse> {
  const endpoint = variableEndpoint(target, 'leaders');
  return api.get<VariableLeadersResponse>(endpoint.path, {
    query: { ...endpoint.query, ...filterQuery(target, params), order: params.order, limit: params.limit },
    signal,
  });
}

export function variableLeadersQueryOptions(
  organizationId: string | null | undefined,
  target: VariableReportTarget,
  params: VariableLeadersParams,
  isEnabled = true,
) {
  return queryOptions({
    queryKey: [...variableReportKey(organizationId, target), 'leaders', params] as const,
    queryFn: ({ signal }) => getVariableLeaders(target, params, { signal }),
    enabled: isEnabled && (target.kind === 'shared' || Boolean(organizationId)),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useVariableLeaders(
  organizationId: string | null | undefined,
  target: VariableReportTarget,
  params: VariableLeadersParams,
  isEnabled = true,
) {
  return useQuery(variableLeadersQueryOptions(organizationId, target, params, isEnabled));
}
