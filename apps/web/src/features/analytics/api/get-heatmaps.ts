import type {
  HeatmapActivityResponse,
  HeatmapLearnerSort,
  HeatmapLearnersResponse,
  HeatmapQuestionsResponse,
} from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { analyticsKey } from './get-analytics-settings';
import { useFollowedUp } from './follow-up';

export type HeatmapPeriod = { from?: string | undefined; to?: string | undefined };
export type CourseHeatmapParams = HeatmapPeriod & { courseId: string };
export type LearnerHeatmapParams = CourseHeatmapParams & {
  sort: HeatmapLearnerSort;
  order?: 'asc' | 'desc' | undefined;
  page: number;
};
export type ActivityHeatmapParams = HeatmapPeriod & { courseId?: string | undefined };

function heatmapsKey(organizationId: OrganizationIdInput) {
  return [...analyticsKey(organizationId), 'heatmaps'] as const;
}

/** `GET /api/analytics/heatmaps/questions`: a course's questions by slide with their correct rate. */
export function getQuestionHeatmap(params: CourseHeatmapParams, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<HeatmapQuestionsResponse>('/analytics/heatmaps/questions', { query: params, signal });
}

export function questionHeatmapQueryOptions(
  organizationId: OrganizationIdInput,
  params: CourseHeatmapParams,
) {
  return queryOptions({
    queryKey: [...heatmapsKey(organizationId), 'questions', params] as const,
    queryFn: ({ signal }) => getQuestionHeatmap(params, { signal }),
    enabled: Boolean(organizationId) && Boolean(params.courseId),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useQuestionHeatmap(organizationId: OrganizationIdInput, params: CourseHeatmapParams) {
  return useFollowedUp(useQuery(questionHeatmapQueryOptions(organizationId, params)));
}

/** `GET /api/analytics/heatmaps/learners`: one page of learners with their last answer per question. */
export function getLearnerHeatmap(params: LearnerHeatmapParams, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<HeatmapLearnersResponse>('/analytics/heatmaps/learners', { query: params, signal });
}

export function learnerHeatmapQueryOptions(
  organizationId: OrganizationIdInput,
  params: LearnerHeatmapParams,
) {
  return queryOptions({
    queryKey: [...heatmapsKey(organizationId), 'learners', params] as const,
    queryFn: ({ signal }) => getLearnerHeatmap(params, { signal }),
    enabled: Boolean(organizationId) && Boolean(params.courseId),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useLearnerHeatmap(organizationId: OrganizationIdInput, params: LearnerHeatmapParams) {
  return useFollowedUp(useQuery(learnerHeatmapQueryOptions(organizationId, params)));
}

/** `GET /api/analytics/heatmaps/activity`: events and learners by weekday and hour. */
export function getActivityHeatmap(params: ActivityHeatmapParams, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<HeatmapActivityResponse>('/analytics/heatmaps/activity', { query: params, signal });
}

export function activityHeatmapQueryOptions(
  organizationId: OrganizationIdInput,
  params: ActivityHeatmapParams,
) {
  return queryOptions({
    queryKey: [...heatmapsKey(organizationId), 'activity', params] as const,
    queryFn: ({ signal }) => getActivityHeatmap(params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useActivityHeatmap(organizationId: OrganizationIdInput, params: ActivityHeatmapParams) {
  return useFollowedUp(useQuery(activityHeatmapQueryOptions(organizationId, params)));
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The period in a heatmaps or paths URL (`from`, `to` as YYYY-MM-DD), as the page and its prefetch read it. */
export function readAnalyticsPeriod(searchParams: URLSearchParams): HeatmapPeriod {
  const day = (key: string) => {
    const value = searchParams.get(key);
    return value && DAY.test(value) ? value : undefined;
  };
  return { from: day('from'), to: day('to') };
}
