import type { QuestionAnalysisResponse, QuestionStatistics } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { analyticsKey } from './get-analytics-settings';

/** `GET /api/analytics/questions?courseId=`: the course's item analysis, for the quiz steps of a funnel. */
export function getFunnelQuestionStats(
  courseId: string,
  signal?: AbortSignal,
): Promise<QuestionAnalysisResponse> {
  return api.get<QuestionAnalysisResponse>('/analytics/questions', { query: { courseId }, signal });
}

export function funnelQuestionStatsQueryOptions(
  organizationId: OrganizationIdInput,
  courseId: string | null,
) {
  return queryOptions({
    // The question analysis page's key for the same course: one cache entry for both screens.
    queryKey: [...analyticsKey(organizationId), 'questions', { courseId }] as const,
    queryFn: ({ signal }) => getFunnelQuestionStats(courseId ?? '', signal),
    enabled: Boolean(organizationId) && Boolean(courseId),
    staleTime: 60_000,
    retry: false,
    // Only the questions: the funnel shows a few figures per quiz step.
    select: statisticsById,
  });
}

/**
 * A module-level function on purpose: TanStack Query reruns an inline
 * `select` on every render, and a new Map each time would never settle.
 */
function statisticsById(response: QuestionAnalysisResponse): ReadonlyMap<string, QuestionStatistics> {
  return new Map(response.questions.map((question) => [question.questionId, question]));
}

/** One course's question statistics by question id (empty while loading or when the analysis fails). */
export function useFunnelQuestionStats(organizationId: OrganizationIdInput, courseId: string | null) {
  return useQuery(funnelQuestionStatsQueryOptions(organizationId, courseId));
}
