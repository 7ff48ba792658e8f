import type { AnalyticsSettingsInput, AnalyticsSettingsResponse } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

import { analyticsKey, analyticsSettingsQueryOptions } from './get-analytics-settings';

/** `PUT /api/analytics/settings` (owners): the whole settings document. */
export function updateAnalyticsSettings(input: AnalyticsSettingsInput): Promise<AnalyticsSettingsResponse> {
  return api.put<AnalyticsSettingsResponse>('/api/analytics/settings', input);
}

export function useUpdateAnalyticsSettings(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAnalyticsSettings,
    onSuccess: (response) => {
      queryClient.setQueryData(analyticsSettingsQueryOptions(organizationId).queryKey, response);
      // Every analytics figure (and the dashboard's) may count differently now.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: analyticsKey(organizationId) }),
        queryClient.invalidateQueries({ queryKey: organizationDomainKey(organizationId, 'dashboard') }),
        invalidateActivity(queryClient, organizationId),
      ]);
    },
  });
}
