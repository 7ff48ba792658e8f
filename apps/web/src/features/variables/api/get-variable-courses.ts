import type { ListVariableCoursesResponse, VariableCourseOption } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { variablesRootKey } from './get-variables';

/** `GET /api/variables/courses`: the courses that have variables (the course filter's choices). */
export async function getVariableCourses({ signal }: { signal?: AbortSignal } = {}): Promise<
  VariableCourseOption[]
> {
  return (await api.get<ListVariableCoursesResponse>('/variables/courses', { signal })).courses;
}

export function variableCoursesQueryOptions(organizationId: string | null | undefined) {
  return queryOptions({
    queryKey: [...variablesRootKey(organizationId), 'courses'] as const,
    queryFn: ({ signal }) => getVariableCourses({ signal }),
    enabled: Boolean(organizationId),
    staleTime: 60_000,
  });
}

export function useVariableCourses(organizationId: string | null | undefined) {
  return useQuery(variableCoursesQueryOptions(organizationId));
}
