import type { ApiKeyBody, ListApiKeysResponse } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey } from '@/lib/query-keys';

/** `GET /api/api-keys` of the current organization (sent as X-Organization-Id), newest first. */
export async function getApiKeys({ signal }: { signal?: AbortSignal } = {}): Promise<ApiKeyBody[]> {
  const body = await api.get<ListApiKeysResponse>('/api-keys', { signal });
  return body.apiKeys;
}

/** Keyed by organization: switching organization shows that organization's keys. */
export function apiKeysQueryOptions(organizationId: string | null | undefined) {
  return queryOptions({
    queryKey: organizationDomainKey(organizationId, 'api-keys'),
    queryFn: ({ signal }) => getApiKeys({ signal }),
    enabled: Boolean(organizationId),
  });
}

export function useApiKeys(organizationId: string | null | undefined) {
  return useQuery(apiKeysQueryOptions(organizationId));
}
