import type { AnalyticsSettingsPatch, AnalyticsSettingsResponse } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

import { analyticsKey, analyticsSettingsQueryOptions } from './get-analytics-settings';

/** `PATCH /api/analytics/settings` (owners): the settings the form holds. */
export function updateAnalyticsSettings(input: AnalyticsSettingsPatch): Promise<AnalyticsSettingsResponse> {
  return api.patch<AnalyticsSettingsResponse>('/analytics/settings', input);
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
