import type { FunnelComputeInput, FunnelComputeResult } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { funnelsKey } from './get-funnels';
import { useFollowedUp } from './follow-up';

/** `POST /api/analytics/funnels/compute`: a definition over a period (a read, though it is a POST). */
export function computeFunnel(input: FunnelComputeInput, { signal }: { signal?: AbortSignal } = {}) {
  return api.post<FunnelComputeResult>('/analytics/funnels/compute', input, { signal });
}

/** Cached by the whole request, so going back to a funnel shown before is instant. */
export function funnelResultQueryOptions(
  organizationId: OrganizationIdInput,
  input: FunnelComputeInput | null,
) {
  return queryOptions({
    queryKey: [...funnelsKey(organizationId), 'result', input] as const,
    queryFn: ({ signal }) => computeFunnel(input as FunnelComputeInput, { signal }),
    enabled: Boolean(organizationId) && input !== null,
    // While a changed funnel computes, the previous result stays (dimmed) instead of a blank.
    placeholderData: keepPreviousData,
    // A wrong step is an answer to show, not a failure to retry.
    retry: false,
  });
}

export function useFunnelResult(organizationId: OrganizationIdInput, input: FunnelComputeInput | null) {
  return useFollowedUp(useQuery(funnelResultQueryOptions(organizationId, input)));
}
