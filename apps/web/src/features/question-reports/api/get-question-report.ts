import type {
  QuestionChartResponse,
  QuestionLeadersResponse,
  QuestionReportResponse,
  QuestionReportSortKey,
} from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { questionEndpoint, questionReportKey, type QuestionReportTarget } from './report-target';

export type QuestionRangeParams = { from?: string | undefined; to?: string | undefined };

export type QuestionReportParams = QuestionRangeParams & {
  correct?: 'true' | 'false' | 'ungraded' | undefined;
  q: string;
  sort: QuestionReportSortKey;
  order: 'asc' | 'desc';
  page: number;
};

export const QUESTION_REPORT_PAGE_SIZE = 25;

export function questionReportQuery(
  target: QuestionReportTarget,
  params: QuestionReportParams,
  withPage = true,
) {
  return {
    ...questionEndpoint(target, 'report').query,
    from: params.from,
    to: params.to,
    correct: params.correct,
    q: params.q || undefined,
    sort: params.sort,
    order: params.order,
    ...(withPage ? { page: params.page, pageSize: QUESTION_REPORT_PAGE_SIZE } : {}),
  };
}

export function questionReportQueryOptions(
  organizationId: string | null | undefined,
  target: QuestionReportTarget,
  params: QuestionReportParams,
  isEnabled = true,
) {
  return queryOptions({
    queryKey: [...questionReportKey(organizationId, target), 'report', params] as const,
    queryFn: ({ signal }) =>
      api.get<QuestionReportResponse>(questionEndpoint(target, 'report').path, {
        query: questionReportQuery(target, params),
        signal,
      }),
    enabled: isEnabled && (target.kind === 'shared' || Boolean(organizationId)),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useQuestionReport(
  organizationId: string | null | undefined,
  target: QuestionReportTarget,
  params: QuestionReportParams,
  isEnabled = true,
) {
  return useQuery(questionReportQueryOptions(organizationId, target, params, isEnabled));
}

export type QuestionChartParams = QuestionRangeParams & { interval?: 'day' | 'week' | undefined };

export function questionChartQueryOptions(
  organizationId: string | null | undefined,
  target: QuestionReportTarget,
  params: QuestionChartParams,
  isEnabled = true,
) {
  const endpoint = questionEndpoint(target, 'chart');
  return queryOptions({
    queryKey: [...questionReportKey(organizationId, target), 'chart', params] as const,
    queryFn: ({ signal }) =>
      api.get<QuestionChartResponse>(endpoint.path, { query: { ...endpoint.query, ...params }, signal }),
    enabled: isEnabled && (target.kind === 'shared' || Boolean(organizationId)),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useQuestionChart(
  organizationId: string | null | undefined,
  target: QuestionReportTarget,
  params: QuestionChartParams,
  isEnabled = true,
) {
  return useQuery(questionChartQueryOptions(organizationId, target, params, isEnabled));
}

export type QuestionLeadersParams = QuestionRangeParams & { limit: number };

export function questionLeadersQueryOptions(
  organizationId: string | null | undefined,
  target: QuestionReportTarget,
  params: QuestionLeadersParams,
  isEnabled = true,
) {
  const endpoint = questionEndpoint(target, 'leaders');
  return queryOptions({
    queryKey: [...questionReportKey(organizationId, target), 'leaders', params] as const,
    queryFn: ({ signal }) =>
      api.get<QuestionLeadersResponse>(endpoint.path, { query: { ...endpoint.query, ...params }, signal }),
    enabled: isEnabled && (target.kind === 'shared' || Boolean(organizationId)),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useQuestionLeaders(
  organizationId: string | null | undefined,
  target: QuestionReportTarget,
  params: QuestionLeadersParams,
  isEnabled = true,
) {
  return useQuery(questionLeadersQueryOptions(organizationId, target, params, isEnabled));
}
