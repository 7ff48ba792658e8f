import type { AnalyticsInsightsResponse, InsightStatus } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { analyticsKey } from './get-analytics-settings';

/** `?status=dismissed` shows the dismissed findings; anything else the open ones. */
export function parseInsightStatus(value: string | null): InsightStatus {
  return value === 'dismissed' ? 'dismissed' : 'open';
}

/** Everything cached about the insights (both lists), for the mutations to refresh. */
export function analyticsInsightsKey(organizationId: OrganizationIdInput) {
  return [...analyticsKey(organizationId), 'insights'] as const;
}

/** `GET /api/analytics/insights?status=`: the findings, most important first. */
export function getAnalyticsInsights(
  status: InsightStatus,
  { signal }: { signal?: AbortSignal } = {},
): Promise<AnalyticsInsightsResponse> {
  return api.get<AnalyticsInsightsResponse>('/analytics/insights', { query: { status }, signal });
}

export function analyticsInsightsQueryOptions(organizationId: OrganizationIdInput, status: InsightStatus) {
  return queryOptions({
    queryKey: [...analyticsInsightsKey(organizationId), status] as const,
    queryFn: ({ signal }) => getAnalyticsInsights(status, { signal }),
    enabled: Boolean(organizationId),
  });
}

export function useAnalyticsInsights(organizationId: OrganizationIdInput, status: InsightStatus) {
  return useQuery(analyticsInsightsQueryOptions(organizationId, status));
}
