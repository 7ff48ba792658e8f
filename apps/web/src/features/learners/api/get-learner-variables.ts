import type {
  LearnerVariableSortKey,
  ListLearnerCourseVariablesResponse,
  ListLearnerVariablesResponse,
} from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { learnersRootKey, toListQuery, type ListRequest } from './list-params';

export type LearnerVariablesRequest = ListRequest<LearnerVariableSortKey>;

/** The endpoint of a learner's variables, optionally within one course. */
export function learnerVariablesPath(learnerId: string, courseId?: string) {
  const learner = `/learners/${encodeURIComponent(learnerId)}`;
  return courseId ? `${learner}/courses/${encodeURIComponent(courseId)}/variables` : `${learner}/variables`;
}

/** `GET /api/learners/:learnerId/variables`: the latest value of each variable. */
export function getLearnerVariables(
  learnerId: string,
  params: LearnerVariablesRequest,
  { signal }: { signal?: AbortSignal } = {},
) {
  return api.get<ListLearnerVariablesResponse>(learnerVariablesPath(learnerId), {
    query: toListQuery(params),
    signal,
  });
}

export function learnerVariablesQueryOptions(
  organizationId: string | null | undefined,
  learnerId: string,
  params: LearnerVariablesRequest,
) {
  return queryOptions({
    queryKey: [...learnersRootKey(organizationId), 'variables', learnerId, params] as const,
    queryFn: ({ signal }) => getLearnerVariables(learnerId, params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function useLearnerVariables(
  organizationId: string | null | undefined,
  learnerId: string,
  params: LearnerVariablesRequest,
) {
  return useQuery(learnerVariablesQueryOptions(organizationId, learnerId, params));
}

/** `GET /api/learners/:learnerId/courses/:courseId/variables`: one course's latest values, with the course. */
export function getLearnerCourseVariables(
  learnerId: string,
  courseId: string,
  params: LearnerVariablesRequest,
  { signal }: { signal?: AbortSignal } = {},
) {
  return api.get<ListLearnerCourseVariablesResponse>(learnerVariablesPath(learnerId, courseId), {
    query: toListQuery(params),
    signal,
  });
}

export function learnerCourseVariablesQueryOptions(
  organizationId: string | null | undefined,
  learnerId: string,
  courseId: string,
  params: LearnerVariablesRequest,
) {
  return queryOptions({
    queryKey: [...learnersRootKey(organizationId), 'course-variables', learnerId, courseId, params] as const,
    queryFn: ({ signal }) => getLearnerCourseVariables(learnerId, courseId, params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function useLearnerCourseVariables(
  organizationId: string | null | undefined,
  learnerId: string,
  courseId: string,
  params: LearnerVariablesRequest,
) {
  return useQuery(learnerCourseVariablesQueryOptions(organizationId, learnerId, courseId, params));
}
