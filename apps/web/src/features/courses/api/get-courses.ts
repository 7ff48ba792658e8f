import type { CourseListResponse, CourseSortKey, SortOrder } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

export type CourseListParams = { q?: string; page: number; sort: CourseSortKey; order: SortOrder };

/** `GET /api/courses`: one page of the current organization's courses with their counts. */
export function getCourses(
  params: CourseListParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<CourseListResponse> {
  return api.get<CourseListResponse>('/courses', {
    query: { q: params.q || undefined, page: params.page, sort: params.sort, order: params.order },
    signal,
  });
}

/** Every course query of an organization starts with this key. */
export function coursesBaseKey(organizationId: OrganizationIdInput) {
  return organizationDomainKey(organizationId, 'courses');
}

export function coursesQueryOptions(organizationId: string | null | undefined, params: CourseListParams) {
  return queryOptions({
    queryKey: [...coursesBaseKey(organizationId), 'list', params] as const,
    queryFn: ({ signal }) => getCourses(params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function useCourses(organizationId: string | null | undefined, params: CourseListParams) {
  return useQuery(coursesQueryOptions(organizationId, params));
}
