import type { VariableChartResponse } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { filterQuery, type VariableFilterParams } from './get-variable-report';
import { variableEndpoint, variableReportKey, type VariableReportTarget } from './report-target';

export type VariableChartParams = VariableFilterParams & { interval?: 'day' | 'week' | undefined };

export function getVariableChart(
  target: VariableReportTarget,
  params: VariableChartParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<VariableChartResponse> {
  const endpoint = variableEndpoint(target, 'chart');
  return api.get<VariableChartResponse>(endpoint.path, {
    query: { ...endpoint.query, ...filterQuery(target, params), interval: params.interval },
    signal,
  });
}

export function variableChartQueryOptions(
  organizationId: string | null | undefined,
  target: VariableReportTarget,
  params: VariableChartParams,
  isEnabled = true,
) {
  return queryOptions({
    queryKey: [...variableReportKey(organizationId, target), 'chart', params] as const,
    queryFn: ({ signal }) => getVariableChart(target, params, { signal }),
    enabled: isEnabled && (target.kind === 'shared' || Boolean(organizationId)),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useVariableChart(
  organizationId: string | null | undefined,
  target: VariableReportTarget,
  params: VariableChartParams,
  isEnabled = true,
) {
  return useQuery(variableChartQueryOptions(organizationId, target, params, isEnabled));
}
