import type { ListFunnelsResponse } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { analyticsKey } from './get-analytics-settings';

/** Everything cached about funnels: the saved ones, results, dropped-off lists. */
export function funnelsKey(organizationId: OrganizationIdInput) {
  return [...analyticsKey(organizationId), 'funnels'] as const;
}

/** `GET /api/analytics/funnels`: the saved funnels by name, and a suggestion when none is saved. */
export function getFunnels({ signal }: { signal?: AbortSignal } = {}): Promise<ListFunnelsResponse> {
  return api.get<ListFunnelsResponse>('/analytics/funnels', { signal });
}

export function funnelsQueryOptions(organizationId: OrganizationIdInput) {
  return queryOptions({
    queryKey: [...funnelsKey(organizationId), 'list'] as const,
    queryFn: ({ signal }) => getFunnels({ signal }),
    enabled: Boolean(organizationId),
  });
}

export function useFunnels(organizationId: OrganizationIdInput) {
  return useQuery(funnelsQueryOptions(organizationId));
}
