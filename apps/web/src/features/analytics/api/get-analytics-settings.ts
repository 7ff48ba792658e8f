import type { AnalyticsSettingsResponse } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

/** Everything cached about an organization's analytics (settings change what every screen counts). */
export function analyticsKey(organizationId: OrganizationIdInput) {
  return organizationDomainKey(organizationId, 'analytics');
}

/** `GET /api/analytics/settings`: what analytics count and how, with who it leaves out. */
export function getAnalyticsSettings({
  signal,
}: { signal?: AbortSignal } = {}): Promise<AnalyticsSettingsResponse> {
  return api.get<AnalyticsSettingsResponse>('/analytics/settings', { signal });
}

export function analyticsSettingsQueryOptions(organizationId: OrganizationIdInput) {
  return queryOptions({
    queryKey: [...analyticsKey(organizationId), 'settings'] as const,
    queryFn: ({ signal }) => getAnalyticsSettings({ signal }),
    enabled: Boolean(organizationId),
  });
}

export function useAnalyticsSettings(organizationId: OrganizationIdInput) {
  return useQuery(analyticsSettingsQueryOptions(organizationId));
}
