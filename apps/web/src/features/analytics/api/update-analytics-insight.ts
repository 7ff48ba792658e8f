import type { AnalyticsInsight, AnalyticsInsightsResponse } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { analyticsKey } from './get-analytics-settings';
import { analyticsInsightsQueryOptions } from './get-analytics-insights';

/** `POST /api/analytics/insights/:insightId/dismiss`: hides a finding until its evidence changes materially. */
export function dismissAnalyticsInsight(insightId: string): Promise<AnalyticsInsight> {
  return api.post<AnalyticsInsight>(`/analytics/insights/${encodeURIComponent(insightId)}/dismiss`);
}

/** `POST /api/analytics/insights/:insightId/restore`: shows a dismissed finding again. */
export function restoreAnalyticsInsight(insightId: string): Promise<AnalyticsInsight> {
  return api.post<AnalyticsInsight>(`/analytics/insights/${encodeURIComponent(insightId)}/restore`);
}

/** `POST /api/analytics/insights/refresh`: computes the findings now (a few times an hour). */
export function refreshAnalyticsInsights(): Promise<AnalyticsInsightsResponse> {
  return api.post<AnalyticsInsightsResponse>('/analytics/insights/refresh');
}

/**
 * Dismissing or restoring moves the finding between the lists and may
 * change the overview's top three: every analytics query of the
 * organization that shows insights is refetched.
 */
export function useChangeInsightDismissal(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ insightId, dismiss }: { insightId: string; dismiss: boolean }) =>
      dismiss ? dismissAnalyticsInsight(insightId) : restoreAnalyticsInsight(insightId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: analyticsKey(organizationId) }),
  });
}

export function useRefreshAnalyticsInsights(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshAnalyticsInsights,
    onSuccess: (response) => {
      queryClient.setQueryData(analyticsInsightsQueryOptions(organizationId, 'open').queryKey, response);
      return queryClient.invalidateQueries({ queryKey: analyticsKey(organizationId) });
    },
  });
}
