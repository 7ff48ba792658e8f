import type { CoursePathsResponse, LearningPathsResponse } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { analyticsKey } from './get-analytics-settings';
import { useFollowedUp } from './follow-up';

export type PathPeriod = { from?: string | undefined; to?: string | undefined };
export type LearningPathsParams = PathPeriod & {
  courseId: string;
  depth: number;
  afterSlide?: number | undefined;
};
export type CoursePathsParams = PathPeriod & { depth: number };

function pathsKey(organizationId: OrganizationIdInput) {
  return [...analyticsKey(organizationId), 'learning-paths'] as const;
}

/** `GET /api/analytics/learning-paths`: a course's slide paths, exits and drop-off after a slide. */
export function getLearningPaths(params: LearningPathsParams, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<LearningPathsResponse>('/analytics/learning-paths', { query: params, signal });
}

export function learningPathsQueryOptions(organizationId: OrganizationIdInput, params: LearningPathsParams) {
  return queryOptions({
    queryKey: [...pathsKey(organizationId), 'slides', params] as const,
    queryFn: ({ signal }) => getLearningPaths(params, { signal }),
    enabled: Boolean(organizationId) && Boolean(params.courseId),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useLearningPaths(organizationId: OrganizationIdInput, params: LearningPathsParams) {
  return useFollowedUp(useQuery(learningPathsQueryOptions(organizationId, params)));
}

/** `GET /api/analytics/learning-paths/courses`: the order learners start the organization's courses in. */
export function getCoursePaths(params: CoursePathsParams, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<CoursePathsResponse>('/analytics/learning-paths/courses', { query: params, signal });
}

export function coursePathsQueryOptions(organizationId: OrganizationIdInput, params: CoursePathsParams) {
  return queryOptions({
    queryKey: [...pathsKey(organizationId), 'courses', params] as const,
    queryFn: ({ signal }) => getCoursePaths(params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useCoursePaths(organizationId: OrganizationIdInput, params: CoursePathsParams) {
  return useFollowedUp(useQuery(coursePathsQueryOptions(organizationId, params)));
}
