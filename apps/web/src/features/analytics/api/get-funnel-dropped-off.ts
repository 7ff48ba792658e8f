import type {
  FunnelDroppedOffExportInput,
  FunnelDroppedOffInput,
  FunnelDroppedOffResponse,
} from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { funnelsKey } from './get-funnels';

/** `POST /api/analytics/funnels/dropped-off`: one page of who reached a step's previous step and not the step. */
export function getFunnelDroppedOff(input: FunnelDroppedOffInput, { signal }: { signal?: AbortSignal } = {}) {
  return api.post<FunnelDroppedOffResponse>('/analytics/funnels/dropped-off', input, { signal });
}

export function funnelDroppedOffQueryOptions(
  organizationId: OrganizationIdInput,
  input: FunnelDroppedOffInput | null,
) {
  return queryOptions({
    queryKey: [...funnelsKey(organizationId), 'dropped-off', input] as const,
    queryFn: ({ signal }) => getFunnelDroppedOff(input as FunnelDroppedOffInput, { signal }),
    enabled: Boolean(organizationId) && input !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useFunnelDroppedOff(
  organizationId: OrganizationIdInput,
  input: FunnelDroppedOffInput | null,
) {
  return useQuery(funnelDroppedOffQueryOptions(organizationId, input));
}

/**
 * `POST /api/analytics/funnels/dropped-off/export`: every dropped-off learner
 * as CSV text (a POST, because the funnel being built may not be saved).
 */
export function exportFunnelDroppedOff(input: FunnelDroppedOffExportInput): Promise<string> {
  return api.post<string>('/analytics/funnels/dropped-off/export', input, {
    headers: { Accept: 'text/csv' },
  });
}
