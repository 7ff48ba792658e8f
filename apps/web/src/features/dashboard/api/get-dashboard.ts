import type { DashboardPeriod, DashboardResponse } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey } from '@/lib/query-keys';

/** `GET /api/dashboard?days=` of the current organization (sent as X-Organization-Id). */
export async function getDashboard(
  days: DashboardPeriod,
  { signal }: { signal?: AbortSignal } = {},
): Promise<DashboardResponse> {
  return api.get<DashboardResponse>('/dashboard', { query: { days }, signal });
}

export function dashboardQueryOptions(organizationId: string | null | undefined, days: DashboardPeriod) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'dashboard'), { days }] as const,
    queryFn: ({ signal }) => getDashboard(days, { signal }),
    enabled: Boolean(organizationId),
    // Switching the period keeps the old figures on screen (dimmed) until the new ones arrive.
    placeholderData: keepPreviousData,
    // The figures aggregate the whole organization (about a second at 100 000
    // learners): switching periods back and forth reuses them for a minute.
    staleTime: 60_000,
    // While new facts wait to be counted, look again shortly: the workers
    // catch up within seconds.
    refetchInterval: (query) => ((query.state.data?.pendingFacts ?? 0) > 0 ? 2000 : false),
  });
}

export function useDashboard(organizationId: string | null | undefined, days: DashboardPeriod) {
  return useQuery(dashboardQueryOptions(organizationId, days));
}
