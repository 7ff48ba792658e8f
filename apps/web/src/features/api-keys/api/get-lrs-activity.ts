import type { LrsActivityResponse } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey } from '@/lib/query-keys';

/** `GET /api/lrs/activity`: when the LRS last received a statement, and the latest that made no data. */
export async function getLrsActivity({
  signal,
}: { signal?: AbortSignal } = {}): Promise<LrsActivityResponse> {
  return api.get<LrsActivityResponse>('/lrs/activity', { signal });
}

export function lrsActivityQueryOptions(organizationId: string | null | undefined) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'api-keys'), 'lrs-activity'] as const,
    queryFn: ({ signal }) => getLrsActivity({ signal }),
    enabled: Boolean(organizationId),
  });
}

export function useLrsActivity(organizationId: string | null | undefined) {
  return useQuery(lrsActivityQueryOptions(organizationId));
}
