import type { AnalyticsOverviewQuery, AnalyticsOverviewResponse } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { analyticsKey } from './get-analytics-settings';
import { useFollowedUp } from './follow-up';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The period in the URL (`?from&to`, local days); a malformed day is ignored (the server's default applies). */
export function parseOverviewPeriod(searchParams: URLSearchParams): AnalyticsOverviewQuery {
  const from = searchParams.get('from');
  const to = searchParams.get('to');
  return {
    ...(from && ISO_DAY.test(from) ? { from } : {}),
    ...(to && ISO_DAY.test(to) ? { to } : {}),
  };
}

/** `GET /api/analytics/overview?from&to`: the period's key figures against the period before, and the top insights. */
export function getAnalyticsOverview(
  period: AnalyticsOverviewQuery,
  { signal }: { signal?: AbortSignal } = {},
): Promise<AnalyticsOverviewResponse> {
  return api.get<AnalyticsOverviewResponse>('/analytics/overview', {
    query: { from: period.from, to: period.to },
    signal,
  });
}

export function analyticsOverviewQueryOptions(
  organizationId: OrganizationIdInput,
  period: AnalyticsOverviewQuery,
) {
  return queryOptions({
    queryKey: [
      ...analyticsKey(organizationId),
      'overview',
      { from: period.from ?? null, to: period.to ?? null },
    ] as const,
    queryFn: ({ signal }) => getAnalyticsOverview(period, { signal }),
    enabled: Boolean(organizationId),
    // Another period keeps the figures on screen (dimmed) until the new ones arrive.
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useAnalyticsOverview(organizationId: OrganizationIdInput, period: AnalyticsOverviewQuery) {
  return useFollowedUp(useQuery(analyticsOverviewQueryOptions(organizationId, period)));
}
