import type { LearnerCourseSortKey, ListLearnerCoursesResponse } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { learnersRootKey, toListQuery, type ListRequest } from './list-params';

export type LearnerCoursesRequest = ListRequest<LearnerCourseSortKey>;

/** `GET /api/learners/:learnerId/courses`: the learner's courses with runs and access times. */
export function getLearnerCourses(
  learnerId: string,
  params: LearnerCoursesRequest,
  { signal }: { signal?: AbortSignal } = {},
) {
  return api.get<ListLearnerCoursesResponse>(`/learners/${encodeURIComponent(learnerId)}/courses`, {
    query: toListQuery(params),
    signal,
  });
}

export function learnerCoursesQueryOptions(
  organizationId: string | null | undefined,
  learnerId: string,
  params: LearnerCoursesRequest,
) {
  return queryOptions({
    queryKey: [...learnersRootKey(organizationId), 'courses', learnerId, params] as const,
    queryFn: ({ signal }) => getLearnerCourses(learnerId, params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function useLearnerCourses(
  organizationId: string | null | undefined,
  learnerId: string,
  params: LearnerCoursesRequest,
) {
  return useQuery(learnerCoursesQueryOptions(organizationId, learnerId, params));
}
