import type { VariableHistoryResponse, VariableReportResponse } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { variableEndpoint, variableReportKey, type VariableReportTarget } from './report-target';

/** The filters every view of a variable report shares (as the URL keeps them). */
export type VariableFilterParams = {
  courseId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  min?: string | undefined;
  max?: string | undefined;
  contains?: string | undefined;
  value?: 'true' | 'false' | undefined;
};

export type VariableReportParams = VariableFilterParams & {
  q: string;
  sort: 'learner' | 'value' | 'recordedAt' | 'course';
  order: 'asc' | 'desc';
  page: number;
};

export const VARIABLE_REPORT_PAGE_SIZE = 25;

export function filterQuery(target: VariableReportTarget, params: VariableFilterParams) {
  return {
    // Only the organization-wide reports filter by course (by agent, for an agent's variable); the
    // others name their course in the endpoint.
    ...(target.kind === 'variable' ? { courseId: params.courseId } : {}),
    from: params.from,
    to: params.to,
    min: params.min,
    max: params.max,
    contains: params.contains,
    value: params.value,
  };
}

/** The query of the report (and of its export: the same filters, no page). */
export function reportQuery(target: VariableReportTarget, params: VariableReportParams, withPage = true) {
  return {
    ...variableEndpoint(target, 'report').query,
    ...filterQuery(target, params),
    q: params.q || undefined,
    sort: params.sort,
    order: params.order,
    ...(withPage ? { page: params.page, pageSize: VARIABLE_REPORT_PAGE_SIZE } : {}),
  };
}

export function getVariableReport(
  target: VariableReportTarget,
  params: VariableReportParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<VariableReportResponse> {
  return api.get<VariableReportResponse>(variableEndpoint(target, 'report').path, {
    query: reportQuery(target, params),
    signal,
  });
}

export function variableReportQueryOptions(
  organizationId: string | null | undefined,
  target: VariableReportTarget,
  params: VariableReportParams,
  isEnabled = true,
) {
  return queryOptions({
    queryKey: [...variableReportKey(organizationId, target), 'report', params] as const,
    queryFn: ({ signal }) => getVariableReport(target, params, { signal }),
    enabled: isEnabled && (target.kind === 'shared' || Boolean(organizationId)),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useVariableReport(
  organizationId: string | null | undefined,
  target: VariableReportTarget,
  params: VariableReportParams,
  isEnabled = true,
) {
  return useQuery(variableReportQueryOptions(organizationId, target, params, isEnabled));
}

/** One learner's values, newest first (members only). */
export function variableHistoryQueryOptions(
  organizationId: string | null | undefined,
  target: VariableReportTarget,
  learnerId: string | null,
) {
  const endpoint = variableEndpoint(target, 'history');
  return queryOptions({
    queryKey: [...variableReportKey(organizationId, target), 'history', learnerId] as const,
    queryFn: ({ signal }) =>
      api.get<VariableHistoryResponse>(endpoint.path, {
        query: { ...endpoint.query, learnerId: learnerId ?? '' },
        signal,
      }),
    enabled: Boolean(organizationId && learnerId) && target.kind !== 'shared',
  });
}

export function useVariableHistory(
  organizationId: string | null | undefined,
  target: VariableReportTarget,
  learnerId: string | null,
) {
  return useQuery(variableHistoryQueryOptions(organizationId, target, learnerId));
}
