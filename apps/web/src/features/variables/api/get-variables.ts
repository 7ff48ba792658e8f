import type {
  ListCourseVariablesResponse,
  ListVariablesResponse,
  VariableSortKey,
} from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

/** The list state a variables screen keeps in its URL. */
export type VariableListParams = {
  q: string;
  page: number;
  sort: VariableSortKey;
  order: 'asc' | 'desc';
  courseId?: string | undefined;
  /** `undefined`: every variable; otherwise only active or only inactive ones. */
  active?: boolean | undefined;
};

export const VARIABLES_PAGE_SIZE = 25;

/** Every variables query of an organization starts with this key, so one mutation can reach them all. */
export function variablesRootKey(organizationId: OrganizationIdInput) {
  return organizationDomainKey(organizationId, 'variables');
}

/** The query string of a list (and of its export: the same filters, no page). */
export function variableListQuery(params: VariableListParams, withPage = true) {
  return {
    q: params.q || undefined,
    sort: params.sort,
    order: params.order,
    courseId: params.courseId,
    active: params.active,
    ...(withPage ? { page: params.page, pageSize: VARIABLES_PAGE_SIZE } : {}),
  };
}

/** `GET /api/variables`: one page of the organization's variables with their usage. */
export function getVariables(
  params: VariableListParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ListVariablesResponse> {
  return api.get<ListVariablesResponse>('/variables', { query: variableListQuery(params), signal });
}

export function variablesQueryOptions(organizationId: string | null | undefined, params: VariableListParams) {
  return queryOptions({
    queryKey: [...variablesRootKey(organizationId), 'list', params] as const,
    queryFn: ({ signal }) => getVariables(params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function useVariables(organizationId: string | null | undefined, params: VariableListParams) {
  return useQuery(variablesQueryOptions(organizationId, params));
}

/** `GET /api/courses/:courseId/variables`: one course's variables and the course. */
export function getCourseVariables(
  courseId: string,
  params: VariableListParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ListCourseVariablesResponse> {
  return api.get<ListCourseVariablesResponse>(`/courses/${encodeURIComponent(courseId)}/variables`, {
    query: variableListQuery({ ...params, courseId: undefined }),
    signal,
  });
}

export function courseVariablesQueryOptions(
  organizationId: string | null | undefined,
  courseId: string,
  params: VariableListParams,
) {
  return queryOptions({
    queryKey: [...variablesRootKey(organizationId), 'course', courseId, params] as const,
    queryFn: ({ signal }) => getCourseVariables(courseId, params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function useCourseVariables(
  organizationId: string | null | undefined,
  courseId: string,
  params: VariableListParams,
) {
  return useQuery(courseVariablesQueryOptions(organizationId, courseId, params));
}
