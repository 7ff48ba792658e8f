import type { QuestionAnalysisCoursesResponse, QuestionAnalysisResponse } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { analyticsKey } from './get-analytics-settings';
import { useFollowedUp } from './follow-up';

export type QuestionAnalysisParams = {
  courseId: string | null;
  from?: string | undefined;
  to?: string | undefined;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The course and period of the screen's URL (`?courseId=&from=&to=`); the page and its prefetch read it alike. */
export function parseQuestionAnalysisParams(searchParams: URLSearchParams): QuestionAnalysisParams {
  const day = (key: string) => {
    const value = searchParams.get(key);
    return value && DAY.test(value) ? value : undefined;
  };
  return { courseId: searchParams.get('courseId') || null, from: day('from'), to: day('to') };
}

/** `GET /api/analytics/questions`: Moodle's quiz statistics of one course's questions. */
export function getQuestionAnalysis(
  params: QuestionAnalysisParams & { courseId: string },
  { signal }: { signal?: AbortSignal } = {},
): Promise<QuestionAnalysisResponse> {
  return api.get<QuestionAnalysisResponse>('/analytics/questions', {
    query: { courseId: params.courseId, from: params.from, to: params.to },
    signal,
  });
}

export function questionAnalysisQueryOptions(
  organizationId: OrganizationIdInput,
  params: QuestionAnalysisParams,
) {
  return queryOptions({
    queryKey: [...analyticsKey(organizationId), 'questions', params] as const,
    queryFn: ({ signal }) => getQuestionAnalysis({ ...params, courseId: params.courseId ?? '' }, { signal }),
    enabled: Boolean(organizationId) && Boolean(params.courseId),
    // Another course or period keeps the current figures on screen (dimmed) until the new ones arrive.
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useQuestionAnalysis(organizationId: OrganizationIdInput, params: QuestionAnalysisParams) {
  return useFollowedUp(useQuery(questionAnalysisQueryOptions(organizationId, params)));
}

/** `GET /api/analytics/questions/courses`: the picker's courses and the one to open first. */
export function getQuestionAnalysisCourses({
  signal,
}: { signal?: AbortSignal } = {}): Promise<QuestionAnalysisCoursesResponse> {
  return api.get<QuestionAnalysisCoursesResponse>('/analytics/questions/courses', { signal });
}

export function questionAnalysisCoursesQueryOptions(organizationId: OrganizationIdInput) {
  return queryOptions({
    queryKey: [...analyticsKey(organizationId), 'questions', 'courses'] as const,
    queryFn: ({ signal }) => getQuestionAnalysisCourses({ signal }),
    enabled: Boolean(organizationId),
    staleTime: 60_000,
  });
}

export function useQuestionAnalysisCourses(organizationId: OrganizationIdInput) {
  return useQuery(questionAnalysisCoursesQueryOptions(organizationId));
}
