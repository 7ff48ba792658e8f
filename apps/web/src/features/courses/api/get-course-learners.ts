import type { CourseLearnerListResponse, CourseLearnerSortKey, SortOrder } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { coursesBaseKey } from './get-courses';

export type CourseLearnerParams = { q?: string; page: number; sort: CourseLearnerSortKey; order: SortOrder };

/** `GET /api/courses/{id}/learners`: first access, last access and access count per learner. */
export function getCourseLearners(
  courseId: string,
  params: CourseLearnerParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<CourseLearnerListResponse> {
  return api.get<CourseLearnerListResponse>(`/courses/${encodeURIComponent(courseId)}/learners`, {
    query: { q: params.q || undefined, page: params.page, sort: params.sort, order: params.order },
    signal,
  });
}

export function courseLearnersQueryOptions(
  organizationId: string | null | undefined,
  courseId: string,
  params: CourseLearnerParams,
) {
  return queryOptions({
    queryKey: [...coursesBaseKey(organizationId), 'learners', courseId, params] as const,
    queryFn: ({ signal }) => getCourseLearners(courseId, params, { signal }),
    enabled: Boolean(organizationId && courseId),
    placeholderData: keepPreviousData,
  });
}

export function useCourseLearners(
  organizationId: string | null | undefined,
  courseId: string,
  params: CourseLearnerParams,
) {
  return useQuery(courseLearnersQueryOptions(organizationId, courseId, params));
}
